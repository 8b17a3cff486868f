// The registry differential's JavaScript drivers: each case of cases.jsonl (stdin) through the
// Node binding's or the WebAssembly build's `HookRegistry.run` (`node js.mjs node|wasm`), its
// outcome and observation as one JSON line (stdout). The bindings must be built.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

async function binding(which) {
  if (which === 'node') return createRequire(import.meta.url)('../../bindings/node');
  const wasm = await import('../../bindings/wasm/hookc.mjs');
  wasm.loadSync(readFileSync(new URL('../../bindings/wasm/pkg/hookc_wasm_bg.wasm', import.meta.url)));
  return wasm;
}

const { Policy, HookRegistry } = await binding(process.argv[2]);
const check = (args) => (args.path === undefined || typeof args.path === 'string' ? undefined : '`path` must be a string');
for (const line of readFileSync(0, 'utf8').split('\n').filter(Boolean)) {
  const { event, hooks, check: checking } = JSON.parse(line);
  const registry = new HookRegistry();
  hooks.forEach((hook, index) => {
    if (hook.rules !== undefined) registry.addRules(Policy.fromSource(`case${index}.rules`, hook.rules));
    else if (hook.throws !== undefined) registry.register(hook.on, () => { throw new Error(hook.throws); });
    else registry.register(hook.on, () => hook.returns);
  });
  let observation;
  registry.observe((seen) => { observation = { outcome: seen.outcome, matched: seen.matched, error: seen.error ?? null }; });
  let outcome;
  try {
    outcome = { result: await registry.run(event, checking ? { checkInput: check } : {}) };
  } catch (error) {
    outcome = { error: { code: error.code, message: error.message, detail: error.detail ?? null } };
  }
  console.log(JSON.stringify({ ...outcome, observation }));
}
