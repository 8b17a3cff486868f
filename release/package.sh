#!/bin/sh
# Packs a built hookc into a release archive, named and laid out as cargo-dist lays out its own
# (`dist-workspace.toml`), and writes its SHA-256 beside it:
#
#   release/package.sh target/release/hookc x86_64-unknown-linux-gnu dist/
#   -> dist/hookc-x86_64-unknown-linux-gnu.tar.gz        hookc-TARGET/{hookc, README.md, licenses}
#      dist/hookc-x86_64-unknown-linux-gnu.tar.gz.sha256 "HASH  NAME", as `sha256sum -c` reads it
#
# The release workflow lets cargo-dist build the archives of every target; this script is for
# the one build this machine can make, and for the tests that install from it.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 BINARY TARGET OUTDIR" >&2; exit 2; }
binary=$1 target=$2 out=$3
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
root=$(dirname -- "$here")
name="hookc-$target"
[ -f "$binary" ] || { echo "package: no binary at $binary" >&2; exit 1; }
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT INT TERM
mkdir "$stage/$name"
cp "$binary" "$stage/$name/hookc"
chmod 755 "$stage/$name/hookc"
cp "$root/README.md" "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$root/CHANGELOG.md" "$stage/$name/"
# The same bytes for the same inputs: sorted names, no owner, a fixed time.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$stage" -cf - "$name" | gzip -n -9 >"$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
