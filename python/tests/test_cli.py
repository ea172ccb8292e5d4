"""The command lines `pip install` brings: `konane-engine` and `konane-arbiter` beside Python,
the same programs as the Rust binaries, with the same arguments and answers."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import konane
from conftest import binary, survivors

SCRIPTS = Path(sys.executable).parent


def run(*arguments: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(arguments, capture_output=True, text=True, timeout=timeout)


def test_konane_engine_beside_python_is_the_rust_engine():
    script = str(SCRIPTS / "konane-engine")
    done = subprocess.run([script], input="uci\nquit\n", capture_output=True, text=True, timeout=30)
    assert done.stdout.splitlines()[0] == f"id name Konane {konane.__version__}"
    perft = ["perft", "4", "--size", "6x6", "--divide"]
    assert run(script, *perft).stdout == run(binary("konane-engine"), *perft).stdout
    solved = run(sys.executable, "-m", "konane.engine", "solve", "--size", "4x4")
    assert solved.returncode == 0 and "winner: White" in solved.stdout


def test_konane_engine_refuses_bad_arguments_as_the_rust_engine_does():
    refused = run(str(SCRIPTS / "konane-engine"), "perft", "3", "--size", "9x99")
    assert refused.returncode == 2
    assert "9x99" in refused.stderr and refused.stderr == run(binary("konane-engine"), "perft", "3", "--size", "9x99").stderr
    for name in ("konane-engine", "konane-arbiter"):
        assert run(str(SCRIPTS / name), "--version").stdout == f"{name} {konane.__version__}\n"


def test_konane_arbiter_beside_python_plays_its_demo_match_with_the_package_engine():
    done = run(str(SCRIPTS / "konane-arbiter"), "--games", "2", "--movetime", "20", "--size", "6x6", "--seed", "5")
    assert done.returncode == 0, done.stderr
    assert "Demo: konane-engine against itself, 2 games" in done.stdout
    assert "Finished 2 games" in done.stdout
    assert "konane-engine-2" in done.stdout


def test_konane_arbiter_refuses_what_the_rust_arbiter_refuses(tmp_path):
    arguments = ["--engine", "cmd=x", "--engine", "cmd=y", "--resume"]
    python = run(sys.executable, "-m", "konane.arbiter", *arguments)
    rust = run(binary("konane-arbiter"), *arguments)
    assert python.returncode == rust.returncode == 2
    assert python.stderr == rust.stderr == "error: --resume needs --results FILE: the file whose games it continues\n"
    helped = run(sys.executable, "-m", "konane.arbiter", "--help")
    assert helped.returncode == 0 and "check" in helped.stdout and "gui" in helped.stdout


def test_a_killed_python_arbiter_leaves_no_engine_running(fixture_command, tmp_path):
    """Its watchdog (`python -m konane.arbiter watchdog`) kills engines that ignore their input."""
    command, tag = fixture_command("busy")
    engine = ["cmd=" + command[0], "arg=busy", "arg=" + tag]
    log = tmp_path / "log.txt"
    arbiter = subprocess.Popen(
        [str(SCRIPTS / "konane-arbiter"), "--engine", *engine, "--engine", *engine, "--tc", "600+0"]
        + ["--games", "2", "--log", str(log)],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while "< go " not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, "the game never started"
        time.sleep(0.05)
    assert survivors(tag), "the engines are running"
    os.kill(arbiter.pid, signal.SIGKILL)
    arbiter.wait()
    assert survivors(tag) == []
