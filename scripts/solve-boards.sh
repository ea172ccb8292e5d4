#!/usr/bin/env bash
# Solves every opening of the boards in the README's table with the current build and prints
# each board's lines, with the time of each opening and the total (from standard error).
# Usage: scripts/solve-boards.sh [BOARD...]   (default: 4x4 4x6 6x4 5x5 6x6)
#        HASH=MB sets the proof table (default: the solver's, by the stones); THREADS=N the
#        threads (default: one per core); TIMEOUT=SECONDS bounds each board.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
(cd "$root" && cargo build --quiet --release --bin konane-engine)
engine="$root/target/release/konane-engine"
boards=("$@")
[ ${#boards[@]} -eq 0 ] && boards=(4x4 4x6 6x4 5x5 6x6)
for board in "${boards[@]}"; do
  width=${board%x*}; height=${board#*x}
  opening=traditional
  if (( width % 2 == 1 || height % 2 == 1 )); then opening=any; fi
  flags=()
  [ -n "${HASH:-}" ] && flags+=(--hash "$HASH")
  [ -n "${THREADS:-}" ] && flags+=(--threads "$THREADS")
  echo "== $board, opening $opening: konane-engine solve --size $board --opening $opening --openings ${flags[*]}"
  timeout "${TIMEOUT:-3600}" "$engine" solve --size "$board" --opening "$opening" --openings \
    "${flags[@]}" 2>&1 | grep -v ' progress: ' || echo "(stopped after ${TIMEOUT:-3600} s)"
done
