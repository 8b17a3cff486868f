// The evaluation fixtures (tests/fixtures/eval/*.yaml), which the Rust suite runs, run here
// through the Node binding: every case must give the same HookResult (or the same error), and
// the hook answer must be the command's. `node test/conformance.mjs` after bindings/node/test.sh
// has built the module.
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { groups, judge } from '../../../tests/fixtures/eval/corpus.mjs';

const require = createRequire(import.meta.url);
const { Policy, HookcError } = require('../index.js');

let passed = 0;
const failed = [];
for (const group of groups(parse)) {
  const names = Object.keys(group.files).sort();
  let policy;
  try {
    if (names.length === 1) {
      policy = Policy.fromSource(names[0], group.files[names[0]]);
    } else {
      // Several files: tried in name order, as the Rust table does; written to a temp dir.
      const dir = mkdtempSync(path.join(tmpdir(), 'hookc-node-'));
      for (const name of names) writeFileSync(path.join(dir, name), group.files[name]);
      policy = Policy.fromRules([dir]);
    }
  } catch (error) {
    failed.push(`${group.file}: ${group.name}: the rules do not load: ${error.message}`);
    continue;
  }
  for (const kase of group.cases) {
    const label = kase.label;
    // The async variant gives what the sync one gives, result or error.
    const sync = (() => { try { return JSON.stringify(policy.evaluate(kase.event)); } catch (error) { return `error ${error.code} ${error.message}`; } })();
    const asynchronous = await policy.evaluateAsync(kase.event).then(
      (result) => JSON.stringify(result),
      (error) => (error instanceof HookcError ? `error ${error.code} ${error.message}` : `not a HookcError: ${error}`),
    );
    if (sync !== asynchronous) failed.push(`${label}: evaluateAsync gave ${asynchronous}, evaluate ${sync}`);
    const wrong = judge(kase, (event) => policy.evaluate(event), HookcError);
    if (wrong === undefined) passed++;
    else failed.push(wrong);
  }
}

// Errors carry codes; a load error its diagnostics.
try {
  Policy.fromSource('typo.rules', 'pre_tool_use when comand == "ls" => deny\n');
  failed.push('a rule with an unknown field loaded');
} catch (error) {
  if (!(error instanceof HookcError) || error.code !== 'E0102' || error.diagnostics?.[0]?.code !== 'E0102') {
    failed.push(`a load error's code: ${error.code} ${JSON.stringify(error.diagnostics)}`);
  } else passed++;
}

// The hook answer is the command's: a Claude Code payload the shipped baseline denies.
const baseline = Policy.fromRules(['builtin:baseline']);
const answer = baseline.answer('claude', {
  hook_event_name: 'PreToolUse', cwd: '/repo', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' },
});
if (answer.exit === 0 && answer.stdout?.includes('"permissionDecision":"deny"')) passed++;
else failed.push(`answer: ${JSON.stringify(answer)}`);
const broken = baseline.answer('claude', '{"hook_event_name": "PreToolUse", ');
if (broken.exit === 2) passed++;
else failed.push(`a truncated payload must block: ${JSON.stringify(broken)}`);

// The async variants run off the event loop: while a call compiles 301 costly regexes (until the
// hook's 0.7 s compile budget fails it closed), timers keep firing.
const costly = Policy.fromSource(
  'costly.rules',
  Array.from({ length: 301 }, (_, n) => `pre_tool_use when command matches /\\w{50}x\\w{50}${n}/ => deny "r${n}"`).join('\n') + '\n',
);
let ticks = 0;
const timer = setInterval(() => ticks++, 5);
const slow = await costly.answerAsync('claude', {
  hook_event_name: 'PreToolUse', cwd: '/repo', tool_name: 'Bash', tool_input: { command: 'echo a' },
});
clearInterval(timer);
if (slow.exit === 2 && ticks >= 10) passed++;
else failed.push(`answerAsync blocked the event loop or did not fail closed: ${ticks} ticks, ${JSON.stringify(slow)}`);
const asyncAnswer = await baseline.answerAsync('claude', {
  hook_event_name: 'PreToolUse', cwd: '/repo', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' },
});
if (JSON.stringify(asyncAnswer) === JSON.stringify(answer)) passed++;
else failed.push(`answerAsync differs: ${JSON.stringify(asyncAnswer)}`);
try {
  await baseline.evaluateJsonAsync('{"event": "nope"}');
  failed.push('a bad event resolved');
} catch (error) {
  if (error instanceof HookcError && error.code === 'HOOKC_EVENT') passed++;
  else failed.push(`a bad event's rejection: ${error}`);
}

console.log(`node conformance: ${passed} passed, ${failed.length} failed`);
for (const line of failed) console.log(`FAIL ${line}`);
process.exit(failed.length === 0 ? 0 : 1);
