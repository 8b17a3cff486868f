// Writes samples.json: the playground's sample payloads, one list per agent, taken from the
// agents' protocol fixtures (agents/AGENT/fixtures.yaml: payloads in each agent's real
// shape). Cases run with other command-line arguments or environment are left out.
// `node playground/samples.mjs` (build.sh runs it).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parse } from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));
const agents = path.join(here, '../../../agents');
const samples = {};
// `example` is a made-up agent the module is not built with (agents/README.md).
const taken = (name) => name !== 'example' && existsSync(path.join(agents, name, 'fixtures.yaml'));
for (const id of readdirSync(agents).filter(taken).sort()) {
  const cases = parse(readFileSync(path.join(agents, id, 'fixtures.yaml'), 'utf8')) || [];
  samples[id] = cases
    .filter((kase) => kase.stdin && !kase.hook && !kase.args && !kase.env)
    .map((kase) => ({ name: kase.name, event: kase.event, payload: kase.stdin }));
}
writeFileSync(path.join(here, 'samples.json'), `${JSON.stringify(samples, null, 1)}\n`);
