#!/bin/sh
# hookc launcher, written by `hookc init`: commit it with the agents' settings. It finds hookc on
# this machine and runs it from the project root; when there is none it exits 2, so the agent
# blocks the call instead of running it unchecked. Search order: $HOOKC (an absolute path), each
# directory of PATH, ~/.cargo/bin, ~/.local/bin, /usr/local/bin, /opt/homebrew/bin (npm's Node
# script is followed to the native binary of its platform package). A hookc in
# the project, a node_modules/.bin, a .venv/bin or venv/bin, or a relative PATH entry is never
# used: the agent could have put it there. PIN is the hookc version this wiring expects.
PIN='@PIN@'
# Read into zsh (an agent's guest that runs hooks with the user's shell), read it as sh does:
# unquoted $PATH split at IFS, globs that match nothing left as they are.
[ -z "${ZSH_VERSION-}" ] || emulate sh
fail() { printf 'hookc: %s\n' "$*" >&2; exit 2; }
# Only shell builtins below (no dirname, no command substitution) but for readlink on a link:
# the launcher runs at every hook call. Every path is absolute, so changing directory is safe;
# the last step enters the project root.
# The hook command `init` writes reads this file into the shell that runs it (`. "$l"`: no
# second shell start per call), with `l` its absolute path and the arguments set; run as a
# program (`sh .hookc/hookc …`), $0 is its path.
case "${l-}" in
    /*/.hookc/hookc) self=$l ;;
    *) self=$0 ;;
esac
case "$self" in */*) self_dir=${self%/*}/ ;; *) self_dir=./ ;; esac
CDPATH= cd -P -- "$self_dir" 2>/dev/null || fail "cannot find the launcher's directory"
here=$PWD
root=${here%/*}
[ -n "$root" ] || root=/
# A candidate, and each file a link of it leads to (Homebrew's bin holds links), must sit outside
# the project and the folders a package manager fills.
outside() {
    CDPATH= cd -P -- "${1%/*}/" 2>/dev/null || return 1
    place=$PWD
    case "$place/" in
        "$root"/*) return 1 ;;
        */node_modules/.bin/ | */.venv/bin/ | */venv/bin/) return 1 ;;
    esac
}
usable() {
    case "$1" in /*) ;; *) return 1 ;; esac
    [ -f "$1" ] && [ -x "$1" ] || return 1
    file=$1 hops=0
    outside "$file" || return 1
    while [ -L "$file" ]; do
        hops=$((hops + 1))
        [ "$hops" -le 16 ] || return 1
        target=$(readlink -- "$file") || return 1
        case "$target" in /*) file=$target ;; *) file=${file%/*}/$target ;; esac
        outside "$file" || return 1
    done
    return 0
}
found=
if [ -n "${HOOKC:-}" ] && usable "$HOOKC"; then found=$HOOKC; fi
if [ -z "$found" ]; then
    IFS_was=$IFS
    IFS=:
    for dir in $PATH ${HOME:+$HOME/.cargo/bin} ${HOME:+$HOME/.local/bin} /usr/local/bin /opt/homebrew/bin; do
        if usable "$dir/hookc"; then found=$dir/hookc; break; fi
    done
    IFS=$IFS_was
fi
# An npm install's `hookc` is a link to a Node script (bindings/node/bin/hookc.js) that runs the
# native binary of the platform package beside it: run that binary instead, so no hook call
# starts Node. The package is `@hookc/PLATFORM` in the script's own node_modules or beside its
# package (npm installs only the one for this machine); it must be usable as any candidate is.
if [ -n "$found" ] && usable "$found"; then
    case "$file" in
        */node_modules/hookc/bin/hookc.js)
            shim=$found found=
            package=${file%/bin/hookc.js}
            for native in "$package"/node_modules/@hookc/*/hookc "${package%/*}"/@hookc/*/hookc; do
                if usable "$native"; then found=$native; break; fi
            done
            [ -n "$found" ] || fail "$shim is npm's Node script, and no native hookc of its platform package (@hookc/...) is installed beside it outside the project; reinstall hookc with its optional dependencies. This call is blocked."
            ;;
    esac
fi
[ -n "$found" ] || fail "no hookc $PIN found on this machine (searched \$HOOKC, PATH, ~/.cargo/bin, ~/.local/bin, /usr/local/bin, /opt/homebrew/bin; one inside the project is never used); install it, then try again. This call is blocked."
cd "$root" || fail "cannot enter the project root $root"
exec "$found" --require-version "$PIN" "$@"
