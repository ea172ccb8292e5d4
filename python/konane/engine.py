"""The crate's own engine, installed with the package: ``python -m konane.engine`` (or the
``konane-engine`` command that ``pip install konane`` puts beside Python) speaks the Konane
protocol on standard input and output, as the Rust binary of the same name does without
arguments. ``command()`` is how ``konane.Engine`` starts it wherever Python runs::

    with konane.Engine(konane.engine.command()) as engine:
        engine.play(konane.Position("8x8"), konane.Limit(movetime=0.1))

The binary's ``perft``, ``solve`` and ``bench`` are ``Position.perft``, ``konane.solve`` and the
Rust build here.
"""

from __future__ import annotations

import sys

from konane._konane import run_engine

__all__ = ["command", "main"]


def command() -> list[str]:
    """The command that starts the package's engine with this Python."""
    return [sys.executable, "-m", "konane.engine"]


def main() -> int:
    """Runs the engine until ``quit`` or the end of input; arguments are refused."""
    if len(sys.argv) > 1:
        print(
            "konane-engine from Python speaks the protocol only and takes no arguments; for "
            "perft and solve use Position.perft and konane.solve, or the Rust build of konane-engine",
            file=sys.stderr,
        )
        return 2
    run_engine()
    return 0


if __name__ == "__main__":
    sys.exit(main())
