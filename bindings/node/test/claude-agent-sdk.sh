#!/bin/sh
# The Claude Agent SDK integration against the real SDK (its own Claude Code binary), offline,
# with the shared realclient's scripted model. Not part of .ci/run or test.sh: the SDK is ~475 MB.
#   test/claude-agent-sdk.sh SDK_PROJECT REALCLIENT
# SDK_PROJECT: a folder where `npm install @anthropic-ai/claude-agent-sdk @anthropic-ai/sdk zod
# @modelcontextprotocol/sdk` ran; REALCLIENT: a copy of shared/realclient (for mock.js).
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
[ -f "$here/hookc.node" ] || "$here/test.sh" >/dev/null
HOOKC_SDK_ENTRY="$1/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs" HOOKC_MOCK="$2/mock.js" \
    node "$here/test/claude-agent-sdk.mjs"
