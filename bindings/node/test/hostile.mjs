// Hostile nesting through the Node binding: a stack overflow in native code kills the host agent,
// so code nesting 100,000 brackets deep in every language hookc reads must come back as an
// answer (the reader's bound is a reason to ask), on the main thread and on a worker.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { Policy, HookcError } = require('../index.js');
const baseline = Policy.fromRules(fileURLToPath(new URL('../../../rules', import.meta.url)));

const deep = (open, close, inner = '1') => open.repeat(100_000) + inner + close.repeat(100_000);
const quoted = (text) => `'${text.replaceAll("'", `'\\''`)}'`;
const lines = {
  shell: `echo ${deep('$(', ')', 'x')}`,
  python: `python3 -c ${quoted(`x = ${deep('(', ')')}`)}`,
  'python lists': `python3 -c ${quoted(`x = ${deep('[', ']')}`)}`,
  'python operators': `python3 -c ${quoted(`x = ${'-'.repeat(100_000)}1`)}`,
  node: `node -e ${quoted(`x = ${deep('(', ')')}`)}`,
  perl: `perl -e ${quoted(`print ${deep('(', ')')}`)}`,
  ruby: `ruby -e ${quoted(`p ${deep('[', ']')}`)}`,
  php: `php -r ${quoted(`echo ${deep('(', ')')};`)}`,
  awk: `awk ${quoted(`BEGIN { print ${deep('(', ')')} }`)}`,
  powershell: `pwsh -Command ${quoted(`Write-Output ${deep('(', ')')}`)}`,
  sql: `psql -c ${quoted(`SELECT ${deep('(', ')')}`)}`,
};

// An answer, or the binding's HookcError (a line too large to judge: the embedder fails closed,
// as `hookc hook` blocks it); anything else, or no return at all, fails.
const answer = async (run) => {
  try {
    return await run();
  } catch (error) {
    assert.ok(error instanceof HookcError, String(error));
    return { permissionBehavior: 'refused', matched: [error.code] };
  }
};

let passed = 0;
for (const [language, command] of Object.entries(lines)) {
  const event = { event: 'pre_tool_use', tool: 'Bash', cwd: '/repo', project_root: '/repo', args: { command } };
  const answers = [await answer(() => baseline.evaluate(event)), await answer(() => baseline.evaluateAsync(event))];
  assert.deepEqual(answers[0], answers[1], `${language}: the same answer on a worker`);
  // What passes a reader's bound is unread, and the baseline asks; SQL is the database pack's.
  if (language !== 'sql') {
    const refuses = ['ask', 'deny', 'refused'].includes(answers[0].permissionBehavior);
    assert.ok(refuses, `${language}: ${JSON.stringify(answers[0])}`);
  }
  passed += 1;
  console.log(`ok - ${language}: ${answers[0].permissionBehavior ?? 'passthrough'} (${(answers[0].matched || []).join(', ')})`);
}
console.log(`hostile nesting: ${passed} passed`);
