#!/usr/bin/env python3
"""How much the Python package costs over the Rust calls it wraps (issue 20's speed figures).

Usage (from the project root, with the package installed, see the README):
    python3 scripts/python-speed.py [DEPTH]

On a mid-game 8x8 position it times, each as the median of 5 runs:
- legal_moves() through Python and through Rust (examples/rules_speed.rs);
- perft(DEPTH) (default 5) through Python (one call into Rust) and in Rust;
- the same perft walked in Python with legal_moves/play/undo;
and prints each time with its ratio to Rust.
"""

import statistics
import subprocess
import sys
import time

import konane

# 8x8 after 12 plies of konane-engine against itself at depth 4: 52 stones, 6 moves for Black.
MIDGAME = "bwbwbwbw/wbwbwbwb/bwbwbw1w/wbwb3b/bwbwb3/wbwbw1wb/bwbwb2w/wbwb2wb b"
CALLS = 100_000


def median_of_5(run):
    return statistics.median(run() for _ in range(5))


def timed(work):
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def walk(position, depth):
    if depth == 0:
        return 1
    total = 0
    for move in position.legal_moves():
        position.play(move)
        total += walk(position, depth - 1)
        position.undo()
    return total


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    position = konane.Position.from_string(MIDGAME)
    rust = subprocess.run(
        ["cargo", "run", "-q", "--release", "--example", "rules_speed", "--", MIDGAME, str(depth), str(CALLS)],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    rust = dict(zip(rust[0::2], map(float, rust[1::2])))
    moves_ns = median_of_5(lambda: timed(lambda: [position.legal_moves() for _ in range(CALLS)])) / CALLS * 1e9
    perft_ms = median_of_5(lambda: timed(lambda: position.perft(depth))) * 1000
    walk_ms = median_of_5(lambda: timed(lambda: walk(position, depth))) * 1000
    count = position.perft(depth)
    assert walk(position, depth) == count
    print(f"position: {MIDGAME} ({len(position.legal_moves())} moves), perft({depth}) = {count}")
    print(f"legal_moves(): Python {moves_ns:.0f} ns, Rust {rust['legal_moves_ns']:.0f} ns, ratio {moves_ns / rust['legal_moves_ns']:.1f}")
    print(f"perft({depth}): Python {perft_ms:.2f} ms, Rust {rust['perft_ms']:.2f} ms, ratio {perft_ms / rust['perft_ms']:.2f}")
    print(f"perft({depth}) walked in Python (legal_moves/play/undo): {walk_ms:.1f} ms, ratio {walk_ms / rust['perft_ms']:.0f}")


if __name__ == "__main__":
    main()
