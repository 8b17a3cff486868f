#!/usr/bin/env bash
# Cline CLI with hookc wired by `hookc init cline --write` (executable .clinerules/hooks/<Event>),
# the openai-compatible provider set up by `cline auth` in a data dir under the temp HOME, driven
# offline by the OpenAI Chat Completions mock (Cline refuses a base URL for its anthropic provider).
#
# Cline blocks with {"cancel":true,...}: that ends the whole task and sends no tool result back,
# so "the reason reaches the model" does not apply; the checks look at the file, the task's end
# and print what the person sees. Cline has no Stop hook that can continue (TaskComplete is
# observe-only), so there is no check 5.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../../tests/clients/lib.sh disable=SC2034  # lib.sh reads the settings made here
. "$HERE/../../../tests/clients/lib.sh"

hc_begin cline
hc_install cline cline 3.0.65 node_modules/.bin/cline
CLINE=$HC_BIN
REASON_TO_MODEL=0

# run_scenario NAME [nopolicy]
run_scenario() {
  hc_new_run "$1${2:+-$2}"
  hc_init cline
  [ -x "$WS/.clinerules/hooks/PreToolUse" ] || { echo "init did not write .clinerules/hooks/PreToolUse" >&2; exit 2; }
  if [ "${2:-}" = nopolicy ]; then hc_remove_policy; fi
  hc_mock openai "$HERE/$1.json"
  DATA=$H/.cline/data
  hc_client -- "$CLINE" auth -p openai-compatible -k dummy -m mock-model -b "http://127.0.0.1:$PORT/v1" --data-dir "$DATA"
  mv "$R/client.out" "$R/auth.out"
  [ "$CLIENT_RC" = 0 ] || { cat "$R/auth.out" >&2; echo "cline auth failed" >&2; exit 2; }
  hc_client -- "$CLINE" "Do the task." --data-dir "$DATA" -P openai-compatible -m mock-model -k dummy \
    --auto-approve true -c "$WS" --retries 1
  hc_mock_stop
  hc_after_run
  STATUS=$(find "$DATA/sessions" -name '*.json' ! -name '*.messages.json' -exec jq -r '.status // "?"' {} + 2>/dev/null | head -1 || true)
  hc_info "session status: ${STATUS:-?}"
  if [ "$1" != allow ]; then
    # (the fail-closed check prints the nopolicy run's terminal itself)
    if [ "${2:-}" != nopolicy ]; then
      hc_info "what the person sees:"
      hc_person_sees
    fi
    hc_info "the reason, only in cline.log: $(logged_reason)"
  fi
}

# The errorMessage hookc returned, as Cline logged it (the only place it goes).
logged_reason() { grep -o '"errorMessage":"[^"]*"' "$DATA/logs/cline.log" 2>/dev/null | head -1 || true; }

# cancel_ended_task ID: the task ended on the cancel: no second model request, session cancelled,
# the client exited by itself.
cancel_ended_task() {
  local n
  n=$(hc_main_requests)
  hc_check "$1" "the cancel ended the task: $n model request(s) (want 1), session status $STATUS (want cancelled), rc=$CLIENT_RC (want 0)" \
    "$(hc_yes test "$n" = 1 -a "$STATUS" = cancelled -a "$CLIENT_RC" = 0)"
}

hc_do_allow
hc_do_write
cancel_ended_task 1-write
hc_do_rm
[ "$HC_HOME_OK" = 1 ] && cancel_ended_task 2-rm
hc_do_failclosed
hc_say "SKIP  cline/5-stop: Cline has no Stop hook that can continue (TaskComplete is observe-only)"
AUDIT_STOP=""
hc_audit_checks
hc_finish
