"""The crate's arbiter, installed with the package: ``python -m konane.arbiter`` (or the
``konane-arbiter`` command that ``pip install konane`` puts beside Python) is the Rust binary of
the same name, with the same arguments: tournaments (``--engine ... --engine ...``), a demo
match of the package's engine against itself (no ``--engine``), and ``check``, ``play``,
``merge`` and ``gui`` (``--help`` lists them). From Python code, ``konane.play_match`` and
``konane.check`` run the same library.
"""

from __future__ import annotations

import signal
import sys

from konane import engine
from konane._konane import run_arbiter_cli

__all__ = ["command", "main"]


def command() -> list[str]:
    """The command that starts the package's arbiter with this Python."""
    return [sys.executable, "-m", "konane.arbiter"]


def main() -> int:
    """Runs ``konane-arbiter`` with the program's arguments; returns its exit status."""
    # As the Rust binary: Ctrl-C ends a tool that does not catch it (matches, check, play and
    # gui do, and stop their engines).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    return run_arbiter_cli(["konane-arbiter", *sys.argv[1:]], command(), engine.command())


if __name__ == "__main__":
    sys.exit(main())
