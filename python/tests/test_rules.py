"""The rules through Python: the Rust perft suite, moves, errors, undo and images."""

import doctest

import pytest

import konane
from conftest import PERFT_DIR


def perft_cases():
    """(file, position string, opening, capture, depth, count) of cli/tests/perft/*.txt, the
    suite the Rust tests check against a naive generator."""
    cases = []
    for path in sorted(PERFT_DIR.glob("*.txt")):
        position = rules = None
        for line in path.read_text().splitlines():
            if line.startswith("position "):
                position = line.removeprefix("position ")
            elif line.startswith("rules "):
                rules = dict(word.split("=") for word in line.split()[1:])
            elif line.startswith("perft "):
                _, depth, count = line.split()
                if int(count) <= 2_000_000:
                    cases.append((path.stem, position, rules["opening"], rules["capture"], int(depth), int(count)))
    return cases


CASES = perft_cases()


def test_the_suite_is_read_whole():
    assert len(CASES) > 300
    assert {case[0] for case in CASES} == {"single", "straight", "turning"}


@pytest.mark.parametrize("name,text,opening,capture,depth,count", CASES)
def test_perft_matches_the_rust_suite(name, text, opening, capture, depth, count):
    position = konane.Position.from_string(text, opening=opening, capture=capture)
    assert position.perft(depth) == count
    if depth <= 3:
        assert sum(position.divide(depth).values()) == count


def walk(position, depth):
    """perft by play and undo from Python, to check legal_moves, play and undo agree."""
    if depth == 0:
        return 1
    total = 0
    for move in position.legal_moves():
        position.play(move)
        total += walk(position, depth - 1)
        position.undo()
    return total


def test_play_and_undo_walk_the_same_tree_as_perft():
    position = konane.Position("8x8")
    before = str(position)
    assert walk(position, 5) == position.perft(5) == 892
    assert str(position) == before and position.moves == []


def test_a_game_reads_as_in_the_rules():
    position = konane.Position("6x6")
    assert (position.size, position.turn, position.phase) == ("6x6", "black", "black-removal")
    assert sorted(map(str, position.legal_moves())) == ["a6", "c4", "d3", "f1"]
    position.play("d3")
    assert position.phase == "white-removal"
    position.play(konane.Move("d4"))
    assert position.turn == "black" and position.phase == "jumps"
    assert position.stone_at("d3") is None and position.stone_at("c3") == "white"
    assert "b3d3" in position.legal_moves()
    assert len(position.stones("black")) == 17
    while not position.is_over():
        position.play(position.legal_moves()[0])
    assert position.winner() in ("black", "white")
    assert position.winner() != position.turn


def test_bad_input_raises_errors_that_name_it():
    position = konane.Position("6x6")
    with pytest.raises(konane.IllegalMoveError, match="d4"):
        position.play("d4")
    with pytest.raises(konane.ParseError, match="'q0'"):
        position.play("q0")
    with pytest.raises(TypeError, match="not int"):
        position.play(7)
    # The notation is lowercase, as the protocol's (a size's x is not a square: "8X8" reads).
    with pytest.raises(konane.ParseError, match="files are lowercase letters a..z \\(write 'd1'\\)"):
        konane.Move("D1D3")
    assert konane.Position("6X6") == position
    with pytest.raises(konane.ParseError, match="'x'"):
        konane.Position.from_string("bw/wx b")
    with pytest.raises(konane.ParseError, match="27"):
        konane.Position("27x8")
    with pytest.raises(konane.ParseError, match="even"):
        konane.Position("5x5")
    with pytest.raises(konane.ParseError, match="sideways"):
        konane.Position("6x6", capture="sideways")
    with pytest.raises(konane.ParseError, match="not on a 6x6 board"):
        position.stone_at("h8")
    with pytest.raises(IndexError, match="no move"):
        position.undo()
    assert issubclass(konane.ParseError, ValueError)
    assert not position.is_legal("d4") and not position.is_legal("junk") and position.is_legal("d3")


def test_moves_and_positions_compare_and_hash():
    assert konane.Move("f5d5") == "f5d5" and konane.Move("f5d5") == konane.Move("f5d5")
    assert {konane.Move("f5d5"), "f5d5"} == {"f5d5"}
    jump = konane.Move("f5b5")
    assert (jump.from_square, jump.landings, jump.captures, jump.is_removal) == ("f5", ["d5", "b5"], 2, False)
    a, b = konane.Position("6x6"), konane.Position("6x6")
    a.play("d3")
    b.play("d3")
    assert a == b and a.key() == b.key() and str(a) == str(b)
    with pytest.raises(TypeError, match="unhashable"):
        {a}  # noqa: B018 - a position changes as moves are played: no hash
    copy = a.copy()
    copy.play("d4")
    assert copy != a and a.moves == ["d3"]
    assert eval(repr(copy), {"Position": konane.Position}) == copy


def test_images_are_positions_of_the_same_worth():
    position = konane.Position("6x6", opening="any")
    for move in ["d3", "d4", "b3d3"]:
        position.play(move)
    images = position.images()
    assert [name for name, _ in images][:2] == ["identity", "mirror-files"] and len(images) == 8
    for name, image in images:
        assert image.perft(3) == position.perft(3), name
        assert len(image.legal_moves()) == len(position.legal_moves())
    assert position.turn == "white" and position.image("half-turn").turn == "white"
    assert position.image("mirror-files").turn == "black"
    with pytest.raises(konane.KonaneError, match="does not map a 6x8 board"):
        konane.Position("6x8").image("transpose")
    with pytest.raises(konane.ParseError, match="unknown symmetry 'flip'"):
        position.image("flip")


def test_the_package_docstring_examples_run():
    failures, tried = doctest.testmod(konane)
    assert tried > 0 and failures == 0
