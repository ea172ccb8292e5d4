#!/usr/bin/env bash
# Runs every job of a split solve, some at a time on this machine, then joins them.
#
#   scripts/solve-jobs.sh DIR [AT_ONCE] [konane-engine solve flags, e.g. --threads 1 --hash 4096]
#
# DIR is a folder written by `konane-engine solve ... --split DEPTH --jobs DIR`. Jobs run in
# order, AT_ONCE at a time (default 1, each on every core unless --threads says otherwise);
# a job already solved, or one the results so far make unnecessary, ends at once. With
# AT_ONCE 1 one process runs them all (`--run all`), so a --table is loaded once, not once a
# job; otherwise each job is a process of its own (give them no shared --table). Each result
# is written whole to DIR/results/N.txt, so a run that was stopped (Ctrl-C, a reboot) is
# continued by running the same command again. The join at the end prints the root's result,
# or the missing jobs that could decide it. KONANE_ENGINE names the engine (default: the
# release build of this checkout, else konane-engine on the PATH).
#
# Example: the 6x6 start split three plies down, two jobs at a time on one thread each:
#   konane-engine solve --size 6x6 --split 3 --jobs /tmp/six
#   scripts/solve-jobs.sh /tmp/six 2 --threads 1
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/split.txt" ]; then
    sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
dir=$1
at_once=${2:-1}
shift $(( $# >= 2 ? 2 : 1 ))
engine=${KONANE_ENGINE:-$(dirname "$0")/../target/release/konane-engine}
[ -x "$engine" ] || engine=konane-engine
# The join names what is missing if a job failed or was stopped.
if [ "$at_once" = 1 ]; then
    "$engine" solve --jobs "$dir" --run all "$@" || true
else
    jobs=$(grep -c '^job ' "$dir/split.txt")
    seq 1 "$jobs" | xargs -P "$at_once" -I '{}' "$engine" solve --jobs "$dir" --run '{}' "$@" || true
fi
exec "$engine" solve --jobs "$dir" --join
