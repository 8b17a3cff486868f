"""The Claude Agent SDK integration against the real Python SDK (and the Claude Code it bundles),
offline, with the shared realclient's scripted model. Run by `tests/sdk.sh claude REALCLIENT`:
    python tests/sdk_claude.py REALCLIENT
Sessions: the policy blocks the scripted write (its reason reaches the model); a policy that
cannot decide, or raises, blocks it; an allowed write goes through; and the SDK's own default
lets a raising callback's write through (why hooks_for never raises)."""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time

from claude_agent_sdk import ClaudeAgentOptions, HookMatcher, query

from hookc import Policy
from hookc.claude_agent_sdk import hooks_for

MOCK = os.path.join(sys.argv[1], "mock.js")


def session(name, policy, file, hooks=None):
    work = tempfile.mkdtemp(prefix=f"hookc-pysdk-{name}-")
    ws = os.path.join(work, "ws")
    os.mkdir(ws)
    home = os.path.join(work, "home")
    os.mkdir(home)
    scenario = os.path.join(work, "scenario.json")
    with open(scenario, "w") as out:
        json.dump({"turns": [
            {"content": [{"type": "tool_use", "name": "Write", "input": {"file_path": os.path.join(ws, file), "content": "hello\n"}}]},
            {"content": [{"type": "text", "text": "Done."}]},
        ], "aux_text": "ok"}, out)
    mock = subprocess.Popen(["node", MOCK, scenario, os.path.join(work, "mock"), "0"], env={**os.environ, "MOCK_WORKSPACE": ws})
    port_file = os.path.join(work, "mock", "port")
    for _ in range(100):
        if os.path.exists(port_file) and open(port_file).read().strip():
            break
        time.sleep(0.05)
    port = open(port_file).read().strip()
    options = ClaudeAgentOptions(
        cwd=ws,
        hooks=hooks if hooks is not None else hooks_for(policy),
        permission_mode="bypassPermissions",
        env={
            "HOME": home,
            "CLAUDE_CONFIG_DIR": os.path.join(home, ".claude"),
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
            "ANTHROPIC_API_KEY": "sk-ant-mock-dummy-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "IS_SANDBOX": "1",
        },
    )

    async def run():
        async for _ in query(prompt="write the file", options=options):
            pass

    try:
        asyncio.run(run())
    finally:
        mock.kill()
    log = os.path.join(work, "mock", "requests.jsonl")
    requests = open(log).read() if os.path.exists(log) else ""
    return os.path.exists(os.path.join(ws, file)), requests


BLOCK = 'rule protect pre_tool_use when kind == write and path == "generated.txt" => block "hook_blocked"'
written, requests = session("block", Policy.from_source("sdk.rules", BLOCK), "generated.txt")
assert not written, "the policy blocked the write"
assert "hook_blocked" in requests or "blocked by rule" in requests, "the rule's reason reached the model"
print("ok - the SDK session: the policy blocks the write, its reason reaches the model")

costly = "\n".join(f'pre_tool_use when content matches /\\w{{50}}x\\w{{50}}{n}/ => deny "r{n}"' for n in range(301))
written, _ = session("costly", Policy.from_source("costly.rules", costly), "generated.txt")
assert not written, "a policy that cannot decide blocks"


class Raising:
    def answer(self, *args):
        raise RuntimeError("simulated evaluation failure")


written, _ = session("raise", Raising(), "generated.txt")
assert not written, "an evaluation that raises blocks"
print("ok - the SDK session: a policy that cannot decide, or raises, blocks the write")

written, _ = session("allow", Policy.from_source("sdk.rules", BLOCK), "notes.txt")
assert written, "an allowed write goes through"
print("ok - the SDK session: a write the policy allows goes through")


async def raises(input_data, tool_use_id, context):
    raise RuntimeError("a hook that raises")


written, _ = session("sdk-default", None, "generated.txt", {"PreToolUse": [HookMatcher(hooks=[raises])]})
assert written, "the SDK runs the call when a callback raises (its default)"
print("ok - checked: the SDK treats a raising callback as non-blocking by default, so hooks_for returns a block instead")
print("claude-agent-sdk (Python): 4 passed, 0 failed (5 sessions)")
