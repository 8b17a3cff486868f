#!/bin/sh
# Builds the Node binding (release) and runs its conformance test: the evaluation fixtures through
# Node, with the same results as Rust. Not part of .ci/run (it builds a second copy of hookc).
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
cd "$here"
target=${CARGO_TARGET_DIR:-$here/../../target/bindings}
# (A failed build stops here: the copy below must never be a stale library.)
if ! CARGO_TARGET_DIR=$target cargo build --release --locked >"$target.log" 2>&1; then
  cat "$target.log"; exit 1
fi
tail -n 1 "$target.log"
cp "$target/release/libhookc_node.so" "$here/hookc.node"
[ -d node_modules/yaml ] || npm install --no-audit --no-fund --ignore-scripts >/dev/null
node test/conformance.mjs
node test/registry.mjs
node test/hostile.mjs
