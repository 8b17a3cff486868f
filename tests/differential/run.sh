#!/usr/bin/env bash
# The registry differential: random registrations (rule sets, and callbacks that return random
# HookResults or throw), each with a random event and input check, run through the Rust, Node,
# Python and WebAssembly registries; every outcome (the result or the error, and what the
# observers saw) must be the same. The bindings must be built (bindings/node/test.sh,
# bindings/python/test.sh and bindings/wasm/build.sh leave them; HOOKC_PYTHON names a python with
# the wheel installed).
#   tests/differential/run.sh [COUNT] [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-2000}
seed=${2:-$RANDOM}
python=${HOOKC_PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 tests/differential/cases.py "$count" "$seed" > "$work/cases.jsonl"
cargo run --quiet --release --example registry_differential < "$work/cases.jsonl" > "$work/rust.jsonl"
node tests/differential/js.mjs node < "$work/cases.jsonl" > "$work/node.jsonl"
"$python" tests/differential/python.py < "$work/cases.jsonl" > "$work/python.jsonl"
node tests/differential/js.mjs wasm < "$work/cases.jsonl" > "$work/wasm.jsonl"
python3 - "$work" "$seed" <<'PY'
import json, sys
work, seed = sys.argv[1], sys.argv[2]
read = lambda name: [json.loads(line) for line in open(f"{work}/{name}.jsonl")]
cases, rust, node, python, wasm = read("cases"), read("rust"), read("node"), read("python"), read("wasm")
assert len(rust) == len(node) == len(python) == len(wasm) == len(cases), (len(cases), len(rust), len(node), len(python), len(wasm))
failed = 0
kinds = {"result": 0, "error": 0}
for index, (case, r, n, p, w) in enumerate(zip(cases, rust, node, python, wasm)):
    kinds["result" if "result" in r else "error"] += 1
    for name, other in (("node", n), ("python", p), ("wasm", w)):
        if other != r:
            failed += 1
            if failed <= 5:
                print(f"case {index} differs ({name}):\n  case   {json.dumps(case)}\n  rust   {json.dumps(r)}\n  {name:6} {json.dumps(other)}")
print(f"seed {seed}: {len(cases)} cases ({kinds['result']} results, {kinds['error']} errors): {len(cases) * 3 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
