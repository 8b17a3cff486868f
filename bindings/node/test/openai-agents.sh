#!/bin/sh
# The OpenAI Agents SDK integration (TypeScript) against the real SDK with a scripted model. Not
# part of .ci/run or test.sh (it installs @openai/agents).
#   test/openai-agents.sh SDK_PROJECT
# SDK_PROJECT: a folder where `npm install @openai/agents zod` ran.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
[ -f "$here/hookc.node" ] || "$here/test.sh" >/dev/null
HOOKC_OPENAI_AGENTS="$1/node_modules/@openai/agents/dist/index.mjs" HOOKC_ZOD="$1/node_modules/zod/index.js" \
    node "$here/test/openai-agents.mjs"
