"""The registry differential's Python driver: each case of cases.jsonl (stdin) through
`HookRegistry.run`, its outcome and observation as one JSON line (stdout)."""

import json
import sys

from hookc import HookcError, HookRegistry, Policy


def check(args):
    path = args.get("path")
    return None if path is None or isinstance(path, str) else "`path` must be a string"


def thrower(message):
    def callback(_event):
        raise RuntimeError(message)

    return callback


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        registry = HookRegistry()
        for index, hook in enumerate(case["hooks"]):
            if "rules" in hook:
                registry.add_rules(Policy.from_source(f"case{index}.rules", hook["rules"]))
            elif "throws" in hook:
                registry.register(hook["on"], thrower(hook["throws"]))
            else:
                registry.register(hook["on"], lambda _event, returns=hook["returns"]: returns)
        seen = {}
        registry.observe(lambda o: seen.update(outcome=o["outcome"], matched=o["matched"], error=o.get("error")))
        try:
            outcome = {"result": registry.run(case["event"], check_input=check if case["check"] else None)}
        except HookcError as error:
            outcome = {"error": {"code": error.code, "message": str(error), "detail": getattr(error, "detail", None)}}
        print(json.dumps({**outcome, "observation": seen}, separators=(",", ":")))


if __name__ == "__main__":
    main()
