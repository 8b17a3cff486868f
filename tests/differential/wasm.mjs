// The registry differential's WebAssembly driver: each case of cases.jsonl (stdin) through
// hookc.mjs's `HookRegistry.run` (bindings/wasm/build.sh must have built pkg/), its outcome and
// observation as one JSON line (stdout).
import { readFileSync } from 'node:fs';
import { loadSync, Policy, HookRegistry } from '../../bindings/wasm/hookc.mjs';

loadSync(readFileSync(new URL('../../bindings/wasm/pkg/hookc_wasm_bg.wasm', import.meta.url)));
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
