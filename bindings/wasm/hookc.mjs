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

// A lone surrogate: no Unicode text. The module would read it as U+FFFD and decide on what was
// not sent, so a string holding one is refused, as the command and the Node binding refuse it
// (an object's lone surrogates reach Rust as `\ud800` escapes, which its JSON reader refuses).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function text(value, code = 'HOOKC_EVENT', what = 'the event') {
  if (typeof value !== 'string') return JSON.stringify(value);
  if (LONE_SURROGATE.test(value)) throw new HookcError(code, `${what} holds a lone UTF-16 surrogate, which is no Unicode text`);
  return value;
}

// A callback's result as HookResult JSON: a plain object, or nothing (decides nothing). A Map, an
// array or a class instance is refused, not read as `{}`, as the Node binding refuses it.
function resultText(result) {
  if (result === undefined || result === null) return '{}';
  const proto = typeof result === 'object' ? Object.getPrototypeOf(result) : undefined;
  if (proto !== Object.prototype && proto !== null) {
    throw new TypeError(`it returned ${Array.isArray(result) ? 'an array' : typeof result === 'object' ? 'a non-plain object' : `a ${typeof result}`}, not a HookResult object`);
  }
  const json = JSON.stringify(result);
  if (typeof json !== 'string') throw new TypeError('it returned an object that is no JSON');
  return json;
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

/**
 * Per event, hooks in registration order — rule sets and JS callbacks side by side — run by
 * hookc's own registry (the Rust step machine: contract checks, rewrites seen by later hooks, a
 * block or a forced continuation halting the rest), and observers, which see each decision and
 * change nothing. The same API as the Node binding's `HookRegistry`: `run` only does what the run
 * asks, in JavaScript, and hands the answer back.
 */
export class HookRegistry {
  #hooks = [];
  #observers = [];
  observerFailures = 0;

  /** A rule set: it runs at every event, after the hooks registered before it. */
  addRules(policy) {
    if (!(policy instanceof Policy)) throw new TypeError('addRules takes a Policy');
    this.#hooks.push({ policy });
    return this;
  }

  /** A callback for one event (`pre_tool_use` or `PreToolUse`): `(event) => HookResult`, or a
   * Promise of one; `undefined` decides nothing. */
  register(event, callback) {
    if (typeof event !== 'string' || typeof callback !== 'function') {
      throw new TypeError('register takes an event name and a function');
    }
    this.#hooks.push({ event: call(() => eventName(event)), callback });
    return this;
  }

  /** An observer of one event, or of every event (`observe(fn)`). */
  observe(event, observer) {
    if (typeof event === 'function') [event, observer] = [undefined, event];
    if (typeof observer !== 'function') throw new TypeError('observe takes a function');
    this.#observers.push({ event: event === undefined ? undefined : call(() => eventName(event)), observer });
    return this;
  }

  /** Runs the event's hooks and resolves to the merged HookResult; `options.checkInput(args)`
   * judges each PreToolUse rewrite (a string it returns refuses it, nothing accepts it). */
  async run(event, options = {}) {
    if (typeof options === 'function') throw new TypeError('run takes { checkInput }, not a function');
    const check = options?.checkInput;
    if (check !== undefined && typeof check !== 'function') throw new TypeError('checkInput takes a function');
    const hooks = this.#hooks.map((hook) => (hook.policy ? 'rules' : hook.event));
    const run = call(() => Run.start(text(event), hooks, check !== undefined));
    const name = run.eventName;
    try {
      for (;;) {
        const step = JSON.parse(run.need());
        if (step.step === 'done' || step.step === 'failed') {
          this.#notify(name, step.observation);
          if (step.step === 'done') return step.result;
          throw new HookcError(step.error.code, step.error.message, undefined, step.error.detail);
        }
        try {
          await this.#do(run, step, check);
        } catch (error) {
          run.abort(describe(error));
        }
      }
    } finally {
      run.free();
    }
  }

  async #do(run, step, check) {
    if (step.step === 'rules') {
      run.evaluate(this.#hooks[step.index].policy._native);
    } else if (step.step === 'call') {
      let result;
      try {
        result = resultText(await this.#hooks[step.index].callback(step.event));
      } catch (error) {
        run.threw(describe(error));
        return;
      }
      run.returned(result);
    } else if (step.step === 'check') {
      let problem;
      try {
        problem = await check(step.args);
      } catch (error) {
        run.checkThrew(describe(error));
        return;
      }
      if (problem === undefined || problem === null) run.checked(undefined);
      else if (typeof problem === 'string' && !LONE_SURROGATE.test(problem)) run.checked(problem);
      else run.checkAnswered(describe(problem));
    } else {
      // A step this driver does not know: the run ends failed, never passed over.
      run.abort(`the binding does not know the step \`${step.step}\``);
    }
  }

  #notify(name, observation) {
    for (const { event, observer } of this.#observers) {
      if (event !== undefined && event !== name) continue;
      try {
        const returned = observer(observation);
        // An asynchronous observer that rejects changes nothing either, and is counted.
        if (returned && typeof returned.catch === 'function') returned.catch(() => { this.observerFailures += 1; });
      } catch {
        this.observerFailures += 1;
      }
    }
  }
}

// What was thrown, as text, whatever it is.
function describe(error) {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'a value that cannot be shown';
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
