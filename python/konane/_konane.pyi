"""Type stubs of the native module, konane._konane (the Rust half of the package)."""

from os import PathLike
from typing import Literal, Sequence, TypedDict, Union, Callable, Any

Colour = Literal["black", "white"]
Phase = Literal["black-removal", "white-removal", "jumps"]
SymmetryName = Literal[
    "identity",
    "mirror-files",
    "mirror-ranks",
    "half-turn",
    "transpose",
    "anti-transpose",
    "quarter-turn-left",
    "quarter-turn-right",
]
MoveLike = Union["Move", str]
Command = Union[str, Sequence[str]]
OptionValue = Union[str, int, bool]

class Move:
    """A move in the notation of RULES.md: a removal (``d5``) or a jump (``f5d5``, ``b5d5d7``).

    >>> Move("f5b5").landings
    ['d5', 'b5']
    """

    def __init__(self, text: str) -> None:
        """Reads a move; raises ``ParseError`` naming what is wrong."""
    @property
    def from_square(self) -> str:
        """The square the move starts from (the square emptied, for a removal)."""
    @property
    def landings(self) -> list[str]:
        """Where the stone lands at the end of each leg (empty for a removal)."""
    @property
    def is_removal(self) -> bool:
        """True for an opening removal."""
    @property
    def captures(self) -> int:
        """How many stones the move captures (0 for a removal)."""
    def __eq__(self, other: object) -> bool:
        """Equal to the same move, or to its text."""
    def __hash__(self) -> int: ...

class Position:
    """A Konane position, with the moves played on it since it was made (``undo`` takes them
    back).

    >>> p = Position("6x6")
    >>> p.play("d3"); p.play("d4")
    >>> [str(m) for m in p.legal_moves()]
    ['d1d3', 'b3d3', 'f3d3']
    """

    def __init__(
        self,
        size: str = "8x8",
        opening: Literal["traditional", "any"] = "traditional",
        capture: Literal["straight", "single", "turning"] = "straight",
    ) -> None:
        """The start position of a ``WxH`` board (each side 2 to 26)."""
    @staticmethod
    def from_string(
        text: str,
        opening: Literal["traditional", "any"] = "traditional",
        capture: Literal["straight", "single", "turning"] = "straight",
    ) -> Position:
        """The position a position string shows (its size is its own)."""
    def __str__(self) -> str:
        """The position string."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def copy(self) -> Position:
        """A copy, with its own moves to take back."""
    def __copy__(self) -> Position: ...
    def diagram(self) -> str:
        """The board drawn as text."""
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def size(self) -> str:
        """``WxH``."""
    @property
    def opening(self) -> str: ...
    @property
    def capture(self) -> str: ...
    @property
    def turn(self) -> Colour:
        """The side to move."""
    @property
    def phase(self) -> Phase: ...
    @property
    def moves(self) -> list[Move]:
        """The moves played on this object since it was made, oldest first."""
    def legal_moves(self) -> list[Move]:
        """The legal moves of the side to move."""
    def is_legal(self, move: MoveLike) -> bool:
        """True when ``move`` is legal here; text that is no move is False."""
    def play(self, move: MoveLike) -> None:
        """Plays ``move``; raises ``ParseError`` for text that is no move and
        ``IllegalMoveError``, with the rules' reason, for a move not legal here."""
    def undo(self) -> Move:
        """Takes back the last move; raises ``IndexError`` when there is none."""
    def is_over(self) -> bool:
        """True when the side to move has no legal move (and so has lost)."""
    def winner(self) -> Colour | None:
        """The winner once the game is over, else None."""
    def stone_at(self, square: str) -> Colour | None:
        """The stone on ``square``, or None."""
    def stones(self, colour: Colour) -> list[str]:
        """The squares holding stones of ``colour``."""
    def perft(self, depth: int) -> int:
        """Leaf positions ``depth`` plies ahead (the opening removals count)."""
    def divide(self, depth: int) -> dict[str, int]:
        """``perft`` split by first move."""
    def key(self) -> int:
        """The 64-bit hash of the position."""
    def image(self, symmetry: SymmetryName) -> Position:
        """The image under a symmetry of the board; one that swaps the squares' colours swaps
        the stones and the side to move too."""
    def images(self) -> list[tuple[SymmetryName, Position]]:
        """Every image under the board's symmetries, the identity first."""

class Solution:
    """What the solver proved of a position."""

    result: Literal["win", "loss", "unknown"]
    winner: Colour | None
    winning_moves: list[Move]
    best: Move | None
    moves: dict[str, Literal["win", "loss", "unknown"]]
    plies: int | None
    nodes: int
    seconds: float
    @property
    def proven(self) -> bool: ...

