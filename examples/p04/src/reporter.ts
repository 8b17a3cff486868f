// A node:test reporter for run.sh: one line per test (`ok - name` / `not ok - name` and why), then
// `N passed, M failed`. What the tests wrote to stderr is shown only when something failed.

import type { TestEvent } from 'node:test/reporters';
import { inspect } from 'node:util';

export = async function* reporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  let passed = 0;
  let failed = 0;
  const stderr: string[] = [];
  for await (const event of source) {
    if (event.type === 'test:stderr') stderr.push(event.data.message);
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    // Only whole tests count (a file's own failure, outside any test, counts as one too).
    if (event.data.nesting !== 0 || event.data.details.type === 'suite') continue;
    if (event.type === 'test:pass') {
      passed += 1;
      yield `ok - ${event.data.name}\n`;
    } else {
      failed += 1;
      const cause = (event.data.details.error as Error & { cause?: unknown }).cause ?? event.data.details.error;
      yield `not ok - ${event.data.name}\n${indent(inspect(cause))}\n`;
    }
  }
  if (failed > 0 && stderr.length > 0) yield `# stderr of the test files:\n${indent(stderr.join(''))}\n`;
  yield `${passed} passed, ${failed} failed\n`;
};

const indent = (text: string): string =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
