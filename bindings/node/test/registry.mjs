// HookRegistry from Node: rule sets and JS callbacks (sync or async) merged by hookc's own chain,
// the cases of the Rust registry's tests (tests/agent.rs) as a JS caller meets them.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Policy, HookRegistry, HookcError } = require('../index.js');

const rules = (text) => Policy.fromSource('test.rules', text);
const write = (path) => ({ event: 'pre_tool_use', tool: 'write_file', args: { path, content: 'x' } });
let passed = 0;
async function test(name, body) {
  await body();
  passed += 1;
  console.log(`ok - ${name}`);
}

await test('hooks run in registration order and later hooks see earlier rewrites', async () => {
  const seen = [];
  const hooks = new HookRegistry()
    .register('PreToolUse', () => ({ updatedInput: { path: 'rewritten', content: 'x' } }))
    .addRules(rules('pre_tool_use when path == "rewritten" => deny "the rules saw the rewrite"'))
    .register('pre_tool_use', (event) => {
      seen.push(event.args.path);
      return { permissionBehavior: 'allow' };
    });
  const result = await hooks.run(write('original'));
  assert.equal(result.permissionBehavior, 'deny', 'a later allow never weakens a deny');
  assert.equal(result.permissionReason, 'the rules saw the rewrite');
  assert.equal(result.updatedInput.path, 'rewritten');
  assert.deepEqual(seen, ['rewritten'], 'the later callback ran (a deny does not halt) and saw the rewrite');
});

await test('an async callback is awaited, and the event loop runs meanwhile', async () => {
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 1);
  const hooks = new HookRegistry().register('pre_tool_use', async (event) => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    return { permissionBehavior: 'ask', permissionReason: `asked about ${event.args.path}` };
  });
  const result = await hooks.run(write('a.txt'));
  clearInterval(timer);
  assert.equal(result.permissionBehavior, 'ask');
  assert.equal(result.permissionReason, 'asked about a.txt');
  assert.ok(ticks > 3, `the event loop ran while the callback waited (${ticks} ticks)`);
});

await test('a block halts the chain: later hooks do not run', async () => {
  let later = 0;
  const hooks = new HookRegistry()
    .addRules(rules('pre_tool_use when path == "generated.txt" => block "hook_blocked"'))
    .register('pre_tool_use', () => {
      later += 1;
    });
  const result = await hooks.run(write('generated.txt'));
  assert.equal(result.blockingError.code, 'hook_blocked');
  assert.equal(later, 0);
  await hooks.run(write('other.txt'));
  assert.equal(later, 1);
});

await test("a rule set evaluates off the event loop, within the hook call's compile budget", async () => {
  const costly = Array.from({ length: 301 }, (_, n) => `pre_tool_use when content matches /\\w{50}x\\w{50}${n}/ => deny "r${n}"`).join('\n');
  const hooks = new HookRegistry().addRules(Policy.fromSource('costly.rules', costly));
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 5);
  const started = Date.now();
  await assert.rejects(
    hooks.run({ event: 'pre_tool_use', tool: 'write_file', args: { path: 'a', content: `${'a'.repeat(60)}x${'b'.repeat(60)}0123456789` } }),
    (error) => error.code === 'HOOKC_HOOK' && /spent more than 0.7 s compiling/.test(error.message),
  );
  clearInterval(timer);
  assert.ok(Date.now() - started < 3000, `${Date.now() - started} ms`);
  assert.ok(ticks > 20, `the event loop ran while the rules evaluated (${ticks} ticks)`);
});

await test('a callback that throws or rejects fails the run closed, with the seed text', async () => {
  for (const callback of [
    () => {
      throw new Error('boom');
    },
    async () => Promise.reject(new Error('boom')),
  ]) {
    const observed = [];
    const hooks = new HookRegistry().register('pre_tool_use', callback).observe((o) => observed.push(o));
    await assert.rejects(hooks.run(write('a.txt')), (error) => {
      assert.ok(error instanceof HookcError);
      assert.equal(error.code, 'HOOKC_HOOK');
      assert.equal(error.message, 'PreToolUse hook failed: the callback failed: boom');
      return true;
    });
    assert.equal(observed.length, 1);
    assert.equal(observed[0].outcome, 'error');
    assert.match(observed[0].error, /the callback failed: boom/);
  }
});

await test('whatever a callback throws fails the run, even undefined or null', async () => {
  for (const thrown of [undefined, null, 0, '', { toString() { throw new Error('no'); } }]) {
    const hooks = new HookRegistry().register('pre_tool_use', () => {
      throw thrown;
    });
    await assert.rejects(hooks.run(write('a.txt')), (error) => error instanceof HookcError && error.code === 'HOOKC_HOOK');
  }
  const sneaky = new HookRegistry().register('pre_tool_use', () => ({
    toJSON() {
      throw undefined;
    },
  }));
  await assert.rejects(sneaky.run(write('a.txt')), (error) => error.code === 'HOOKC_HOOK');
});

