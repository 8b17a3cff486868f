#!/bin/sh
# Builds the Python wheel with maturin, installs it into a fresh venv and runs the conformance
# test: the evaluation fixtures through Python, with the same results as Rust. Not part of
# .ci/run (it builds a second copy of hookc). Needs maturin (`pip install maturin`) and PyYAML.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
cd "$here"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$here/../../target/bindings}
rm -rf "$CARGO_TARGET_DIR/wheels"
maturin build --release --locked --out "$CARGO_TARGET_DIR/wheels" 2>&1 | tail -n 1
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install -q "$CARGO_TARGET_DIR"/wheels/hookc-*.whl pyyaml
"$venv/bin/python" tests/conformance.py
