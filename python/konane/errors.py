"""The exceptions of the konane package. Every one names what was wrong."""


class KonaneError(Exception):
    """Base of every error the konane package raises."""


class ParseError(KonaneError, ValueError):
    """Text that is not a square, a move, a position string, a size or a rule name."""


class IllegalMoveError(KonaneError, ValueError):
    """A well-formed move that the rules do not allow in the position (the message says why)."""


class EngineError(KonaneError):
    """An engine that could not start, refused an option, crashed, stalled, ran out of time or
    sent an illegal move. The message names the engine and the cause, with its last lines."""
