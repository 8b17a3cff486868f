// Which platform package holds this machine's native files: `@hookc/<os>-<cpu>[-<libc>]`, one per
// release target (see npm/README.md), installed by npm as the one optional dependency whose `os`
// and `cpu` match. Shared by index.js (the addon) and bin/hookc.js (the command).
'use strict';
const path = require('node:path');

function libc() {
  if (process.platform !== 'linux') return '';
  // glibc's Node reports its version; musl's does not.
  const report = typeof process.report?.getReport === 'function' ? process.report.getReport() : null;
  return report?.header?.glibcVersionRuntime ? '-gnu' : '-musl';
}

const name = `@hookc/${process.platform}-${process.arch}${libc()}`;

// The file `file` of the platform package, or null when the package is not installed.
function resolve(file) {
  try {
    return require.resolve(`${name}/${file}`);
  } catch {
    return null;
  }
}

// The native command's path (`hookc`, `hookc.exe`), or null.
function command() {
  return resolve(process.platform === 'win32' ? 'hookc.exe' : 'hookc');
}

module.exports = { name, resolve, command, here: path.join(__dirname) };
