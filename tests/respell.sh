#!/usr/bin/env bash
# The respelling generator (tests/respell.rs) run long: HOOKC_RESPELL_CASES cases (default
# 3000), every kept respelling written out; then, given a revision, how many of them that
# revision's reader and shipped rules (with every pack) let through.
#   tests/respell.sh [REV]        e.g. tests/respell.sh a8becfd (the commit before issue 35)
# Needs root (the oracle runs lines as `nobody`) and setpriv, bash, python3, node and perl.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
cases=${HOOKC_RESPELL_CASES:-3000}
HOOKC_RESPELL_CASES=$cases HOOKC_RESPELL_OUT=$out/kept.jsonl \
    cargo test -q --test lib respell::respellings_of_refused_lines_are_refused
kept=$(wc -l <"$out/kept.jsonl")
echo "cases: $cases; kept (shown alike, or PowerShell rows): $kept; all refused or asked now"
[ $# -eq 0 ] && exit 0
rev=$1
git worktree add -f "$out/old" "$rev" >/dev/null 2>&1
# (Its build is kept between runs, by revision.)
target=${XDG_CACHE_HOME:-$HOME/.cache}/hookc-respell/$(git rev-parse --short "$rev")
(cd "$out/old" && CARGO_TARGET_DIR=$target cargo build --release -q)
python3 - "$out" "$target" "$rev" <<'PY'
import json, subprocess, sys, collections
out, target, rev = sys.argv[1:4]
old = f"{out}/old"
def refused(command):
    event = json.dumps({"event": "pre_tool_use", "tool": "Bash", "cwd": "/repo", "project_root": "/repo",
                        "args": {"command": command}})
    result = subprocess.run([f"{target}/release/hookc", "eval", "--rules", f"{old}/rules", f"{old}/packs"],
                            input=event, capture_output=True, text=True)
    try:
        decision = json.loads(result.stdout or "{}")
    except json.JSONDecodeError:
        return True
    return bool(decision.get("blockingError") or decision.get("permissionBehavior") in ("deny", "ask"))
missed, total, originals = [], 0, {}
for line in open(f"{out}/kept.jsonl"):
    entry = json.loads(line)
    total += 1
    if not refused(entry["respelled"]):
        missed.append(entry)
for entry in missed:
    if entry["line"] not in originals:
        originals[entry["line"]] = refused(entry["line"])
reader = [entry for entry in missed if originals[entry["line"]]]
print(f"{rev}'s reader and rules (every pack) let through {len(missed)} of {total} kept respellings;")
print(f"  of those, {len(reader)} respell a line {rev} itself refused (the reader's misses);")
print(f"  the other {len(missed) - len(reader)} respell lines {rev}'s rules did not refuse at all (rules added since)")
missed = reader
kinds = collections.Counter(entry["respelled"].split(" ")[0].split("=")[0] for entry in missed)
print("by how they start:", dict(kinds.most_common(12)))
for entry in missed[:15]:
    print("  ", entry["line"], "→", entry["respelled"].replace("\n", "\\n")[:140])
PY
git worktree remove --force "$out/old"