def solve(
    position: Position,
    *,
    time: float | None = None,
    nodes: int | None = None,
    hash_mb: int | None = None,
    all_moves: bool = True,
    threads: int = 1,
) -> Solution:
    """Solves ``position`` exactly (win or loss for the side to move, and the winning moves),
    within ``time`` seconds or about ``nodes`` nodes, on ``threads`` threads that share the
    proof table; Ctrl-C raises ``KeyboardInterrupt``.

    >>> solve(Position.from_string("b3/4/4/3w b")).result
    'loss'
    """

class Score(TypedDict, total=False):
    cp: int
    mate: int

class Info(TypedDict, total=False):
    """One ``info`` line of an engine."""

    depth: int
    seldepth: int
    multipv: int
    score: Score
    nodes: int
    nps: int
    time: int
    hashfull: int
    pv: list[Move]
    string: str

class PlayResult:
    """An engine's move, checked legal (None when the side to move had none)."""

    move: Move | None
    seconds: float
    info: list[Info]

class Engine:
    """An engine that speaks the Konane protocol, driven with the arbiter's deadlines and
    checks; its processes are gone after ``quit()`` or the ``with`` block.

    >>> with Engine("konane-engine") as engine:            # doctest: +SKIP
    ...     engine.play(Position("6x6"), movetime=0.05).move
    """

    def __init__(
        self,
        command: Command,
        *,
        options: dict[str, OptionValue] | None = None,
        protocol: Literal["uci", "ugi"] = "uci",
        name: str | None = None,
        timeout: float = 10.0,
        stall: float = 60.0,
        margin: float = 0.1,
        log: str | None = None,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def options(self) -> dict[str, dict[str, Any]]:
        """What the engine announced: {name: {type, default, min, max, vars}}."""
    def configure(self, options: dict[str, OptionValue]) -> None:
        """Sets options, checked against what the engine announced."""
    def play(
        self,
        position: Position,
        *,
        movetime: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        black_time: float | None = None,
        white_time: float | None = None,
        increment: float = 0.0,
    ) -> PlayResult:
        """The engine's move under exactly one limit; raises ``EngineError`` when the engine
        crashes, stalls, runs out of time or sends an illegal move."""
    def analyse(
        self,
        position: Position,
        *,
        movetime: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        multipv: int = 1,
    ) -> list[Info]:
        """The engine's last report of each of its ``multipv`` best lines, best first."""
    def quit(self) -> None: ...
    def __enter__(self) -> Engine: ...
    def __exit__(self, *exc: object) -> bool: ...

class CheckResult:
    """One line of a ``check`` report."""

    name: str
    outcome: Literal["pass", "fail", "skip"]
    evidence: str

def check(
    command: Command,
    *,
    options: dict[str, OptionValue] | None = None,
    protocol: Literal["uci", "ugi"] = "uci",
    quick: bool = True,
    timeout: float = 10.0,
    margin: float = 0.1,
    seed: int = 1,
) -> list[CheckResult]:
    """Runs ``konane-arbiter check`` on an engine: one result per check of protocol.md."""

class Game:
    """One game of a match, as the results file records it."""

    id: int
    black: str
    white: str
    winner: Colour
    termination: str
    start: str
    moves: list[str]
    opening_plies: int
    move_times_ms: list[int]
    detail: str | None
    winner_name: str

class EngineDict(TypedDict, total=False):
    command: Command
    options: dict[str, OptionValue]
    protocol: Literal["uci", "ugi"]
    name: str

def play_match(
    engines: Sequence[Command | EngineDict],
    *,
    games: int = 2,
    size: str = "8x8",
    opening: str = "traditional",
    capture: str = "straight",
    movetime: float | None = None,
    depth: int | None = None,
    nodes: int | None = None,
    clock: tuple[float, float] | None = None,
    concurrency: int = 1,
    seed: int = 1,
    random_plies: int | None = None,
    pgn: str | PathLike[str] | None = None,
    results: str | PathLike[str] | None = None,
    margin: float = 0.1,
    stall: float = 60.0,
    on_game: Callable[[Game], object] | None = None,
) -> list[Game]:
    """Plays a match or round robin with the arbiter's tournament runner; one time control.
    Prints nothing: ``on_game`` is called with each game as it ends."""

def serve(choose: Callable[[Position, dict[str, Any]], MoveLike], name: str, author: str) -> None:
    """Speaks the protocol on standard input and output for ``choose`` (see ``run_bot``)."""
