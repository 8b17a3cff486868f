#!/usr/bin/env bash
# The public crates' API against its baseline, with cargo-semver-checks: a change that would break
# a crate written against them (a public item removed or renamed, a field added to a struct that
# is not `#[non_exhaustive]`, a variant added to an exhaustive enum, a function's arguments
# changed) fails unless the crate's version says so. hookc has no release tag yet, so the
# baseline is a committed revision, `tests/semver-baseline`: bump it, in the same commit, when a
# break is meant (and the version with it, once hookc is published).
#
# usage: tests/semver.sh      (installs cargo-semver-checks if it is missing: about ten minutes
#                              on two cores; CARGO_SEMVER_CHECKS names another binary)
# Not part of .ci/run: it builds every public crate twice, for rustdoc's JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
checks=${CARGO_SEMVER_CHECKS:-}
if [ -z "$checks" ]; then
  if command -v cargo-semver-checks >/dev/null; then
    checks=cargo-semver-checks
  else
    cargo install cargo-semver-checks --locked
    checks=cargo-semver-checks
  fi
fi
baseline=$(sed -n 's/^\([0-9a-f]\{40\}\).*/\1/p' tests/semver-baseline)
[ -n "$baseline" ] || { echo "tests/semver-baseline holds no revision" >&2; exit 2; }
# The published crates (hookc-cli is not: `publish = false`), each against itself at the baseline.
for crate in hookc-core hookc-agents hookc-runtime hookc-signing hookc; do
  "$checks" semver-checks check-release --package "$crate" --baseline-rev "$baseline"
done
