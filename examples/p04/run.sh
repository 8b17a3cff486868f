#!/usr/bin/env bash
# The P04 example: install TypeScript (npm), compile src/ to out/, run the tests against the Node
# binding in ../../bindings/node (its hookc.node must be built: bindings/node/test.sh builds it).
# Prints `N passed, M failed`; exits non-zero when a test fails or anything before fails.
set -euo pipefail
cd "$(dirname "$0")"
node -e "require('../../bindings/node')" || {
  echo "run.sh: the Node binding does not load; build it with bindings/node/test.sh" >&2
  exit 1
}
npm install --no-audit --no-fund --silent
rm -rf out
npx tsc -p .
node --test --test-reporter=./out/reporter.js out/loop.test.js
