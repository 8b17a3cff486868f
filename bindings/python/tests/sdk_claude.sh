#!/bin/sh
# The Claude Agent SDK integration against the real Python SDK (which bundles its Claude Code),
# offline, with the shared realclient's scripted model. Not part of .ci/run or test.sh: the SDK's
# wheel is ~180 MB.
#   tests/sdk_claude.sh REALCLIENT
# REALCLIENT: a copy of shared/realclient (for mock.js). Builds the wheel and installs it with
# `claude-agent-sdk` into a fresh venv.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$here" && maturin build --release --locked --out "$out/wheels" 2>&1 | tail -n 1)
python3 -m venv "$out/venv"
"$out/venv/bin/pip" install -q "$out"/wheels/hookc-*.whl claude-agent-sdk
"$out/venv/bin/python" "$here/tests/sdk_claude.py" "$1"
