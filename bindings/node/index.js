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
    if (body.detail) this.detail = body.detail;
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

// The events by their rule-file names (`pre_tool_use`) and their seed names (`PreToolUse`).
const EVENT_NAMES = {
  UserPromptSubmit: 'user_prompt_submit',
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  Stop: 'stop',
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  SubagentStop: 'subagent_stop',
  PostToolUseFailure: 'post_tool_use_failure',
  PreCompact: 'pre_compact',
  Notification: 'notification',
  PermissionRequest: 'permission_request',
};
function eventName(name) {
  if (Object.values(EVENT_NAMES).includes(name)) return name;
  if (EVENT_NAMES[name]) return EVENT_NAMES[name];
  throw new HookcError({ code: 'HOOKC_EVENT', message: `unknown event \`${name}\`; the events are ${Object.values(EVENT_NAMES).join(', ')}` });
}

/**
 * Per event, hooks in registration order — rule sets and JS callbacks side by side — merged by
 * hookc's own rules (the Rust registry's chain: contract checks, rewrites seen by later hooks, a
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
  /** Runs the event's hooks in order and resolves to the merged HookResult. */
  async run(event) {
    const chain = guarded((text) => native.Chain.start(text))(typeof event === 'string' ? event : JSON.stringify(event));
    const name = chain.eventName;
    let failure;
    try {
      for (const hook of this._hooks) {
        if (chain.halted) break;
        if (hook.policy) {
          guarded(() => chain.evaluate(hook.policy._inner))();
          continue;
        }
        if (hook.event !== name) continue;
        let result;
        try {
          result = await hook.callback(chain.current());
        } catch (error) {
          throw new HookcError(JSON.parse(chain.failure(`the callback failed: ${error && error.message ? error.message : String(error)}`)));
        }
        guarded((text) => chain.take(text))(JSON.stringify(result === undefined || result === null ? {} : result));
      }
    } catch (error) {
      failure = error;
    }
    this._notify(name, chain.observation(failure ? String(failure.message) : undefined));
    if (failure) throw failure;
    return JSON.parse(chain.result());
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
    process.emitWarning(`hookc: an observer of ${name} failed: ${error && error.message ? error.message : String(error)}`);
  }
}

module.exports = { Policy, HookRegistry, HookcError };
