"""Games as PGN, as python-chess's ``chess.pgn`` has them: ``read_game`` and ``read_games`` give
``Game`` objects with their headers, main line, variations, comments and move marks, and the
position at any node; ``str(game)`` writes the PGN back. The crate's PGN reader and writer do
the text (the arbiter's and the GUI's PGN read here), and every move is checked against the
rules the headers name (``Board``, ``Opening``, ``Capture``, ``FEN``)::

    game = konane.pgn.read_game(open("games.pgn").read())
    for node in game.mainline():
        print(node.ply, node.move, node.position().turn)
    game.end().add_variation("c5c3", comment="an idea")
    print(game)
"""

from __future__ import annotations

from typing import Any, Iterator, Optional, Union

import konane
from konane._konane import read_pgn, write_pgn

__all__ = ["Game", "GameNode", "read_game", "read_games"]

MoveLike = Union["konane.Move", str]


class GameNode:
    """A position of a game reached by ``move`` from its ``parent``; ``variations`` are the
    moves played from it, the main line's first."""

    def __init__(self, parent: Optional[GameNode], move: Optional[konane.Move]) -> None:
        self.parent = parent
        self.move = move
        self.comment = ""
        self.nags: list[int] = []
        self.variations: list[GameNode] = []
        self._position: Optional[konane.Position] = None

    def game(self) -> Game:
        """The game this node belongs to."""
        node = self
        while node.parent is not None:
            node = node.parent
        assert isinstance(node, Game)
        return node

    @property
    def ply(self) -> int:
        """Plies from the game's start to this node."""
        return 0 if self.parent is None else self.parent.ply + 1

    def position(self) -> konane.Position:
        """The position at this node (a new object each call)."""
        if self._position is None:
            assert self.parent is not None and self.move is not None
            position = self.parent.position()
            position.play(self.move)
            self._position = position
        return self._position.copy()

    def add_variation(self, move: MoveLike, *, comment: str = "", nags: tuple[int, ...] = ()) -> GameNode:
        """Plays ``move`` from this node as a new variation (the main line if it is the first);
        raises ``IllegalMoveError`` when it is not legal here."""
        position = self.position()
        position.play(move)
        node = GameNode(self, position.peek())
        node._position = position
        node.comment = comment
        node.nags = list(nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: MoveLike, *, comment: str = "") -> GameNode:
        """Plays ``move`` from this node as the main line; the old main line becomes a
        variation."""
        node = self.add_variation(move, comment=comment)
        self.variations.remove(node)
        self.variations.insert(0, node)
        return node

    def promote_to_main(self, variation: GameNode) -> None:
        """Makes ``variation`` (one of this node's) the main line from here."""
        self.variations.remove(variation)
        self.variations.insert(0, variation)

    def remove_variation(self, variation: GameNode) -> None:
        """Deletes ``variation`` and every move after it."""
        self.variations.remove(variation)

    def is_mainline(self) -> bool:
        """True when every move from the start to this node is its line's first."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def next(self) -> Optional[GameNode]:
        """The main continuation, or None at the end of the line."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line after this one."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self) -> list[konane.Move]:
        """The moves of the main line after this node."""
        return [node.move for node in self.mainline() if node.move is not None]

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def __repr__(self) -> str:
        return f"<GameNode ply {self.ply}: {self.move}>"

    def _dict(self) -> dict[str, Any]:
        return {
            "move": "" if self.move is None else str(self.move),
            "nags": list(self.nags),
            "comment": self.comment or None,
            "children": [child._dict() for child in self.variations],
        }


class Game(GameNode):
    """A game: ``headers`` (a dict, in their order), the start position they name, and the
    tree of moves from it. ``Game(position)`` starts a new game from ``position``."""

    def __init__(self, position: Optional[konane.Position] = None, headers: Optional[dict[str, str]] = None) -> None:
        super().__init__(None, None)
        self.headers: dict[str, str] = dict(headers or {})
        start = position if position is not None else _start_of(self.headers)
        if position is not None:
            self.headers.setdefault("Board", start.size)
            self.headers.setdefault("Opening", start.opening)
            self.headers.setdefault("Capture", start.capture)
            standard = {"Board": start.size, "Opening": start.opening, "Capture": start.capture}
            if not _standard(start) or start != _start_of(standard):
                self.headers.setdefault("FEN", str(start))
        self._position = start.copy()
        self.result = "*"

    def __str__(self) -> str:
        game = {"tags": list(self.headers.items()), "result": self.result, "root": self._dict()}
        text: str = write_pgn(game, self._position is not None and self._position.turn == "white")
        return text

    def __repr__(self) -> str:
        return f"<Game {self.headers.get('Black', '?')} vs {self.headers.get('White', '?')}, {len(self.mainline_moves())} plies>"


def _standard(position: konane.Position) -> bool:
    """True when a start position of ``position``'s rules can be made (traditional needs even sides)."""
    try:
        _start_of({"Board": position.size, "Opening": position.opening, "Capture": position.capture})
        return True
    except konane.ParseError:
        return False


def _start_of(headers: dict[str, str]) -> konane.Position:
    """The start position the headers name: ``FEN`` under ``Opening`` and ``Capture``, else the
    start of ``Board`` (8x8 by default)."""
    # The rule names are checked by the constructors, which name a bad one.
    opening: Any = headers.get("Opening", "traditional")
    capture: Any = headers.get("Capture", "straight")
    if "FEN" in headers:
        return konane.Position.from_string(headers["FEN"], opening, capture)
    return konane.Position(headers.get("Board", "8x8"), opening, capture)


def _grow(node: GameNode, children: list[dict[str, Any]]) -> None:
    """Adds the moves of ``children`` (dicts of the native reader) below ``node``, each checked;
    the error names the move and its ply."""
    for child in children:
        try:
            added = node.add_variation(child["move"], comment=child["comment"] or "", nags=tuple(child["nags"]))
        except konane.KonaneError as why:
            raise type(why)(f"ply {node.ply + 1} ({child['move']}): {why}") from None
        _grow(added, child["children"])


def read_games(text: str) -> list[Game]:
    """Every game of PGN ``text`` (or of a bare list of moves), its moves checked."""
    games = []
    for read in read_pgn(text):
        game = Game(headers=dict(read["tags"]))
        game.comment = read["root"]["comment"] or ""
        _grow(game, read["root"]["children"])
        game.result = read["result"] or "*"
        games.append(game)
    return games


def read_game(text: str) -> Optional[Game]:
    """The first game of PGN ``text``, or None when it holds none."""
    games = read_games(text)
    return games[0] if games else None
