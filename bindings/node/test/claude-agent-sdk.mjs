// The Claude Agent SDK integration against the real SDK and its Claude Code, offline, with a
// scripted model (the shared realclient's mock.js). Run by test/claude-agent-sdk.sh, which says
// where the SDK and the mock are.
//
// Three sessions, each asking the model's scripted Write of generated.txt:
//   1. the policy blocks it: the file is not written, and the rule's reason reaches the model;
//   2. the policy cannot decide (301 costly regexes spend hookc's 0.7 s compile budget, so the
//      call fails as `hookc hook` does, exit 2): blocked, not allowed; and a policy object whose
//      evaluation throws: blocked too;
//   3. another file is allowed: it is written.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { Policy } = require('../index.js');
const { hooksFor } = require('../integrations/claude-agent-sdk.js');
const { query } = await import(process.env.HOOKC_SDK_ENTRY);
const mock = process.env.HOOKC_MOCK;

async function session(name, rules, file, hooks) {
  const work = mkdtempSync(join(tmpdir(), `hookc-sdk-${name}-`));
  const ws = join(work, 'ws');
  mkdirSync(ws);
  const scenario = join(work, 'scenario.json');
  writeFileSync(scenario, JSON.stringify({
    turns: [
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(ws, file), content: 'hello\n' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    ],
    aux_text: 'ok',
  }));
  const server = spawn('node', [mock, scenario, join(work, 'mock'), '0'], { stdio: 'ignore', env: { ...process.env, MOCK_WORKSPACE: ws } });
  let port;
  for (let i = 0; i < 100 && !port; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (existsSync(join(work, 'mock', 'port'))) port = readFileSync(join(work, 'mock', 'port'), 'utf8').trim();
  }
  assert.ok(port, 'the mock started');
  const home = join(work, 'home');
  mkdirSync(home);
  const policy = typeof rules === 'string' ? Policy.fromSource('sdk.rules', rules) : rules;
  const messages = [];
  try {
    for await (const message of query({
      prompt: 'write the file',
      options: {
        cwd: ws,
        hooks: hooks || hooksFor(policy),
        permissionMode: 'bypassPermissions',
        allowDangerouslySkipPermissions: true,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          CLAUDE_CONFIG_DIR: join(home, '.claude'),
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
          ANTHROPIC_API_KEY: 'sk-ant-mock-dummy-key',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_TELEMETRY: '1',
          IS_SANDBOX: '1',
        },
      },
    })) {
      messages.push(message);
    }
  } finally {
    server.kill();
  }
  // (No request at all when the prompt itself was blocked.)
  const log = join(work, 'mock', 'requests.jsonl');
  const requests = existsSync(log) ? readFileSync(log, 'utf8') : '';
  return { written: existsSync(join(ws, file)), requests };
}

const blocked = await session('block', 'rule protect pre_tool_use when kind == write and path == "generated.txt" => block "hook_blocked"', 'generated.txt');
assert.equal(blocked.written, false, 'the policy blocked the write');
assert.match(blocked.requests, /hook_blocked|blocked by rule/, "the rule's reason reached the model");
console.log('ok - the SDK session: the policy blocks the write, its reason reaches the model');

const costly = Array.from({ length: 301 }, (_, n) => `pre_tool_use when content matches /\\w{50}x\\w{50}${n}/ => deny "r${n}"`).join('\n');
const broken = await session('error', costly, 'generated.txt');
assert.equal(broken.written, false, 'a policy that cannot decide blocks: never an allow');
const throwing = await session('throw', { answerAsync: async () => { throw new Error('simulated evaluation failure'); } }, 'generated.txt');
assert.equal(throwing.written, false, 'an evaluation that throws blocks: never an allow');
console.log('ok - the SDK session: a policy that cannot decide, or throws, blocks the write');

const allowed = await session('allow', 'rule protect pre_tool_use when kind == write and path == "generated.txt" => block "hook_blocked"', 'notes.txt');
assert.equal(allowed.written, true, 'another file is written');
console.log('ok - the SDK session: a write the policy allows goes through');
// Why the callbacks never throw: a callback that throws, with the SDK's default `onFailure`, lets
// the write through.
const raw = { PreToolUse: [{ hooks: [async () => { throw new Error('a hook that throws'); }] }] };
const thrown = await session('sdk-default', 'rule none pre_tool_use when tool == "none" => deny "x"', 'generated.txt', raw);
assert.equal(thrown.written, true, 'the SDK runs the call when a callback throws (its default)');
console.log('ok - checked: the SDK treats a throwing callback as non-blocking by default, so hooksFor returns a block instead');
console.log('claude-agent-sdk: 4 passed, 0 failed (5 sessions)');
