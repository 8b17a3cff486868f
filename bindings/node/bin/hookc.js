#!/usr/bin/env node
// The `hookc` command of the npm package, for people: it runs the native binary of this
// platform's package (`@hookc/<platform>`) with the same arguments, input and output, and exits
// with its status. A hook never runs this: `hookc init` wires the native binary, and the
// project's launcher finds the native binary behind this file, so no hook call starts Node.
'use strict';
const { spawnSync } = require('node:child_process');
const platform = require('../platform.js');

const native = process.env.HOOKC_NATIVE || platform.command();
if (!native) {
  process.stderr.write(
    `hookc: the native binary for ${process.platform}-${process.arch} is missing: the package ${platform.name} ` +
      'is not installed (npm skips optional dependencies with --omit=optional or --no-optional, and a platform ' +
      'hookc has no build for). Reinstall hookc with optional dependencies, or install hookc another way ' +
      '(https://github.com/hookc/hookc#install). This call is blocked.\n',
  );
  process.exit(2);
}
const run = spawnSync(native, process.argv.slice(2), { stdio: 'inherit' });
if (run.error) {
  process.stderr.write(`hookc: cannot run ${native}: ${run.error.message}. This call is blocked.\n`);
  process.exit(2);
}
process.exit(run.status === null ? 2 : run.status);
