#!/usr/bin/env bash
# Trains the evaluation's network of one board (src/search/net.rs) and writes its weights to
# src/search/net_weights_WxH.rs, from the positions of that board in games kept in proofs/
# (every position an engine moved from, with its score and the move it played) or in labelled
# data sets kept there (positions with the result the solver proved), and the evaluation's own
# data sets (scripts/data/eval-positions.txt, eval-choices.txt). The same files give the same
# weights.
#   6x6:   proofs/net-6x6/labels.txt.gz, positions of 20,000 engine games proven by the solver
#          (and the positions their moves lead to), each position once, through the board's
#          symmetries, 60 passes over the data (the fit goes on improving to about 60).
#   8x8:   the games of the SPRTs kept when the 8x8 network was trained, every second position
#          (about 965,000).
#   10x10: every 10x10 game of the SPRTs in proofs/ and the self-play games of
#          proofs/net-10x10/selfplay.jsonl.gz, every position, each seen through one of the
#          board's colour-keeping symmetries drawn anew each time (--symmetries).
#   12x12: the 12x12 games of the regions SPRT (proofs/regions-12x12) and the self-play games of
#          proofs/net-12x12/selfplay.jsonl.gz, every position, through the symmetries. Its
#          network is not in the build: it learnt next to nothing yet
#          (proofs/net-12x12/README.md).
#
# Usage: scripts/train-net.sh [BOARD]   (default: 8x8)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
board=${1:-8x8}
cd "$root"
epochs=10
case "$board" in
  6x6)
    games=()
    labelled=(proofs/net-6x6/labels.txt.gz)
    keep='1'
    train_options=(--symmetries)
    epochs=60
    ;;
  8x8)
    # The games of the results files in proofs/ when the 8x8 network was trained (the files
    # kept since then are left out, so that the weights come out the same).
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
    labelled=()
    keep='NR % 2 == 0'
    train_options=()
    ;;
  10x10)
    # The files the build's 10x10 network was trained on (those kept since, such as
    # proofs/net-10x10/selfplay-next.jsonl.gz, are left out, so that the weights come out the
    # same).
    games=(
      proofs/net-10x10/selfplay.jsonl.gz
      proofs/net-stones-8x8/results-10x10.jsonl
      proofs/patterns-10x10-5s/results.jsonl
      proofs/patterns-10x10/results.jsonl
      proofs/refine-choices-10x10/results.jsonl
      proofs/search-10x10/results.jsonl
      proofs/search-labels-10x10/results.jsonl
    )
    labelled=()
    keep='1'
    train_options=(--symmetries)
    ;;
  12x12)
    games=(
      proofs/net-12x12/selfplay.jsonl.gz
      proofs/regions-12x12/results.jsonl
    )
    labelled=()
    keep='1'
    train_options=(--symmetries)
    ;;
  *)
    echo "train-net.sh: no recipe for board '$board' (6x6, 8x8, 10x10 or 12x12)" >&2
    exit 2
    ;;
esac
cargo build --quiet --release --example game_positions --example train_net
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Results files kept compressed are read through a plain copy.
plain=()
for file in ${games[@]+"${games[@]}"}; do
  case "$file" in
    *.gz)
      gunzip -c "$file" > "$work/$(basename "$file" .gz)"
      plain+=("$work/$(basename "$file" .gz)")
      ;;
    *) plain+=("$file") ;;
  esac
done
target/release/examples/game_positions --board "$board" ${plain[@]+"${plain[@]}"} | awk "$keep" > "$work/games.txt"
# Labelled positions (the solver's results) are read as they are.
for file in ${labelled[@]+"${labelled[@]}"}; do
  gunzip -c "$file" >> "$work/games.txt"
done
target/release/examples/train_net --board "$board" --note "scripts/train-net.sh $board" --epochs "$epochs" --rate 3e-3 --decay 0 \
  --choice 0.5 --temperature 0.5 ${train_options[@]+"${train_options[@]}"} scripts/data/eval-positions.txt scripts/data/eval-choices.txt \
  "$work/games.txt"
