#!/bin/sh
# Installs hookc from a release archive, after checking its minisign signature against the
# release key pinned below. A checksum fetched from the same server as the archive proves
# nothing (whoever can replace one can replace the other); a signature made offline with a key
# the server never holds does.
#
#   curl -fsSL https://github.com/hookc/hookc/releases/download/v0.1.0/install.sh | sh
#
# Settings, all optional, from the environment:
#   HOOKC_VERSION      the release to install (default: this script's own, below)
#   HOOKC_INSTALL_DIR  where the binary goes (default: ~/.local/bin)
#   HOOKC_TARGET       the build to fetch (default: this machine's, e.g. x86_64-unknown-linux-musl)
#   HOOKC_BASE_URL     where the archives are (default: the GitHub release of HOOKC_VERSION)
#   HOOKC_VERIFIER     minisign or openssl (default: minisign when installed, else openssl 3)
#   HOOKC_CACHE_DIR    keep the archive and its signature here, and take them from here when
#                      present (the GitHub Action caches this folder); verified every time
#
# It stops, installing nothing, when the archive or its signature cannot be fetched, when no
# verifier is installed, or when the signature does not verify.
set -eu

# The release key (release/minisign.pub; tests check that every pin of it agrees).
PUBKEY='RWSeK2lD5PpGIiKxBgrmRH2ysnK6G8qv3QST9P15X0rl7bf2BxKfUXkZ'
# The release this script belongs to (tests check it is Cargo.toml's version).
RELEASE='0.1.0'

fail() {
    printf 'hookc install: %s\n' "$*" >&2
    exit 1
}
say() { printf 'hookc install: %s\n' "$*" >&2; }

version=${HOOKC_VERSION:-$RELEASE}
dest=${HOOKC_INSTALL_DIR:-${HOME:?HOME is not set: give HOOKC_INSTALL_DIR}/.local/bin}
base=${HOOKC_BASE_URL:-https://github.com/hookc/hookc/releases/download/v$version}

detect_target() {
    os=$(uname -s)
    arch=$(uname -m)
    case "$arch" in
        x86_64 | amd64) arch=x86_64 ;;
        aarch64 | arm64) arch=aarch64 ;;
        *) fail "no release build for $os on $arch: build from source with \`cargo install --locked hookc\`" ;;
    esac
    case "$os" in
        Linux) echo "$arch-unknown-linux-musl" ;;
        Darwin) echo "$arch-apple-darwin" ;;
        *) fail "no release build for $os: on Windows use the .zip of the release; elsewhere \`cargo install --locked hookc\`" ;;
    esac
}
target=${HOOKC_TARGET:-$(detect_target)}
archive="hookc-$target.tar.gz"

fetch() {
    if command -v curl >/dev/null 2>&1; then
        curl --fail --silent --show-error --location --retry 2 --output "$2" "$1"
    elif command -v wget >/dev/null 2>&1; then
        wget --quiet --output-document="$2" "$1"
    else
        fail "neither curl nor wget is installed"
    fi
}

# The byte length of a file.
size() { wc -c <"$1" | tr -d ' '; }
# COUNT bytes of a file from OFFSET.
bytes() { dd if="$1" bs=1 skip="$2" count="$3" 2>/dev/null; }

# minisign's own check: the archive's prehashed signature and the signed trusted comment.
verify_minisign() {
    minisign -V -q -P "$PUBKEY" -m "$1" -x "$2"
}

