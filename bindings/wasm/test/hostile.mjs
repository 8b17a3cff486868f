// Hostile nesting through WebAssembly, whose stack is 1 MB and whose panics abort the instance:
// code nesting 100,000 brackets deep in every language hookc reads comes back as an answer (the
// reader's bound is a reason to ask), or as the HookcError of a line too large to judge.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadSync, Policy, HookcError } from '../hookc.mjs';

loadSync(readFileSync(new URL('../pkg/hookc_wasm_bg.wasm', import.meta.url)));
const baseline = Policy.fromBuiltin('baseline');

const deep = (open, close, inner = '1') => open.repeat(100_000) + inner + close.repeat(100_000);
const quoted = (text) => `'${text.replaceAll("'", `'\\''`)}'`;
const lines = {
  shell: `echo ${deep('$(', ')', 'x')}`,
  python: `python3 -c ${quoted(`x = ${deep('(', ')')}`)}`,
  'python operators': `python3 -c ${quoted(`x = ${'-'.repeat(100_000)}1`)}`,
  node: `node -e ${quoted(`x = ${deep('(', ')')}`)}`,
  perl: `perl -e ${quoted(`print ${deep('(', ')')}`)}`,
  ruby: `ruby -e ${quoted(`p ${deep('[', ']')}`)}`,
  powershell: `pwsh -Command ${quoted(`Write-Output ${deep('(', ')')}`)}`,
  sql: `psql -c ${quoted(`SELECT ${deep('(', ')')}`)}`,
};
let passed = 0;
for (const [language, command] of Object.entries(lines)) {
  const event = { event: 'pre_tool_use', tool: 'Bash', cwd: '/repo', project_root: '/repo', args: { command } };
  let answer;
  try {
    answer = baseline.evaluate(event).permissionBehavior ?? 'passthrough';
  } catch (error) {
    assert.ok(error instanceof HookcError, String(error));
    answer = 'refused';
  }
  if (language !== 'sql') assert.ok(['ask', 'deny', 'refused'].includes(answer), `${language}: ${answer}`);
  passed += 1;
  console.log(`ok - ${language}: ${answer}`);
}
// Just inside Python's bounds, the parser, the walk and the drop fit in WebAssembly's stack.
const inside = {
  'python, 63 brackets': `python3 -c ${quoted(`x = ${'('.repeat(63)}1${')'.repeat(63)}`)}`,
  'python, 500 operators': `python3 -c ${quoted(`x = ${'-'.repeat(500)}1`)}`,
  'python, 500 attributes': `python3 -c ${quoted(`x = a${'.b'.repeat(250)}`)}`,
  'python, 31 blocks': `python3 -c ${quoted(Array.from({ length: 31 }, (_, depth) => `${' '.repeat(depth)}if x:\n`).join('') + ' '.repeat(31) + 'pass')}`,
};
for (const [shape, command] of Object.entries(inside)) {
  const event = { event: 'pre_tool_use', tool: 'Bash', cwd: '/repo', project_root: '/repo', args: { command } };
  const result = baseline.evaluate(event);
  assert.ok(!(result.matched || []).includes('no-unread'), `${shape}: ${JSON.stringify(result)}`);
  passed += 1;
  console.log(`ok - ${shape}: read`);
}
console.log(`wasm hostile nesting: ${passed} passed`);
