"""hookc for the OpenAI Agents SDK (Python): tool guardrails that ask a hookc policy, in-process.

    from agents import Agent, function_tool
    from hookc import Policy
    from hookc.openai_agents import guard
    policy = Policy.from_rules(["rules"])
    agent = Agent(name="coder", tools=guard(policy, [write_file, run_shell]))

`guard(policy, tools)` adds to each function tool an input guardrail (a `pre_tool_use` event:
`tool` is the tool's name, `args` its arguments) and an output guardrail (a `post_tool_use` event
with the tool's output, `output` in rules), evaluated as hookc's native events. An output the
policy rewrites (`redact`, `replace`, `truncate`) reaches the model rewritten, as the guardrail's
rejection message. What the SDK's
guardrails see: only function tools (`FunctionTool`, what `@function_tool` makes) take tool
guardrails; hosted tools (web search, file search, code interpreter, computer use, MCP servers'
tools run by the API) do not, and `guard` refuses them rather than leave them unguarded. Agent
handoffs are not tool calls and are not seen either.

Failing closed: a deny, an ask (no person is there to answer in a guardrail), a block or a stop
rejects the call with the rule's reason as the message the model reads (`reject_content`); so
does a policy that cannot decide or raises, since a guardrail that raised would end the whole
run with an exception the caller may not expect. Rule conditions on `kind` and the path model
see the seed's tool vocabulary (`write_file`, `bash`, …): name the tools so, or write rules on
`tool` and `args.NAME`.
"""

import asyncio
import json

from agents import FunctionTool, ToolGuardrailFunctionOutput, ToolInputGuardrail, ToolOutputGuardrail


async def _verdict(policy, event):
    """The message that rejects the call, or None when the policy lets it run. Never raises."""
    try:
        result = await asyncio.to_thread(policy.evaluate, event)
    except Exception as error:  # noqa: BLE001 - a guardrail that cannot decide rejects
        return f"hookc could not decide ({error}): the call is blocked"
    if result.get("blockingError"):
        return result["blockingError"].get("message") or "blocked by the policy"
    if result.get("permissionBehavior") in ("deny", "ask"):
        return result.get("permissionReason") or f"the policy says {result['permissionBehavior']}"
    if result.get("preventContinuation"):
        return result.get("stopReason") or "the policy stops the run"
    # An output the policy rewrote (`redact`, `replace`, `truncate`): the model reads the rewrite
    # instead, as the rejection's message.
    if result.get("updatedOutput") is not None:
        return result["updatedOutput"].get("content", "")
    return None


def _arguments(text):
    try:
        args = json.loads(text or "{}")
    except ValueError:
        return None
    return args if isinstance(args, dict) else None


def input_guardrail(policy):
    """A tool input guardrail: the call as a `pre_tool_use` event."""

    async def hookc_pre_tool_use(data):
        args = _arguments(data.context.tool_arguments)
        if args is None:
            return ToolGuardrailFunctionOutput.reject_content("hookc: the tool's arguments are not a JSON object: the call is blocked")
        event = {"event": "pre_tool_use", "tool": data.context.tool_name, "args": args, "id": data.context.tool_call_id}
        message = await _verdict(policy, event)
        return ToolGuardrailFunctionOutput.allow() if message is None else ToolGuardrailFunctionOutput.reject_content(message)

    return ToolInputGuardrail(guardrail_function=hookc_pre_tool_use, name="hookc_pre_tool_use")


def output_guardrail(policy):
    """A tool output guardrail: the call and its output as a `post_tool_use` event."""

    async def hookc_post_tool_use(data):
        args = _arguments(data.context.tool_arguments) or {}
        output = data.output if isinstance(data.output, str) else json.dumps(data.output, default=str)
        event = {
            "event": "post_tool_use",
            "tool": data.context.tool_name,
            "args": args,
            "id": data.context.tool_call_id,
            "result": {"content": output},
        }
        message = await _verdict(policy, event)
        return ToolGuardrailFunctionOutput.allow() if message is None else ToolGuardrailFunctionOutput.reject_content(message)

    return ToolOutputGuardrail(guardrail_function=hookc_post_tool_use, name="hookc_post_tool_use")


def guard(policy, tools):
    """`tools` with hookc's input and output guardrails added to each; a tool that takes no
    guardrails (a hosted tool) is refused with TypeError."""
    guarded = []
    for tool in tools:
        if not isinstance(tool, FunctionTool):
            raise TypeError(f"{type(tool).__name__} takes no tool guardrails: hookc cannot see its calls")
        tool.tool_input_guardrails = [*(tool.tool_input_guardrails or []), input_guardrail(policy)]
        tool.tool_output_guardrails = [*(tool.tool_output_guardrails or []), output_guardrail(policy)]
        guarded.append(tool)
    return guarded
