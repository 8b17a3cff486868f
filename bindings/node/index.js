// hookc for Node: `Policy` loads a policy once and decides in-process. The native module is
// bindings/node's napi-rs build (`hookc.node` beside this file, or HOOKC_NODE_ADDON). Errors are
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
  }
}

function load() {
  const file = process.env.HOOKC_NODE_ADDON || path.join(__dirname, 'hookc.node');
  try {
    return require(file);
  } catch (error) {
    throw new Error(`hookc: the native module for ${process.platform}-${process.arch} is missing (${file}): ${error.message}`);
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
    return guarded((e) => this._inner.evaluate(e))(event);
  }
  /** `evaluate` from JSON text to JSON text. */
  evaluateJson(text) {
    return guarded((t) => this._inner.evaluateJson(t))(text);
  }
  /** What `hookc hook AGENT` would print for this payload, and its exit code. */
  answer(agent, payload, event) {
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    return guarded((a, p, e) => this._inner.answer(a, p, e))(agent, text, event);
  }
  /** `evaluate` on a worker thread: a Promise, the event loop never waits. */
  async evaluateAsync(event) {
    return JSON.parse(await this.evaluateJsonAsync(JSON.stringify(event)));
  }
  /** `evaluateJson` on a worker thread. */
  async evaluateJsonAsync(text) {
    try {
      return await this._inner.evaluateJsonAsync(text);
    } catch (error) {
      rethrow(error);
    }
  }
  /** `answer` on a worker thread. */
  async answerAsync(agent, payload, event) {
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    try {
      return await this._inner.answerAsync(agent, text, event);
    } catch (error) {
      rethrow(error);
    }
  }
}

module.exports = { Policy, HookcError };
