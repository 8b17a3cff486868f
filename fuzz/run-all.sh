#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 30) from seeded corpora, with its dictionary.
# Needs cargo-fuzz (`cargo install cargo-fuzz`) and a nightly toolchain, or the stable one with
# RUSTC_BOOTSTRAP=1 (what this machine has: rustup cannot fetch nightly offline). A finding stops
# the run; minimise it and keep it in fuzz/regressions/TARGET/ (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
fuzz/seed-corpora.sh >/dev/null
cd fuzz
dict() {
    case "$1" in
        check | format | policy) echo "-dict=dict/rules.dict" ;;
        shell) echo "-dict=dict/shell.dict" ;;
        python) echo "-dict=dict/python.dict" ;;
        javascript) echo "-dict=dict/javascript.dict" ;;
        adapter | event | bundle) echo "-dict=dict/payload.dict" ;;
        *) echo "" ;;
    esac
}
toolchain=()
if ! rustup toolchain list 2>/dev/null | grep -q nightly; then
    export RUSTC_BOOTSTRAP=1
else
    toolchain=(+nightly)
fi
# Every target in fuzz/Cargo.toml, so a new one cannot be left out of a campaign.
mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^hookc-fuzz$')
# Built first and apart (set -o pipefail): a build error stops the run, not reads as a clean target.
cargo "${toolchain[@]}" fuzz build 2>&1 | tail -n 3
for target in "${targets[@]}"; do
    echo "== $target ($seconds s)"
    log="$(mktemp)"
    # shellcheck disable=SC2046
    cargo "${toolchain[@]}" fuzz run "$target" corpus/"$target" -- -max_total_time="$seconds" $(dict "$target") \
        >"$log" 2>&1 || true
    grep -E "^(#[0-9]+ +DONE|Done [0-9]+ runs|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)" "$log" || true
    if ls artifacts/"$target"/crash-* artifacts/"$target"/timeout-* artifacts/"$target"/oom-* >/dev/null 2>&1; then
        echo "$target found something: fuzz/artifacts/$target/"
        exit 1
    fi
    # A target that never reached its time limit did not run clean, whatever it printed.
    if ! grep -qE "^Done [0-9]+ runs" "$log"; then
        tail -n 20 "$log"
        echo "$target did not finish its run"
        exit 1
    fi
    rm -f "$log"
done
echo "every target (${#targets[@]}) ran $seconds s clean"
