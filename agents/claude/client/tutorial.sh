#!/usr/bin/env bash
# The tutorial end to end on the real Claude Code (the shared harness, ../shared/realclient): every
# command of docs/tutorial.md's `console` blocks run in an empty project, in order, as a reader
# would; then the real client, in that project, tries what the tutorial says its rules stop.
#
# usage: agents/claude/client/tutorial.sh REALCLIENT_COPY
#   REALCLIENT_COPY  a copy of ../shared/realclient with `npm install` done
# Environment: HOOKC (default target/release/hookc).
# shellcheck source-path=SCRIPTDIR source=claude-harness.sh
. "$(dirname "${BASH_SOURCE[0]}")/claude-harness.sh" "$1" tutorial
mkdir -p "$work/project"
export PATH="$work/bin:$PATH"

# The tutorial's commands: each `$ ` line of a console block, with its here-document. Some fail on
# purpose (the typo it shows `hookc check` finding), as they do for the reader; tests/docs.rs
# compares every output with the page.
awk '
  /^```console/ { inblock = 1; next }
  /^```/ { inblock = 0; next }
  !inblock { next }
  heredoc != "" { print; if ($0 == heredoc) heredoc = ""; next }
  /^\$ / {
    line = substr($0, 3); print line
    if (match(line, /<<.?EOF.?/)) heredoc = "EOF"
  }
' "$here/docs/tutorial.md" >"$work/tutorial.sh"
echo "== the tutorial's $(grep -c '' "$work/tutorial.sh") lines of commands, run in an empty project"
(cd "$work/project" && git init -q . && bash "$work/tutorial.sh" >"$work/tutorial.out" 2>&1 && [ -f .hookc/hookc ] && [ -f rules/stop.rules ]) ||
  { cat "$work/tutorial.out"; echo "FAIL the tutorial's commands"; exit 1; }

pass=0 fail=0
check() { if grep -q "$2" "$3"; then echo "PASS $1"; pass=$((pass + 1)); else echo "FAIL $1 (no \`$2\` in $3)"; fail=$((fail + 1)); fi; }
refute() { if grep -q "$2" "$3"; then echo "FAIL $1 (\`$2\` in $3)"; fail=$((fail + 1)); else echo "PASS $1"; pass=$((pass + 1)); fi; }
run() { rm -rf "$work/$1"; CLI_PATH="$work/bin:/usr/local/bin:/usr/bin:/bin" WS_SEED=$work/project PERMISSION_MODE=bypassPermissions IS_SANDBOX=1 "$rc/run.sh" "$2" "$work/empty.json" "$work/$1" >/dev/null 2>&1 || true; }
scenario() { printf '{"turns": [%s]}\n' "$2" >"$work/$1.json"; }
tool() { printf '{"content": [{"type": "tool_use", "name": "%s", "input": %s}]}' "$1" "$2"; }
text() { printf '{"content": [{"type": "text", "text": "%s"}]}' "$1"; }

scenario push "$(tool Bash '{"command": "git push -f origin main", "description": "push"}'), $(text Done.)"
run push "$work/push.json"
check "a force push is refused with the rule's message" "force push refused: git push -f origin main" "$work/push/mock/requests.jsonl"

# The rules the hook reads are the hook's own files: refused whatever the rules say.
scenario policy "$(tool Write '{"file_path": "rules/open.rules", "content": "# nothing\n"}'), $(text Done.)"
run policy "$work/policy.json"
check "the agent cannot rewrite the rules the hook reads" "belongs to the hook that governs this agent" "$work/policy/mock/requests.jsonl"
[ ! -e "$work/policy/workspace/rules/open.rules" ] && { echo "PASS the rule file was not written"; pass=$((pass + 1)); } ||
  { echo "FAIL rules/open.rules was written"; fail=$((fail + 1)); }
# The settings that wire the hook: the tutorial's protect-policy rule.
# (a new file: Claude Code refuses a Write to an existing file not read first, before any hook)
scenario settings "$(tool Write '{"file_path": ".claude/settings.local.json", "content": "{}\n"}'), $(text Done.)"
run settings "$work/settings.json"
check "the agent cannot unwire the hook (protect-policy)" "is part of the hook policy" "$work/settings/mock/requests.jsonl"
[ ! -e "$work/settings/workspace/.claude/settings.local.json" ] && { echo "PASS settings.local.json was not written"; pass=$((pass + 1)); } ||
  { echo "FAIL .claude/settings.local.json was written"; fail=$((fail + 1)); }

scenario untested "$(tool Write '{"file_path": "app/parser.py", "content": "x = 1\n"}'), $(text Done.), $(text 'Ran them.')"
run untested "$work/untested.json"
check "stopping after a Python edit without pytest sends the agent back" "did not run pytest" "$work/untested/mock/requests.jsonl"

scenario tested "$(tool Write '{"file_path": "app/parser.py", "content": "x = 1\n"}'), $(tool Bash '{"command": "python3 -m pytest -q || true", "description": "tests"}'), $(text Done.), $(text 'Again.')"
run tested "$work/tested.json"
refute "after pytest ran, the agent may stop" "did not run pytest" "$work/tested/mock/requests.jsonl"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
