#!/bin/sh
# Builds hookc for the browser (build.sh), then tests the binding three ways:
#   - on the native target: the binding's Rust API with the file system off (cargo test);
#   - in Node: the evaluation fixtures through the WebAssembly build, skipping those marked
#     `file_system` (test/conformance.mjs);
#   - in a real headless Chromium (Debian's `chromium`, installed if missing): the playground,
#     typed into (test/playground.mjs).
# Not part of .ci/run: the toolchain alone takes minutes to install (build.sh says what).
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
cd "$here"
./build.sh
native=$(CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$here/../../target/wasm-native} cargo test --locked 2>&1) || {
  echo "$native"
  exit 1
}
echo "$native" | grep -E '^test result: ok\. [1-9]'
node test/conformance.mjs
node test/registry.mjs
node test/hostile.mjs
command -v chromium >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >/dev/null
node test/playground.mjs
