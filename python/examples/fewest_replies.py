#!/usr/bin/env python3
"""A Konane bot in a few lines: it plays the move that leaves the opponent the fewest replies.

Run it under the arbiter like any engine:

    konane-arbiter check --engine cmd=python3 arg=python/examples/fewest_replies.py
    konane-arbiter --engine cmd=python3 arg=python/examples/fewest_replies.py \\
                   --engine cmd=target/release/konane-engine option.Skill=0 --games 4 --movetime 50
"""

import konane


def replies_after(position: konane.Position, move: konane.Move) -> int:
    position.play(move)
    count = len(position.legal_moves())
    position.undo()
    return count


def choose(position: konane.Position) -> konane.Move:
    return min(position.legal_moves(), key=lambda move: replies_after(position, move))


if __name__ == "__main__":
    konane.run_bot(choose, name="Fewest replies", author="the konane package's example")
