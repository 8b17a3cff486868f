"""hookc in-process: load a policy once, decide each hook call without a process.

    from hookc import Policy, HookRegistry, HookcError
    policy = Policy.from_rules(["rules"])
    policy.evaluate({"event": "pre_tool_use", "tool": "Bash", "args": {"command": "rm -rf ~"}})
    stdout, exit, stderr = policy.answer("claude", payload_text)   # as `hookc hook claude`

    hooks = HookRegistry().add_rules(policy).register("PreToolUse", my_callback)
    result = hooks.run(event)            # or: await hooks.run_async(event), with async callbacks
"""

import inspect
import json
import warnings

from ._hookc import Run as _Run
from ._hookc import HookcError, Policy
from ._hookc import event_name as _event_name
from ._hookc import run_error as _run_error

__all__ = ["Policy", "HookRegistry", "HookcError"]


class HookRegistry:
    """Per event, hooks in registration order - rule sets and Python callbacks side by side -
    merged by hookc's own rules (the Rust registry's run, which this only drives: contract
    checks, rewrites seen by later hooks, a block or a forced continuation halting the rest), and observers, which see
    each decision and change nothing.

    A callback takes the native event (a dict, with earlier rewrites in) and returns a HookResult
    dict or None. One that raises, or returns what its event may not carry, fails the run: `run`
    raises `HookcError` (`HOOKC_HOOK`, `HOOKC_CONTRACT`) and the loop fails closed. `run` takes
    plain callbacks; `run_async` also awaits coroutine callbacks. An observer that raises is
    warned about and counted (`observer_failures`), and the run is what it would have been.
    """

    def __init__(self):
        self._hooks = []
        self._observers = []
        self.observer_failures = 0

    def add_rules(self, policy):
        """A rule set: it runs at every event, after the hooks registered before it."""
        if not isinstance(policy, Policy):
            raise TypeError("add_rules takes a Policy")
        self._hooks.append((None, policy))
        return self

    def register(self, event, callback):
        """A callback for one event (`pre_tool_use` or `PreToolUse`)."""
        if not callable(callback):
            raise TypeError("register takes an event and a callable")
        self._hooks.append((_event_name(event), callback))
        return self

    def observe(self, event_or_observer, observer=None):
        """An observer of one event (`observe("stop", fn)`), or of every event (`observe(fn)`)."""
        event = None if observer is None else _event_name(event_or_observer)
        observer = event_or_observer if observer is None else observer
        if not callable(observer):
            raise TypeError("observe takes a callable")
        self._observers.append((event, observer))
        return self

    def run(self, event, check_input=None):
        """Runs the event's hooks in order and returns the merged HookResult. `check_input(args)`,
        if given, judges each PreToolUse rewrite as the hook that made it returns it (the tool's
        schema, say): a str it returns is why the rewrite is refused, and the run raises the
        seed's contract error; no later hook runs. None accepts it; anything else (True, False…)
        fails the run closed, so a predicate is never read backwards."""
        steps = self._steps(event, check_input)
        resume = steps.__next__
        while (step := _advance(resume))[0]:
            returned = step[1]
            if inspect.isawaitable(returned):
                if inspect.iscoroutine(returned):
                    returned.close()
                failed = TypeError("it returned an awaitable: use run_async")
                resume = lambda failed=failed: steps.throw(failed)  # noqa: E731
            else:
                resume = lambda returned=returned: steps.send(returned)  # noqa: E731
        return step[1]

    async def run_async(self, event, check_input=None):
        """`run`, awaiting coroutine callbacks (and a coroutine `check_input`): the event loop runs
        while they wait."""
        steps = self._steps(event, check_input)
        resume = steps.__next__
        while (step := _advance(resume))[0]:
            returned = step[1]
            if inspect.isawaitable(returned):
                try:
                    returned = await returned
                except BaseException as error:  # noqa: BLE001 - handed to the run as a failure
                    # A cancellation or an interrupt too: the run ends failed now, its observers
                    # are told, and the error goes on up.
                    resume = lambda error=error: steps.throw(error)  # noqa: E731
                    continue
            resume = lambda returned=returned: steps.send(returned)  # noqa: E731
        return step[1]

    def _steps(self, event, check_input=None):
        """The run as a generator: it yields each callback's (and the input check's) return value
        to be resolved (called as it is, or awaited) and is sent the resolved result. The run
        itself is Rust's (the order, the contract checks, the merge, when it ends): this only does
        what it asks, in Python, and hands the answer back."""
        if check_input is not None and not callable(check_input):
            raise TypeError("check_input takes a callable")
        text = event if isinstance(event, str) else json.dumps(event)
        hooks = ["rules" if hook_event is None else hook_event for hook_event, _ in self._hooks]
        run = _Run.start(text, hooks, check_input is not None)
        name = run.event_name
        try:
            while True:
                step = json.loads(run.need())
                kind = step["step"]
                if kind == "rules":
                    run.evaluate(self._hooks[step["index"]][1])
                elif kind == "call":
                    try:
                        result = yield self._hooks[step["index"]][1](step["event"])
                        if result is not None and not isinstance(result, dict):
                            raise TypeError(f"it returned {type(result).__name__}, not a HookResult dict")
                        returned = json.dumps({} if result is None else result)
                    except Exception as error:  # noqa: BLE001 - a failing callback fails the run
                        run.threw(_describe(error))
                        continue
                    run.returned(returned)
                elif kind == "check":
                    try:
                        problem = yield check_input(step["args"])
                    except Exception as error:  # noqa: BLE001 - a failing check fails the run
                        run.check_threw(_describe(error))
                        continue
                    if problem is None or isinstance(problem, str):
                        run.checked(problem)
                    else:
                        # A predicate's True or False is never read backwards: the run fails.
                        run.check_answered(repr(problem))
                elif kind in ("done", "failed"):
                    break
                else:
                    # A step this driver does not know: the run ends failed, never passed over.
                    run.abort(f"the binding does not know the step `{kind}`")
        except BaseException as error:
            # Every failure is observed (a cancelled run, an interrupt too), then raised.
            run.abort(_describe(error) or type(error).__name__)
            self._notify(name, json.loads(run.need())["observation"])
            raise
        self._notify(name, step["observation"])
        if kind == "done":
            return step["result"]
        raise _run_error(json.dumps(step["error"]))

    def _notify(self, name, observation):
        for event, observer in self._observers:
            if event is not None and event != name:
                continue
            try:
                returned = observer(observation)
                if inspect.isawaitable(returned):
                    # An observer sees the decision as it is made; one that would wait is not run.
                    if inspect.iscoroutine(returned):
                        returned.close()
                    raise TypeError("an observer is a plain function; it returned an awaitable")
            except Exception as error:  # noqa: BLE001 - an observer changes nothing
                self.observer_failures += 1
                try:
                    warnings.warn(f"hookc: an observer of {name} failed: {_describe(error)}", RuntimeWarning, stacklevel=2)
                except Exception:  # noqa: BLE001 - warnings as errors change the run no more than the observer may
                    pass


def _advance(resume):
    """One step of a run: `(True, what a callback returned)` to resolve, or `(False, the merged
    HookResult)` when the run has ended."""
    try:
        return True, resume()
    except StopIteration as done:
        return False, done.value


def _describe(error):
    """What was raised, as text, whatever it is (an exception whose `__str__` raises too, or whose
    text holds a lone surrogate, which is no Unicode text: shown as `?`)."""
    try:
        return str(error).encode("utf-8", "replace").decode("utf-8")
    except Exception:  # noqa: BLE001
        return f"a {type(error).__name__} that cannot be shown"
