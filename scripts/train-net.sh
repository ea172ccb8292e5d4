#!/usr/bin/env bash
# Trains the evaluation's network of one board (src/search/net.rs) and writes its weights to
# src/search/net_weights_WxH.rs: the positions of that board in the games of the SPRTs kept in
# proofs/ (every position an engine moved from, with its score and the move it played; every
# second one, about 965,000 for 8x8), with the evaluation's own data sets
# (scripts/data/eval-positions.txt, eval-choices.txt). The same files give the same weights.
#
# Usage: scripts/train-net.sh [BOARD]   (default: 8x8)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
board=${1:-8x8}
cd "$root"
cargo build --quiet --release --example game_positions --example train_net
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The games of the results files in proofs/ when the 8x8 network was trained (the files kept
# since then are left out, so that the weights come out the same).
games=(
  proofs/accumulator-16x16/results.jsonl
  proofs/countermoves-8x8/results.jsonl
  proofs/follow-up-history-8x8/results.jsonl
  proofs/futility-8x8/results.jsonl
  proofs/history-malus-8x8/results.jsonl
  proofs/history-reductions-8x8/results.jsonl
  proofs/iir-8x8/results.jsonl
  proofs/improving-8x8/results.jsonl
  proofs/keep-follow-up-8x8/results.jsonl
  proofs/keep-orderings-8x8/results.jsonl
  proofs/lmp-8x8/results.jsonl
  proofs/lmr-8x8/results.jsonl
  proofs/mobility-order-8x8/results.jsonl
  proofs/net-8x8/results.jsonl
  proofs/net-choice-8x8/results-20k-nodes.jsonl
  proofs/net-choice-8x8/results-value-only.jsonl
  proofs/net-choice-8x8/results.jsonl
  proofs/null-move-8x8/results.jsonl
  proofs/patterns-10x10-5s/results.jsonl
  proofs/patterns-10x10/results.jsonl
  proofs/patterns-8x8-5s/results.jsonl
  proofs/patterns-8x8/results.jsonl
  proofs/poll-16x16/results.jsonl
  proofs/ponder-8x8/results.jsonl
  proofs/razor-8x8/results.jsonl
  proofs/refine-choices-10x10/results.jsonl
  proofs/refine-choices-8x8-5s/results.jsonl
  proofs/refine-choices-8x8-all/results.jsonl
  proofs/refine-choices-8x8/results.jsonl
  proofs/regions-12x12/results.jsonl
  proofs/regions-16x16/results.jsonl
  proofs/rfp-8x8/results.jsonl
  proofs/search-10x10/results.jsonl
  proofs/search-16x16/results.jsonl
  proofs/search-labels-10x10/results.jsonl
  proofs/search-labels-8x8/results.jsonl
  proofs/time-stability-8x8/results.jsonl
)
target/release/examples/game_positions --board "$board" "${games[@]}" | awk 'NR % 2 == 0' > "$work/games.txt"
target/release/examples/train_net --board "$board" --note "scripts/train-net.sh $board" --epochs 10 --rate 3e-3 --decay 0 \
  --choice 0.5 --temperature 0.5 scripts/data/eval-positions.txt scripts/data/eval-choices.txt \
  "$work/games.txt"
