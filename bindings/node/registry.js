// The one JavaScript driver of hookc's registry run, for Node (`index.js`) and WebAssembly
// (`bindings/wasm/hookc.mjs`, which build.sh gives an ES module copy of this file: the same text
// with `export` for its last line). The run itself is Rust's step machine (`hookc-runtime`'s
// `JsonSteps`): the order of the hooks, the contract checks, the merge and when it ends. This
// only does what each step asks, in JavaScript, and hands the answer back; a binding supplies the
// few things that differ between the native module and WebAssembly (`makeHookRegistry`'s
// `engine`). Plain script, no imports: Node 18 loads it with `require`.
'use strict';

// A lone surrogate: a high one not followed by a low one, or a low one not after a high one
// (`String.prototype.isWellFormed` is Node 20's; the package runs on Node 18 too). A string that
// holds one is no Unicode text, and is refused rather than read as U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// A callback's result as JSON: a plain object (or nothing, which decides nothing). A Map, a class
// instance, an array or a string is no HookResult: JSON would read it as `{}` or by position.
function resultText(result) {
  if (result === undefined || result === null) return '{}';
  const proto = typeof result === 'object' ? Object.getPrototypeOf(result) : undefined;
  if (proto !== Object.prototype && proto !== null) {
    const what = Array.isArray(result)
      ? 'an array'
      : typeof result === 'object'
        ? `a ${proto && proto.constructor ? proto.constructor.name : 'non-plain object'}`
        : `a ${typeof result}`;
    throw new TypeError(`it returned ${what}, not a HookResult object`);
  }
  // JSON text: JSON.stringify writes a lone surrogate as an escape, which Rust refuses.
  const json = JSON.stringify(result);
  // A `toJSON` may make an object into no JSON at all.
  if (typeof json !== 'string') throw new TypeError('it returned an object that is no JSON');
  return json;
}

// What was thrown, as text, whatever it is (an `Error`, `undefined`, an object whose `toString`
// throws).
function describe(error) {
  try {
    if (error instanceof Error) return error.message;
    return String(error);
  } catch {
    return 'a value that cannot be shown';
  }
}

/**
 * The `HookRegistry` class over one engine:
 * - `isPolicy(value)`: whether `addRules` may take it;
 * - `eventName(name)`: the rule-file name (`PreToolUse` → `pre_tool_use`) of an event named by
 *   a string, or throw;
 * - `start(event, hooks, checks)`: the native run of one event (object or JSON text) over the
 *   hooks (`'rules'` or an event name each), with whether rewrites are checked;
 * - `evaluate(run, policy)`: hand a rule set to the run (may return a Promise);
 * - `error(body)`: the error a failed run rejects with, from its `{code, message, detail}`;
 * - `finish(run)`: after the run, done or not (free its memory);
 * - `warn(message)`: tell the developer an observer failed.
 */
function makeHookRegistry(engine) {
  // An event is named by a string: anything else is refused before the module sees it.
  const eventName = (name) => {
    if (typeof name !== 'string') {
      throw engine.error({ code: 'HOOKC_EVENT', message: `an event is named by a string, not ${typeof name}` });
    }
    return engine.eventName(name);
  };
  /**
   * Per event, hooks in registration order — rule sets and JS callbacks side by side — merged by
   * hookc's own rules (contract checks, rewrites seen by later hooks, a block or a forced
   * continuation halting the rest), and observers, which see each decision and change nothing.
   * A callback that throws or rejects, or returns what the event's contract refuses, fails the
   * run: `run` rejects with a `HookcError` (`HOOKC_HOOK`, `HOOKC_CONTRACT`) and the loop fails
   * closed. An observer that throws is reported and counted, and the run is what it would have
   * been.
   */
  class HookRegistry {
    #hooks = [];
    #observers = [];
    observerFailures = 0;

    /** A rule set: it runs at every event, after the hooks registered before it. */
    addRules(policy) {
      if (!engine.isPolicy(policy)) throw new TypeError('addRules takes a Policy');
      this.#hooks.push({ policy });
      return this;
    }

    /** A callback for one event (`pre_tool_use` or `PreToolUse`): `(event) => HookResult`, or a
     * Promise of one; `undefined` decides nothing. It sees the event with earlier rewrites in. */
    register(event, callback) {
      if (typeof callback !== 'function') throw new TypeError('register takes an event and a function');
      this.#hooks.push({ event: eventName(event), callback });
      return this;
    }

    /** An observer of one event, or of every event (`observe(fn)`). */
    observe(event, observer) {
      if (typeof event === 'function') [event, observer] = [undefined, event];
      if (typeof observer !== 'function') throw new TypeError('observe takes a function');
      this.#observers.push({ event: event === undefined ? undefined : eventName(event), observer });
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
      const hooks = this.#hooks.map((hook) => (hook.policy ? 'rules' : hook.event));
      const run = engine.start(event, hooks, check !== undefined);
      const name = run.eventName;
      try {
        for (;;) {
          const step = JSON.parse(run.need());
          if (step.step === 'done' || step.step === 'failed') {
            this.#notify(name, step.observation);
            if (step.step === 'done') return step.result;
            throw engine.error(step.error);
          }
          // Whatever goes wrong handing a step over fails the run through the run itself, so that
          // the observers see it and the error has its code.
          try {
            await this.#do(run, step, check);
          } catch (error) {
            run.abort(describe(error));
          }
        }
      } finally {
        engine.finish(run);
      }
    }

    /** Does one step the run asks for and hands the answer back. */
    async #do(run, step, check) {
      switch (step.step) {
        case 'rules':
          await engine.evaluate(run, this.#hooks[step.index].policy);
          return;
        case 'call': {
          let result;
          try {
            result = resultText(await this.#hooks[step.index].callback(step.event));
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
          if (problem === undefined || problem === null) run.checked(undefined);
          else if (typeof problem === 'string' && !LONE_SURROGATE.test(problem)) run.checked(problem);
          else run.checkAnswered(describe(problem));
          return;
        }
        default:
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
          if (returned && typeof returned.catch === 'function') returned.catch((error) => this.#observerFailed(name, error));
        } catch (error) {
          this.#observerFailed(name, error);
        }
      }
    }

    #observerFailed(name, error) {
      this.observerFailures += 1;
      try {
        engine.warn(`hookc: an observer of ${name} failed: ${describe(error)}`);
      } catch {
        // A warning that cannot be given changes the run no more than the observer may.
      }
    }
  }
  return HookRegistry;
}

module.exports = { makeHookRegistry, resultText, describe, LONE_SURROGATE };
