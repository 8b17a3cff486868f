"""In-process decisions from Python, against `benches/inprocess.rs`: the shipped rules, the same
events, JSON text in and out; the median per decision of several rounds. Run with the wheel that
bindings/python/test.sh builds installed: `python benches/inprocess.py`."""
import pathlib
import time

from hookc import Policy

RULES = pathlib.Path(__file__).resolve().parents[1] / "rules"
policy = Policy.from_rules([str(RULES)])
EVENTS = {
    "rm -rf ~ (denied)": '{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","args":{"command":"rm -rf ~"}}',
    "a write (nothing matches)": '{"event":"pre_tool_use","tool":"Write","cwd":"/repo","args":{"file_path":"/repo/src/a.rs","content":"x"}}',
}
for name, text in EVENTS.items():
    rounds = []
    for _ in range(7):
        n = 20000
        start = time.perf_counter()
        for _ in range(n):
            policy.evaluate_json(text)
        rounds.append((time.perf_counter() - start) / n * 1e6)
    rounds.sort()
    print(f"python, {name}: {rounds[3]:.2f} µs per decision (median of 7 rounds of 20,000)")
