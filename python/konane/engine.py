"""The crate's own engine, installed with the package: ``python -m konane.engine`` (or the
``konane-engine`` command that ``pip install konane`` puts beside Python) is the Rust binary of
the same name: without arguments it speaks the Konane protocol on standard input and output;
``perft``, ``solve`` and ``bench`` work as there (``--help`` lists them). ``command()`` is how
``konane.Engine`` starts it wherever Python runs::

    with konane.Engine(konane.engine.command()) as engine:
        engine.play(konane.Position("8x8"), konane.Limit(movetime=0.1))
"""

from __future__ import annotations

import signal
import sys

from konane._konane import run_engine_cli

__all__ = ["command", "main"]


def command() -> list[str]:
    """The command that starts the package's engine with this Python."""
    return [sys.executable, "-m", "konane.engine"]


def main() -> int:
    """Runs ``konane-engine`` with the program's arguments; returns its exit status."""
    # Ctrl-C ends the program as it ends the Rust binary (solve catches it itself).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    return run_engine_cli(["konane-engine", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
