"""Type stubs of the native module, konane._konane (the Rust half of the package)."""

from os import PathLike
from typing import Any, Callable, Iterator, Literal, Sequence, TypedDict, Union, final, overload

__version__: str
__all__ = [
    "Move",
    "Position",
    "Outcome",
    "LegalMoves",
    "__version__",
    "Solution",
    "ProofTable",
    "solve",
    "Value",
    "value",
    "Limit",
    "Engine",
    "Analysis",
    "PlayResult",
    "CheckResult",
    "Game",
    "check",
    "play_match",
    "serve",
    "run_engine_cli",
    "run_arbiter_cli",
    "read_pgn",
    "write_pgn",
]

_Colour = Literal["black", "white"]
_Phase = Literal["black-removal", "white-removal", "jumps"]
_SymmetryName = Literal[
    "identity",
    "mirror-files",
    "mirror-ranks",
    "half-turn",
    "transpose",
    "anti-transpose",
    "quarter-turn-left",
    "quarter-turn-right",
]
_MoveLike = Union["Move", str]
_Command = Union[str, PathLike[str], Sequence[Union[str, PathLike[str]]]]
_OptionValue = Union[str, int, bool]

@final
class Move:
    """A move in the notation of RULES.md: a removal (``d5``) or a jump (``f5d5``, ``b5d5d7``).

    >>> Move("f5b5").landings
    ['d5', 'b5']
    """

    def __new__(cls, text: str) -> Move:
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
    def __eq__(self, other: object, /) -> bool:
        """Equal to the same move, or to its text."""
    def __hash__(self) -> int: ...
    def __getnewargs__(self) -> tuple[str]: ...
    def __copy__(self) -> Move: ...
    def __deepcopy__(self, memo: Any, /) -> Move: ...

@final
class Outcome:
    """How a game ended: the side to move had no legal move, and lost."""

    winner: _Colour
    loser: _Colour

@final
class LegalMoves(Sequence[Move]):
    """The legal moves of a position: sized and tested without making the moves, made once
    when read."""

    def __len__(self) -> int: ...
    def count(self) -> int:  # type: ignore[override]
        """How many legal moves there are."""
    def __contains__(self, move: object, /) -> bool: ...
    @overload
    def __getitem__(self, index: int, /) -> Move: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Move]: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class Position:
    """A Konane position, with the moves played on it since it was made (``undo`` takes them
    back).

    >>> p = Position("6x6")
    >>> p.play("d3"); p.play("d4")
    >>> [str(m) for m in p.legal_moves()]
    ['d1d3', 'b3d3', 'f3d3']
    """

    def __new__(
        cls,
        size: str = "8x8",
        opening: Literal["traditional", "any"] = "traditional",
        capture: Literal["straight", "single", "turning"] = "straight",
    ) -> Position:
        """The start position of a ``WxH`` board (each side 2 to 26)."""
    @staticmethod
    def from_string(
        text: str,
        opening: Literal["traditional", "any"] | None = None,
        capture: Literal["straight", "single", "turning"] = "straight",
    ) -> Position:
        """The position a position string shows (its size is its own); without ``opening``,
        ``traditional`` on a board of even sides and ``any`` on others."""
    def __str__(self) -> str:
        """The position string."""
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]
    def __deepcopy__(self, memo: Any, /) -> Position: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
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
    def turn(self) -> _Colour:
        """The side to move."""
    @property
    def phase(self) -> _Phase: ...
    @property
    def moves(self) -> list[Move]:
        """The moves played on this object since it was made, oldest first."""
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the side to move."""
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while the side to move has a move."""
    @property
    def ply(self) -> int:
        """Plies played on this object since it was made."""
    def peek(self) -> Move:
        """The last move played on this object; raises ``IndexError`` when there is none."""
    def status(self) -> list[str]:
        """Why no game under the position's rules can reach it; empty when no reason is found."""
    def is_valid(self) -> bool:
        """True when ``status()`` finds no reason a game cannot reach the position."""
    def unicode(self) -> str:
        """The board in Unicode: ``●`` black, ``○`` white, ``·`` empty."""
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...
    def is_legal(self, move: _MoveLike) -> bool:
        """True when ``move`` is legal here; text that is no move is False."""
    def play(self, move: _MoveLike) -> None:
        """Plays ``move``; raises ``ParseError`` for text that is no move and
        ``IllegalMoveError``, with the rules' reason, for a move not legal here."""
    def undo(self) -> Move:
        """Takes back the last move; raises ``IndexError`` when there is none."""
    def is_over(self) -> bool:
        """True when the side to move has no legal move (and so has lost)."""
    def winner(self) -> _Colour | None:
        """The winner once the game is over, else None."""
    def stone_at(self, square: str) -> _Colour | None:
        """The stone on ``square``, or None."""
    def stones(self, colour: _Colour) -> list[str]:
        """The squares holding stones of ``colour``."""
    def perft(self, depth: int) -> int:
        """Leaf positions ``depth`` plies ahead (the opening removals count)."""
    def divide(self, depth: int) -> dict[Move, int]:
        """``perft`` split by first move."""
    def key(self) -> int:
        """The 64-bit hash of the position."""
    def image(self, symmetry: _SymmetryName) -> Position:
        """The image under a symmetry of the board; one that swaps the squares' colours swaps
        the stones and the side to move too."""
    def images(self) -> list[tuple[_SymmetryName, Position]]:
        """Every image under the board's symmetries, the identity first."""

