"""The solver through Python, on the boards the Rust tests pin."""

import signal
import threading
import time

import pytest

import konane


def test_six_by_six_openings_as_norvig_reports_them():
    expected = {
        "f1 e1": "white", "f1 f2": "white", "d3 d2": "black", "d3 c3": "white",
        "d3 e3": "black", "d3 d4": "white", "c4 c3": "white", "c4 b4": "black",
        "c4 d4": "white", "c4 c5": "black", "a6 a5": "white", "a6 b6": "white",
    }
    for i, (opening, winner) in enumerate(expected.items()):
        position = konane.Position("6x6")
        for move in opening.split():
            position.play(move)
        solution = konane.solve(position, all_moves=False, threads=1 + i % 2)
        assert solution.winner == winner, opening
        assert solution.proven


def test_threads_are_checked():
    with pytest.raises(konane.KonaneError, match="threads must be 1 to 1024, not 0"):
        konane.solve(konane.Position("4x4"), threads=0)


def test_both_methods_agree_on_a_narrow_board_and_a_bad_one_is_named():
    position = konane.Position.from_string("wbwbw1wbwbwb/bwbwb1bwbwbw/wbwbwbwbwbwb b")
    by_method = [konane.solve(position, method=m) for m in (None, "depth-first", "proof-number")]
    assert {(s.winner, tuple(s.winning_moves)) for s in by_method} == {("white", ())}
    with pytest.raises(konane.KonaneError, match="unknown method 'df-pn'"):
        konane.solve(position, method="df-pn")


def test_a_lost_position_and_its_moves():
    solution = konane.solve(konane.Position.from_string("b3/4/4/3w b"))
    assert (solution.result, solution.winner, solution.best, solution.winning_moves) == ("loss", "white", None, [])
    start = konane.solve(konane.Position("4x4"))
    assert start.result == "loss" and start.winning_moves == []
    assert set(start.moves) == {str(m) for m in konane.Position("4x4").legal_moves()}
    assert set(start.moves.values()) == {"loss"}


def test_a_won_position_names_its_winning_moves():
    position = konane.Position("4x4")
    position.play("c2")
    position.play("c1")
    solution = konane.solve(position)
    assert solution.result == "win" and solution.winner == "black"
    assert solution.best in solution.winning_moves
    assert all(solution.moves[str(m)] == "win" for m in solution.winning_moves)
    assert solution.nodes > 0 and solution.plies is not None


def test_budgets_end_the_solve_with_unknown():
    start = konane.Position("8x8")
    by_nodes = konane.solve(start, konane.Limit(nodes=20_000))
    assert by_nodes.result == "unknown" and not by_nodes.proven and by_nodes.winner is None
    by_time = konane.solve(start, konane.Limit(movetime=0.05))
    assert by_time.result == "unknown" and by_time.seconds < 5
    with pytest.raises(ValueError, match="movetime must be"):
        konane.solve(start, konane.Limit(movetime=-1))
    with pytest.raises(ValueError, match="movetime or nodes"):
        konane.solve(start, konane.Limit(depth=3))


def test_ctrl_c_interrupts_a_long_solve():
    timer = threading.Timer(0.3, lambda: signal.raise_signal(signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        konane.solve(konane.Position("8x8"))
    assert time.monotonic() - started < 10


def test_a_proof_table_keeps_what_was_proven_across_solves_and_files(tmp_path):
    position = konane.Position("6x6")
    position.play("d3")
    position.play("d4")
    table = konane.ProofTable(64)
    first = konane.solve(position, table=table)
    again = konane.solve(position, table=table)
    assert first.result == again.result and first.proven
    assert table.stored > 0 and again.nodes < first.nodes, (first.nodes, again.nodes)
    path = tmp_path / "6x6.table"
    table.save(path)
    loaded = konane.ProofTable.load(path, position)
    assert loaded.stored > 0 and konane.solve(position, table=loaded).nodes < first.nodes
    with pytest.raises(ValueError, match="this table holds positions of 6x6"):
        konane.solve(konane.Position("8x8"), konane.Limit(nodes=100), table=table)
    with pytest.raises(ValueError, match="hash_mb or table"):
        konane.solve(position, table=table, hash_mb=16)
    with pytest.raises(konane.KonaneError, match="holds no position yet"):
        konane.ProofTable(16).save(tmp_path / "empty.table")
