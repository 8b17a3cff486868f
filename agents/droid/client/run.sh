#!/usr/bin/env bash
# Factory Droid (droid exec) with hookc wired by `hookc init droid --write` (the project's
# .factory/settings.json), a BYOK Anthropic customModel in the temp HOME's ~/.factory/settings.json
# pointing at the Anthropic mock. No Factory login.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../../tests/clients/lib.sh disable=SC2034  # lib.sh reads the settings made here
. "$HERE/../../../tests/clients/lib.sh"

hc_begin droid
# @factory/cli itself installs only a wrapper whose platform package npm leaves out; the platform
# package carries the binary (0.225.1 does not exist for linux-x64, 0.225.2 does).
hc_install droid @factory/cli-linux-x64 0.225.2 node_modules/@factory/cli-linux-x64/bin/droid
DROID=$HC_BIN

# run_scenario NAME [nopolicy]
run_scenario() {
  hc_new_run "$1${2:+-$2}"
  hc_init droid
  [ -f "$WS/.factory/settings.json" ] || { echo "init did not write .factory/settings.json" >&2; exit 2; }
  if [ "${2:-}" = nopolicy ]; then hc_remove_policy; fi
  hc_mock anthropic "$HERE/$1.json"
  mkdir -p "$H/.factory"
  cat >"$H/.factory/settings.json" <<J
{"customModels":[{"model":"claude-sonnet-4-5","displayName":"Mock","baseUrl":"http://127.0.0.1:$PORT",
  "apiKey":"dummy","provider":"anthropic","maxOutputTokens":4096}]}
J
  hc_client -- "$DROID" exec --auto high -m custom:claude-sonnet-4-5 "Do the task."
  hc_mock_stop
  hc_after_run
}

hc_do_allow
hc_do_write
hc_do_rm
hc_do_failclosed
hc_do_stop Stop
hc_audit_checks
hc_finish
