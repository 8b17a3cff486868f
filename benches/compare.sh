#!/bin/sh
# A bench's figures against an older commit, in one run: builds benches/BENCH.rs here and at REV
# (in a worktree under target/), then runs the two in turn, three times each, so both see the
# same machine. Prints each run's figures. A bench that uses only the public API (readers) is
# copied to REV as it is here, so both sides time the same work; one that times the tree's own
# binary and rules (hook_process, decision) runs as REV has it.
# Usage: benches/compare.sh BENCH REV [BENCH ARGS…]
#   benches/compare.sh readers a8becfd          the readers against the commit before issue 35
#   HOOKC_BENCH_SIZES=1000 benches/compare.sh hook_process 261f179
set -eu
bench=${1:?usage: benches/compare.sh BENCH REV [ARGS]}
rev=${2:?usage: benches/compare.sh BENCH REV [ARGS]}
shift 2
here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
old="$here/target/compare/$rev"
if [ ! -d "$old" ]; then
  git -C "$here" worktree add --detach "$old" "$rev" >/dev/null
fi
# A commit from before the workspace split is one package: under target/ it would be taken for a
# member of this workspace, so it is made a workspace of its own.
grep -q '^\[workspace\]' "$old/Cargo.toml" || printf '\n[workspace]\n' >>"$old/Cargo.toml"
if [ "$bench" = readers ]; then
  cp "$here/benches/readers.rs" "$old/benches/readers.rs"
  grep -q 'name = "readers"' "$old/Cargo.toml" || printf '\n[[bench]]\nname = "readers"\nharness = false\n' >>"$old/Cargo.toml"
fi
build() { (cd "$1" && cargo bench --bench "$bench" --no-run 2>&1 | sed -n 's/.*Executable.*(\(.*\))$/\1/p' | tail -n 1); }
new_bin=$(build "$here")
old_bin=$(build "$old")
[ -n "$new_bin" ] && [ -n "$old_bin" ] || { echo "compare.sh: the bench did not build here or at $rev (cargo bench --bench $bench --no-run)" >&2; exit 1; }
for round in 1 2 3; do
  echo "== $rev (before), round $round"; (cd "$old" && "$old_bin" --bench "$@")
  echo "== this tree, round $round"; (cd "$here" && "$new_bin" --bench "$@")
done
