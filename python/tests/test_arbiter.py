"""check and matches from a script, and the example bot under the arbiter."""

import re
import subprocess

import pytest

import konane
from conftest import EXAMPLE_BOT, binary, survivors


def test_the_example_bot_passes_check():
    results = konane.check(EXAMPLE_BOT, quick=True)
    failed = [r for r in results if r.outcome == "fail"]
    assert not failed, failed
    assert {r.name for r in results if r.outcome == "pass"} >= {"handshake", "legal-moves", "stop", "bad-input", "quit"}


def test_the_example_bot_passes_the_arbiters_own_check():
    arbiter = binary("konane-arbiter")
    words = [f"cmd={EXAMPLE_BOT[0]}", f"arg={EXAMPLE_BOT[1]}"]
    done = subprocess.run([arbiter, "check", "--engine", *words, "--quick"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 failed" in done.stdout


def test_check_names_the_failures_of_a_broken_engine(fixture_command):
    command, tag = fixture_command("garbage")
    results = {r.name: r for r in konane.check(command, quick=True, timeout=2)}
    assert results["startpos"].outcome == "fail" and results["startpos"].evidence
    assert survivors(tag) == []


def test_a_match_returns_its_games(engine_path, tmp_path):
    bot = {"command": EXAMPLE_BOT, "name": "fewest"}
    weak = {"command": engine_path, "options": {"Skill": 0}, "name": "skill0"}
    pgn = tmp_path / "games.pgn"
    games = konane.play_match(
        [bot, weak], konane.Limit(movetime=0.02), games=4, size="6x6", pgn=str(pgn)
    )
    assert [g.id for g in games] == [1, 2, 3, 4]
    assert {g.black for g in games} == {"fewest", "skill0"}
    for game in games:
        assert game.termination == "normal", game
        position = konane.Position.from_string(game.start)
        for move in game.moves:
            position.play(move)
        assert position.is_over() and position.winner() == game.winner
        assert game.winner_name in ("fewest", "skill0")
        assert len(game.verdicts) == len(game.move_times_ms)
    # The engine reports scores (the example bot none): each is kept, and written in the PGN
    # with the move's time as cutechess-cli writes it.
    verdicts = [v for g in games for v in g.verdicts if v is not None]
    assert verdicts and all(re.fullmatch(r"[+-](\d+\.\d\d|M\d+)/\d+", v) for v in verdicts)
    assert re.search(r"\{[+-](\d+\.\d\d|M\d+)/\d+ \d+\.\d\ds\}", pgn.read_text())
    assert pgn.read_text().count("[Event ") == 4


def test_a_match_with_a_bad_setup_is_refused(engine_path):
    depth = konane.Limit(depth=2)
    with pytest.raises(TypeError, match="limit"):
        konane.play_match([engine_path, engine_path], games=2)
    with pytest.raises(ValueError, match="starts both clocks alike"):
        konane.play_match([engine_path, engine_path], konane.Limit(black_time=1, white_time=2))
    with pytest.raises(konane.KonaneError, match="option 'Skil'"):
        konane.play_match([engine_path, {"command": engine_path, "options": {"Skil": 1}}], depth, games=2)
    with pytest.raises(konane.KonaneError, match="two engines"):
        konane.play_match([engine_path], depth, games=2)
    with pytest.raises(konane.KonaneError, match="its name is empty") as empty:
        konane.play_match([engine_path, {"command": engine_path, "name": ""}], depth)
    assert "--" not in str(empty.value), "no command-line flags in Python's errors"


def test_a_match_resumes_its_results_file_and_names_no_flags(engine_path, tmp_path):
    results = tmp_path / "results.jsonl"
    depth = konane.Limit(depth=1)
    first = konane.play_match([engine_path, engine_path], depth, games=2, size="6x6", results=results)
    with pytest.raises(konane.KonaneError, match="already holds games") as held:
        konane.play_match([engine_path, engine_path], depth, games=4, size="6x6", results=results)
    assert "--" not in str(held.value), str(held.value)
    with pytest.raises(konane.KonaneError, match="does not belong to this tournament") as other:
        konane.play_match(
            [engine_path, engine_path], depth, games=4, size="6x6", results=results, resume=True
        )
    assert "--" not in str(other.value), str(other.value)
    assert len(first) == 2 and len(results.read_text().splitlines()) == 2


def test_a_crash_in_a_match_is_a_recorded_loss(engine_path, fixture_command):
    command, tag = fixture_command("crash-mid-game")
    games = konane.play_match([engine_path, command], konane.Limit(movetime=0.02), size="6x6")
    crashed = [g for g in games if g.termination == "crash"]
    assert len(games) == 2 and crashed
    assert all(g.detail.startswith("it exited (exit code 4)") for g in crashed)
    assert survivors(tag) == []


def test_a_match_on_rules_that_cannot_be_played_raises_the_position_error(engine_path):
    with pytest.raises(konane.ParseError) as position_error:
        konane.Position("9x9")
    for extra in ({}, {"random_plies": 4}):
        with pytest.raises(konane.ParseError) as match_error:
            konane.play_match([engine_path, engine_path], konane.Limit(depth=1), size="9x9", **extra)
        assert str(match_error.value) == str(position_error.value)


def test_a_match_prints_nothing_and_reports_each_game_as_it_ends(engine_path, capfd):
    seen = []
    games = konane.play_match(
        [engine_path, engine_path], konane.Limit(depth=1), size="6x6", on_game=seen.append
    )
    assert [g.id for g in seen] == [g.id for g in games] == [1, 2]
    assert {g.black for g in games} == {"konane-engine", "konane-engine-2"}
    out, err = capfd.readouterr()
    assert out == "" and err == "", (out, err)


def test_times_take_infinity_as_no_limit_and_refuse_nan_and_negatives(engine_path):
    position = konane.Position("4x4")
    # Infinity and huge numbers are "no limit", never a panic.
    with konane.Engine(engine_path, timeout=1e30, stall=float("inf")) as engine:
        assert engine.play(position, konane.Limit(depth=1)).move in position.legal_moves()
    assert konane.solve(position, konane.Limit(movetime=1e30)).result == "loss"
    for call in (
        lambda: konane.Limit(movetime=-5),
        lambda: konane.Limit(black_time=float("nan"), white_time=1),
        lambda: konane.check(engine_path, timeout=float("nan")),
        lambda: konane.Limit(black_time=1, white_time=1, increment=-1),
    ):
        with pytest.raises(ValueError, match="must be a number of seconds, 0 or more"):
            call()
