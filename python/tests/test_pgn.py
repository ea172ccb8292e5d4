"""konane.pgn: games read whole from PGN (headers, main line, variations, comments, marks),
the position at any node, and written back."""

import pytest

import konane
import konane.pgn

PGN = """[Event "study"]
[Black "a"]
[White "b"]
[Board "6x6"]

{a first comment} 1. d3 d4 2. b3d3 $1 {the usual} (2. f3d3? (2. d1d3) 2... d2d4) 2... c1c3 3. b1b3 *
"""


def test_a_game_reads_whole_with_its_variations():
    game = konane.pgn.read_game(PGN)
    assert game.headers["Black"] == "a" and game.headers["Board"] == "6x6"
    assert game.comment == "a first comment"
    assert [str(m) for m in game.mainline_moves()] == ["d3", "d4", "b3d3", "c1c3", "b1b3"]
    after_d4 = game.next().next()
    assert [str(v.move) for v in after_d4.variations] == ["b3d3", "f3d3", "d1d3"]
    assert after_d4.variations[0].comment == "the usual" and after_d4.variations[0].nags == [1]
    side = after_d4.variations[1]
    assert side.nags == [2] and not side.is_mainline() and str(side.next().move) == "d2d4"
    end = game.end()
    assert end.ply == 5 and end.is_mainline()
    position = end.position()
    for move in ["d3", "d4", "b3d3", "c1c3", "b1b3"][::-1]:
        assert position.undo() == move


def test_a_game_writes_back_to_the_same_tree():
    game = konane.pgn.read_game(PGN)
    again = konane.pgn.read_game(str(game))
    assert str(again) == str(game)
    assert again.headers == game.headers
    assert [str(v.move) for v in again.next().next().variations] == ["b3d3", "f3d3", "d1d3"]


def test_a_game_grows_and_promotes_its_variations():
    game = konane.pgn.Game(konane.Position("6x6"))
    assert game.headers["Board"] == "6x6" and "FEN" not in game.headers
    node = game.add_variation("d3").add_variation("d4")
    main = node.add_variation("b3d3")
    other = node.add_variation("f3d3", comment="sharper")
    node.promote_to_main(other)
    assert node.next() is other and not main.is_mainline()
    with pytest.raises(konane.IllegalMoveError):
        node.add_variation("d1d5")
    text = str(game)
    assert "(2. b3d3)" in text and "{sharper}" in text, text
    odd = konane.Position("5x5", opening="any")
    from_odd = konane.pgn.Game(odd)
    assert from_odd.headers["Opening"] == "any" and "FEN" not in from_odd.headers
    assert konane.pgn.read_game(str(from_odd)).position() == odd
    set_up = konane.Position.from_string("4/1b2/2w1/4 b", opening="any")
    from_fen = konane.pgn.Game(set_up)
    assert from_fen.headers["FEN"] == str(set_up)
    assert konane.pgn.read_game(str(from_fen)).position() == set_up


def test_bad_pgn_and_illegal_moves_are_named():
    with pytest.raises(konane.ParseError, match="game 1: a variation"):
        konane.pgn.read_game("1. d5 (e5")
    with pytest.raises(konane.IllegalMoveError, match=r"ply 3 \(d4d6\)"):
        konane.pgn.read_game('[Board "6x6"]\n\n1. d3 d4 2. d4d6 *')
    assert konane.pgn.read_game("") is None
    assert len(konane.pgn.read_games("d5 e5\n")[0].mainline_moves()) == 2


def test_the_arbiters_pgn_reads_back(engine_path, tmp_path):
    pgn = tmp_path / "games.pgn"
    games = konane.play_match([engine_path, engine_path], konane.Limit(depth=1), size="6x6", pgn=pgn)
    read = konane.pgn.read_games(pgn.read_text())
    assert [g.mainline_moves() for g in read] == [g.moves for g in games]
    assert read[0].headers["Termination"] == "normal"
