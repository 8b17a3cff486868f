"""HookRegistry from Python: rule sets and callbacks (plain, or coroutines under run_async) merged
by hookc's own chain; the cases of the Rust registry's tests (tests/agent.rs) as a Python caller
meets them."""

import asyncio
import warnings

from hookc import HookcError, HookRegistry, Policy

passed = 0


def test(body):
    global passed
    body()
    passed += 1
    print(f"ok - {body.__name__}")
    return body


def rules(text):
    return Policy.from_source("test.rules", text)


def write(path):
    return {"event": "pre_tool_use", "tool": "write_file", "args": {"path": path, "content": "x"}}


def raises(code, run, match=""):
    try:
        run()
    except HookcError as error:
        assert error.code == code, (error.code, str(error))
        assert match in str(error), str(error)
        return error
    raise AssertionError(f"no HookcError {code}")


@test
def hooks_run_in_registration_order_and_later_hooks_see_earlier_rewrites():
    seen = []
    hooks = (
        HookRegistry()
        .register("PreToolUse", lambda event: {"updatedInput": {"path": "rewritten", "content": "x"}})
        .add_rules(rules('pre_tool_use when path == "rewritten" => deny "the rules saw the rewrite"'))
        .register("pre_tool_use", lambda event: seen.append(event["args"]["path"]) or {"permissionBehavior": "allow"})
    )
    result = hooks.run(write("original"))
    assert result["permissionBehavior"] == "deny", "a later allow never weakens a deny"
    assert result["permissionReason"] == "the rules saw the rewrite"
    assert result["updatedInput"]["path"] == "rewritten"
    assert seen == ["rewritten"]


@test
def a_block_halts_the_chain():
    later = []
    hooks = (
        HookRegistry()
        .add_rules(rules('pre_tool_use when path == "generated.txt" => block "hook_blocked"'))
        .register("pre_tool_use", lambda event: later.append(1))
    )
    assert hooks.run(write("generated.txt"))["blockingError"]["code"] == "hook_blocked"
    assert later == []
    hooks.run(write("other.txt"))
    assert later == [1]


@test
def coroutine_callbacks_are_awaited_by_run_async_and_refused_by_run():
    ticks = []

    async def ask(event):
        await asyncio.sleep(0.03)
        return {"permissionBehavior": "ask", "permissionReason": f"asked about {event['args']['path']}"}

    async def main():
        async def ticker():
            while True:
                ticks.append(1)
                await asyncio.sleep(0.001)

        task = asyncio.create_task(ticker())
        result = await HookRegistry().register("pre_tool_use", ask).run_async(write("a.txt"))
        task.cancel()
        return result

    result = asyncio.run(main())
    assert result == {"permissionBehavior": "ask", "permissionReason": "asked about a.txt"}, result
    assert len(ticks) > 3, f"the event loop ran while the callback waited ({len(ticks)} ticks)"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        raises("HOOKC_HOOK", lambda: HookRegistry().register("pre_tool_use", ask).run(write("a.txt")), "use run_async")


@test
def a_callback_that_raises_fails_the_run_closed():
    def boom(event):
        raise ValueError("boom")

    async def rejects(event):
        raise ValueError("boom")

    observed = []
    hooks = HookRegistry().register("pre_tool_use", boom).observe(observed.append)
    raises("HOOKC_HOOK", lambda: hooks.run(write("a.txt")), "PreToolUse hook failed: the callback failed: boom")
    assert observed[0]["outcome"] == "error" and "boom" in observed[0]["error"], observed
    raises(
        "HOOKC_HOOK",
        lambda: asyncio.run(HookRegistry().register("pre_tool_use", rejects).run_async(write("a.txt"))),
        "the callback failed: boom",
    )


@test
def a_result_with_fields_its_event_cannot_carry_is_a_contract_error():
    hooks = HookRegistry().register(
        "pre_tool_use", lambda event: {"updatedOutput": {"content": "x", "isError": False}, "forceContinue": "y"}
    )
    error = raises("HOOKC_CONTRACT", lambda: hooks.run({"event": "pre_tool_use", "tool": "t"}))
    # validateFor's own text, as the seed's registry throws it (the loop gives the model a fixed one).
    assert str(error) == "PreToolUse HookResult does not allow fields: updatedOutput, forceContinue", str(error)
    assert error.detail.endswith("does not allow fields: updatedOutput, forceContinue"), error.detail


@test
def what_is_no_hook_result_fails_the_run():
    raises("HOOKC_HOOK", lambda: HookRegistry().register("pre_tool_use", lambda e: {"permission": "allow"}).run(write("a")), "no HookResult")
    raises("HOOKC_HOOK", lambda: HookRegistry().register("pre_tool_use", lambda e: {"x": object()}).run(write("a")), "the callback failed")


@test
def what_is_not_a_dict_is_no_hook_result():
    for result in ([], ["deny"], (), "deny", 1, True):
        raises("HOOKC_HOOK", lambda: HookRegistry().register("pre_tool_use", lambda e: result).run(write("a")), "HookResult")


@test
def an_async_observer_or_warnings_as_errors_change_nothing():
    async def observer(observation):
        raise AssertionError("never awaited")

    hooks = HookRegistry().add_rules(rules('pre_tool_use when path == ".env" => deny "no"')).observe(observer)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert hooks.run(write(".env"))["permissionBehavior"] == "deny"
    assert hooks.observer_failures == 1


