// The evaluation fixtures (tests/fixtures/eval/*.yaml), which the Rust suite and the Node and
// Python bindings run, run here through the WebAssembly build: every case must give the same
// HookResult (or the same error). Cases marked `file_system` read the machine (a link on disk,
// the process's home) and are skipped: in WebAssembly the file system is off. `node
// test/conformance.mjs` after build.sh.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parse } from 'yaml';
import { groups, judge } from '../../../tests/fixtures/eval/corpus.mjs';
import { loadSync, Policy, HookcError, check, agents, builtins } from '../hookc.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
loadSync(readFileSync(path.join(here, '../pkg/hookc_wasm_bg.wasm')));

let passed = 0;
let skipped = 0;
const failed = [];
for (const group of groups(parse)) {
  let policy;
  try {
    policy = Policy.fromSources(group.files);
  } catch (error) {
    failed.push(`${group.file}: ${group.name}: the rules do not load: ${error.message}`);
    continue;
  }
  for (const kase of group.cases) {
    if (kase.fileSystem) {
      skipped++;
      continue;
    }
    const wrong = judge(kase, (event) => policy.evaluate(event), HookcError);
    if (wrong === undefined) passed++;
    else failed.push(wrong);
  }
}

const expect = (ok, what) => (ok ? passed++ : failed.push(what));

// Errors carry codes; a load error its diagnostics.
try {
  Policy.fromSource('typo.rules', 'pre_tool_use when comand == "ls" => deny\n');
  failed.push('a rule with an unknown field loaded');
} catch (error) {
  expect(error instanceof HookcError && error.code === 'E0102' && error.diagnostics?.[0]?.code === 'E0102',
    `a load error's code: ${error.code} ${JSON.stringify(error.diagnostics)}`);
}
try {
  Policy.fromSource('rule a pre_tool_use when tool == "Bash" => deny "no"\n').evaluate('{"event": "nope"}');
  failed.push('a bad event decided');
} catch (error) {
  expect(error instanceof HookcError && error.code === 'HOOKC_EVENT', `a bad event's error: ${error}`);
}

// The hook answer is the command's: the shipped baseline, loaded by name, denies `rm -rf ~`.
const baseline = Policy.fromBuiltin('baseline');
const answer = baseline.answer('claude', {
  hook_event_name: 'PreToolUse', cwd: '/repo', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' },
});
expect(answer.exit === 0 && answer.stdout?.includes('"permissionDecision":"deny"'), `answer: ${JSON.stringify(answer)}`);
expect(baseline.answer('claude', '{"hook_event_name": "PreToolUse", ').exit === 2, 'a truncated payload must block');
expect(builtins().includes('kubernetes') && agents().some((agent) => agent.id === 'codex'), 'builtins and agents');

// The clock is JavaScript's: a waiver in force today lifts its rule, one that ended yesterday
// does not (the day is read at each call, in UTC).
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const waived = (until) => Policy.fromSource(
  `rule no-ls pre_tool_use when tool == "Bash" => deny "no"\nwaive no-ls until ${until} "trial"\n`,
).evaluate({ event: 'pre_tool_use', tool: 'Bash', args: { command: 'ls' } });
expect(waived(day(1)).permissionBehavior === undefined, `a waiver in force: ${JSON.stringify(waived(day(1)))}`);
expect(waived(day(-1)).permissionBehavior === 'deny', `an expired waiver: ${JSON.stringify(waived(day(-1)))}`);

// check: errors and lints with positions.
const report = check('pre_tool_use when kind == wirte => deny "x"\n');
expect(report.rules === null && report.diagnostics[0]?.line === 1, `check: ${JSON.stringify(report)}`);

console.log(`wasm conformance: ${passed} passed, ${failed.length} failed, ${skipped} skipped (file_system)`);
for (const line of failed) console.log(`FAIL ${line}`);
process.exit(failed.length === 0 ? 0 : 1);
