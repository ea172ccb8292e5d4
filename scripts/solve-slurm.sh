#!/usr/bin/env bash
# Runs the jobs of a split solve as a Slurm job array, one job per array task.
#
#   konane-engine solve --size 6x8 --moves "c4 c5" --split 2 --jobs $PWD/c4c5
#   sbatch --array=1-$(grep -c '^job ' c4c5/split.txt) scripts/solve-slurm.sh $PWD/c4c5 [flags]
#   konane-engine solve --jobs c4c5 --join
#
# Each task solves job $SLURM_ARRAY_TASK_ID on as many threads as it has CPUs, into
# DIR/results/N.txt on the shared file system (written whole or not at all). A task that was
# preempted or cancelled can be resubmitted as it was; a job that is solved already, or that
# the results so far make unnecessary, ends at once. The join names any job still missing.
#SBATCH --job-name=konane-solve
#SBATCH --cpus-per-task=4
#SBATCH --mem=16G
#SBATCH --output=solve-%a.log
set -euo pipefail
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ] || [ $# -lt 1 ]; then
    echo "run this through sbatch --array=1-N with the split's folder (see the comments at its top)" >&2
    exit 2
fi
dir=$1
shift
exec konane-engine solve --jobs "$dir" --run "$SLURM_ARRAY_TASK_ID" \
    --threads "${SLURM_CPUS_PER_TASK:-1}" "$@"
