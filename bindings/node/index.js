// hookc for Node: `Policy` loads a policy once and decides in-process; `HookRegistry` runs rule
// sets and JS callbacks. The native module is this platform's package's napi-rs build (`load`
// below). Errors are
// `HookcError`s with a `code` (a load error's first diagnostic, `E0101`…) and, for rules that do not
// check, `diagnostics`.
'use strict';
const path = require('node:path');

class HookcError extends Error {
  constructor(body) {
    super(body.message);
    this.name = 'HookcError';
    this.code = body.code;
    if (body.diagnostics) this.diagnostics = body.diagnostics;
    if (body.detail) this.detail = body.detail;
  }
}

// The native module: HOOKC_NODE_ADDON, a build beside this file (a checkout's `test.sh`), or this
// platform's package (`@hookc/<platform>`, an optional dependency npm installs on its own).
function load() {
  const platform = require('./platform.js');
  const local = path.join(__dirname, 'hookc.node');
  const file = process.env.HOOKC_NODE_ADDON || (require('node:fs').existsSync(local) ? local : platform.resolve('hookc.node'));
  if (!file) {
    throw new Error(
      `hookc: the native module for ${process.platform}-${process.arch} is missing: the package ${platform.name} is not installed ` +
        '(npm skips optional dependencies with --omit=optional, and a platform hookc has no build for)',
    );
  }
  try {
    return require(file);
  } catch (error) {
    throw new Error(`hookc: cannot load the native module ${file}: ${error.message}`);
  }
}
const native = load();

// Native errors carry their fields as JSON in the message.
function rethrow(error) {
  let body;
  try {
    body = JSON.parse(error.message);
  } catch {
    throw error;
  }
  throw new HookcError(body);
}
const guarded = (fn) => (...args) => {
  try {
    return fn(...args);
  } catch (error) {
    rethrow(error);
  }
};

// Text for the native module. A JavaScript string may hold a lone UTF-16 surrogate, which is no
// Unicode text: the native module would read it as U+FFFD and decide on what was not sent, so it
// is refused here as the command refuses such input (an object's lone surrogates reach Rust as
// `\ud800` escapes, which its JSON reader refuses the same way).
// A lone surrogate: a high one not followed by a low one, or a low one not after a high one
// (`String.prototype.isWellFormed` is Node 20's; the package runs on Node 18 too).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function text(value, code, what) {
  if (typeof value !== 'string') return JSON.stringify(value);
  if (LONE_SURROGATE.test(value)) {
    throw new HookcError({ code, message: `${what} holds a lone UTF-16 surrogate, which is no Unicode text` });
  }
  return value;
}

class Policy {
  constructor(inner) {
    this._inner = inner;
  }
  static fromRules(paths) {
    return new Policy(guarded((p) => native.Policy.fromRules(p))(Array.isArray(paths) ? paths : [paths]));
  }
  static fromSource(name, text) {
    return new Policy(guarded((n, t) => native.Policy.fromSource(n, t))(name, text));
  }
  static fromBundle(file, options = {}) {
    return new Policy(guarded((f, o) => native.Policy.fromBundle(f, o))(file, options));
  }
  get sourceHash() {
    return this._inner.sourceHash;
  }
  /** The HookResult for one native event, the same JSON as `hookc eval`. */
  evaluate(event) {
    return JSON.parse(this.evaluateJson(text(event, 'HOOKC_EVENT', 'the event')));
  }
  /** `evaluate` from JSON text to JSON text. */
  evaluateJson(json) {
    return guarded((t) => this._inner.evaluateJson(t))(text(json, 'HOOKC_EVENT', 'the event'));
  }
  /** What `hookc hook AGENT` would print for this payload, and its exit code: `stdout` is `null`
   * when the answer prints nothing. */
  answer(agent, payload, event) {
    const body = text(payload, 'HOOKC_PAYLOAD', 'the payload');
    return answered(guarded((a, p, e) => this._inner.answer(a, p, e))(agent, body, event));
  }
  /** `evaluate` on a worker thread: a Promise, the event loop never waits. */
  async evaluateAsync(event) {
    return JSON.parse(await this.evaluateJsonAsync(event));
  }
  /** `evaluateJson` on a worker thread. */
  async evaluateJsonAsync(json) {
    const event = text(json, 'HOOKC_EVENT', 'the event');
    try {
      return await this._inner.evaluateJsonAsync(event);
    } catch (error) {
      rethrow(error);
    }
  }
  /** `answer` on a worker thread. */
  async answerAsync(agent, payload, event) {
    const body = text(payload, 'HOOKC_PAYLOAD', 'the payload');
    try {
      return answered(await this._inner.answerAsync(agent, body, event));
    } catch (error) {
      rethrow(error);
    }
  }
}

// An answer as its type says: `stdout` is null, not absent, when nothing is printed.
function answered(answer) {
  return { stdout: answer.stdout ?? null, exit: answer.exit, stderr: answer.stderr };
}

// An event's rule-file name (`pre_tool_use`), whichever way it is named (`PreToolUse`).
function eventName(name) {
  if (typeof name !== 'string') throw new HookcError({ code: 'HOOKC_EVENT', message: `an event is named by a string, not ${typeof name}` });
  return guarded((n) => native.eventName(n))(name);
}

/**
 * Per event, hooks in registration order — rule sets and JS callbacks side by side — merged by
 * hookc's own rules (the Rust registry's run, which this only drives: contract checks, rewrites seen by later hooks, a
 * block or a forced continuation halting the rest), and observers, which see each decision and change nothing.
 * A callback that throws or rejects, or returns what the event's contract refuses, fails the run:
 * `run` rejects with a `HookcError` (`HOOKC_HOOK`, `HOOKC_CONTRACT`) and the loop fails closed.
 * An observer that throws is reported and counted, and the run is what it would have been.
 */
