#!/bin/sh
# The pre-commit hooks' entry (.pre-commit-hooks.yaml): runs the signed release binary of this
# checkout's version, installed once by install.sh into the user's cache (the signature checked
# as install.sh always does) instead of compiling hookc on every run.
#
#   release/pre-commit.sh check --deny-warnings rules/
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
version=$(sed -n "s/^RELEASE='\(.*\)'\$/\1/p" "$here/install.sh")
cache=${XDG_CACHE_HOME:-${HOME:?HOME is not set}/.cache}/hookc
bin="$cache/bin/$version"
if ! [ -x "$bin/hookc" ] || [ "$("$bin/hookc" --version 2>/dev/null)" != "hookc $version" ]; then
    HOOKC_VERSION=$version HOOKC_INSTALL_DIR=$bin HOOKC_CACHE_DIR="$cache/download" sh "$here/install.sh"
fi
exec "$bin/hookc" "$@"
