#!/usr/bin/env bash
# Kilo CLI (`kilo run`, an OpenCode fork) with hookc wired by `hookc init kilo --write` (hookc's JS
# plugin, .kilo/plugin/hookc.js), the anthropic provider pointed at the Anthropic mock in the
# workspace's kilo.json. Kilo has no Stop hook, so there is no check 5.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../../tests/clients/lib.sh disable=SC2034  # lib.sh reads the settings made here
. "$HERE/../../../tests/clients/lib.sh"

hc_begin kilo
# 7.8.1's postinstall fails (@kilocode/cli-linux-x64@7.8.1 is not on the registry); 7.7.7 works.
hc_install kilo @kilocode/cli 7.7.7 node_modules/.bin/kilo
HC_AGENT_DIR=$HERE hc_plugin_agent kilo .kilo/plugin kilo.json -- \
  KILO_DISABLE_MODELS_FETCH=true KILO_DISABLE_AUTOUPDATE=true OPENCODE_DISABLE_MODELS_FETCH=true
