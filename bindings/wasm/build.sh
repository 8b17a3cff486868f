#!/bin/sh
# Builds hookc for the browser: bindings/wasm/pkg/ (wasm-bindgen's `web` output: hookc_wasm.js
# and hookc_wasm_bg.wasm), which hookc.mjs and the playground load.
#
# The toolchain, all from registries this project reaches (rustup cannot add the wasm32 target
# offline, and no wasm32 standard library is packaged for a current rustc):
#   - Debian's rustc-web (`rustc`, `cargo` in /usr/bin), whatever version Debian serves, with
#     rust-web-src, the standard library's sources: -Zbuild-std compiles std for
#     wasm32-unknown-unknown from them (RUSTC_BOOTSTRAP=1 lets a stable compiler take -Z flags);
#   - Debian's lld-19 (`wasm-ld-19`), the linker;
#   - wasm-bindgen-cli from crates.io, at the version Cargo.lock pins for wasm-bindgen;
#   - Debian's binaryen (`wasm-opt`), for the size passes.
# It installs only what is missing, or a rustc-web older than hookc's MSRV (1.95, which the Python
# parser needs; Debian serves 1.96 since its security update).
#
# Not part of .ci/run: the toolchain takes minutes to install and std to compile. test.sh runs
# this, then the binding's tests.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
cd "$here"

msrv=95
# rustc-web's minor version, or 0 when there is none.
minor() { /usr/bin/rustc --version 2>/dev/null | sed -n 's/^rustc 1\.\([0-9]*\)\..*/\1/p' | grep . || echo 0; }
want=
[ "$(minor)" -ge "$msrv" ] || want="rustc-web cargo-web rust-web-src"
[ -d /usr/lib/rustlib/src/rust/library/std ] || want="$want rust-web-src"
command -v wasm-ld-19 >/dev/null || want="$want lld-19"
command -v wasm-opt >/dev/null || want="$want binaryen"
if [ -n "$want" ]; then
  # What Debian serves now: its security updates move rustc-web forward.
  echo "installing from Debian:$want"
  DEBIAN_FRONTEND=noninteractive apt-get update >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $want >/dev/null
fi
[ "$(minor)" -ge "$msrv" ] || { echo "build.sh: no rustc-web 1.$msrv or newer from Debian" >&2; exit 1; }

bindgen=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -q " $bindgen\$"; then
  echo "installing wasm-bindgen-cli $bindgen from crates.io"
  cargo install wasm-bindgen-cli --version "$bindgen" >/dev/null
fi

target=${CARGO_TARGET_DIR:-$here/../../target/wasm}
mkdir -p "$target"
PATH=/usr/bin:$PATH RUSTC_BOOTSTRAP=1 \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19 CARGO_TARGET_DIR="$target" \
  cargo build --release --locked --ignore-rust-version --lib --target wasm32-unknown-unknown \
  -Zbuild-std=std,panic_abort > "$target/build.log" 2>&1 || {
    # sh has no pipefail: the build's own status decides, and a failed build ships nothing stale.
    tail -n 30 "$target/build.log" >&2
    exit 1
  }
tail -n 1 "$target/build.log"
# Binaryen's size passes, with the features rustc emits for this target, on rustc's output:
# Debian's binaryen (108) turns the externref table wasm-bindgen writes into one of functions, so
# it runs before wasm-bindgen, not after it as wasm-pack does.
wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals --enable-nontrapping-float-to-int \
  --enable-reference-types --enable-multivalue "$target/wasm32-unknown-unknown/release/hookc_wasm.wasm" \
  -o "$target/hookc_wasm.wasm"
# The name section (1.8 MB of function names, for stack traces) is not shipped.
wasm-bindgen --target web --remove-name-section --remove-producers-section --out-name hookc_wasm \
  --out-dir "$here/pkg" "$target/hookc_wasm.wasm"
[ -d node_modules/yaml ] || npm install --no-audit --no-fund --ignore-scripts >/dev/null
node playground/samples.mjs
# The registry's driver is the Node binding's (one JavaScript driver of the Rust run), as an ES
# module: the same text, with `export` for its `module.exports` line.
sed 's/^module\.exports = {\(.*\)};$/export {\1};/' ../node/registry.js >registry.mjs
grep -q '^export {' registry.mjs || { echo "build.sh: ../node/registry.js does not end in one module.exports line" >&2; exit 1; }
# The playground's folder, self-contained: it can be served alone (it loads ./hookc.mjs first).
cp hookc.mjs registry.mjs playground/
rm -rf playground/pkg && cp -r pkg playground/pkg
# The module's size budget: it compiles the engine, the agents' protocols and the runtime, and no
# part of the application (no clap, lsp-server, toml_edit or minisign), optimised for size, its
# name section not shipped. 7.26 MB before; 4.15 MB after the split. Ruff's Python parser added
# 1.2 MB (0.8 MB after wasm-opt), most of it the Unicode tables a correct reading of Python needs
# (`\N{NAME}` escapes, identifiers normalised): 4.96 MB. oxc's JavaScript and TypeScript parser
# added 0.44 MB: 5.40 MB now. (A browser build without it would ask about every `node -e`: the
# same reading everywhere is worth the size.) The budget leaves room to grow, and a change that
# needs more raises it here, on purpose.
budget=${HOOKC_WASM_BUDGET:-5600000}
size=$(wc -c < "$here/pkg/hookc_wasm_bg.wasm")
echo "pkg/hookc_wasm_bg.wasm: $size bytes (budget $budget)"
[ "$size" -le "$budget" ] || { echo "build.sh: the module is over its size budget" >&2; exit 1; }
