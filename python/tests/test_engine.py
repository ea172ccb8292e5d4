"""Engines driven from Python: konane-engine to a finished game, and misbehaving fixtures
ending in clear exceptions with no process left behind."""

import signal
import threading
import time

import pytest

import konane
from conftest import survivors


def test_konane_engine_plays_a_whole_game(engine_path):
    with konane.Engine(engine_path, options={"Hash": 8}) as engine:
        assert engine.name == engine.id["name"] == f"Konane {konane.__version__}"
        assert engine.options["Skill"]["max"] == 20
        position = konane.Position("6x6")
        while not position.is_over():
            result = engine.play(position, konane.Limit(movetime=0.02))
            position.play(result.move)
        assert position.winner() in ("black", "white")
        assert engine.play(position, konane.Limit(movetime=0.02)).move is None


def test_clock_depth_and_nodes_limits(engine_path):
    with konane.Engine(engine_path) as engine:
        position = konane.Position("8x8")
        position.play("d5")
        position.play("e5")
        for limits in [dict(depth=3), dict(nodes=500), dict(black_time=1.0, white_time=1.0, increment=0.01)]:
            result = engine.play(position, konane.Limit(**limits))
            assert position.is_legal(result.move), limits
            assert result.info and all(isinstance(line, dict) for line in result.info)
        with pytest.raises(TypeError, match="limit"):
            engine.play(position)
        with pytest.raises(ValueError, match="exactly one of movetime"):
            konane.Limit(depth=2, nodes=5)
        with pytest.raises(ValueError, match="both black_time and white_time"):
            konane.Limit(black_time=2)


def test_a_limit_is_a_value_that_pickles_and_reads_back():
    import copy
    import pickle

    limits = [
        konane.Limit(movetime=0.5),
        konane.Limit(depth=7),
        konane.Limit(nodes=1000),
        konane.Limit(black_time=60, white_time=30, increment=1),
    ]
    for limit in limits:
        assert pickle.loads(pickle.dumps(limit)) == limit
        assert copy.deepcopy(limit) == limit
        assert eval(repr(limit), {"Limit": konane.Limit}) == limit
        assert hash(copy.copy(limit)) == hash(limit)
    assert limits[0] != limits[1] and limits[0].movetime == 0.5 and limits[0].depth is None
    clock = limits[3]
    assert (clock.black_time, clock.white_time, clock.increment) == (60.0, 30.0, 1.0)
    assert konane.Limit(movetime=float("inf")).movetime == 86400.0, "inf is no limit: a day"


