"""The README's Python block runs as written, line by line: the project's binaries and the
example bot stand in for its paths, and the bot line (which serves standard input) is left
out."""

import subprocess
import sys

from conftest import EXAMPLE_BOT, ROOT, binary


def readme_block() -> str:
    lines = (ROOT / "README.md").read_text().splitlines()
    start = lines.index("What a script can do:")
    opening = lines.index("```python", start)
    closing = lines.index("```", opening + 1)
    return "\n".join(lines[opening + 1 : closing])


def test_the_readme_python_block_runs(tmp_path):
    block = readme_block()
    assert "konane.Limit" in block and "konane.pgn" in block
    script = (
        block.replace('"target/release/konane-engine"', repr(binary("konane-engine")))
        .replace('"mybot.py"', repr(EXAMPLE_BOT[1]))
        .replace("konane.run_bot(", "(lambda *_, **__: None)(")
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[Termination " in done.stdout, "the last line printed a game's PGN"
