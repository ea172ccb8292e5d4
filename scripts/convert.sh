#!/usr/bin/env bash
# Exact play: does konane-engine convert won positions against a perfect defender? Plays the 36
# positions of scripts/data/convert-6x6.txt (the twelve 6x6 openings and 24 from random play)
# from both sides against `konane-fixture perfect`, which solves every position and, when lost,
# plays the move that leaves the fewest winning replies. Exactly one side of each position wins,
# and the defender never lets a win go, so the engine's wins are the positions it converted.
# The defender takes the time its proofs need: the arbiter's time margin is a minute, and the
# engine's own longest move is reported instead.
#
# Each move time is played RUNS times, one run after another, and the median of the runs is
# printed after them (a run's count moves by one or two with the machine's timing).
#
# Usage: scripts/convert.sh [MOVETIME_MS...]   (default: 10 30 100)
# Settings (environment): ENGINE (default: this tree's build), OPTIONS (extra engine options,
#   e.g. "option.Threads=2"), CONCURRENCY (1), RUNS (3).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
(cd "$root" && cargo build --quiet --release --all-features --bin konane-arbiter --bin konane-fixture --bin konane-engine)
engine=${ENGINE:-$root/target/release/konane-engine}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
positions="$root/scripts/data/convert-6x6.txt"
count=$(grep -cv '^#' "$positions")
move_times=("$@")
[ ${#move_times[@]} -eq 0 ] && move_times=(10 30 100)
runs=${RUNS:-3}
case "$runs" in
  '' | *[!0-9]*) runs=bad ;;
esac
if [ "$runs" = bad ] || [ "$runs" -lt 1 ]; then
  echo "convert.sh: RUNS must be a whole number of at least 1, not '${RUNS:-}'" >&2
  exit 2
fi
for move_time in "${move_times[@]}"; do
  : > "$work/counts"
  for run in $(seq 1 "$runs"); do
    # shellcheck disable=SC2086
    "$root/target/release/konane-arbiter" --size 6x6 --openings "$positions" \
      --games $((2 * count)) --concurrency "${CONCURRENCY:-1}" --movetime "$move_time" --timemargin 60000 \
      --engine cmd="$engine" name=engine ${OPTIONS:-} \
      --engine cmd="$root/target/release/konane-fixture" arg=perfect name=perfect \
      --results "$work/$move_time-$run.jsonl" > "$work/$move_time-$run.log"
    python3 - "$work/$move_time-$run.jsonl" "$move_time" "$count" "$run" "$work/counts" <<'PY'
import json, sys
path, move_time, count, run, counts = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
pairs = {}
for line in open(path):
    game = json.loads(line)
    pairs.setdefault((game["id"] + 1) // 2, []).append(game)
converted, missed, faults, longest = 0, [], [], 0
for games in pairs.values():
    opening = " ".join(games[0]["moves"][: games[0]["opening_plies"]])
    wins = 0
    for game in games:
        engine = "black" if game["black"] == "engine" else "white"
        wins += game["winner"] == engine
        if game["termination"] != "normal":
            faults.append(f"{opening}: {game['termination']}")
        times = game["move_times_ms"]
        first = 0 if (game["opening_plies"] % 2 == 0) == (engine == "black") else 1
        longest = max([longest] + times[first::2])
    converted += wins
    if wins == 0:
        missed.append(opening)
print(f"movetime {move_time}, run {run}: converted {converted} of {count}; the engine's longest move {longest} ms")
for opening in missed:
    print(f"  not converted: {opening}")
for fault in faults:
    print(f"  fault: {fault}")
with open(counts, "a") as out:
    out.write(f"{converted}\n")
PY
  done
  python3 - "$work/counts" "$move_time" "$count" <<'PY'
import statistics, sys
counts = [int(line) for line in open(sys.argv[1])]
listed = ", ".join(map(str, counts))
print(f"movetime {sys.argv[2]}: median {statistics.median_low(counts)} of {sys.argv[3]} ({listed})")
PY
done
