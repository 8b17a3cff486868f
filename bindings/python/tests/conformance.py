"""The evaluation fixtures (tests/fixtures/eval/*.yaml), which the Rust suite runs, through the
Python binding: every case must give the same HookResult (or the same error)."""
import json
import pathlib
import sys
import tempfile

import yaml

from hookc import HookcError, Policy

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "eval"


def normal(value):
    """Fields at their defaults are left out of hookc's JSON; an expectation may spell them."""
    if isinstance(value, list):
        return [normal(item) for item in value]
    if isinstance(value, dict):
        out = {}
        for key in sorted(value):
            item = normal(value[key])
            if item is None or item is False or item == []:
                continue
            out[key] = item
        return out
    return value


passed, failed = 0, []
for file in sorted(FIXTURES.glob("*.yaml")):
    for group in yaml.safe_load(file.read_text()):
        files = dict(group.get("files") or {})
        if group.get("rules"):
            files["case.rules"] = group["rules"]
        try:
            if len(files) == 1:
                (name, text), = files.items()
                policy = Policy.from_source(name, text)
            else:
                directory = tempfile.mkdtemp(prefix="hookc-py-")
                for name, text in files.items():
                    pathlib.Path(directory, name).write_text(text)
                policy = Policy.from_rules([directory])
        except HookcError as error:
            failed.append(f"{file.name}: {group['name']}: the rules do not load: {error}")
            continue
        cases = group.get("cases") or [{"event": group.get("event"), "expect": group.get("expect"), "error": group.get("error")}]
        for at, case in enumerate(cases):
            label = f"{file.name}: {group['name']}" + (f" #{at + 1}" if len(cases) > 1 else "")
            try:
                result = policy.evaluate(case["event"])
            except HookcError as error:
                if case.get("error") and case["error"] in str(error):
                    passed += 1
                else:
                    failed.append(f"{label}: unexpected error: {error}")
                continue
            if case.get("error"):
                failed.append(f"{label}: expected an error containing {case['error']!r}, got {result}")
            elif json.dumps(normal(result), sort_keys=True) != json.dumps(normal(case["expect"]), sort_keys=True):
                failed.append(f"{label}:\n  got      {normal(result)}\n  expected {normal(case['expect'])}")
            else:
                passed += 1

try:
    Policy.from_source("typo.rules", 'pre_tool_use when comand == "ls" => deny\n')
    failed.append("a rule with an unknown field loaded")
except HookcError as error:
    if error.code == "E0102" and error.diagnostics[0]["code"] == "E0102":
        passed += 1
    else:
        failed.append(f"a load error's code: {error.code}")

baseline = Policy.from_rules(["builtin:baseline"])
stdout, code, _ = baseline.answer("claude", json.dumps({
    "hook_event_name": "PreToolUse", "cwd": "/repo", "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}}))
if code == 0 and stdout and '"permissionDecision":"deny"' in stdout:
    passed += 1
else:
    failed.append(f"answer: {stdout} {code}")
_, code, _ = baseline.answer("claude", '{"hook_event_name": "PreToolUse", ')
if code == 2:
    passed += 1
else:
    failed.append("a truncated payload must block")

print(f"python conformance: {passed} passed, {len(failed)} failed")
for line in failed:
    print(f"FAIL {line}")
sys.exit(0 if not failed else 1)
