"""What python-chess users expect of a position and a move: they pickle and copy, a mutable
position has no hash, the position string reads back, legal moves as a sized sequence, the
outcome, a validity check, and the board drawn as text and as a picture."""

import copy
import multiprocessing
import pickle
import random
import signal
import threading
import xml.etree.ElementTree as ElementTree
from importlib import metadata

import pytest

import konane


def played(size, *moves, **rules):
    position = konane.Position(size, **rules)
    for move in moves:
        position.play(move)
    return position


def test_positions_and_moves_pickle_and_copy_with_their_moves():
    position = played("6x6", "d3", "d4", "d1d3")
    for again in (pickle.loads(pickle.dumps(position)), copy.deepcopy(position), copy.copy(position)):
        assert again == position and again.moves == position.moves
        assert again.undo() == "d1d3" and again.moves == ["d3", "d4"]
    assert position.moves == ["d3", "d4", "d1d3"], "the copies are their own"
    move = konane.Move("f5b5")
    assert pickle.loads(pickle.dumps(move)) == move and copy.deepcopy(move) is move


def perft_of(position):
    return position.perft(2)


def test_positions_cross_to_other_processes():
    positions = [played("6x6", "d3", "d4"), played("8x8", "d5", "e5")]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.map(perft_of, positions) == [p.perft(2) for p in positions]


def test_a_position_has_no_hash_since_it_changes():
    position = played("6x6", "d3")
    with pytest.raises(TypeError, match="unhashable type: 'Position'"):
        hash(position)
    kept = {str(position), position.key()}
    position.play("d4")
    assert str(position) not in kept


@pytest.mark.parametrize(
    "position",
    [
        played("5x5", "b1", "c1", opening="any"),
        played("7x4", opening="any"),
        played("8x8", "d5", "e5"),
        played("6x6", "d3"),
        played("3x3", "a2", opening="any", capture="turning"),
    ],
    ids=str,
)
def test_the_position_string_reads_back(position):
    again = konane.Position.from_string(str(position), capture=position.capture)
    assert again == position
    assert eval(repr(position), {"Position": konane.Position}) == position


def test_legal_moves_are_a_sized_sequence():
    position = played("6x6", "d3", "d4")
    legal = position.legal_moves()
    assert len(legal) == legal.count() == 3 and bool(legal)
    assert "b3d3" in legal and konane.Move("d1d3") in legal and "d4d2" not in legal and "junk" not in legal
    assert legal == ["d1d3", "b3d3", "f3d3"] and list(legal) == legal
    assert legal[0] == "d1d3" and legal[-1] == "f3d3" and legal[1:] == ["b3d3", "f3d3"]
    assert random.Random(1).choice(legal) in legal
    with pytest.raises(IndexError):
        legal[3]
    assert repr(legal) == "<LegalMoves (3) d1d3, b3d3, f3d3>"
    over = konane.Position.from_string("b3/4/4/3w b")
    assert not over.legal_moves() and len(over.legal_moves()) == 0


def test_outcome_ply_and_peek():
    position = played("6x6", "d3", "d4")
    assert position.ply == 2 and position.peek() == "d4" and position.outcome() is None
    while not position.is_over():
        position.play(position.legal_moves()[0])
    outcome = position.outcome()
    assert outcome.winner == position.winner() and outcome.loser == position.turn
    assert position.ply == len(position.moves)
    with pytest.raises(IndexError, match="no move"):
        konane.Position("6x6").peek()


def test_a_position_no_game_reaches_is_named():
    assert konane.Position("6x6").is_valid() and konane.Position("6x6").status() == []
    # a1 is a white square: a black stone there cannot arise.
    wrong = konane.Position.from_string("4/4/4/b3 b")
    assert not wrong.is_valid()
    assert wrong.status() == [
        "the black stone on a1 stands on a white square: jumps move stones two squares, "
        "so each stays on squares of its own colour"
    ]
    # After the removals c4 and b4, White to move: Black has moved without capturing.
    turn = konane.Position.from_string("b2w/wbwb/bwbw/wbwb w", opening="any")
    assert not turn.is_valid()
    assert turn.status()[0].startswith("Black has captured 0 stones and White 0")
    assert konane.Position.from_string("b2w/wbwb/bwbw/wbwb b", opening="any").is_valid()
    # Under the traditional opening c4 is no removal: 4x4's centre is b2, c2, b3, c3.
    traditional = konane.Position.from_string("b2w/wbwb/bwbw/wbwb b", opening="traditional")
    assert traditional.status() == [
        "Black's removal emptied c4, neither in the centre 2x2 nor a corner (traditional opening)"
    ]


def test_the_board_draws_itself_as_text_and_as_a_picture():
    position = played("4x4", "c2", "c3")
    assert position.unicode().splitlines() == [
        " 4  ● ○ ● ○",
        " 3  ○ ● · ●",
        " 2  ● ○ · ○",
        " 1  ○ ● ○ ●",
        "    a b c d",
    ]
    svg = ElementTree.fromstring(position._repr_svg_())
    ns = "{http://www.w3.org/2000/svg}"
    stones = svg.findall(f"{ns}circle")
    assert len(stones) == 14
    marked = [r for r in svg.findall(f"{ns}rect") if r.get("fill") == "#cdd26a"]
    assert len(marked) == 1, "the last move, c3, is marked"
    assert position._repr_html_().startswith("<div") and "<svg" in position._repr_html_()


def test_perft_refuses_a_negative_depth_and_stops_on_ctrl_c():
    position = konane.Position("8x8")
    with pytest.raises(ValueError, match="depth must be 0 or more, not -1"):
        position.perft(-1)
    divided = position.divide(2)
    assert all(isinstance(move, konane.Move) for move in divided)
    assert sum(divided.values()) == position.perft(2) and divided["d5"] == divided[konane.Move("d5")]
    timer = threading.Timer(0.3, lambda: signal.raise_signal(signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        position.perft(14)  # hours of work: only Ctrl-C ends it


def test_the_version_is_the_packages():
    assert konane.__version__ == metadata.version("konane")


def test_help_tells_how_to_make_one_and_sizes_read_as_written():
    for made, words in ((konane.Position, "traditional"), (konane.Engine, "command"), (konane.Limit, "movetime")):
        assert words in made.__doc__, made
    assert konane.Position(" 6x6 ") == konane.Position("6x6") == konane.Position("6X6")
