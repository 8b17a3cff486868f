#!/bin/sh
# Builds hookc for the browser: bindings/wasm/pkg/ (wasm-bindgen's `web` output: hookc_wasm.js
# and hookc_wasm_bg.wasm), which hookc.mjs and the playground load.
#
# The toolchain, all from registries this project reaches (rustup cannot add the wasm32 target
# offline, and no wasm32 standard library is packaged for a current rustc):
#   - Debian's rustc-web 1.85 (`rustc`, `cargo` in /usr/bin), with rust-web-src, the standard
#     library's sources: -Zbuild-std compiles std for wasm32-unknown-unknown from them
#     (RUSTC_BOOTSTRAP=1 lets a stable compiler take -Z flags);
#   - Debian's lld-19 (`wasm-ld-19`), the linker;
#   - wasm-bindgen-cli from crates.io, at the version Cargo.lock pins for wasm-bindgen.
# hookc's MSRV is 1.88; rustc-wrapper turns on, as unstable features, what 1.86–1.88 made stable.
# Cargo.lock here was resolved for 1.85 (CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback).
#
# Not part of .ci/run: the toolchain takes minutes to install and std to compile. test.sh runs
# this, then the binding's tests.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
cd "$here"

missing=
[ -x /usr/bin/rustc ] && /usr/bin/rustc --version | grep -q '^rustc 1\.85' || missing="$missing rustc-web cargo-web"
[ -d /usr/lib/rustlib/src/rust/library/std ] || missing="$missing rust-web-src"
command -v wasm-ld-19 >/dev/null || missing="$missing lld-19"
if [ -n "$missing" ]; then
  echo "installing from Debian:$missing"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >/dev/null
fi

bindgen=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -q " $bindgen\$"; then
  echo "installing wasm-bindgen-cli $bindgen from crates.io"
  cargo install wasm-bindgen-cli --version "$bindgen" >/dev/null
fi

target=${CARGO_TARGET_DIR:-$here/../../target/wasm}
PATH=/usr/bin:$PATH RUSTC_BOOTSTRAP=1 RUSTC_WRAPPER="$here/rustc-wrapper" \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19 CARGO_TARGET_DIR="$target" \
  cargo build --release --locked --ignore-rust-version --lib --target wasm32-unknown-unknown \
  -Zbuild-std=std,panic_abort 2>&1 | tail -n 1
wasm-bindgen --target web --out-dir "$here/pkg" "$target/wasm32-unknown-unknown/release/hookc_wasm.wasm"
[ -d node_modules/yaml ] || npm install --no-audit --no-fund --ignore-scripts >/dev/null
node playground/samples.mjs
ls -l "$here/pkg/hookc_wasm_bg.wasm" | awk '{print "pkg/hookc_wasm_bg.wasm:", $5, "bytes"}'
