// The WebAssembly build's HookRegistry from Node: what the differential (tests/differential) does
// not generate — the shapes a JavaScript caller can get wrong. `node test/registry.mjs` after build.sh.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadSync, Policy, HookRegistry, HookcError } from '../hookc.mjs';

loadSync(readFileSync(new URL('../pkg/hookc_wasm_bg.wasm', import.meta.url)));
const write = (path) => ({ event: 'pre_tool_use', tool: 'write_file', args: { path, content: 'x' } });
let passed = 0;
async function test(name, body) {
  await body();
  passed += 1;
  console.log(`ok - ${name}`);
}

await test('an async callback is awaited; a rule set sees its rewrite', async () => {
  const hooks = new HookRegistry()
    .register('PreToolUse', async () => ({ updatedInput: { path: 'rewritten', content: 'x' } }))
    .addRules(Policy.fromSource('pre_tool_use when path == "rewritten" => deny "saw it"\n'));
  const result = await hooks.run(write('a'));
  assert.equal(result.permissionBehavior, 'deny');
});

await test('what is no HookResult fails the run closed: a Map, an array, a class instance', async () => {
  class Decision { constructor() { this.permissionBehavior = 'deny'; } }
  for (const returned of [new Map([['permissionBehavior', 'deny']]), ['deny'], new Decision()]) {
    const hooks = new HookRegistry().register('pre_tool_use', () => returned);
    await assert.rejects(hooks.run(write('a')), (error) => error instanceof HookcError && error.code === 'HOOKC_HOOK');
  }
});

await test('run takes { checkInput }, not a function; a refused rewrite is the contract error', async () => {
  const hooks = new HookRegistry().register('pre_tool_use', () => ({ updatedInput: { path: 3 } }));
  await assert.rejects(hooks.run(write('a'), () => 'refused'), TypeError);
  await assert.rejects(hooks.run(write('a'), { checkInput: () => 'refused' }), (error) => error.code === 'HOOKC_CONTRACT');
});

await test('a lone surrogate is refused, as the command refuses it', async () => {
  const policy = Policy.fromSource('pre_tool_use when path == "x" => deny\n');
  const lone = JSON.stringify(write('a\\ud800')).replace('\\\\ud800', '\ud800');
  assert.throws(() => policy.evaluate(lone), (error) => error.code === 'HOOKC_EVENT');
  await assert.rejects(new HookRegistry().addRules(policy).run(lone), (error) => error.code === 'HOOKC_EVENT');
});

await test('an observer that throws or rejects changes nothing and is counted', async () => {
  const hooks = new HookRegistry()
    .observe(() => { throw new Error('broke'); })
    .observe(async () => { throw new Error('rejected'); })
    .register('pre_tool_use', () => ({ permissionBehavior: 'ask' }));
  assert.equal((await hooks.run(write('a'))).permissionBehavior, 'ask');
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(hooks.observerFailures, 2);
});

console.log(`wasm registry: ${passed} passed, 0 failed`);
