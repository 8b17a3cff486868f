#!/usr/bin/env bash
# Adding an agent is its folder and one line in the list (agents/README.md). This builds hookc
# with the made-up `agents/example` in its agent table (the `example-agent` feature), regenerates
# what is generated from the agents' folders (the docs' tables, the baseline's list of agent
# settings: `HOOKC_BLESS=1`, as an author adding an agent would), and runs every test that reads
# every agent: the protocol fixtures, init and doctor, the checker's agent tests, the baseline's,
# the corpus's and the oracles'. The regenerated files are put back afterwards. One snapshot is
# left out: W0308's help counts the agents ("12 more on 8 other agents").
#
# usage: tests/example-agent.sh            (a separate build: a few minutes on two cores)
set -euo pipefail
cd "$(dirname "$0")/.."
# A target of its own: another feature set would rebuild the main one.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/example-agent}
generated=(rules/files.rules docs/agents.md docs/paths.md)
saved=$(mktemp -d)
cp --parents "${generated[@]}" "$saved"
trap 'cp -r "$saved"/. . && rm -rf "$saved"' EXIT
HOOKC_BLESS=1 cargo test --features example-agent --test lib -- tables_in_the_docs >/dev/null
grep -q '"\*\*/.example/settings.json"' rules/files.rules || { echo "the baseline's list did not take the example agent" >&2; exit 1; }
cargo test --features example-agent --test lib -- \
    agents:: baseline:: corpus:: diagnostics:: oracles:: \
    --skip diagnostics::every_fixture_renders_as_snapshotted
