#!/usr/bin/env node
// Writes one platform package, `@hookc/NAME`, into OUT: its package.json (from platforms.json and
// the main package's version), the Node addon (`hookc.node`) and the native command (`hookc`, or
// `hookc.exe` on Windows), both built for the row's Rust target.
//
//   node npm/package.mjs NAME OUT ADDON COMMAND
//
// No install scripts: npm installs the one package whose os, cpu (and libc) match, as an optional
// dependency of `hookc`, and nothing runs at install time.
import { copyFileSync, chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [name, out, addon, command] = process.argv.slice(2);
if (!command) {
  console.error('usage: node npm/package.mjs NAME OUT ADDON COMMAND');
  process.exit(2);
}
const here = new URL('.', import.meta.url).pathname;
const { platforms } = JSON.parse(readFileSync(join(here, 'platforms.json'), 'utf8'));
const row = platforms.find((platform) => platform.name === name);
if (!row) {
  console.error(`no platform ${name} in platforms.json (${platforms.map((platform) => platform.name).join(', ')})`);
  process.exit(2);
}
const main = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8'));
const exe = row.os === 'win32' ? 'hookc.exe' : 'hookc';
const manifest = {
  name: `@hookc/${row.name}`,
  version: main.version,
  description: `hookc's native command and Node addon for ${row.target}`,
  license: main.license,
  repository: main.repository,
  os: [row.os],
  cpu: [row.cpu],
  ...(row.libc ? { libc: [row.libc] } : {}),
  files: ['hookc.node', exe, 'README.md'],
  preferUnplugged: true,
};
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(
  join(out, 'README.md'),
  `# ${manifest.name}\n\nThe native \`hookc\` command and Node addon for ${row.target}. Install \`hookc\`, not this: npm adds it on ${row.os}/${row.cpu}.\n`,
);
copyFileSync(addon, join(out, 'hookc.node'));
copyFileSync(command, join(out, exe));
chmodSync(join(out, exe), 0o755);
console.log(`wrote ${manifest.name}@${manifest.version} to ${out}`);
