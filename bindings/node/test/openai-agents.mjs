// The OpenAI Agents SDK integration (TypeScript) against the real SDK with a scripted model (a
// Model that answers from a list): a denied tool call never runs and the model reads the rule's
// reason; an allowed call runs; an output the policy stops never reaches the model; a policy that
// throws rejects the call; a hosted tool is refused. Run by test/openai-agents.sh.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Policy } = require('../index.js');
const { guard } = require('../integrations/openai-agents.js');
const { Agent, Runner, tool, webSearchTool, Usage } = await import(process.env.HOOKC_OPENAI_AGENTS);
const { z } = await import(process.env.HOOKC_ZOD);

class Scripted {
  constructor(turns) {
    this.turns = [...turns];
    this.inputs = [];
  }
  async getResponse(request) {
    this.inputs.push(request.input);
    return { usage: new Usage(), output: this.turns.shift(), responseId: undefined };
  }
  async *getStreamedResponse() {
    throw new Error('not streamed');
  }
}
const call = (name, args) => [{ type: 'function_call', callId: 'c1', name, arguments: args, status: 'completed' }];
const text = (words) => [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: words }] }];

async function run(policy, toolCall) {
  const ran = [];
  const writeFile = tool({
    name: 'write_file',
    description: 'Writes a file.',
    parameters: z.object({ path: z.string(), content: z.string() }),
    execute: async ({ path }) => {
      ran.push(path);
      return `wrote ${path}`;
    },
  });
  const readSecret = tool({
    name: 'read_secret',
    description: 'Reads a secret.',
    parameters: z.object({ name: z.string() }),
    execute: async ({ name }) => {
      ran.push(name);
      return 'API_KEY=sk-live-123';
    },
  });
  const model = new Scripted([toolCall, text('Done.')]);
  const agent = new Agent({ name: 'coder', model, tools: guard(policy, [writeFile, readSecret]) });
  await new Runner({ tracingDisabled: true }).run(agent, 'do it');
  return { ran, sent: JSON.stringify(model.inputs.at(-1)) };
}

const rules = `
rule protect pre_tool_use when tool == write_file and args.path == "generated.txt" => deny "generated.txt is generated"
rule no-secrets post_tool_use when output contains "sk-live-" => stop "a secret in the output"
`;
const policy = Policy.fromSource('agents.rules', rules);

let { ran, sent } = await run(policy, call('write_file', '{"path":"generated.txt","content":"x"}'));
assert.deepEqual(ran, [], 'the denied call never ran');
assert.match(sent, /generated.txt is generated/);
console.log("ok - a denied tool call never runs, and the model reads the rule's reason");

({ ran, sent } = await run(policy, call('write_file', '{"path":"notes.txt","content":"x"}')));
assert.deepEqual(ran, ['notes.txt']);
assert.match(sent, /wrote notes.txt/);
console.log('ok - an allowed tool call runs');

({ ran, sent } = await run(policy, call('read_secret', '{"name":"prod"}')));
assert.deepEqual(ran, ['prod']);
assert.doesNotMatch(sent, /sk-live-/);
assert.match(sent, /a secret in the output/);
console.log('ok - an output the policy stops never reaches the model');

const throwing = { evaluateAsync: async () => { throw new Error('simulated evaluation failure'); } };
({ ran, sent } = await run(throwing, call('write_file', '{"path":"notes.txt","content":"x"}')));
assert.deepEqual(ran, []);
assert.match(sent, /simulated evaluation failure/);
console.log('ok - a policy that throws rejects the call');

assert.throws(() => guard(policy, [webSearchTool()]), /takes no tool guardrails/);
console.log('ok - a hosted tool, which takes no tool guardrails, is refused');
console.log('openai-agents (TypeScript): 5 passed, 0 failed');
