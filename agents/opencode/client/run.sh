#!/usr/bin/env bash
# OpenCode (`opencode run`) with hookc wired by `hookc init opencode --write` (hookc's JS plugin,
# .opencode/plugin/hookc.js), the anthropic provider pointed at the Anthropic mock in the
# workspace's opencode.json. OpenCode has no Stop hook, so there is no check 5.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../../tests/clients/lib.sh disable=SC2034  # lib.sh reads the settings made here
. "$HERE/../../../tests/clients/lib.sh"

hc_begin opencode
hc_install opencode opencode-ai 1.18.33 node_modules/.bin/opencode
HC_AGENT_DIR=$HERE hc_plugin_agent opencode .opencode/plugin opencode.json -- \
  OPENCODE_DISABLE_MODELS_FETCH=true OPENCODE_DISABLE_AUTOUPDATE=true OPENCODE_DISABLE_SHARE=true
