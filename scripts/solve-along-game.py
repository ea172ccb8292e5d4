#!/usr/bin/env python3
"""How far back along a real engine game the solver proves the result.

    python3 scripts/solve-along-game.py [--size 8x8] [--movetime 0.2] [--seed 1]
                                        [--game "MOVES"] [--limit 150] [--threads 2]
                                        [--hash MB] [--engine PATH] [--solver PATH]

Plays one game of konane-engine against itself (MOVETIME seconds a move, the first two jumps
chosen at random from SEED so that runs differ), or takes the game GAME (its moves, from the
start, separated by spaces: the 'game:' line of an earlier run), then solves the positions
2, 4, 6, ... plies before its end with `SOLVER solve`, each stopped after LIMIT seconds (as
Ctrl-C would), until one is not proven. Prints one line per position: plies before the end,
stones, result, time, nodes. Giving two builds as --solver on the same --game compares them.
Needs the Python package to play the game (see the README's Python section: `pip install
./python`, or target/python-venv after the tests).
"""

import argparse
import random
import re
import signal
import subprocess
import time

import konane


def play_game(args: argparse.Namespace) -> list[str]:
    """One game of the engine against itself, its first two jumps chosen at random."""
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
    return moves


def solve(args: argparse.Namespace, moves: list[str]) -> tuple[str, float, int]:
    """Solves the position after `moves` with the solver binary, stopped after the limit:
    its result ('win', 'loss' or 'unknown'), the seconds it took and its nodes."""
    command = [args.solver, "solve", "--size", args.size, "--threads", str(args.threads),
               "--moves", " ".join(moves)]
    if args.hash:
        command += ["--hash", str(args.hash)]
    started = time.monotonic()
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
    except OSError as error:
        raise SystemExit(f"cannot run the solver {args.solver}: {error}") from None
    with process:
        try:
            out, err = process.communicate(timeout=args.limit)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGINT)
            out, err = process.communicate()
    seconds = time.monotonic() - started
    result = re.search(r"^result: (win|loss)$", out, re.MULTILINE)
    nodes = re.search(r"^nodes (\d+)", err, re.MULTILINE)
    if process.returncode not in (0, 130) or nodes is None:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {err}")
    return (result.group(1) if result else "unknown"), seconds, int(nodes.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="8x8")
    parser.add_argument("--movetime", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", help="the game's moves, instead of playing one")
    parser.add_argument("--limit", type=float, default=150)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hash", type=int, help="MB for the solver's table (its default else)")
    parser.add_argument("--engine", default="target/release/konane-engine")
    parser.add_argument("--solver", default="target/release/konane-engine")
    args = parser.parse_args()

    moves = args.game.split() if args.game else play_game(args)
    position = konane.Position(args.size)
    try:
        for move in moves:
            position.play(move)
    except konane.KonaneError as error:
        raise SystemExit(f"--game: {error}") from None
    if position.legal_moves():
        raise SystemExit("--game: the game does not end after its last move")
    winner = "Black" if len(moves) % 2 == 1 else "White"
    print(f"game: {len(moves)} plies, {winner} wins: {' '.join(moves)}")
    print(f"solver: {args.solver}")
    print("plies before the end | stones | result | time | nodes")
    for back in range(2, len(moves), 2):
        before = konane.Position(args.size)
        for move in moves[: len(moves) - back]:
            before.play(move)
        stones = len(before.stones("black")) + len(before.stones("white"))
        result, seconds, nodes = solve(args, moves[: len(moves) - back])
        print(f"{back} | {stones} | {result} | {seconds:.2f} s | {nodes}", flush=True)
        if result == "unknown":
            break


if __name__ == "__main__":
    main()
