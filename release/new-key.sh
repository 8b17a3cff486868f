#!/bin/sh
# Makes a new release signing key and pins it everywhere it is pinned: release/minisign.pub,
# release/install.sh and Cargo.toml's cargo-binstall metadata (tests/release.rs checks they
# agree). The secret key is written to SECRET_KEY_FILE, unencrypted, for the release workflow's
# MINISIGN_SECRET_KEY secret (its text); keep it offline otherwise.
#
#   release/new-key.sh ~/.minisign/hookc-release.key
set -eu
[ $# -eq 1 ] || { echo "usage: $0 SECRET_KEY_FILE" >&2; exit 2; }
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
root=$(dirname -- "$here")
old=$(sed -n 2p "$here/minisign.pub")
minisign -G -f -W -p "$here/minisign.pub" -s "$1" -c "hookc release signing key"
new=$(sed -n 2p "$here/minisign.pub")
sed -i.bak "s|^PUBKEY='$old'\$|PUBKEY='$new'|" "$here/install.sh"
sed -i.bak "s|^pubkey = \"$old\"\$|pubkey = \"$new\"|" "$root/Cargo.toml"
rm -f "$here/install.sh.bak" "$root/Cargo.toml.bak"
echo "pinned $new; store the text of $1 as the MINISIGN_SECRET_KEY secret of the repository"
