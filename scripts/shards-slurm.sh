#!/usr/bin/env bash
# Plays one tournament as a Slurm job array, one shard per array task; merge them afterwards.
#
#   sbatch --array=1-16 scripts/shards-slurm.sh [konane-arbiter tournament flags...]
#   konane-arbiter merge results/results-*.jsonl
#
# Each task plays shard $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT into
# results/results-K.jsonl on the shared file system, with as many games at once as the task
# has CPUs (each engine thinks on one thread). A task that was preempted or cancelled can be
# resubmitted as it was (sbatch --array=K ...): --resume replays no finished game. Slurm ends
# a cancelled task's whole process tree; konane-arbiter's watchdog also kills its engines if
# the arbiter alone is killed.
#
# Example: sbatch --array=1-16 scripts/shards-slurm.sh --engine cmd=$PWD/new name=new \
#     --engine cmd=$PWD/old name=old --games 8000 --tc 10+0.1 --random-plies 4 --seed 7
#SBATCH --job-name=konane-shards
#SBATCH --cpus-per-task=2
#SBATCH --output=shard-%a.log
set -euo pipefail
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
    echo "run this through sbatch --array=1-N (see the comments at its top)" >&2
    exit 2
fi
mkdir -p results
exec konane-arbiter "$@" \
    --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" \
    --concurrency "${SLURM_CPUS_PER_TASK:-1}" \
    --results "results/results-$SLURM_ARRAY_TASK_ID.jsonl" --resume
