#!/bin/sh
# Builds the Python wheel with maturin, installs it into a fresh venv and runs the conformance
# test: the evaluation fixtures through Python, with the same results as Rust. Not part of
# .ci/run (it builds a second copy of hookc). Needs maturin (`pip install maturin`) and PyYAML.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
cd "$here"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$here/../../target/bindings}
rm -rf "$CARGO_TARGET_DIR/wheels"
# The command inside the wheel: hookc's own release build.
(cd ../.. && cargo build --release --locked --quiet)
mkdir -p data/scripts
cp ../../target/release/hookc data/scripts/hookc
maturin build --release --locked --out "$CARGO_TARGET_DIR/wheels" 2>&1 | tail -n 1
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install -q "$CARGO_TARGET_DIR"/wheels/hookc-*.whl pyyaml
"$venv/bin/python" tests/conformance.py
"$venv/bin/python" tests/registry.py
[ -z "${HOOKC_BENCH:-}" ] || "$venv/bin/python" ../../benches/inprocess.py
# The wheel's command is the native binary.
file -b "$venv/bin/hookc" | grep -q ELF || { echo "FAIL the wheel's hookc is not the native binary" >&2; exit 1; }
"$venv/bin/hookc" --version
echo '{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}' |
    "$venv/bin/hookc" hook claude --rules builtin:baseline | grep -q '"deny"' && echo "the wheel's hookc command denies rm -rf ~"
