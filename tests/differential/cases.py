"""Random registrations for the registry differential (run.sh): each case an event, hooks in
registration order (rule sets, and callbacks that return a random HookResult or throw), and
whether PreToolUse rewrites are checked. Seeded: the same seed makes the same cases.

    python3 cases.py COUNT SEED > cases.jsonl
"""

import json
import random
import sys

RULES = [
    'pre_tool_use when path == "a" => deny "no a"',
    'pre_tool_use when path == "b" => set path = "c"',
    'pre_tool_use when path == "c" => block "hook_blocked" "c is blocked"',
    'pre_tool_use when kind == write => context "rules saw {path}"',
    'pre_tool_use when path == "d" => ask "ask d", log "d asked"',
    'post_tool_use when output contains "secret" => redact /secret/ "[x]"',
    'post_tool_use => context "after"',
    'stop when tool_calls == 0 => continue "check your work"',
    'user_prompt_submit => context "prompted"',
]

EVENTS = [
    {"event": "pre_tool_use", "tool": "write_file", "args": {"path": "a", "content": "x"}},
    {"event": "pre_tool_use", "tool": "write_file", "args": {"path": "b", "content": "x"}},
    {"event": "pre_tool_use", "tool": "write_file", "args": {"path": "z", "content": "x"}},
    {"event": "pre_tool_use", "tool": "write_file", "args": {"path": "d", "content": "x"}},
    {"event": "post_tool_use", "tool": "read_file", "args": {"path": "a"}, "result": {"content": "a secret", "is_error": False}},
    {"event": "stop", "stop_hook_active": False, "history": [{"role": "user", "content": "go"}]},
    {"event": "stop", "stop_hook_active": True, "history": [{"role": "user", "content": "go"}]},
    {"event": "user_prompt_submit", "prompt": "hello"},
]

HOOK_EVENTS = ["pre_tool_use", "PreToolUse", "post_tool_use", "stop", "user_prompt_submit"]


def result(rng):
    fields = {}
    for _ in range(rng.randrange(0, 3)):
        pick = rng.randrange(10)
        if pick == 0:
            fields["permissionBehavior"] = rng.choice(["allow", "ask", "deny", "passthrough"])
        elif pick == 1:
            fields["permissionReason"] = rng.choice(["because", "why not"])
        elif pick == 2:
            fields["updatedInput"] = {"path": rng.choice(["a", "b", "c", "q", 3, 3]), "content": "x"}
        elif pick == 3:
            fields["blockingError"] = {"code": "cb_blocked", "message": "by a callback"}
        elif pick == 4:
            fields["additionalContext"] = [rng.choice(["one", "two"])]
        elif pick == 5:
            fields["updatedOutput"] = {"content": "rewritten", "is_error": False}
        elif pick == 6:
            fields["preventContinuation"] = True
        elif pick == 7:
            fields["forceContinue"] = "again"
        elif pick == 8:
            fields["matched"] = ["cb"]
        else:
            pass
    return fields


def case(rng):
    hooks = []
    for _ in range(rng.randrange(0, 5)):
        kind = rng.randrange(3)
        if kind == 0:
            hooks.append({"rules": "\n".join(rng.sample(RULES, rng.randrange(1, 4))) + "\n"})
        elif kind == 1:
            hooks.append({"on": rng.choice(HOOK_EVENTS), "returns": result(rng)})
        else:
            hooks.append({"on": rng.choice(HOOK_EVENTS), "throws": "boom"})
    return {"event": rng.choice(EVENTS), "hooks": hooks, "check": rng.random() < 0.5}


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for _ in range(count):
        print(json.dumps(case(rng)))


if __name__ == "__main__":
    main()
