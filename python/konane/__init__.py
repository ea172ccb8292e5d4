"""Konane (Hawaiian checkers) for Python, backed by the Rust crate of the same name.

The rules of every board from 2x2 to 26x26, an exact solver, a driver for any engine that
speaks the Konane protocol, the arbiter's compliance check and match runner, and a way to make
a bot of one function::

    >>> import konane
    >>> position = konane.Position("6x6")
    >>> len(position.legal_moves())
    4
    >>> position.play("d3"); position.play("d4")
    >>> position.turn
    'black'
    >>> konane.solve(konane.Position("6x6").image("half-turn")).result
    'loss'
    >>> konane.solve(konane.Position.from_string("b3/4/4/3w b")).winner
    'white'
    >>> konane.Position("4x4")._repr_svg_()[:4]   # Jupyter draws a position by itself
    '<svg'
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Union

from konane._konane import (
    Analysis,
    CheckResult,
    Engine,
    Game,
    LegalMoves,
    Limit,
    Move,
    Outcome,
    PlayResult,
    Position,
    ProofTable,
    Solution,
    Value,
    __version__,
    check,
    play_match,
    serve,
    solve,
    value,
)
from konane.errors import EngineError, IllegalMoveError, KonaneError, ParseError

__all__ = [
    "Analysis",
    "CheckResult",
    "Engine",
    "EngineError",
    "Game",
    "IllegalMoveError",
    "KonaneError",
    "LegalMoves",
    "Limit",
    "Move",
    "Outcome",
    "ParseError",
    "PlayResult",
    "Position",
    "ProofTable",
    "Solution",
    "Value",
    "check",
    "play_match",
    "run_bot",
    "solve",
    "value",
    "__version__",
]

Chooser = Union[Callable[[Position], Any], Callable[[Position, dict[str, Any]], Any]]


def run_bot(choose: Chooser, name: str = "Python bot", author: str = "unknown") -> None:
    """Runs ``choose`` as an engine speaking the Konane protocol on standard input and output,
    so that ``konane-arbiter``, its ``check`` and its GUI can play it.

    ``choose(position)`` or ``choose(position, limits)`` returns a legal ``Move`` (or its
    text) for the side to move; it is called only when there is one. ``limits`` holds what the
    GUI sent, in seconds: ``movetime``, ``time_left`` and ``increment`` for the side to move,
    ``black_time``, ``white_time``, and ``depth``, ``nodes``, ``infinite``, ``search_moves``.
    Print debugging output to standard error: standard output carries the protocol.

    A whole bot::

        import random, konane
        konane.run_bot(lambda position: random.choice(position.legal_moves()), name="Random")
    """
    chooser: Callable[..., Any] = choose
    if _takes_limits(chooser):
        serve(chooser, name, author)
    else:
        serve(lambda position, _limits: chooser(position), name, author)


def _takes_limits(choose: Callable[..., Any]) -> bool:
    """True when ``choose`` needs a second positional argument: ``def choose(position,
    depth=2)`` is called with the position alone, its default kept."""
    try:
        parameters = inspect.signature(choose).parameters.values()
    except (TypeError, ValueError):
        return True
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in parameters if p.kind in positional and p.default is p.empty]
    variadic = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters)
    return len(required) >= 2 or (variadic and len(required) < 2)
