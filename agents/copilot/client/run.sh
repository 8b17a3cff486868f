#!/usr/bin/env bash
# GitHub Copilot CLI with hookc wired by `hookc init copilot --write` (.github/hooks/hookc.json),
# driven offline by the Anthropic mock (COPILOT_OFFLINE + BYOK provider env).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../../tests/clients/lib.sh disable=SC2034  # lib.sh reads the settings made here
. "$HERE/../../../tests/clients/lib.sh"

hc_begin copilot
hc_install copilot @github/copilot 1.0.102 node_modules/.bin/copilot
COPILOT=$HC_BIN

# run_scenario NAME [nopolicy]
run_scenario() {
  hc_new_run "$1${2:+-$2}"
  hc_init copilot
  [ -f "$WS/.github/hooks/hookc.json" ] || { echo "init did not write .github/hooks/hookc.json" >&2; exit 2; }
  if [ "${2:-}" = nopolicy ]; then hc_remove_policy; fi
  hc_mock anthropic "$HERE/$1.json"
  hc_client COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false \
    COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$PORT" COPILOT_PROVIDER_TYPE=anthropic \
    COPILOT_PROVIDER_API_KEY=dummy COPILOT_MODEL=claude-sonnet-4.5 \
    -- "$COPILOT" -p "Do the task." --allow-all-tools --trust-folder --no-auto-update
  hc_mock_stop
  hc_after_run
}

hc_do_allow
hc_do_write
hc_do_rm
hc_do_failclosed
hc_do_stop agentStop
hc_audit_checks
hc_finish
