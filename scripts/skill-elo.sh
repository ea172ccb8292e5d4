#!/usr/bin/env bash
# Measures each Skill level of konane-engine against full strength (Skill 20) with
# konane-arbiter, and prints a Markdown table of the Elo differences.
#
#   scripts/skill-elo.sh [GAMES] [TC] [LEVEL...]      defaults: 100 1+0.01 0 5 10 15 19
#
# Builds the release binaries first. Each level plays GAMES games (colour-swapped pairs from
# 4 random plies, seed 1) against full strength; the Elo is the level's, with its 95% interval.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
tc=${2:-1+0.01}
shift $(( $# > 2 ? 2 : $# ))
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(0 5 10 15 19)
cargo build --release --quiet
engine=$PWD/target/release/konane-engine
echo "| Skill | games | score | Elo against Skill 20 (95% interval) |"
echo "|---|---|---|---|"
for level in "${levels[@]}"; do
    out=$(./target/release/konane-arbiter --engine "cmd=$engine" "name=skill$level" \
        "option.Skill=$level" --engine "cmd=$engine" name=full --games "$games" --tc "$tc" \
        --random-plies 4 --seed 1)
    score=$(echo "$out" | awk -v n="skill$level" '$1 == n { print $3 "/" $2 }')
    elo=$(echo "$out" | grep "^skill$level vs full:" | sed 's/.*\], Elo //; s/, LOS.*//')
    echo "| $level | $games | $score | $elo |"
done
