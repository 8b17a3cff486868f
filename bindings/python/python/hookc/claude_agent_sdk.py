"""hookc for the Claude Agent SDK (Python): `hooks_for(policy)` builds the SDK's `hooks` option,
so that every PreToolUse, PostToolUse, UserPromptSubmit and Stop (and the SDK's other hook
events) goes through hookc in-process, answered exactly as `hookc hook claude` answers Claude
Code's command hooks: the SDK hands a callback the same input a command hook reads on stdin and
takes the same JSON back.

    from claude_agent_sdk import ClaudeAgentOptions, query
    from hookc import Policy
    from hookc.claude_agent_sdk import hooks_for
    options = ClaudeAgentOptions(hooks=hooks_for(Policy.from_rules(["rules"])))
    async for message in query(prompt="…", options=options): ...

Failing closed: the SDK treats a callback that raises as a non-blocking failure by default (the
action goes ahead), so a callback here never raises. Where hookc cannot decide (what makes `hookc
hook` exit 2), it returns what exit 2 does on Claude Code, `{"decision": "block", "reason": …}`:
the tool call or prompt is refused, and at Stop the agent keeps working. Each matcher also sets
`on_failure="block"`. hookc evaluates on a worker thread (`asyncio.to_thread`, the GIL released),
so the event loop never waits.
"""

import asyncio
import json

# The SDK's hook events (`claude_agent_sdk.types.HookEvent`) hookc answers for Claude Code.
EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "Notification",
    "PermissionRequest",
)


async def decide(policy, input_data):
    """The answer for one hook input: hookc's JSON, or a block with its reason. Never raises."""
    try:
        stdout, exit_code, stderr = await asyncio.to_thread(policy.answer, "claude", json.dumps(input_data))
        if exit_code == 0:
            return json.loads(stdout) if stdout else {}
        return {"decision": "block", "reason": "\n".join(stderr) or "hookc could not decide: the call is blocked"}
    except Exception as error:  # noqa: BLE001 - a raising hook would let the call through
        return {"decision": "block", "reason": f"hookc could not decide ({error}): the call is blocked"}


def hooks_for(policy, events=EVENTS, timeout=10):
    """The SDK's `hooks` option: each event of `events` answered by `policy` (`timeout` in
    seconds)."""
    from claude_agent_sdk import HookMatcher

    async def callback(input_data, tool_use_id, context):
        return await decide(policy, input_data)

    return {event: [HookMatcher(hooks=[callback], timeout=timeout, on_failure="block")] for event in events}