await test('what is not a plain object is no HookResult: a Map, an array, an instance, a string', async () => {
  class Decision {
    get permissionBehavior() {
      return 'deny';
    }
  }
  for (const result of [new Map([['permissionBehavior', 'deny']]), ['deny'], [], new Decision(), 'deny', 1, true]) {
    const hooks = new HookRegistry().register('pre_tool_use', () => result);
    await assert.rejects(hooks.run(write('a.txt')), (error) => error.code === 'HOOKC_HOOK' && /HookResult/.test(error.message), String(result));
  }
  const bare = Object.assign(Object.create(null), { permissionBehavior: 'deny' });
  assert.equal((await new HookRegistry().register('pre_tool_use', () => bare).run(write('a.txt'))).permissionBehavior, 'deny');
});

await test('a result with fields its event cannot carry is a contract error', async () => {
  const hooks = new HookRegistry().register('pre_tool_use', () => ({
    updatedOutput: { content: 'x', isError: false },
    forceContinue: 'y',
  }));
  await assert.rejects(hooks.run({ event: 'pre_tool_use', tool: 't' }), (error) => {
    assert.equal(error.code, 'HOOKC_CONTRACT');
    // validateFor's own text, as the seed's registry throws it (the loop gives the model a fixed one).
    assert.equal(error.message, 'PreToolUse HookResult does not allow fields: updatedOutput, forceContinue');
    assert.match(error.detail, /does not allow fields: updatedOutput, forceContinue$/);
    return true;
  });
  const stop = new HookRegistry().register('stop', () => ({
    blockingError: { code: 'x', message: 'y' },
    updatedInput: {},
  }));
  await assert.rejects(stop.run({ event: 'stop' }), /Stop HookResult does not allow fields: updatedInput, blockingError/);
});

await test('what a callback returns that is no HookResult fails the run', async () => {
  const hooks = new HookRegistry().register('pre_tool_use', () => ({ permission: 'allow' }));
  await assert.rejects(hooks.run(write('a.txt')), (error) => error.code === 'HOOKC_HOOK' && /no HookResult/.test(error.message));
});

await test('a callback returning nothing decides nothing; callbacks of other events do not run', async () => {
  let stops = 0;
  const hooks = new HookRegistry()
    .register('pre_tool_use', () => undefined)
    .register('stop', () => {
      stops += 1;
    });
  assert.deepEqual(await hooks.run(write('a.txt')), {});
  assert.equal(stops, 0);
});

await test('a second Stop cannot force another turn', async () => {
  const hooks = new HookRegistry().register('stop', () => ({ forceContinue: 'run the tests first' }));
  assert.equal((await hooks.run({ event: 'stop' })).forceContinue, 'run the tests first');
  const again = await hooks.run({ event: 'stop', stop_hook_active: true });
  assert.equal(again.forceContinue, undefined, 'one extra turn at most');
});

await test('observers see each decision; a failing observer changes nothing and is counted', async () => {
  const seen = [];
  const warnings = [];
  const onWarning = (warning) => warnings.push(warning.message);
  process.on('warning', onWarning);
  const hooks = new HookRegistry()
    .addRules(rules('rule no-env pre_tool_use when path == ".env" => deny "no secrets"'))
    .observe(() => {
      throw new Error('observer broke');
    })
    .observe('pre_tool_use', (observation) => seen.push(observation))
    .observe('stop', () => assert.fail('an observer of another event ran'));
  const result = await hooks.run(write('.env'));
  await new Promise((resolve) => setImmediate(resolve));
  process.off('warning', onWarning);
  assert.equal(result.permissionBehavior, 'deny');
  assert.equal(hooks.observerFailures, 1);
  assert.ok(warnings.some((message) => message.includes('observer broke')), warnings.join('\n'));
  assert.equal(seen.length, 1);
  assert.equal(seen[0].event, 'pre_tool_use');
  assert.equal(seen[0].tool, 'write_file');
  assert.equal(seen[0].outcome, 'deny');
  assert.deepEqual(seen[0].matched, ['no-env']);
  assert.equal(seen[0].reason, 'no secrets');
});

