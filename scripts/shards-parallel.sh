#!/usr/bin/env bash
# Plays one tournament as N shards spread over SSH hosts with GNU parallel, then merges them.
#
#   scripts/shards-parallel.sh HOSTS_FILE N [konane-arbiter tournament flags...]
#
# HOSTS_FILE lists one SSH login per line in GNU parallel's --sshloginfile format (for
# example "2/user@host": two shards at a time on that host; ":" is this machine). Every host
# needs konane-arbiter and the engines at the paths given in the flags, for example after
# `cargo install --path cli`. Each shard writes results-K.jsonl on its host; the files are
# brought back here (--return) and merged. A shard that was interrupted can be continued by
# running the same command again: --resume replays no finished game.
#
# Example: 8 shards of a 4000-game SPRT between two builds:
#   scripts/shards-parallel.sh hosts.txt 8 --engine cmd=new-engine name=new \
#       --engine cmd=old-engine name=old --games 4000 --tc 5+0.05 --random-plies 4 \
#       --sprt elo0=0 elo1=5 --seed 42
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
hosts=$1
shards=$2
shift 2
# Quote the tournament's flags once, for the remote shells.
flags=$(printf '%q ' "$@")
seq 1 "$shards" | parallel --sshloginfile "$hosts" --return 'results-{}.jsonl' \
    --halt never --line-buffer --tagstring 'shard {}' \
    "konane-arbiter $flags --shard {}/$shards --results results-{}.jsonl --resume"
files=()
for k in $(seq 1 "$shards"); do
    files+=("results-$k.jsonl")
done
konane-arbiter merge "${files[@]}"
