"""hookc in-process: load a policy once, decide each hook call without a process.

    from hookc import Policy, HookcError
    policy = Policy.from_rules(["rules"])
    policy.evaluate({"event": "pre_tool_use", "tool": "Bash", "args": {"command": "rm -rf ~"}})
    stdout, exit, stderr = policy.answer("claude", payload_text)   # as `hookc hook claude`
"""

from ._hookc import HookcError, Policy

__all__ = ["Policy", "HookcError"]