await test('a bad event or an unknown event name is a HookcError', async () => {
  const hooks = new HookRegistry();
  await assert.rejects(hooks.run({ event: 'pre_tool_use' }), (error) => error.code === 'HOOKC_EVENT');
  await assert.rejects(hooks.run({ event: 'pre_tool_use', tool: 't', argz: {} }), (error) => error.code === 'HOOKC_EVENT');
  for (const name of ['PreToolUze', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    assert.throws(() => hooks.register(name, () => {}), (error) => error.code === 'HOOKC_EVENT', name);
    assert.throws(() => hooks.observe(name, () => {}), (error) => error.code === 'HOOKC_EVENT', name);
  }
  assert.throws(() => hooks.addRules({}), TypeError);
});

await test("checkInput judges each rewrite as its hook returns it: a later hook cannot repair a refused one", async () => {
  const schema = (args) => (typeof args.content === 'string' ? undefined : 'write_file: argument `content` must be a string');
  let later = 0;
  const observed = [];
  const hooks = new HookRegistry()
    .observe((observation) => observed.push(observation))
    .register('pre_tool_use', () => ({ updatedInput: { path: 'a.txt', content: 7 } }))
    .register('pre_tool_use', () => {
      later += 1;
      return { updatedInput: { path: 'a.txt', content: 'repaired' } };
    });
  await assert.rejects(hooks.run(write('a.txt'), { checkInput: schema }), (error) => {
    assert.ok(error instanceof HookcError);
    assert.equal(error.code, 'HOOKC_CONTRACT');
    assert.equal(error.message, 'PreToolUse hook returned an invalid update');
    assert.match(error.detail, /content/);
    return true;
  });
  assert.equal(later, 0, 'no hook after the refused rewrite ran');
  assert.match(observed[0].error, /^PreToolUse hook returned an invalid update: .*content/, 'observers see it in full');
  // Without the check the same chain runs to the repaired call; a rule set's rewrite is checked too.
  assert.equal((await hooks.run(write('a.txt'))).updatedInput.content, 'repaired');
  const ruled = new HookRegistry().addRules(rules('pre_tool_use => set path = "elsewhere.txt"'));
  const refusePath = (args) => (args.path === 'elsewhere.txt' ? 'no writing elsewhere' : undefined);
  await assert.rejects(ruled.run(write('a.txt'), { checkInput: refusePath }), (error) => error.code === 'HOOKC_CONTRACT');
  // An async check is awaited; an accepted rewrite passes; an unchanged call is not checked.
  let checked = 0;
  const accept = async () => {
    checked += 1;
    return undefined;
  };
  assert.equal((await ruled.run(write('a.txt'), { checkInput: accept })).updatedInput.path, 'elsewhere.txt');
  await new HookRegistry().register('pre_tool_use', () => ({ permissionBehavior: 'ask' })).run(write('a.txt'), { checkInput: accept });
  assert.equal(checked, 1);
  // A check that throws fails the run closed.
  const thrower = () => {
    throw new Error('schema broke');
  };
  await assert.rejects(ruled.run(write('a.txt'), { checkInput: thrower }), (error) => error.code === 'HOOKC_HOOK' && /schema broke/.test(error.message));
  // A predicate's true or false is never read backwards; a function in place of the options is refused.
  for (const answer of [true, false, 0]) {
    await assert.rejects(ruled.run(write('a.txt'), { checkInput: () => answer }), (error) => error.code === 'HOOKC_HOOK');
  }
  await assert.rejects(ruled.run(write('a.txt'), schema), TypeError);
  // A callback's rewrite is checked even when it changes nothing.
  const same = new HookRegistry().register('pre_tool_use', (event) => ({ updatedInput: event.args }));
  await assert.rejects(same.run(write('a.txt'), { checkInput: () => 'refused' }), (error) => error.code === 'HOOKC_CONTRACT');
});

await test('the binding takes the shapes the command does: lone surrogates refused, stdout null when nothing is printed', async () => {
  const policy = rules('pre_tool_use when path == "x" => deny "no"');
  const lone = { event: 'pre_tool_use', tool: 'write_file', args: { path: 'a\ud800', content: 'x' } };
  for (const event of [lone, JSON.stringify(lone).replace('\\ud800', '\ud800')]) {
    assert.throws(() => policy.evaluate(event), (error) => error instanceof HookcError && error.code === 'HOOKC_EVENT', typeof event);
  }
  await assert.rejects(new HookRegistry().addRules(policy).run(lone), (error) => error.code === 'HOOKC_EVENT');
  const quiet = policy.answer('claude', { hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: 'a' } });
  assert.equal(quiet.stdout, null, 'nothing printed is null, as the type says');
  assert.equal(quiet.exit, 0);
  assert.throws(() => policy.answer('claude', 'x\udc00'), (error) => error.code === 'HOOKC_PAYLOAD');
});

await test('numbers past 2^53 stay numbers; what cannot be handed over fails the run through it, observed', async () => {
  const event = '{"event":"pre_tool_use","tool":"write_file","args":{"path":"a.txt","content":"x","id":9007199254740993}}';
  const result = await new HookRegistry().addRules(rules('pre_tool_use when path == "a.txt" => set content = "y"')).run(event);
  assert.equal(typeof result.updatedInput.id, 'number');
  assert.equal(JSON.stringify(result.updatedInput).includes('"id":9007199254740992'), true);
  const observed = [];
  const hooks = new HookRegistry()
    .observe((observation) => observed.push(observation))
    .register('pre_tool_use', () => ({ toJSON: () => undefined }));
  await assert.rejects(hooks.run(write('a.txt')), (error) => error instanceof HookcError && error.code === 'HOOKC_HOOK' && /no JSON/.test(error.message));
  assert.equal(observed.length, 1);
  assert.equal(observed[0].outcome, 'error');
});

console.log(`${passed} passed, 0 failed`);
