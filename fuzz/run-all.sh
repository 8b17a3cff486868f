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
for target in adapter event bundle check format policy shell python lsp; do
    echo "== $target ($seconds s)"
    # shellcheck disable=SC2046
    cargo "${toolchain[@]}" fuzz run "$target" corpus/"$target" -- -max_total_time="$seconds" $(dict "$target") \
        2>&1 | grep -E "^(#[0-9]+ +DONE|Done [0-9]+ runs|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)" || true
    if ls artifacts/"$target"/crash-* artifacts/"$target"/timeout-* artifacts/"$target"/oom-* >/dev/null 2>&1; then
        echo "$target found something: fuzz/artifacts/$target/"
        exit 1
    fi
done
echo "every target ran $seconds s clean"