def test_analysis_reports_the_best_lines(engine_path):
    with konane.Engine(engine_path) as engine:
        lines = engine.analyse(konane.Position("8x8"), konane.Limit(depth=4), multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        assert len({str(line["pv"][0]) for line in lines}) == 3
        assert all("cp" in line["score"] or "mate" in line["score"] for line in lines)
        single = engine.analyse(konane.Position("8x8"), konane.Limit(depth=3))
        assert len(single) == 1 and single[0]["depth"] == 3


def test_analysis_reports_every_line_asked_for_at_a_skill_level(engine_path):
    with konane.Engine(engine_path, options={"Skill": 10}) as engine:
        lines = engine.analyse(konane.Position("8x8"), konane.Limit(depth=4), multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        assert len({str(line["pv"][0]) for line in lines}) == 3


def test_options_are_checked_against_what_the_engine_announces(engine_path):
    with pytest.raises(konane.EngineError, match="'Skil' is not one of the engine's options"):
        konane.Engine(engine_path, options={"Skil": 5})
    with pytest.raises(konane.EngineError, match="Skill"):
        konane.Engine(engine_path, options={"Skill": 50})
    with konane.Engine(engine_path) as engine:
        engine.configure({"Skill": 3})
        assert engine.play(konane.Position("6x6"), konane.Limit(movetime=0.01)).move is not None
        with pytest.raises(konane.EngineError, match="Threads"):
            engine.configure({"Threads": 0})


def test_a_missing_program_is_named():
    with pytest.raises(konane.EngineError, match="could not start"):
        konane.Engine("./no-such-engine")


def test_a_crash_raises_with_the_exit_status_and_leaves_nothing(fixture_command):
    command, tag = fixture_command("crash-mid-game")
    engine = konane.Engine(command)
    position = konane.Position("6x6")
    with pytest.raises(konane.EngineError, match=r"crashed: it exited \(exit code 4\)"):
        for _ in range(10):
            position.play(engine.play(position, konane.Limit(movetime=0.05)).move)
    engine.quit()
    assert survivors(tag) == []


def test_a_hang_is_a_time_loss_within_the_margin_and_leaves_nothing(fixture_command):
    command, tag = fixture_command("hang")
    with konane.Engine(command, margin=0.1) as engine:
        with pytest.raises(konane.EngineError, match="ran out of time"):
            engine.play(konane.Position("6x6"), konane.Limit(movetime=0.1))
    assert survivors(tag) == []


def test_an_illegal_move_is_refused_with_the_move(fixture_command):
    command, tag = fixture_command("illegal")
    with konane.Engine(command) as engine:
        position = konane.Position("6x6")
        with pytest.raises(konane.EngineError, match="sent an illegal move: a1"):
            for _ in range(10):
                position.play(engine.play(position, konane.Limit(movetime=0.05)).move)
    assert survivors(tag) == []


def test_ctrl_c_while_an_engine_thinks_stops_it_and_leaves_nothing(fixture_command):
    command, tag = fixture_command("hang")
    engine = konane.Engine(command)
    timer = threading.Timer(0.3, lambda: signal.raise_signal(signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        engine.play(konane.Position("6x6"), konane.Limit(depth=30))
    del engine
    assert survivors(tag) == []


def test_a_depth_or_node_limit_below_one_is_refused_at_once(engine_path):
    with konane.Engine(engine_path) as engine:
        for limit in ({"depth": 0}, {"nodes": 0}):
            with pytest.raises(ValueError, match="at least 1|1 to 120"):
                engine.play(konane.Position("6x6"), konane.Limit(**limit))
        assert engine.play(konane.Position("6x6"), konane.Limit(depth=1)).move is not None


def test_an_engine_is_named_by_its_id_and_found_by_a_path(engine_path, tmp_path):
    import pathlib

    log = tmp_path / "engine.log"
    with konane.Engine(pathlib.Path(engine_path), log=log) as engine:
        assert engine.id["name"] == engine.name and "author" in engine.id
        engine.play(konane.Position("6x6"), konane.Limit(depth=2))
    with konane.Engine(engine_path, name="mine") as named:
        assert named.name == "mine"
    text = log.read_text()
    for sent in ("< position ", "< go depth 2", "> bestmove "):
        assert sent in text, f"the log keeps the game's {sent!r}: {text}"
    with pytest.raises(TypeError, match="an engine command is a program"):
        konane.Engine(42)


def test_an_engine_that_quit_plays_no_more(engine_path):
    engine = konane.Engine(engine_path)
    engine.quit()
    with pytest.raises(konane.EngineError, match="has quit: make a new Engine"):
        engine.play(konane.Position("6x6"), konane.Limit(depth=1))


def test_a_bot_whose_function_raises_says_why_in_the_error():
    import sys
    import textwrap

    bot = textwrap.dedent(
        """
        import konane
        def choose(position):
            raise ValueError("no idea")
        konane.run_bot(choose, name="Raiser")
        """
    )
    with konane.Engine([sys.executable, "-c", bot]) as engine:
        assert engine.name == "Raiser"
        with pytest.raises(konane.EngineError, match="it said: the bot chose no move: the function raised ValueError: no idea"):
            engine.play(konane.Position("6x6"), konane.Limit(movetime=0.5))


def test_an_analysis_reports_as_it_goes_and_stops_when_asked(engine_path):
    position = konane.Position("8x8")
    with konane.Engine(engine_path) as engine:
        with engine.analysis(position, multipv=2) as analysis:
            depths = []
            for info in analysis:
                if "depth" in info and "pv" in info:
                    depths.append(info["depth"])
                if len(set(depths)) >= 3:
                    analysis.stop()
            best = analysis.wait()
        assert len(set(depths)) >= 3 and analysis.info is not None
        assert best in position.legal_moves()
        with pytest.raises(konane.EngineError, match="is analysing"):
            with engine.analysis(position) as running:
                engine.play(position, konane.Limit(depth=1))
        assert running.wait() in position.legal_moves()
        # The engine is free again once the analysis ended, and a limit ends it by itself.
        assert engine.play(position, konane.Limit(depth=2)).move in position.legal_moves()
        limited = engine.analysis(position, konane.Limit(depth=3))
        assert [info for info in limited if "pv" in info][-1]["depth"] == 3
        assert limited.wait() in position.legal_moves()


def test_an_analysis_of_a_crashing_engine_raises_and_leaves_nothing(fixture_command):
    command, tag = fixture_command("crash-mid-game")
    engine = konane.Engine(command)
    position = konane.Position("6x6")
    with pytest.raises(konane.EngineError, match="crashed"):
        for _ in range(10):
            analysis = engine.analysis(position, konane.Limit(movetime=0.05))
            list(analysis)
            position.play(analysis.wait())
    engine.quit()
    assert survivors(tag) == []


def test_the_package_brings_its_own_engine():
    import konane.engine

    with konane.Engine(konane.engine.command()) as engine:
        assert engine.name == f"Konane {konane.__version__}"
        position = konane.Position("6x6")
        assert engine.play(position, konane.Limit(depth=2)).move in position.legal_moves()
    results = {r.name: r.outcome for r in konane.check(konane.engine.command(), quick=True)}
    assert "fail" not in results.values(), results


def test_an_engine_ponders_after_its_move_until_the_next_call(engine_path, tmp_path):
    log = tmp_path / "ponder.log"
    position = konane.Position("8x8")
    with konane.Engine(engine_path, log=log) as engine:
        result = engine.play(position, konane.Limit(movetime=0.05), ponder=True)
        position.play(result.move)
        after = str(position)
        time.sleep(0.3)
        reply = engine.play(position, konane.Limit(movetime=0.05))
        assert reply.move in position.legal_moves()
    lines = log.read_text().splitlines()
    sent = [line.split("< ", 1)[1] for line in lines if "< " in line]
    first_go = next(i for i, line in enumerate(sent) if line.startswith("go "))
    ponder_go = next(i for i, line in enumerate(sent) if line.startswith("go ") and i > first_go)
    assert sent[ponder_go - 1] == f"position fen {after}", "it ponders on the position after its move"
    assert "stop" in sent[ponder_go + 1 :], "the next call ended the pondering"


def test_an_engine_dropped_while_pondering_is_collected_with_its_process(fixture_command):
    import json
    import os
    import subprocess
    import sys

    command, tag = fixture_command("first")
    # The command goes by the environment: in the script's own command line, the tag would
    # make the script count as a survivor.
    script = """
import gc, json, os, sys, time, konane
engine = konane.Engine(json.loads(os.environ["ENGINE_COMMAND"]))
engine.play(konane.Position("6x6"), konane.Limit(depth=1), ponder=True)
del engine
gc.collect()
print("collected", flush=True)
time.sleep(5)
"""
    environment = dict(os.environ, ENGINE_COMMAND=json.dumps(command))
    program = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=environment)
    try:
        assert program.stdout.readline().strip() == "collected"
        assert survivors(tag) == [], "the engine went with the collected Engine"
    finally:
        program.kill()
        program.wait()
