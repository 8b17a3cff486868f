#!/bin/sh
# The release, end to end on this machine, with the tools a release uses (run before a release
# or a change to release/, not in .ci/run): cargo-dist's plan, a release build packed by
# package.sh, signed by sign.sh with minisign and a throwaway key, served from 127.0.0.1, and
# installed by install.sh with each verifier; then the Homebrew formula for it.
# Needs: dist (cargo install cargo-dist), minisign, openssl, python3, curl.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
root=$(dirname -- "$here")
cd "$root"
target=$(rustc -vV | sed -n 's/^host: //p')
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
server=

echo "== dist plan"
dist plan >"$work/plan.txt"
for artefact in hookc-x86_64-unknown-linux-musl.tar.gz hookc-aarch64-unknown-linux-musl.tar.gz \
    hookc-x86_64-apple-darwin.tar.gz hookc-aarch64-apple-darwin.tar.gz hookc-x86_64-pc-windows-msvc.zip; do
    grep -q "$artefact" "$work/plan.txt" || { echo "dist plan does not build $artefact" >&2; exit 1; }
done
echo "dist plans $(grep -c 'hookc-.*\.\(tar\.gz\|zip\)$' "$work/plan.txt") archives"

echo "== build and pack $target"
cargo build --release --locked --quiet
release/package.sh target/release/hookc "$target" "$work/dist"

echo "== sign with a throwaway key"
minisign -G -W -p "$work/test.pub" -s "$work/test.key" >/dev/null
MINISIGN_KEY_FILE="$work/test.key" MINISIGN_PUBKEY_FILE="$work/test.pub" release/sign.sh "$work/dist/hookc-$target.tar.gz"
key=$(sed -n 2p "$work/test.pub")
sed "s|^PUBKEY='.*'\$|PUBKEY='$key'|" release/install.sh >"$work/install.sh"

echo "== serve on 127.0.0.1 and install"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/dist" >/dev/null 2>&1 &
server=$!
sleep 1
for verifier in minisign openssl; do
    HOOKC_VERIFIER=$verifier HOOKC_TARGET=$target HOOKC_BASE_URL="http://127.0.0.1:$port" \
        HOOKC_INSTALL_DIR="$work/bin-$verifier" sh "$work/install.sh"
    [ "$("$work/bin-$verifier/hookc" --version)" = "hookc $version" ]
done
echo "== the shipped install.sh refuses the throwaway key's signature"
if HOOKC_TARGET=$target HOOKC_BASE_URL="http://127.0.0.1:$port" HOOKC_INSTALL_DIR="$work/refused" \
    sh release/install.sh 2>"$work/refused.txt"; then
    echo "the shipped install.sh installed an archive the release key did not sign" >&2
    exit 1
fi
cat "$work/refused.txt"

echo "== Homebrew formula"
release/formula.sh "$version" "http://127.0.0.1:$port" "$work/dist" >"$work/hookc.rb"
url=$(sed -n 's/^ *url "\(.*\)"$/\1/p' "$work/hookc.rb")
sha=$(sed -n 's/^ *sha256 "\(.*\)"$/\1/p' "$work/hookc.rb")
curl -fsS -o "$work/fetched.tar.gz" "$url"
[ "$(sha256sum <"$work/fetched.tar.gz" | cut -d' ' -f1)" = "$sha" ]
echo "formula: $url $sha"
echo "release check: all passed"
