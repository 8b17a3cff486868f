# shellcheck shell=bash disable=SC2034  # the variables set here are read by the scripts sourcing it
# The shared set-up of the scripts that run the real Claude Code through the shared harness
# (committed-wiring.sh, tutorial.sh, stop-turn.sh). Source it with the harness copy and a name:
#   . "$(dirname "${BASH_SOURCE[0]}")/claude-harness.sh" "$1" NAME
# Sets rc (the harness, taught CLI_PATH: the client's PATH), here (the repository), hookc (the
# binary, absolute), work (a temp dir removed on exit) with work/bin/hookc and work/empty.json.
set -euo pipefail
rc=$(cd "$1" && pwd)
grep -q CLI_PATH "$rc/run.sh" || sed -i 's|    PATH="$PATH" TERM=dumb|    PATH="${CLI_PATH:-$PATH}" TERM=dumb|' "$rc/run.sh"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
hookc=${HOOKC:-$here/target/release/hookc}
case $hookc in /*) ;; *) hookc=$PWD/$hookc ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/hookc-$2.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
cp "$hookc" "$work/bin/hookc"
echo '{}' >"$work/empty.json"
