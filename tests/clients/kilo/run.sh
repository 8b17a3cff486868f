#!/usr/bin/env bash
# Kilo CLI (`kilo run`, an OpenCode fork) with hookc wired by `hookc init kilo --write` (hookc's JS plugin,
# .kilo/plugin/hookc.js), the anthropic provider pointed at the Anthropic mock in the
# workspace's kilo.json. Kilo has no Stop hook, so there is no check 5.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh disable=SC2034  # lib.sh reads the settings made here
. "$HERE/../lib.sh"

hc_begin kilo
# 7.8.1's postinstall fails (@kilocode/cli-linux-x64@7.8.1 is not on the registry); 7.7.7 works.
hc_install kilo @kilocode/cli 7.7.7 node_modules/.bin/kilo
KILO=$HC_BIN

# run_scenario NAME [nopolicy]
run_scenario() {
  hc_new_run "$1${2:+-$2}"
  hc_init kilo
  [ -f "$WS/.kilo/plugin/hookc.js" ] || { echo "init did not write .kilo/plugin/hookc.js" >&2; exit 2; }
  if [ "${2:-}" = nopolicy ]; then hc_remove_policy; fi
  hc_mock anthropic "$HERE/$1.json"
  cat >"$WS/kilo.json" <<J
{"autoupdate":false,"share":"disabled","model":"anthropic/claude-sonnet-4-5",
 "provider":{"anthropic":{"options":{"baseURL":"http://127.0.0.1:$PORT/v1","apiKey":"dummy"}}},
 "permission":{"bash":"allow","edit":"allow"}}
J
  hc_client KILO_DISABLE_MODELS_FETCH=true KILO_DISABLE_AUTOUPDATE=true OPENCODE_DISABLE_MODELS_FETCH=true \
    -- "$KILO" run --print-logs "Do the task."
  hc_mock_stop
  hc_after_run
  grep -E 'ERROR|failed to load plugin' "$R/client.out" | grep -v 'models.dev\|posthog' | head -5 | sed 's/^/      log: /' || true
}

hc_do_allow
hc_do_write
hc_do_rm
hc_do_failclosed
hc_say "SKIP  kilo/5-stop: Kilo has no Stop hook (session.idle is observe-only)"
AUDIT_STOP=""
hc_audit_checks
hc_finish
