#!/bin/sh
# The OpenAI Agents SDK integration against the real SDK with a scripted model. Not part of
# .ci/run or test.sh (it installs openai-agents). Builds the wheel and installs it with
# `openai-agents` into a fresh venv.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$here" && maturin build --release --locked --out "$out/wheels" 2>&1 | tail -n 1)
python3 -m venv "$out/venv"
"$out/venv/bin/pip" install -q "$out"/wheels/hookc-*.whl openai-agents
cd "$here/tests" && OPENAI_AGENTS_DISABLE_TRACING=1 "$out/venv/bin/python" sdk_openai.py
