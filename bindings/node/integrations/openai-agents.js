// hookc for the OpenAI Agents SDK (TypeScript): tool guardrails that ask a hookc policy,
// in-process. No dependency on the SDK: its guardrails are plain objects.
//
//   const { Agent, tool } = require('@openai/agents');
//   const { Policy } = require('hookc');
//   const { guard } = require('hookc/openai-agents');
//   const agent = new Agent({ name: 'coder', tools: guard(Policy.fromRules(['rules']), [writeFile]) });
//
// `guard(policy, tools)` adds to each function tool an input guardrail (a `pre_tool_use` event:
// `tool` is the tool's name, `args` its arguments) and an output guardrail (a `post_tool_use`
// event, `output` the tool's output), evaluated as hookc's native events off the event loop. What
// the SDK's guardrails see: only function tools (`tool()`) take tool guardrails; hosted tools (web
// search, file search, code interpreter, computer use, hosted MCP) and handoffs do not, so `guard`
// refuses a hosted tool rather than leave it unguarded.
//
// Failing closed: a deny, an ask (no person answers a guardrail), a block or a stop rejects the
// call with the rule's reason as what the model reads (`rejectContent`); an output the policy
// rewrites (`redact`, `replace`, `truncate`) reaches the model rewritten; a policy that cannot
// decide or throws rejects too (a guardrail that threw would end the run). Rules on `kind` and
// the path model see the seed's tool vocabulary (`write_file`, `bash`, …): name the tools so, or
// write rules on `tool` and `args.NAME`.
'use strict';

const allow = () => ({ behavior: { type: 'allow' } });
const reject = (message) => ({ behavior: { type: 'rejectContent', message } });

// The message that rejects the call, or null when the policy lets it run. Never throws.
async function verdict(policy, event) {
  let result;
  try {
    result = await policy.evaluateAsync(event);
  } catch (error) {
    return `hookc could not decide (${error && error.message ? error.message : String(error)}): the call is blocked`;
  }
  if (result.blockingError) return result.blockingError.message || 'blocked by the policy';
  if (result.permissionBehavior === 'deny' || result.permissionBehavior === 'ask') {
    return result.permissionReason || `the policy says ${result.permissionBehavior}`;
  }
  if (result.preventContinuation) return result.stopReason || 'the policy stops the run';
  if (result.updatedOutput) return result.updatedOutput.content ?? '';
  return null;
}

function argumentsOf(text) {
  try {
    const args = JSON.parse(text || '{}');
    return args && typeof args === 'object' && !Array.isArray(args) ? args : null;
  } catch {
    return null;
  }
}

/** A tool input guardrail: the call as a `pre_tool_use` event. */
function inputGuardrail(policy) {
  return {
    type: 'tool_input',
    name: 'hookc_pre_tool_use',
    async run({ toolCall }) {
      const args = argumentsOf(toolCall.arguments);
      if (!args) return reject("hookc: the tool's arguments are not a JSON object: the call is blocked");
      const message = await verdict(policy, { event: 'pre_tool_use', tool: toolCall.name, args, id: toolCall.callId });
      return message === null ? allow() : reject(message);
    },
  };
}

/** A tool output guardrail: the call and its output as a `post_tool_use` event. */
function outputGuardrail(policy) {
  return {
    type: 'tool_output',
    name: 'hookc_post_tool_use',
    async run({ toolCall, output }) {
      const content = typeof output === 'string' ? output : JSON.stringify(output) ?? '';
      const event = {
        event: 'post_tool_use',
        tool: toolCall.name,
        args: argumentsOf(toolCall.arguments) || {},
        id: toolCall.callId,
        result: { content },
      };
      const message = await verdict(policy, event);
      return message === null ? allow() : reject(message);
    },
  };
}

/** `tools` with hookc's guardrails added to each; a tool that takes none is refused. */
function guard(policy, tools) {
  for (const tool of tools) {
    if (!tool || tool.type !== 'function') {
      throw new TypeError(`a ${tool && tool.type} tool takes no tool guardrails: hookc cannot see its calls`);
    }
    tool.inputGuardrails = [...(tool.inputGuardrails || []), inputGuardrail(policy)];
    tool.outputGuardrails = [...(tool.outputGuardrails || []), outputGuardrail(policy)];
  }
  return tools;
}

module.exports = { guard, inputGuardrail, outputGuardrail };
