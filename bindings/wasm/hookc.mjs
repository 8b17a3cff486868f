// hookc in WebAssembly: the same Policy as the Node binding, in a browser (or any JavaScript
// runtime with WebAssembly), with the file system off and JavaScript's clock.
//
//   import { load, Policy, check } from './hookc.mjs';
//   await load();                                   // fetches hookc_wasm_bg.wasm beside it
//   const policy = Policy.fromSource('pre_tool_use when tool == "Bash" => deny "no"\n');
//   policy.evaluate({ event: 'pre_tool_use', tool: 'Bash', args: { command: 'ls' } });
//
// What the file system being off means: no link is followed, `~` is no directory of the process,
// and a Stop rule's turn (read from the agent's transcript elsewhere) is empty. hookc never expands
// globs against the disk. The evaluation fixtures that read the machine are marked `file_system`
// and skipped here (test/conformance.mjs).
import init, {
  initSync, Policy as Native, Run, eventName, checkJson, agentsJson, builtinJson, builtinNamesJson,
} from './pkg/hookc_wasm.js';
import { makeHookRegistry, LONE_SURROGATE } from './registry.mjs';

/** A hookc failure: `code` is `HOOKC_EVENT`, `HOOKC_EVAL`, `HOOKC_AGENT`, `HOOKC_PAYLOAD`,
 * `HOOKC_LOAD`, or a load error's first diagnostic's code (`E0102`), with `diagnostics`. */
export class HookcError extends Error {
  constructor(code, message, diagnostics, detail) {
    super(message);
    this.name = 'HookcError';
    this.code = code;
    if (diagnostics) this.diagnostics = diagnostics;
    if (detail) this.detail = detail;
  }
}

/** Loads the WebAssembly module: from a URL, Response, or bytes; by default the file beside this
 * one. Call once before anything else. */
export async function load(source) {
  await init(source === undefined ? undefined : { module_or_path: source });
}

/** Loads the module from its bytes, synchronously (Node, workers). */
export function loadSync(bytes) {
  initSync({ module: bytes });
}

// The Rust side throws an Error whose message is `{"code", "message", "diagnostics"?}`.
function call(work) {
  try {
    return work();
  } catch (error) {
    let body;
    try {
      body = JSON.parse(error?.message);
    } catch {
      throw error;
    }
    throw new HookcError(body.code, body.message, body.diagnostics);
  }
}

// A string holding a lone surrogate is no Unicode text: the module would read it as U+FFFD and
// decide on what was not sent, so it is refused, as the command and the Node binding refuse it (an
// object's lone surrogates reach Rust as `\ud800` escapes, which its JSON reader refuses).
function text(value, code = 'HOOKC_EVENT', what = 'the event') {
  if (typeof value !== 'string') return JSON.stringify(value);
  if (LONE_SURROGATE.test(value)) throw new HookcError(code, `${what} holds a lone UTF-16 surrogate, which is no Unicode text`);
  return value;
}

/** A compiled policy. */
export class Policy {
  #native;

  constructor(native) {
    this.#native = native;
  }

  /** `fromSource(text)` or `fromSource(name, text)`, as the Node binding's. */
  static fromSource(...args) {
    const [name, source] = args.length >= 2 ? args : [undefined, args[0]];
    return new Policy(call(() => Native.fromSource(source, name)));
  }

  /** Several rule files, `{ name: text }`, tried in name order. */
  static fromSources(files) {
    return new Policy(call(() => Native.fromSourcesJson(JSON.stringify(files))));
  }

  /** Rule sets shipped inside hookc, by name (`baseline`, `packs`, a pack): `--rules builtin:NAME`. */
  static fromBuiltin(...names) {
    return Policy.fromSources(Object.assign({}, ...names.map(builtinSources)));
  }

  /** The policy's identity (`sha256:…`). */
  get sourceHash() {
    return this.#native.sourceHash;
  }

  /** One native event (object or JSON text) → its HookResult, the JSON of `hookc eval`. */
  evaluate(event) {
    return JSON.parse(this.evaluateJson(text(event)));
  }

  /** `evaluate` from JSON text to JSON text. */
  evaluateJson(event) {
    return call(() => this.#native.evaluateJson(text(event)));
  }

  /** `hookc explain`'s trace of one native event. */
  explain(event) {
    return JSON.parse(call(() => this.#native.explainJson(text(event))));
  }

  /** `hookc explain --agent`: the trace of the native event an agent's hook payload becomes. */
  explainPayload(agent, payload, options = {}) {
    return JSON.parse(call(() => this.#native.explainPayloadJson(agent, text(payload, 'HOOKC_PAYLOAD', 'the payload'), options.event)));
  }

  /** What `hookc hook AGENT` would print and exit with: `{ stdout, exit, stderr }`. */
  answer(agent, payload, options = {}) {
    return JSON.parse(call(() => this.#native.answerJson(agent, text(payload, 'HOOKC_PAYLOAD', 'the payload'), options.event)));
  }

  /** The native policy, for a registry's run. */
  get _native() {
    return this.#native;
  }
}

/** The registry: the one JavaScript driver of the Rust run, shared with the Node binding
 * (`bindings/node/registry.js`; build.sh copies it here as `registry.mjs`). */
export const HookRegistry = makeHookRegistry({
  isPolicy: (value) => value instanceof Policy,
  eventName: (name) => call(() => eventName(name)),
  start: (event, hooks, checks) => call(() => Run.start(text(event), hooks, checks)),
  evaluate: (run, policy) => run.evaluate(policy._native),
  error: (body) => new HookcError(body.code, body.message, undefined, body.detail),
  // The run's memory is WebAssembly's, freed by hand.
  finish: (run) => run.free(),
  warn: (message) => globalThis.console?.warn?.(message),
});

/** `hookc check` of one rule file: `{ rules, diagnostics }` (`rules` is null when it has errors). */
export function check(source, name) {
  return JSON.parse(checkJson(source, name));
}

/** Every agent hookc answers: `[{ id, name, events }]`. */
export function agents() {
  return JSON.parse(agentsJson());
}

/** A shipped rule set's files, `{ 'builtin:PATH': text }`. */
export function builtinSources(name) {
  return JSON.parse(call(() => builtinJson(name)));
}

/** The names of the shipped rule sets: `baseline`, `packs`, and each pack. */
export function builtins() {
  return JSON.parse(builtinNamesJson());
}
