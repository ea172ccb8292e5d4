#!/usr/bin/env python3
"""How tight Position.status() is: every filling of a small board, either side to move, is
judged by status() and compared with the positions games really reach from the start.

A position that games reach must pass (the tests check it in Rust); this script counts how many
impossible set-ups still pass, the price of checking necessary conditions only.

Usage: scripts/unreachable.py [WxH] [--opening any] [--capture straight]
       (needs the Python package: see the README's Python section; 4x3 takes about 10 s)
"""
import argparse
import itertools
import re

import konane


def reached(size, opening, capture):
    """Every position string of every game from the start."""
    seen = set()
    stack = [konane.Position(size, opening=opening, capture=capture)]
    while stack:
        position = stack.pop()
        text = str(position)
        if text in seen:
            continue
        seen.add(text)
        for move in position.legal_moves():
            after = position.copy()
            after.play(move)
            stack.append(after)
    return seen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("size", nargs="?", default="4x3")
    parser.add_argument("--opening", default="any")
    parser.add_argument("--capture", default="straight")
    args = parser.parse_args()
    width, height = (int(side) for side in args.size.split("x"))
    real = reached(args.size, args.opening, args.capture)
    total = passing = 0
    for cells in itertools.product(".bw", repeat=width * height):
        rows = ("".join(cells[r * width:(r + 1) * width]) for r in range(height))
        board = "/".join(re.sub(r"\.+", lambda run: str(len(run.group())), row) for row in rows)
        for side in "bw":
            try:
                position = konane.Position.from_string(
                    f"{board} {side}", opening=args.opening, capture=args.capture)
            except konane.ParseError:
                continue  # a full board with White to move is no position at all
            total += 1
            if position.is_valid():
                passing += 1
    missed = sorted(text for text in real if not konane.Position.from_string(
        text, opening=args.opening, capture=args.capture).is_valid())
    print(f"{args.size} opening {args.opening} capture {args.capture}: {total} set-ups, "
          f"{passing} pass status(), {len(real)} arise in games, "
          f"{passing - len(real)} impossible ones pass; reached but refused: {len(missed)}")


if __name__ == "__main__":
    main()
