// In-process decisions from Node, against the same decisions in Rust: the shipped rules, one
// Claude Code-shaped event, JSON text in and JSON text out on both sides, many times; the median
// per decision of several rounds. Run after bindings/node/test.sh has built the module:
//   node benches/inprocess.mjs        (the Rust figure comes from `cargo run --release --example embed -- --bench`)
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const { Policy } = require(path.join(here, '../bindings/node/index.js'));
const policy = Policy.fromRules([path.join(here, '../rules')]);
const events = {
  'rm -rf ~ (denied)': '{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","args":{"command":"rm -rf ~"}}',
  'a write (nothing matches)': '{"event":"pre_tool_use","tool":"Write","cwd":"/repo","args":{"file_path":"/repo/src/a.rs","content":"x"}}',
};
for (const [name, text] of Object.entries(events)) {
  const rounds = [];
  for (let round = 0; round < 7; round++) {
    const n = 20000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) policy.evaluateJson(text);
    rounds.push(Number(process.hrtime.bigint() - start) / n / 1000);
  }
  rounds.sort((a, b) => a - b);
  console.log(`node, ${name}: ${rounds[3].toFixed(2)} µs per decision (median of 7 rounds of 20,000)`);
}
