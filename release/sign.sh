#!/bin/sh
# Signs release files with minisign: FILE.minisig beside each FILE, checked against
# release/minisign.pub before it is kept. The secret key comes from MINISIGN_SECRET_KEY (the
# key file's text, as the release workflow's secret holds it) or MINISIGN_KEY_FILE (a path).
#
#   MINISIGN_KEY_FILE=~/.minisign/hookc.key release/sign.sh dist/hookc-*.tar.gz
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
pubkey=${MINISIGN_PUBKEY_FILE:-$here/minisign.pub}
command -v minisign >/dev/null 2>&1 || { echo "sign: minisign is not installed" >&2; exit 1; }
key=${MINISIGN_KEY_FILE:-}
if [ -z "$key" ]; then
    [ -n "${MINISIGN_SECRET_KEY:-}" ] || { echo "sign: set MINISIGN_SECRET_KEY or MINISIGN_KEY_FILE" >&2; exit 1; }
    key=$(mktemp)
    trap 'rm -f "$key"' EXIT INT TERM
    printf '%s\n' "$MINISIGN_SECRET_KEY" >"$key"
fi
for file in "$@"; do
    minisign -S -s "$key" -m "$file" -x "$file.minisig" -t "hookc $(basename -- "$file")" </dev/null
    minisign -V -q -p "$pubkey" -m "$file" -x "$file.minisig" ||
        { echo "sign: $file.minisig does not verify against $pubkey: is the key the release key?" >&2; exit 1; }
done
