#!/bin/sh
# The agent SDK integrations against the real SDKs, offline. Not part of .ci/run or test.sh (each
# installs its SDK; the Claude one carries a ~180 MB Claude Code). Builds the wheel and installs it
# with the SDK into a fresh venv.
#   tests/sdk.sh claude REALCLIENT   the Claude Agent SDK and the Claude Code it bundles, with the
#                                    scripted model of REALCLIENT (a copy of shared/realclient)
#   tests/sdk.sh openai              the OpenAI Agents SDK, with a scripted Model
set -eu
case "${1:-}" in
    claude) package=claude-agent-sdk test=sdk_claude.py ;;
    openai) package=openai-agents test=sdk_openai.py ;;
    *) echo "usage: tests/sdk.sh claude REALCLIENT | tests/sdk.sh openai" >&2; exit 2 ;;
esac
shift
here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$here" && maturin build --release --locked --out "$out/wheels" 2>&1 | tail -n 1)
python3 -m venv "$out/venv"
"$out/venv/bin/pip" install -q "$out"/wheels/hookc-*.whl "$package"
cd "$here/tests" && OPENAI_AGENTS_DISABLE_TRACING=1 "$out/venv/bin/python" "$test" "$@"
