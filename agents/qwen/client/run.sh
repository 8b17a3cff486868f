#!/usr/bin/env bash
# Qwen Code with hookc wired by `hookc init qwen --write` (the project's .qwen/settings.json),
# the OpenAI-compatible provider in the temp HOME's ~/.qwen/settings.json, driven offline by the
# OpenAI Chat Completions mock. --yolo is required: without it Qwen refuses tools before any
# PreToolUse hook runs.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../../tests/clients/lib.sh disable=SC2034  # lib.sh reads the settings made here
. "$HERE/../../../tests/clients/lib.sh"

hc_begin qwen
# Qwen's background memory agent also sends tool-carrying requests; never count them.
HC_AUX_PATTERN="Managed memory directory"
hc_install qwen @qwen-code/qwen-code 0.15.10 node_modules/.bin/qwen
QWEN=$HC_BIN

# run_scenario NAME [nopolicy]
run_scenario() {
  hc_new_run "$1${2:+-$2}"
  hc_init qwen
  [ -f "$WS/.qwen/settings.json" ] || { echo "init did not write .qwen/settings.json" >&2; exit 2; }
  if [ "${2:-}" = nopolicy ]; then hc_remove_policy; fi
  # The client's own config (provider, no telemetry) lives in the user settings; the hooks stay
  # in the project file init wrote (Qwen 0.15.10 loads it: folder trust is off by default).
  mkdir -p "$H/.qwen"
  cat >"$H/.qwen/settings.json" <<'J'
{"security":{"auth":{"selectedType":"openai"}},"model":{"name":"mock-model"},
 "privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},
 "memory":{"enableManagedAutoMemory":false}}
J
  hc_mock openai "$HERE/$1.json"
  hc_client OPENAI_BASE_URL="http://127.0.0.1:$PORT/v1" OPENAI_API_KEY=dummy OPENAI_MODEL=mock-model \
    -- "$QWEN" --auth-type openai --yolo "Do the task."
  hc_mock_stop
  hc_after_run
}

hc_do_allow
hc_do_write
hc_do_rm
hc_do_failclosed

# 5. Stop. Qwen 0.15.10 sends stop_hook_active:true on its FIRST Stop already; hookc reads its
# transcript instead, so the first Stop must continue exactly once.
run_scenario stop
n_main=$(hc_main_requests)
n_reason=$(hc_requests_with "$HC_STOP_REASON")
if [ "$n_main" = 2 ] && [ "$n_reason" = 1 ] && [ "$CLIENT_RC" = 0 ]; then
  hc_pass 5-stop "Stop continued once: $n_main model requests, $n_reason carry the reason, rc=$CLIENT_RC"
elif [ "$n_main" = 1 ] && [ "$n_reason" = 0 ] && [ "$CLIENT_RC" = 0 ] &&
  hc_audit_has '.event == "stop" and .decision == "none"'; then
  hc_fail 5-stop "no continuation: hookc took Qwen's stop_hook_active:true (it says so at the first Stop) instead of its transcript (1 model request, rc=0)"
else
  hc_fail 5-stop "unexpected: $n_main model requests, $n_reason carry the reason, rc=$CLIENT_RC"
fi
AUDIT_STOP=""
hc_audit_checks
hc_finish