class HookRegistry {
  constructor() {
    this._hooks = [];
    this._observers = [];
    this.observerFailures = 0;
  }
  /** A rule set: it runs at every event, after the hooks registered before it. */
  addRules(policy) {
    if (!(policy instanceof Policy)) throw new TypeError('addRules takes a Policy');
    this._hooks.push({ policy });
    return this;
  }
  /** A callback for one event (`pre_tool_use` or `PreToolUse`): `(event) => HookResult`, or a
   * Promise of one; `undefined` decides nothing. It sees the event with earlier rewrites in. */
  register(event, callback) {
    if (typeof callback !== 'function') throw new TypeError('register takes an event and a function');
    this._hooks.push({ event: eventName(event), callback });
    return this;
  }
  /** An observer of one event, or of every event (`observe(fn)`). */
  observe(event, observer) {
    if (typeof event === 'function') [event, observer] = [undefined, event];
    if (typeof observer !== 'function') throw new TypeError('observe takes a function');
    this._observers.push({ event: event === undefined ? undefined : eventName(event), observer });
    return this;
  }
  /** Runs the event's hooks in order and resolves to the merged HookResult. `options.checkInput(args)`,
   * if given, judges each PreToolUse rewrite as the hook that made it returns it (the tool's schema,
   * say): a string it returns (or resolves to) is why the rewrite is refused, and the run rejects
   * with the seed's contract error; no later hook runs. `undefined` or `null` accepts it; anything
   * else (`true`, `false`…) fails the run closed, so a predicate is never read backwards. */
  async run(event, options = {}) {
    if (typeof options === 'function') throw new TypeError('run takes { checkInput }, not a function');
    const check = options?.checkInput;
    if (check !== undefined && typeof check !== 'function') throw new TypeError('checkInput takes a function');
    // The run is Rust's (the order, the contract checks, the merge, when it ends): this loop only
    // does what it asks, in JavaScript, and hands the answer back.
    const hooks = this._hooks.map((hook) => (hook.policy ? 'rules' : hook.event));
    const run = guarded((t, h, c) => native.Run.start(t, h, c))(text(event, 'HOOKC_EVENT', 'the event'), hooks, check !== undefined);
    const name = run.eventName;
    for (;;) {
      const step = JSON.parse(run.need());
      if (step.step === 'done' || step.step === 'failed') {
        this._notify(name, step.observation);
        if (step.step === 'done') return step.result;
        throw new HookcError(step.error);
      }
      // Whatever goes wrong handing a step over fails the run through the run itself, so that
      // the observers see it and the error has its code.
      try {
        await this._do(run, step, check);
      } catch (error) {
        run.abort(describe(error));
      }
    }
  }
  /** Does one step the run asks for and hands the answer back. */
  async _do(run, step, check) {
    switch (step.step) {
      case 'rules':
        await run.evaluateAsync(this._hooks[step.index].policy._inner);
        return;
      case 'call': {
        let result;
        try {
          // JSON text: JSON.stringify writes a lone surrogate as an escape, which Rust refuses.
          result = resultText(await this._hooks[step.index].callback(step.event));
        } catch (error) {
          run.threw(describe(error));
          return;
        }
        run.returned(result);
        return;
      }
      case 'check': {
        let problem;
        try {
          problem = await check(step.args);
        } catch (error) {
          run.checkThrew(describe(error));
          return;
        }
        if (problem === undefined || problem === null) run.checked(null);
        else if (typeof problem === 'string' && !LONE_SURROGATE.test(problem)) run.checked(problem);
        else run.checkAnswered(describe(problem));
        return;
      }
      default:
        // A step this driver does not know: the run ends failed, never passed over.
        run.abort(`the binding does not know the step \`${step.step}\``);
    }
  }
  _notify(name, observation) {
    for (const { event, observer } of this._observers) {
      if (event !== undefined && event !== name) continue;
      try {
        const returned = observer(observation);
        if (returned && typeof returned.catch === 'function') returned.catch((error) => this._observerFailed(name, error));
      } catch (error) {
        this._observerFailed(name, error);
      }
    }
  }
  _observerFailed(name, error) {
    this.observerFailures += 1;
    try {
      process.emitWarning(`hookc: an observer of ${name} failed: ${describe(error)}`);
    } catch {
      // A warning that cannot be given changes the run no more than the observer may.
    }
  }
}

// A callback's result as JSON: a plain object (or nothing, which decides nothing). A Map, a class
// instance, an array or a string is no HookResult: JSON would read it as `{}` or by position.
function resultText(result) {
  if (result === undefined || result === null) return '{}';
  const proto = typeof result === 'object' ? Object.getPrototypeOf(result) : undefined;
  if (proto !== Object.prototype && proto !== null) {
    throw new TypeError(`it returned ${Array.isArray(result) ? 'an array' : typeof result === 'object' ? `a ${proto && proto.constructor ? proto.constructor.name : 'non-plain object'}` : `a ${typeof result}`}, not a HookResult object`);
  }
  const json = JSON.stringify(result);
  // A `toJSON` may make an object into no JSON at all.
  if (typeof json !== 'string') throw new TypeError('it returned an object that is no JSON');
  return json;
}

// What was thrown, as text, whatever it is (an `Error`, `undefined`, an object whose
// `toString` throws).
function describe(error) {
  try {
    if (error instanceof Error) return error.message;
    return String(error);
  } catch {
    return 'a value that cannot be shown';
  }
}

module.exports = { Policy, HookRegistry, HookcError };
