"""konane.value: a position's value as a combinatorial game, region by region."""

import pytest

import konane
from konane import KonaneError, Position


def stones(position):
    """The stones on the board of `position`."""
    board = str(position).split()[0]
    return sum(square in "bw" for square in board)


def test_two_separate_pairs_are_star_plus_star():
    valued = konane.value(Position.from_string("9/9/1bw3bw1 b"))
    assert valued.value == "0"
    assert valued.outcome == "previous"
    assert valued.winner == "white"
    assert valued.regions == [(["b1", "c1"], "*"), (["g1", "h1"], "*")]
    assert valued.positions >= 2
    assert repr(valued) == "Value(value='0', outcome='previous', regions=2)"


def test_value_agrees_with_solve_late_in_a_game():
    position = Position("6x6")
    while stones(position) > 16 and position.legal_moves():
        position.play(list(position.legal_moves())[-1])
    valued = konane.value(position)
    assert valued.winner == konane.solve(position).winner


def test_a_pair_with_room_for_black_only_is_one():
    valued = konane.value(Position.from_string("4/4/bw2 w"))
    assert (valued.value, valued.outcome, valued.winner) == ("1", "black", "black")


def test_refusals_name_the_cause():
    with pytest.raises(KonaneError, match="opening removals are not over"):
        konane.value(Position("6x6"))
    with pytest.raises(KonaneError, match="more than 5 distinct positions"):
        konane.value(Position.from_string("bwbw/wbwb/bwb1/wb1b w"), limit=5)
    with pytest.raises(ValueError, match="limit must be at least 1"):
        konane.value(Position.from_string("4/4/bw2 w"), limit=0)
