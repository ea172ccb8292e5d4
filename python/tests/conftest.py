"""Shared pieces of the package's tests: where the project's binaries are, and a check that
no process of a test is left behind."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("KONANE_BIN_DIR", ROOT / "target" / "release"))


def binary(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{path} is missing: build it with `cargo build --release --all-features --bins`")
    return str(path)


@pytest.fixture
def engine_path() -> str:
    return binary("konane-engine")


@pytest.fixture
def fixture_command():
    """A misbehaving engine of cli/tests/fixtures: [program, behaviour, tag]; the tag marks its
    processes, so that a test can look for any left behind."""

    def command(behaviour: str) -> tuple[list[str], str]:
        tag = f"pytest-{uuid.uuid4().hex[:12]}"
        return [binary("konane-fixture"), behaviour, tag], tag

    return command


def survivors(tag: str) -> list[str]:
    """The processes whose command line holds `tag`, after up to 2 s for them to go."""
    deadline = time.monotonic() + 2
    while True:
        found = subprocess.run(["pgrep", "-af", tag], capture_output=True, text=True).stdout
        found = [line for line in found.splitlines() if "pgrep" not in line]
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


EXAMPLE_BOT = [sys.executable, str(ROOT / "python" / "examples" / "fewest_replies.py")]
PERFT_DIR = ROOT / "cli" / "tests" / "perft"