@test
def an_interrupted_run_is_observed():
    seen = []

    def interrupt(event):
        raise KeyboardInterrupt

    hooks = HookRegistry().register("pre_tool_use", interrupt).observe(seen.append)
    try:
        hooks.run(write("a"))
    except KeyboardInterrupt:
        pass
    assert seen and seen[0]["outcome"] == "error", seen


@test
def a_second_stop_cannot_force_another_turn():
    hooks = HookRegistry().register("stop", lambda event: {"forceContinue": "run the tests first"})
    assert hooks.run({"event": "stop"})["forceContinue"] == "run the tests first"
    assert "forceContinue" not in hooks.run({"event": "stop", "stop_hook_active": True})


@test
def observers_see_each_decision_and_a_failing_one_changes_nothing():
    seen = []

    def broken(observation):
        raise RuntimeError("observer broke")

    hooks = (
        HookRegistry()
        .add_rules(rules('rule no-env pre_tool_use when path == ".env" => deny "no secrets"'))
        .observe(broken)
        .observe("pre_tool_use", seen.append)
        .observe("stop", lambda observation: (_ for _ in ()).throw(AssertionError("another event's observer ran")))
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = hooks.run(write(".env"))
    assert result["permissionBehavior"] == "deny"
    assert hooks.observer_failures == 1
    assert any("observer broke" in str(warning.message) for warning in caught)
    assert seen[0]["event"] == "pre_tool_use" and seen[0]["tool"] == "write_file"
    assert seen[0]["outcome"] == "deny" and seen[0]["matched"] == ["no-env"] and seen[0]["reason"] == "no secrets"


@test
def a_bad_event_or_event_name_is_a_hookc_error():
    raises("HOOKC_EVENT", lambda: HookRegistry().run({"event": "pre_tool_use"}))
    raises("HOOKC_EVENT", lambda: HookRegistry().register("PreToolUze", lambda e: None))
    try:
        HookRegistry().add_rules({})
    except TypeError:
        pass
    else:
        raise AssertionError("add_rules took a dict")


@test
def check_input_judges_each_rewrite_as_its_hook_returns_it():
    def schema(args):
        return None if isinstance(args.get("content"), str) else "write_file: argument `content` must be a string"

    later, observed = [], []
    hooks = (
        HookRegistry()
        .observe(observed.append)
        .register("pre_tool_use", lambda e: {"updatedInput": {"path": "a.txt", "content": 7}})
        .register("pre_tool_use", lambda e: later.append(1) or {"updatedInput": {"path": "a.txt", "content": "fixed"}})
    )
    error = raises("HOOKC_CONTRACT", lambda: hooks.run(write("a.txt"), check_input=schema))
    assert str(error) == "PreToolUse hook returned an invalid update", str(error)
    assert later == [], "no hook after the refused rewrite ran"
    assert observed[0]["error"].startswith("PreToolUse hook returned an invalid update: "), observed[0]
    assert "content" in observed[0]["error"], "observers see it in full"
    assert hooks.run(write("a.txt"))["updatedInput"]["content"] == "fixed"
    ruled = HookRegistry().add_rules(rules('pre_tool_use => set path = "elsewhere.txt"'))
    raises("HOOKC_CONTRACT", lambda: ruled.run(write("a.txt"), check_input=lambda args: "no writing elsewhere"))
    checked = []

    async def accept(args):
        checked.append(args)

    assert asyncio.run(ruled.run_async(write("a.txt"), check_input=accept))["updatedInput"]["path"] == "elsewhere.txt"
    assert len(checked) == 1

    def broken(args):
        raise ValueError("schema broke")

    error = raises("HOOKC_HOOK", lambda: ruled.run(write("a.txt"), check_input=broken))
    assert "schema broke" in str(error)
    for answer in (True, False, 0):
        raises("HOOKC_HOOK", lambda answer=answer: ruled.run(write("a.txt"), check_input=lambda args: answer))
    same = HookRegistry().register("pre_tool_use", lambda event: {"updatedInput": event["args"]})
    raises("HOOKC_CONTRACT", lambda: same.run(write("a.txt"), check_input=lambda args: "refused"))


@test
def the_binding_takes_the_shapes_node_does():
    policy = Policy.from_rules("builtin:baseline")
    payload = {"hook_event_name": "PreToolUse", "cwd": "/repo", "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}}
    import json

    as_dict = policy.answer("claude", payload)
    assert as_dict == policy.answer("claude", json.dumps(payload)), as_dict
    assert '"deny"' in as_dict[0], as_dict
    error = raises("HOOKC_PAYLOAD", lambda: policy.answer("claude", 3))
    assert "payload must be a str or a dict, not int" in str(error), str(error)
    error = raises("HOOKC_LOAD", lambda: Policy.from_rules(3))
    assert "paths must be a str or a list of str" in str(error), str(error)


@test
def a_cancelled_run_is_observed_when_it_is_cancelled():
    observed = []

    async def slow(event):
        await asyncio.sleep(10)

    async def main():
        hooks = HookRegistry().observe(observed.append).register("pre_tool_use", slow)
        task = asyncio.create_task(hooks.run_async(write("a.txt")))
        await asyncio.sleep(0.05)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            return len(observed)
        return None

    assert asyncio.run(main()) == 1, "the observers were told before the cancellation went on up"
    assert observed[0]["outcome"] == "error", observed


print(f"{passed} passed, 0 failed")
