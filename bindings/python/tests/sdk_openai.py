"""The OpenAI Agents SDK integration against the real SDK (openai-agents 0.24) with a scripted
model (a `Model` that answers from a list): a denied tool call never runs and the model reads the
rule's reason; an allowed call runs; an output the policy stops never reaches the model; a policy
that raises rejects the call; a hosted tool is refused by `guard`. Run by `tests/sdk.sh openai`."""

import asyncio

from agents import Agent, Runner, WebSearchTool, function_tool
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from hookc import Policy
from hookc.openai_agents import guard


class Scripted(Model):
    """Answers each request with the next turn, and keeps what it was sent."""

    def __init__(self, turns):
        self.turns = list(turns)
        self.inputs = []

    async def get_response(self, system_instructions, input, *args, **kwargs):
        self.inputs.append(input)
        return ModelResponse(output=self.turns.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError


def call(name, arguments):
    return [ResponseFunctionToolCall(type="function_call", call_id="c1", name=name, arguments=arguments, id="f1", status="completed")]


def text(words):
    return [ResponseOutputMessage(type="message", id="m1", role="assistant", status="completed",
                                  content=[ResponseOutputText(type="output_text", text=words, annotations=[])])]


def run(policy, tool_call, tools_made):
    ran = []

    @function_tool
    def write_file(path: str, content: str) -> str:
        """Writes a file."""
        ran.append(path)
        return f"wrote {path}"

    @function_tool
    def read_secret(name: str) -> str:
        """Reads a secret."""
        ran.append(name)
        return "API_KEY=sk-live-123"

    model = Scripted([tool_call, text("Done.")])
    agent = Agent(name="coder", model=model, tools=guard(policy, [write_file, read_secret]))
    result = asyncio.run(Runner.run(agent, "do it"))
    sent = str(model.inputs[-1])
    tools_made.append(len(agent.tools))
    return ran, sent, result.final_output


RULES = """
rule protect pre_tool_use when tool == write_file and args.path == "generated.txt" => deny "generated.txt is generated"
rule no-secrets post_tool_use when output contains "sk-live-" => stop "a secret in the output"
"""
policy = Policy.from_source("agents.rules", RULES)
made = []

ran, sent, _ = run(policy, call("write_file", '{"path": "generated.txt", "content": "x"}'), made)
assert ran == [], "the denied call never ran"
assert "generated.txt is generated" in sent, sent
print("ok - a denied tool call never runs, and the model reads the rule's reason")

ran, sent, _ = run(policy, call("write_file", '{"path": "notes.txt", "content": "x"}'), made)
assert ran == ["notes.txt"] and "wrote notes.txt" in sent, (ran, sent)
print("ok - an allowed tool call runs")

ran, sent, _ = run(policy, call("read_secret", '{"name": "prod"}'), made)
assert ran == ["prod"] and "sk-live-" not in sent and "a secret in the output" in sent, sent
print("ok - an output the policy blocks never reaches the model")

class Raising:
    def evaluate(self, event):
        raise RuntimeError("simulated evaluation failure")


ran, sent, _ = run(Raising(), call("write_file", '{"path": "notes.txt", "content": "x"}'), made)
assert ran == [] and "simulated evaluation failure" in sent, sent
ran, sent, _ = run(policy, call("write_file", '["not", "an", "object"]'), made)
assert ran == [], "arguments that are not an object are rejected"
print("ok - a policy that raises, or arguments it cannot read, reject the call")

try:
    guard(policy, [WebSearchTool()])
except TypeError as error:
    assert "takes no tool guardrails" in str(error)
else:
    raise AssertionError("a hosted tool was accepted")
print("ok - a hosted tool, which takes no tool guardrails, is refused")
print("openai-agents: 5 passed, 0 failed")
