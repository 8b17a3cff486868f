// hookc for Node: `Policy` loads a policy once and decides in-process; `HookRegistry` runs rule
// sets and JS callbacks. The native module is this platform's package's napi-rs build (`load`
// below). Errors are
// `HookcError`s with a `code` (a load error's first diagnostic, `E0101`…) and, for rules that do not
// check, `diagnostics`.
'use strict';
const path = require('node:path');
const { makeHookRegistry, LONE_SURROGATE } = require('./registry.js');

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

// The registry: the one JavaScript driver of the Rust run (registry.js, which WebAssembly shares),
// over the native module.
const HookRegistry = makeHookRegistry({
  isPolicy: (value) => value instanceof Policy,
  eventName: guarded((name) => native.eventName(name)),
  start: (event, hooks, checks) =>
    guarded((t, h, c) => native.Run.start(t, h, c))(text(event, 'HOOKC_EVENT', 'the event'), hooks, checks),
  // On a worker thread: the event loop never waits for the rules.
  evaluate: (run, policy) => run.evaluateAsync(policy._inner),
  error: (body) => new HookcError(body),
  finish: () => {},
  warn: (message) => process.emitWarning(message),
});

module.exports = { Policy, HookRegistry, HookcError };
