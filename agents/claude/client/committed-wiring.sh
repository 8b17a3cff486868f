#!/usr/bin/env bash
# Committed wiring on the real Claude Code (the shared harness, ../shared/realclient): a project
# wired by `hookc init claude --write` (launcher + settings, no path of this machine), run by the
# real client with hookc on PATH and without it, and after the model `cd`s into a subdirectory.
#
# usage: agents/claude/client/committed-wiring.sh REALCLIENT_COPY
#   REALCLIENT_COPY  a copy of ../shared/realclient with `npm install` done; its run.sh is taught
#                    CLI_PATH (the client's PATH) here, once
# Environment: HOOKC (default target/release/hookc).
# shellcheck source-path=SCRIPTDIR source=claude-harness.sh
. "$(dirname "${BASH_SOURCE[0]}")/claude-harness.sh" "$1" wiring
mkdir -p "$work/seed/src"
(cd "$work/seed" && git init -q . && cp -r "$here/rules" . && touch src/.keep && "$hookc" init claude --write 2>/dev/null)
cat >"$work/rm.json" <<'JSON'
{"turns": [{"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "rm -rf ~/important", "description": "clean"}}]},
           {"content": [{"type": "text", "text": "Done."}]}]}
JSON
cat >"$work/cd-rm.json" <<'JSON'
{"turns": [{"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "cd src && pwd", "description": "cd"}}]},
           {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "rm -rf ~/important", "description": "clean"}}]},
           {"content": [{"type": "text", "text": "Done."}]}]}
JSON
pass=0 fail=0
check() { if grep -q "$2" "$3"; then echo "PASS $1"; pass=$((pass + 1)); else echo "FAIL $1 (no \`$2\` in $3)"; fail=$((fail + 1)); fi; }
run() { rm -rf "$work/$1"; CLI_PATH=$2 WS_SEED=$work/seed PERMISSION_MODE=bypassPermissions IS_SANDBOX=1 "$rc/run.sh" "$3" "$work/empty.json" "$work/$1" >/dev/null 2>&1; }
sys=/usr/local/bin:/usr/bin:/bin
grep -q "$work" "$work/seed/.claude/settings.json" && { echo "FAIL the settings name a path of this machine"; fail=$((fail + 1)); }
run present "$work/bin:$sys" "$work/rm.json"
check "hookc on PATH: the policy decides" "deletes outside the project" "$work/present/mock/requests.jsonl"
run absent "$sys" "$work/rm.json"
check "hookc absent: the call is blocked with the launcher's message" "no hookc 0.1 found on this machine" "$work/absent/cli-stdout.json"
run subdir "$work/bin:$sys" "$work/cd-rm.json"
check "after cd src: the policy still decides" "deletes outside the project" "$work/subdir/mock/requests.jsonl"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