@final
class Solution:
    """What the solver proved of a position."""

    result: Literal["win", "loss", "unknown"]
    winner: _Colour | None
    winning_moves: list[Move]
    best: Move | None
    moves: dict[Move, Literal["win", "loss", "unknown"]]
    plies: int | None
    nodes: int
    seconds: float
    @property
    def proven(self) -> bool: ...

@final
class Limit:
    """How long to think, for every call that asks: exactly one of ``movetime`` (seconds),
    ``depth``, ``nodes``, or the clocks ``black_time`` and ``white_time`` (seconds left) with
    ``increment``. ``float("inf")`` is no limit; NaN and negatives raise ``ValueError``.

    >>> Limit(movetime=0.5)
    Limit(movetime=0.5)
    >>> Limit(black_time=60, white_time=60, increment=1).increment
    1.0
    """

    def __new__(
        cls,
        *,
        movetime: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        black_time: float | None = None,
        white_time: float | None = None,
        increment: float = 0.0,
    ) -> Limit: ...
    @property
    def movetime(self) -> float | None: ...
    @property
    def depth(self) -> int | None: ...
    @property
    def nodes(self) -> int | None: ...
    @property
    def black_time(self) -> float | None: ...
    @property
    def white_time(self) -> float | None: ...
    @property
    def increment(self) -> float: ...
    def __getnewargs_ex__(self) -> tuple[tuple[()], dict[str, float | int]]: ...
    def _keywords(self) -> dict[str, float | int]: ...

@final
class ProofTable:
    """A table of proven results kept across solves; it holds positions of one rule set."""

    def __new__(cls, hash_mb: int = 256) -> ProofTable: ...
    @staticmethod
    def load(
        path: str | PathLike[str], position: Position, hash_mb: int | None = None
    ) -> ProofTable:
        """Reads a saved table for positions of ``position``'s rules (its proof-number search
        numbers too, at the saved size only)."""
    def save(self, path: str | PathLike[str]) -> None:
        """Writes the table, whole or not at all, with the proof-number search's numbers."""
    @property
    def stored(self) -> int: ...
    @property
    def megabytes(self) -> int: ...

def solve(
    position: Position,
    limit: Limit | None = None,
    *,
    hash_mb: int | None = None,
    table: ProofTable | None = None,
    all_moves: bool = True,
    threads: int = 1,
    method: Literal["depth-first", "proof-number"] | None = None,
) -> Solution:
    """Solves ``position`` exactly (win or loss for the side to move, and the winning moves),
    within ``limit`` (a ``movetime`` or about so many ``nodes``), on ``threads`` threads that share the
    proof table; ``method`` chooses the search (by default proof numbers, on one thread, on boards
    of four rows or columns or fewer, depth-first on the others); Ctrl-C raises ``KeyboardInterrupt``.

    >>> solve(Position.from_string("b3/4/4/3w b")).result
    'loss'
    """

@final
class Value:
    """A position's value as a combinatorial game (Black is Left) and its regions' values."""

    value: str
    outcome: Literal["black", "white", "next", "previous"]
    winner: _Colour
    regions: list[tuple[list[str], str]]
    positions: int

def value(position: Position, *, limit: int = 30_000_000) -> Value:
    """The value of ``position`` as CGSuite writes it, its outcome class, who wins with the side
    to move starting, and each independent region's stones and value; at most ``limit``
    distinct positions are valued (beyond, ``KonaneError``). Ctrl-C raises ``KeyboardInterrupt``.

    >>> value(Position.from_string("9/9/1bw3bw1 b")).regions
    [(['b1', 'c1'], '*'), (['g1', 'h1'], '*')]
    """

class _Score(TypedDict, total=False):
    cp: int
    mate: int

class _Info(TypedDict, total=False):
    """One ``info`` line of an engine."""

    depth: int
    seldepth: int
    multipv: int
    score: _Score
    nodes: int
    nps: int
    time: int
    hashfull: int
    pv: list[Move]
    string: str

@final
class PlayResult:
    """An engine's move, checked legal (None when the side to move had none)."""

    move: Move | None
    seconds: float
    info: list[_Info]

