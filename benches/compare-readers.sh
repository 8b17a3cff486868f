#!/bin/sh
# The readers' cost against an older commit, in one run: builds benches/readers.rs as it is here
# and the same file at REV (in a worktree under target/, the file copied in), then runs the two
# in turn, three times each, so both see the same machine. Prints each run's figures.
# Usage: benches/compare-readers.sh REV
set -eu
rev=${1:?usage: benches/compare-readers.sh REV}
here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
old="$here/target/compare-readers/$rev"
if [ ! -d "$old" ]; then
  git -C "$here" worktree add --detach "$old" "$rev" >/dev/null
fi
cp "$here/benches/readers.rs" "$old/benches/readers.rs"
grep -q 'name = "readers"' "$old/Cargo.toml" || printf '\n[[bench]]\nname = "readers"\nharness = false\n' >>"$old/Cargo.toml"
# The same allocator on both sides, so the ratio is the readers' own cost.
grep -q '^mimalloc' "$old/Cargo.toml" || (cd "$old" && cargo add --dev mimalloc@0.1 --no-default-features >/dev/null 2>&1)
build() { (cd "$1" && cargo bench --bench readers --no-run 2>&1 | sed -n 's/.*Executable.*(\(.*\))$/\1/p' | tail -n 1); }
new_bin=$(build "$here")
old_bin=$(build "$old")
for round in 1 2 3; do
  echo "== $rev (before), round $round"; (cd "$old" && "$old_bin")
  echo "== this tree, round $round"; (cd "$here" && "$new_bin")
done
