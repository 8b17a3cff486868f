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
  initSync, Policy as Native, checkJson, agentsJson, builtinJson, builtinNamesJson,
} from './pkg/hookc_wasm.js';

/** A hookc failure: `code` is `HOOKC_EVENT`, `HOOKC_EVAL`, `HOOKC_AGENT`, `HOOKC_PAYLOAD`,
 * `HOOKC_LOAD`, or a load error's first diagnostic's code (`E0102`), with `diagnostics`. */
export class HookcError extends Error {
  constructor(code, message, diagnostics) {
    super(message);
    this.name = 'HookcError';
    this.code = code;
    if (diagnostics) this.diagnostics = diagnostics;
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

const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

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
    return call(() => this.#native.evaluateJson(event));
  }

  /** `hookc explain`'s trace of one native event. */
  explain(event) {
    return JSON.parse(call(() => this.#native.explainJson(text(event))));
  }

  /** `hookc explain --agent`: the trace of the native event an agent's hook payload becomes. */
  explainPayload(agent, payload, options = {}) {
    return JSON.parse(call(() => this.#native.explainPayloadJson(agent, text(payload), options.event)));
  }

  /** What `hookc hook AGENT` would print and exit with: `{ stdout, exit, stderr }`. */
  answer(agent, payload, options = {}) {
    return JSON.parse(call(() => this.#native.answerJson(agent, text(payload), options.event)));
  }
}

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
