#!/usr/bin/env bash
# Measures konane-engine's Skill levels with konane-arbiter and prints a Markdown table: each
# level against full strength (Skill 20), and each level against the level listed before it.
#
#   scripts/skill-elo.sh [GAMES] [TC] [LEVEL...]      defaults: 100 1+0.01 0 5 10 15 19
#
# Builds the release binaries first. Every match is GAMES games in colour-swapped pairs from
# 4 random plies (seed 1). Elo is the first-named level's, with its 95% interval; a level
# that wins or loses every game gets an infinite estimate and a finite bound. CONCURRENCY (in
# the environment, default 1) games are played at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
tc=${2:-1+0.01}
shift $(( $# > 2 ? 2 : $# ))
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(0 5 10 15 19)
cargo build --release --quiet
engine=$PWD/target/release/konane-engine

# match A B: "score | Elo (interval)" of Skill A against Skill B.
match() {
    local out
    out=$(./target/release/konane-arbiter --engine "cmd=$engine" "name=skill$1" \
        "option.Skill=$1" --engine "cmd=$engine" "name=skill$2" "option.Skill=$2" \
        --games "$games" --tc "$tc" --concurrency "${CONCURRENCY:-1}" --random-plies 4 --seed 1)
    local score elo
    score=$(echo "$out" | awk -v n="skill$1" '$1 == n && NF == 5 { print $3 "/" $2 }')
    elo=$(echo "$out" | grep "^skill$1 vs skill$2:" | sed 's/.*\], Elo //; s/, LOS.*//')
    echo "$score | $elo"
}

echo "| Skill | against Skill 20: score | Elo (95%) | against the next level listed: score | Elo (95%) |"
echo "|---|---|---|---|---|"
for i in "${!levels[@]}"; do
    level=${levels[$i]}
    direct=$(match "$level" 20)
    if [ $((i + 1)) -lt ${#levels[@]} ]; then
        above=$(match "$level" "${levels[$((i + 1))]}")
    else
        above="- | -"
    fi
    echo "| $level | $direct | $above |"
done