@final
class Engine:
    """An engine that speaks the Konane protocol, driven with the arbiter's deadlines and
    checks; its processes are gone after ``quit()`` or the ``with`` block.

    >>> with Engine("konane-engine") as engine:            # doctest: +SKIP
    ...     engine.play(Position("6x6"), Limit(movetime=0.05)).move
    """

    def __new__(
        cls,
        command: _Command,
        *,
        options: dict[str, _OptionValue] | None = None,
        protocol: Literal["uci", "ugi"] = "uci",
        name: str | None = None,
        timeout: float = 10.0,
        stall: float = 60.0,
        margin: float = 0.1,
        log: str | PathLike[str] | None = None,
    ) -> Engine: ...
    @property
    def name(self) -> str:
        """The name given, else the engine's ``id name``, else its program's file name."""
    @property
    def id(self) -> dict[str, str]:
        """What the engine's ``id`` lines said: ``name`` and ``author``."""
    @property
    def options(self) -> dict[str, dict[str, Any]]:
        """What the engine announced: {name: {type, default, min, max, vars}}."""
    def configure(self, options: dict[str, _OptionValue]) -> None:
        """Sets options, checked against what the engine announced."""
    def play(self, position: Position, limit: Limit, *, ponder: bool = False) -> PlayResult:
        """The engine's move under ``limit`` (with ``ponder``, it thinks on until the next call);
        raises ``EngineError`` when the engine
        crashes, stalls, runs out of time or sends an illegal move."""
    def analyse(
        self,
        position: Position,
        limit: Limit,
        *,
        multipv: int = 1,
    ) -> list[_Info]:
        """The engine's last report of each of its ``multipv`` best lines, best first."""
    def analysis(
        self, position: Position, limit: Limit | None = None, *, multipv: int = 1
    ) -> Analysis:
        """A running search whose ``info`` lines arrive as they come (None: until stopped)."""
    def quit(self) -> None: ...
    def __enter__(self) -> Engine: ...
    def __exit__(self, kind: object, value: object, traceback: object, /) -> bool: ...

@final
class Analysis:
    """A running analysis: iterate it for ``info`` dicts as they arrive; ``stop()`` asks for
    the move now, ``wait()`` returns it; a ``with`` block stops it."""

    def __iter__(self) -> Analysis: ...
    def __next__(self) -> _Info: ...
    @property
    def info(self) -> _Info | None:
        """The last ``info`` line read."""
    def stop(self) -> None: ...
    def wait(self) -> Move | None: ...
    def __enter__(self) -> Analysis: ...
    def __exit__(self, kind: object, value: object, traceback: object, /) -> bool: ...

@final
class CheckResult:
    """One line of a ``check`` report."""

    name: str
    outcome: Literal["pass", "fail", "skip"]
    evidence: str

def check(
    command: _Command,
    *,
    options: dict[str, _OptionValue] | None = None,
    protocol: Literal["uci", "ugi"] = "uci",
    quick: bool = True,
    timeout: float = 10.0,
    margin: float = 0.1,
    seed: int = 1,
) -> list[CheckResult]:
    """Runs ``konane-arbiter check`` on an engine: one result per check of protocol.md."""

@final
class Game:
    """One game of a match, as the results file records it."""

    id: int
    black: str
    white: str
    winner: _Colour
    termination: str
    start: str
    moves: list[Move]
    opening_plies: int
    move_times_ms: list[int]
    verdicts: list[str | None]
    detail: str | None
    winner_name: str

class _EngineDict(TypedDict, total=False):
    command: _Command
    options: dict[str, _OptionValue]
    protocol: Literal["uci", "ugi"]
    name: str

def play_match(
    engines: Sequence[_Command | _EngineDict],
    limit: Limit,
    *,
    games: int = 2,
    size: str = "8x8",
    opening: str = "traditional",
    capture: str = "straight",
    concurrency: int = 1,
    seed: int = 1,
    random_plies: int | None = None,
    pgn: str | PathLike[str] | None = None,
    results: str | PathLike[str] | None = None,
    resume: bool = False,
    margin: float = 0.1,
    stall: float = 60.0,
    on_game: Callable[[Game], object] | None = None,
) -> list[Game]:
    """Plays a match or round robin with the arbiter's tournament runner, every move under
    ``limit`` (its clocks, equal, are where each game starts).
    Prints nothing: ``on_game`` is called with each game as it ends."""

def read_pgn(text: str) -> list[dict[str, Any]]:
    """Every game of PGN ``text`` as nested dicts (see ``konane.pgn``)."""

def write_pgn(game: dict[str, Any], first_is_white: bool) -> str:
    """The PGN text of a game given as ``read_pgn`` gives one."""

def run_engine_cli(arguments: list[str]) -> int:
    """Runs ``konane-engine`` with ``arguments`` (its name first); returns the exit status."""

def run_arbiter_cli(arguments: list[str], arbiter: list[str], engine: list[str]) -> int:
    """Runs ``konane-arbiter`` with ``arguments`` (its name first); ``arbiter`` and ``engine``
    are the commands that start this installation's arbiter and engine. Returns the exit status."""

def serve(choose: Callable[[Position, dict[str, Any]], _MoveLike], name: str, author: str) -> None:
    """Speaks the protocol on standard input and output for ``choose`` (see ``run_bot``)."""
