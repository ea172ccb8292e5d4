#!/usr/bin/env python3
"""How far back along a real engine game the solver proves the result.

    python3 scripts/solve-along-game.py [--size 8x8] [--movetime 0.2] [--seed 1]
                                        [--limit 150] [--threads 2] [--engine PATH]

Plays one game of konane-engine against itself (MOVETIME seconds a move, the first two jumps
chosen at random from SEED so that runs differ), then solves the positions 2, 4, 6, ... plies
before its end, each with at most LIMIT seconds, until one is not proven. Prints one line per
position: plies before the end, stones, result, time, nodes. Needs the Python package (see
the README's Python section: `pip install ./python`, or target/python-venv after the tests).
"""

import argparse
import random
import time

import konane


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="8x8")
    parser.add_argument("--movetime", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=150)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--engine", default="target/release/konane-engine")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    position = konane.Position(args.size)
    moves = []
    with konane.Engine(args.engine) as engine:
        while position.legal_moves():
            legal = position.legal_moves()
            if len(moves) in (2, 3):
                move = rng.choice(legal)
            else:
                move = engine.play(position, movetime=args.movetime).move
            moves.append(str(move))
            position.play(move)
    winner = "Black" if len(moves) % 2 == 1 else "White"
    print(f"game: {len(moves)} plies, {winner} wins: {' '.join(moves)}")
    print("plies before the end | stones | result | time | nodes")
    for back in range(2, len(moves), 2):
        before = konane.Position(args.size)
        for move in moves[: len(moves) - back]:
            before.play(move)
        stones = len(before.stones("black")) + len(before.stones("white"))
        started = time.monotonic()
        solution = konane.solve(before, time=args.limit, threads=args.threads, all_moves=False)
        seconds = time.monotonic() - started
        print(f"{back} | {stones} | {solution.result} | {seconds:.2f} s | {solution.nodes}")
        if not solution.proven:
            break


if __name__ == "__main__":
    main()
