"""run_bot through pipes: the limits reach the function, and a function that fails or returns
nonsense is reported without stopping the bot."""

import subprocess
import sys
import textwrap


def run(script: str, commands: str) -> subprocess.CompletedProcess:
    bot = textwrap.dedent(script)
    return subprocess.run([sys.executable, "-c", bot], input=commands, capture_output=True, text=True, timeout=60)


def test_the_limits_reach_a_function_of_two_arguments():
    done = run(
        """
        import sys, konane
        def choose(position, limits):
            print(sorted(limits.items()), file=sys.stderr)
            return position.legal_moves()[-1]
        konane.run_bot(choose, name="Last", author="tests")
        """,
        "uci\nposition startpos\ngo btime 3000 wtime 2000 binc 100 winc 50\nquit\n",
    )
    lines = done.stdout.splitlines()
    assert lines[:2] == ["id name Last", "id author tests"]
    assert lines[-1].startswith("bestmove ") and lines[-1] != "bestmove 0000"
    assert "('black_time', 3.0)" in done.stderr and "('increment', 0.1)" in done.stderr
    assert "('time_left', 3.0)" in done.stderr


def test_a_failing_function_is_reported_and_the_bot_goes_on():
    done = run(
        """
        import konane
        calls = []
        def choose(position):
            calls.append(1)
            if len(calls) == 1:
                raise ValueError("no idea")
            if len(calls) == 2:
                return 42
            return "z9"
        konane.run_bot(choose)
        """,
        "position startpos\ngo movetime 5\ngo movetime 5\ngo movetime 5\nisready\n",
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "info string error: the bot chose no move: the function raised ValueError: no idea"
    assert lines[1] == "bestmove 0000"
    assert lines[2].startswith("info string error: the bot chose no move: the function returned 42")
    # A move that reads but is not legal is sent as it is, after the reason: the arbiter
    # then records the illegal move.
    assert lines[4:6] == ["info string error: the bot chose z9, which is not legal: z9 is off the board", "bestmove z9"]
    assert lines[-1] == "readyok"
    assert "ValueError: no idea" in done.stderr
    assert done.returncode == 0


def test_a_function_with_a_default_second_parameter_gets_the_position_alone():
    done = run(
        """
        import sys, konane
        def choose(position, depth=2):
            print("depth", depth, file=sys.stderr)
            return position.legal_moves()[0]
        konane.run_bot(choose)
        """,
        "position startpos\ngo depth 7\nisready\n",
    )
    assert "depth 2" in done.stderr, done.stderr
    assert done.stdout.splitlines()[-2].startswith("bestmove ") and done.stdout.splitlines()[-1] == "readyok"
