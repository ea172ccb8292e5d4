#!/usr/bin/env bash
# Tests whether engine build NEW_REV is stronger than OLD_REV, the way engine developers test a
# change: both revisions are built in temporary git worktrees, then konane-arbiter (from this
# working tree) plays them in colour-swapped pairs until an SPRT decides.
#
# Usage: scripts/sprt.sh OLD_REV NEW_REV
# Settings (environment): TC (default 5+0.05), ELO0 (0), ELO1 (10), ALPHA (0.05), BETA (0.05),
#   GAMES (20000, the most it plays), CONCURRENCY (2), PLIES (random opening plies, 4),
#   SIZE (8x8), SEED (the openings' seed; default a random one), RESULTS (where to keep the
#   results file; default a temporary one). When RESULTS already holds games the run resumes
#   them (--resume): give the same revisions and settings, SEED included, and it goes on where
#   it stopped (a long SPRT over several sittings).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 OLD_REV NEW_REV" >&2
  exit 2
fi
old_rev=$1
new_rev=$2
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
cleanup() {
  git -C "$root" worktree remove --force "$work/old" 2>/dev/null || true
  git -C "$root" worktree remove --force "$work/new" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

build() { # side revision
  git -C "$root" worktree add --quiet --detach "$work/$1" "$2"
  # The engine's own build settings (.cargo/config.toml) apply inside the worktree.
  (cd "$work/$1" && cargo build --quiet --release --bin konane-engine --target-dir "$work/target-$1")
  cp "$work/target-$1/release/konane-engine" "$work/$1-engine"
  echo "$1: $(git -C "$root" rev-parse --short "$2")  bench: $("$work/$1-engine" bench)"
}
build old "$old_rev"
build new "$new_rev"
(cd "$root" && cargo build --quiet --release --bin konane-arbiter)

results=${RESULTS:-$work/results.jsonl}
resume=()
if [ -s "$results" ]; then
  resume=(--resume)
fi
"$root/target/release/konane-arbiter" \
  --engine cmd="$work/new-engine" name=new \
  --engine cmd="$work/old-engine" name=old \
  --games "${GAMES:-20000}" --concurrency "${CONCURRENCY:-2}" --tc "${TC:-5+0.05}" \
  --size "${SIZE:-8x8}" --random-plies "${PLIES:-4}" --seed "${SEED:-$RANDOM}" \
  --results "$results" "${resume[@]}" \
  --sprt elo0="${ELO0:-0}" elo1="${ELO1:-10}" alpha="${ALPHA:-0.05}" beta="${BETA:-0.05}"
