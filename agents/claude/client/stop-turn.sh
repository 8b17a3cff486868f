#!/usr/bin/env bash
# Stop rules on the real Claude Code's transcripts (the shared harness, ../shared/realclient):
# what the turn ran, whether it succeeded, and whether it ran after the last write, read the same
# way every time. hookc waits for the transcript to hold the turn (the Stop hook can start before
# Claude Code has written it), so a one-call turn that ran `echo make test` is judged with its
# call in every run.
#
# usage: agents/claude/client/stop-turn.sh REALCLIENT_COPY [REPEATS]
#   REPEATS  how many times the one-call turn runs (default 8)
# Environment: HOOKC (default target/release/hookc).
# shellcheck source-path=SCRIPTDIR source=claude-harness.sh
. "$(dirname "${BASH_SOURCE[0]}")/claude-harness.sh" "$1" stop
repeats=${2:-8}

# project NAME RULES [MAKE_TEST_STATUS]: a git project wired by `hookc init claude --write`, with a
# Makefile whose `test` exits with MAKE_TEST_STATUS.
project() {
  mkdir -p "$work/$1/rules"
  printf '%s\n' "$2" >"$work/$1/rules/stop.rules"
  printf 'test:\n\t@exit %s\n' "${3:-0}" >"$work/$1/Makefile"
  (cd "$work/$1" && git init -q . && PATH="$work/bin:$PATH" hookc init claude --write --audit-log "$work/$1.audit.jsonl" 2>/dev/null)
}
# decided_stop PROJECT: the last Stop in the project's audit log was decided by the rules (not an
# error that let the agent stop), so a "may stop" is the policy's answer.
decided_stop() { grep '"event":"stop"' "$work/$1.audit.jsonl" | tail -n1 | grep -q '"no rule matched"'; }
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
no() { echo "FAIL $1"; fail=$((fail + 1)); }
# continued RESULT REASON: the continuation reached the model.
continued() { grep -q "$2" "$work/$1/mock/requests.jsonl"; }
run() { rm -rf "$work/$1"; CLI_PATH="$work/bin:/usr/local/bin:/usr/bin:/bin" WS_SEED=$work/$2 PERMISSION_MODE=bypassPermissions IS_SANDBOX=1 "$rc/run.sh" "$3" "$work/empty.json" "$work/$1" >/dev/null 2>&1 || true; }
scenario() { printf '{"turns": [%s]}\n' "$2" >"$work/$1.json"; }
bash_call() { printf '{"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "%s", "description": "run"}}]}' "$1"; }
write_call() { printf '{"content": [{"type": "tool_use", "name": "Write", "input": {"file_path": "%s", "content": "x\\n"}}]}' "$1"; }
text() { printf '{"content": [{"type": "text", "text": "%s"}]}' "$1"; }

# 1. The turn read the same way every time: `echo make test` is in `commands` in every run.
project words 'stop when not commands matches /make test/ => continue "A: make test did not appear"'
scenario echo "$(bash_call 'echo make test'), $(text Done.), $(text Again.)"
wrong=0
for i in $(seq "$repeats"); do
  run "echo-$i" words "$work/echo.json"
  if continued "echo-$i" "A: make test did not appear" || ! decided_stop words; then wrong=$((wrong + 1)); fi
done
if [ "$wrong" = 0 ]; then ok "a one-call turn that ran \`echo make test\`: read with its call in $repeats of $repeats runs"; else no "$wrong of $repeats runs continued the turn: the call was not read"; fi

# 2. The README's verify rule: make test, succeeded, after the last write.
verify='rule verify
stop when not runs make test (ok and after_writes)
  and (files_written like ["**"] or not tool_calls >= 0)
  => continue "run make test before you finish"
rule generated
pre_tool_use when access == write and path == "generated.txt" => deny "generated.txt is managed elsewhere"'
project pass "$verify" 0
project failing "$verify" 2
scenario echoed "$(write_call src/a.txt), $(bash_call 'echo make test'), $(text Done.), $(text Again.)"
scenario failed "$(write_call src/a.txt), $(bash_call 'make test'), $(text Done.), $(text Again.)"
scenario before "$(bash_call 'make test'), $(write_call src/a.txt), $(text Done.), $(text Again.)"
scenario after "$(write_call src/a.txt), $(bash_call 'make test'), $(text Done.), $(text Again.)"
scenario refused "$(write_call generated.txt), $(text Done.), $(text Again.)"
run echoed pass "$work/echoed.json"
continued echoed "run make test before" && ok "\`echo make test\` is not make test: sent back" || no "\`echo make test\` counted as make test"
run failed failing "$work/failed.json"
continued failed "run make test before" && ok "a failed make test (exit 2) does not count: sent back" || no "a failed make test counted"
run before pass "$work/before.json"
continued before "run make test before" && ok "make test before the last write does not count: sent back" || no "make test before the last write counted"
run after pass "$work/after.json"
if continued after "run make test before"; then no "make test after the last write, succeeded: sent back anyway"
elif decided_stop pass; then ok "make test after the last write, succeeded: may stop (no rule matched)"
else no "make test after the last write: the Stop was not decided by the rules"; fi
run refused pass "$work/refused.json"
if [ -e "$work/refused/workspace/generated.txt" ]; then no "the refused write happened"
elif continued refused "run make test before"; then no "a refused write counted as a file written"
elif decided_stop pass; then ok "a write Claude Code refused is not a file written: may stop (no rule matched)"
else no "the refused write's Stop was not decided by the rules"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
