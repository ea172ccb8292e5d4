#!/usr/bin/env python3
"""A soak of the arbiter: many games of konane-engine against itself at a short time control,
then what went wrong and who caused it (issue 21's figures).

Usage (from the project root, after `cargo build --release`):
    python3 scripts/soak.py [--games 10000] [--concurrency 2] [--size 6x6] [--tc 1+0.01]
                            [--dir target/soak] [--resume]

It runs `konane-arbiter` with a copy of konane-engine under a path of its own (so that its
processes can be found), a results file and a log, sampling the arbiter's memory every
second. An interrupted run goes on with --resume. At the end it prints:
- games played, and how they ended;
- time losses, and of those the arbiter's: a move whose `bestmove` the arbiter's clock saw
  after the time allowed, while the engine's own last `info ... time` for it was within the
  clock (the engine says it answered in time);
- engine processes left running after the arbiter exited;
- the arbiter's resident memory after its first 10 s and at the end (kB).
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GO = re.compile(r"\bgo (?:btime|p1time) (\d+) (?:wtime|p2time) (\d+)")
INFO_TIME = re.compile(r"\binfo .*\btime (\d+)")


def rss_kb(pid: int):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def side_to_move(position: str) -> int:
    """0 for Black, 1 for White, from a `position` command."""
    words = position.split()
    moves = len(words) - words.index("moves") - 1 if "moves" in words else 0
    first = 1 if words[1] == "fen" and words[3] == "w" else 0
    return (first + moves) % 2


def late_moves(log: Path, margin_ms: int):
    """Moves answered after the mover's clock plus the margin (by the log's clock, the
    arbiter's), each as (the engine's own last reported time, its clock, what the arbiter
    saw or None when no answer came): from the log's `position` and `go` lines, the engine's
    `info ... time` lines and its `bestmove`."""
    position = {}  # tag -> side to move
    open_moves = {}  # tag -> [sent_ms, clock_ms, last reported time]
    late = []
    with log.open(errors="replace") as lines:
        for line in lines:
            parts = line.split(None, 3)
            if len(parts) < 4:
                continue
            at, tag, direction, text = int(parts[0]), parts[1], parts[2], parts[3].rstrip("\n")
            if direction == "<" and text.startswith("position "):
                position[tag] = side_to_move(text)
            elif direction == "<" and (go := GO.search(text)):
                clock = int(go.group(1 + position.get(tag, 0)))
                open_moves[tag] = [at, clock, None]
            elif direction == ">" and tag in open_moves:
                if text.startswith("info") and (info := INFO_TIME.search(text)):
                    open_moves[tag][2] = int(info.group(1))
                elif text.startswith("bestmove"):
                    sent, clock, reported = open_moves.pop(tag)
                    if at - sent > clock + margin_ms:
                        late.append((reported, clock, at - sent))
    for sent, clock, reported in open_moves.values():
        late.append((reported, clock, None))
    return late


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--size", default="6x6")
    parser.add_argument("--tc", default="1+0.01")
    parser.add_argument("--timemargin", type=int, default=100, help="ms, as the arbiter's flag")
    parser.add_argument("--dir", default=str(ROOT / "target" / "soak"))
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()

    work = Path(args.dir)
    work.mkdir(parents=True, exist_ok=True)
    engine = work / "konane-engine-soak"
    shutil.copy(ROOT / "target" / "release" / "konane-engine", engine)
    results, log = work / "results.jsonl", work / "engines.log"
    if not args.resume:
        for path in (results, log):
            path.unlink(missing_ok=True)
    command = [
        str(ROOT / "target" / "release" / "konane-arbiter"),
        "--engine", f"cmd={engine}", "name=a",
        "--engine", f"cmd={engine}", "name=b",
        "--games", str(args.games), "--concurrency", str(args.concurrency),
        "--size", args.size, "--tc", args.tc, "--timemargin", str(args.timemargin),
        "--random-plies", "4", "--results", str(results), "--log", str(log),
    ]
    if args.resume:
        command.append("--resume")
    started = time.monotonic()
    arbiter = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    memory = []
    while arbiter.poll() is None:
        if (kb := rss_kb(arbiter.pid)) is not None:
            memory.append((time.monotonic() - started, kb))
        time.sleep(1)
    elapsed = time.monotonic() - started
    time.sleep(1)
    left = subprocess.run(["pgrep", "-af", str(engine)], capture_output=True, text=True).stdout.split("\n")
    left = [line for line in left if line and "pgrep" not in line]

    games = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    endings = collections.Counter(game["termination"] for game in games)
    late = late_moves(log, args.timemargin)
    arbiter_caused = [m for m in late if m[0] is not None and m[0] <= m[1]]
    after_10s = next((kb for t, kb in memory if t >= 10), memory[0][1] if memory else None)
    print(f"command: {' '.join(command)}")
    print(f"exit status {arbiter.returncode}, {elapsed:.0f} s")
    print(f"games: {len(games)} of {args.games}; endings: {dict(endings)}")
    print(f"time losses: {endings.get('time forfeit', 0)}; late moves in the log: {len(late)}; "
          f"of them the engine reported a time within its clock (arbiter-caused): {len(arbiter_caused)}")
    for move in late[:10]:
        print(f"  late move: engine reported {move[0]} ms, clock {move[1]} ms, arbiter saw {move[2]} ms")
    print(f"processes left: {len(left)}")
    print(f"arbiter memory: {after_10s} kB after 10 s, {memory[-1][1] if memory else None} kB at the end")
    return 0 if not arbiter_caused and not left else 1


if __name__ == "__main__":
    sys.exit(main())
