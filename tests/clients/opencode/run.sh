#!/usr/bin/env bash
# OpenCode (`opencode run`) with hookc wired by `hookc init opencode --write` (hookc's JS plugin,
# .opencode/plugin/hookc.js), the anthropic provider pointed at the Anthropic mock in the
# workspace's opencode.json. OpenCode has no Stop hook, so there is no check 5.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh disable=SC2034  # lib.sh reads the settings made here
. "$HERE/../lib.sh"

hc_begin opencode
hc_install opencode opencode-ai 1.18.33 node_modules/.bin/opencode
OPENCODE=$HC_BIN

# run_scenario NAME [nopolicy]
run_scenario() {
  hc_new_run "$1${2:+-$2}"
  hc_init opencode
  [ -f "$WS/.opencode/plugin/hookc.js" ] || { echo "init did not write .opencode/plugin/hookc.js" >&2; exit 2; }
  if [ "${2:-}" = nopolicy ]; then hc_remove_policy; fi
  hc_mock anthropic "$HERE/$1.json"
  cat >"$WS/opencode.json" <<J
{"autoupdate":false,"share":"disabled","model":"anthropic/claude-sonnet-4-5",
 "provider":{"anthropic":{"options":{"baseURL":"http://127.0.0.1:$PORT/v1","apiKey":"dummy"}}},
 "permission":{"bash":"allow","edit":"allow"}}
J
  hc_client OPENCODE_DISABLE_MODELS_FETCH=true OPENCODE_DISABLE_AUTOUPDATE=true OPENCODE_DISABLE_SHARE=true \
    -- "$OPENCODE" run --print-logs "Do the task."
  hc_mock_stop
  hc_after_run
  grep -E 'ERROR|failed to load plugin' "$R/client.out" | grep -v 'models.dev\|posthog' | head -5 | sed 's/^/      log: /' || true
}

hc_do_allow
hc_do_write
hc_do_rm
hc_do_failclosed
hc_say "SKIP  opencode/5-stop: OpenCode has no Stop hook (session.idle is observe-only)"
AUDIT_STOP=""
hc_audit_checks
hc_finish