# The same check with OpenSSL 3 (Ed25519 and BLAKE2b-512), for machines without minisign. A
# minisign public key is base64 of "Ed", an 8-byte key id and the 32-byte Ed25519 key; line 2
# of a signature is base64 of "ED" (prehashed: the signature is over BLAKE2b-512 of the file),
# the key id and 64 signature bytes; line 4 signs those 64 bytes followed by line 3's comment.
verify_openssl() {
    # (POSIX sh has no local variables: these names are the function's own.)
    vfile=$1 vsig=$2 vdir=$3
    printf '%s' "$PUBKEY" | openssl base64 -d -A >"$vdir/key" || return 1
    [ "$(size "$vdir/key")" = 42 ] || return 1
    sed -n 2p "$vsig" | tr -d '\r\n' | openssl base64 -d -A >"$vdir/sig" || return 1
    [ "$(size "$vdir/sig")" = 74 ] || return 1
    [ "$(bytes "$vdir/sig" 0 2)" = ED ] || { say "not a prehashed minisign signature"; return 1; }
    [ "$(bytes "$vdir/sig" 2 8 | od -An -tx1)" = "$(bytes "$vdir/key" 2 8 | od -An -tx1)" ] ||
        { say "signed with another key than hookc's release key"; return 1; }
    # The Ed25519 key as DER SubjectPublicKeyInfo: a fixed 12-byte prefix, then the key.
    { printf '\060\052\060\005\006\003\053\145\160\003\041\000'; bytes "$vdir/key" 10 32; } >"$vdir/key.der"
    openssl pkey -pubin -inform DER -in "$vdir/key.der" -out "$vdir/key.pem" 2>/dev/null || return 1
    bytes "$vdir/sig" 10 64 >"$vdir/ed.sig"
    openssl dgst -blake2b512 -binary "$vfile" >"$vdir/digest" || return 1
    openssl pkeyutl -verify -pubin -inkey "$vdir/key.pem" -rawin -in "$vdir/digest" -sigfile "$vdir/ed.sig" >/dev/null 2>&1 ||
        return 1
    vcomment=$(sed -n 3p "$vsig" | tr -d '\r')
    case "$vcomment" in "trusted comment: "*) ;; *) return 1 ;; esac
    { cat "$vdir/ed.sig"; printf '%s' "${vcomment#trusted comment: }"; } >"$vdir/global.msg"
    sed -n 4p "$vsig" | tr -d '\r\n' | openssl base64 -d -A >"$vdir/global.sig" || return 1
    [ "$(size "$vdir/global.sig")" = 64 ] || return 1
    openssl pkeyutl -verify -pubin -inkey "$vdir/key.pem" -rawin -in "$vdir/global.msg" -sigfile "$vdir/global.sig" \
        >/dev/null 2>&1
}

verify() {
    verifier=${HOOKC_VERIFIER:-}
    if [ -z "$verifier" ]; then
        if command -v minisign >/dev/null 2>&1; then
            verifier=minisign
        elif command -v openssl >/dev/null 2>&1; then
            verifier=openssl
        else
            fail "cannot verify the download: install minisign (https://jedisct1.github.io/minisign/) or OpenSSL 3"
        fi
    fi
    case "$verifier" in
        minisign)
            command -v minisign >/dev/null 2>&1 || fail "HOOKC_VERIFIER=minisign, but minisign is not installed"
            verify_minisign "$1" "$2" >/dev/null 2>&1 ;;
        openssl)
            command -v openssl >/dev/null 2>&1 || fail "HOOKC_VERIFIER=openssl, but openssl is not installed"
            verify_openssl "$1" "$2" "$3" ;;
        *) fail "HOOKC_VERIFIER is minisign or openssl, not \`$verifier\`" ;;
    esac || fail "the signature of $archive does not verify against hookc's release key: nothing was installed"
    say "signature verified with $verifier (key $PUBKEY)"
}

work=$(mktemp -d 2>/dev/null || mktemp -d -t hookc)
trap 'rm -rf "$work"' EXIT INT TERM
cache=${HOOKC_CACHE_DIR:-}
if [ -n "$cache" ] && [ -f "$cache/$version/$archive" ] && [ -f "$cache/$version/$archive.minisig" ]; then
    say "using $cache/$version/$archive"
    cp "$cache/$version/$archive" "$cache/$version/$archive.minisig" "$work/"
else
    say "downloading $base/$archive"
    fetch "$base/$archive" "$work/$archive" || fail "cannot download $base/$archive"
    fetch "$base/$archive.minisig" "$work/$archive.minisig" ||
        fail "cannot download the signature $base/$archive.minisig: nothing was installed"
fi
mkdir "$work/check"
verify "$work/$archive" "$work/$archive.minisig" "$work/check"
if [ -n "$cache" ]; then
    mkdir -p "$cache/$version" && cp "$work/$archive" "$work/$archive.minisig" "$cache/$version/" ||
        say "cannot keep the download in $cache"
fi

mkdir "$work/unpacked"
tar -xzf "$work/$archive" -C "$work/unpacked" || fail "cannot unpack $archive"
binary="$work/unpacked/hookc-$target/hookc"
[ -f "$binary" ] && [ ! -L "$binary" ] || fail "$archive holds no hookc-$target/hookc"
mkdir -p "$dest" || fail "cannot create $dest"
cp "$binary" "$dest/.hookc.new.$$" && chmod 755 "$dest/.hookc.new.$$" && mv -f "$dest/.hookc.new.$$" "$dest/hookc" ||
    { rm -f "$dest/.hookc.new.$$"; fail "cannot install into $dest"; }
installed=$("$dest/hookc" --version) || fail "the installed $dest/hookc does not run on this machine"
say "installed $installed at $dest/hookc"
case ":${PATH:-}:" in
    *":$dest:"*) ;;
    *) say "$dest is not on your PATH: add it, or run $dest/hookc" ;;
esac
