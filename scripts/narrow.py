#!/usr/bin/env python3
"""Narrow boards: who wins 3xn and 4xn Konane from each of the four setups.

A setup is the board full but for a gap of two side-by-side squares: horizontal or vertical,
in the middle of the board or at a corner (the setups of "Solving Narrow Konane Boards", ICGA
Journal 43(3), 2021). With our colours (a1 holds a white stone) the gaps are:
  hc  a1 b1                       vc  a1 a2
  hm  files f, f+1 on rank r+1    vm  ranks r+1, r+2 on file f
where f = (width - 1) // 2 and r = (height - 1) // 2 (0-based). Each setup is solved twice,
Black to move and White to move, by `konane-engine solve`; the two answers give the outcome
class: N (the player to move wins), P (the player to move loses), B (Black wins whoever
starts) or W (White wins whoever starts).

Results go to proofs/narrow/results.jsonl (or --results FILE), one line per solve, with the
command that ran it and the build (the commit, "-dirty" when the engine's sources differed from
it); a run skips the solves already there, so it resumes where the last one stopped, unless
--again asks for every solve anew with this build (the tables show each solve's latest record).
Within one height, setup and starting side, widths are solved in order and the series stops at
the first solve that runs out of time.

With --tables DIR each solve keeps its table of proven results in DIR (saved every ten minutes
and when the solve ends), so a solve stopped by the end of a sitting, or by a kill, goes on from
that table in the next run: an unfinished solve whose table is there is tried again, and its
record then counts the nodes and seconds of its last run only ("resumed": true). A solve
interrupted by SIGINT to the engine (which saves its table) is recorded as unfinished, with
"stopped": true, and the run ends there. The tables add up a solve's recorded runs; where the
runs before a resumed one were not recorded, the cell says its figures are the last run's only.

A table lives on one machine. With --split DEPTH a solve is carried by a split instead (see
`konane-engine solve --split`): its positions DEPTH plies down are jobs in
proofs/narrow/jobs/WIDTHxHEIGHT-SETUP-SIDE/ (jobs/ beside the results), solved in the solver's
order in one process until --time runs out (the job then running is left unsolved, a --tables
table saved), each proven job a result file there. Committed, the folder carries what was proven
to the next run on any machine: a solve whose folder holds results is tried again and goes on
from them. Its record names the folder and how many jobs are solved; its nodes are those of the
jobs that run solved, its seconds the run's.

Usage: scripts/narrow.py [--heights 3 4] [--widths 2-26] [--setups hm vm hc vc] [--sides b w]
                         [--time 600] [--threads 1] [--hash MB] [--method M] [--tables DIR]
                         [--split DEPTH] [--results FILE] [--again]
       scripts/narrow.py --table     (the README's tables, from the results so far)
       scripts/narrow.py --values [--heights 3] [--widths 3-9] [--time 300]
                                     (each setup's value by `konane-engine value`, as a table)
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "proofs" / "narrow" / "results.jsonl"
SETUPS = ["hm", "vm", "hc", "vc"]


def gap(setup, width, height):
    """The two empty squares of a setup, as (file, rank) pairs from 0."""
    f, r = (width - 1) // 2, (height - 1) // 2
    return {
        "hc": [(0, 0), (1, 0)],
        "vc": [(0, 0), (0, 1)],
        "hm": [(f, r), (f + 1, r)],
        "vm": [(f, r), (f, r + 1)],
    }[setup]


def fen(setup, width, height, side):
    """The position string of a setup with `side` ('b' or 'w') to move."""
    empty = set(gap(setup, width, height))
    ranks = []
    for rank in reversed(range(height)):
        text, run = "", 0
        for file in range(width):
            if (file, rank) in empty:
                run += 1
                continue
            if run:
                text, run = text + str(run), 0
            text += "w" if (file + rank) % 2 == 0 else "b"
        ranks.append(text + (str(run) if run else ""))
    return "/".join(ranks) + " " + side


def solver_flags(args, table_file):
    """The flags every solve gets: threads, time, and the table's size, method and file."""
    flags = ["--threads", str(args.threads), "--time", str(args.time)]
    if args.hash:
        flags += ["--hash", str(args.hash)]
    if args.method:
        flags += ["--method", args.method]
    if table_file:
        flags += ["--table", str(table_file)]
    return flags


def solve(engine, position, width, height, args, table_file=None):
    """Runs one solve; returns (winner or None on timeout, nodes, seconds, method, threads,
    whether it was stopped: the engine interrupted, its table saved, exit code 130)."""
    command = [engine, "solve", "--size", f"{width}x{height}", "--opening", "any",
               "--fen", position, *solver_flags(args, table_file)]
    done = subprocess.run(command, capture_output=True, text=True)
    winner = re.search(r"^winner: (\w+)", done.stdout, re.M)
    stats = re.search(r"nodes (\d+), time ([\d.]+) s", done.stderr)
    if done.returncode not in (0, 1, 130) or not stats:
        sys.exit(f"solve failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
    winner = winner.group(1) if done.returncode == 0 and winner else None
    searching = re.search(r"^(depth-first|proof-number) search, (\d+) thread", done.stderr, re.M)
    method, threads = searching.groups() if searching else ("depth-first", args.threads)
    return (winner, int(stats.group(1)), float(stats.group(2)), method, int(threads),
            done.returncode == 130)


def solve_split(engine, position, width, height, args, folder, table_file=None):
    """Runs one solve as a split kept in `folder` (made --split plies deep when it has none):
    its jobs in the solver's order in one process within --time (the job then running is left
    unsolved, a --tables table saved), then joined. Each job's result is a file in the folder,
    so what a run proved outlasts the machine once committed. Returns what solve() does (the
    nodes those of the jobs this run solved) and how many of the split's jobs are solved
    ("X of Y")."""
    if not (folder / "split.txt").exists():
        make = [engine, "solve", "--size", f"{width}x{height}", "--opening", "any",
                "--fen", position, "--split", str(args.split), "--jobs", str(folder)]
        made = subprocess.run(make, capture_output=True, text=True)
        if made.returncode != 0:
            sys.exit(f"split failed ({made.returncode}): {' '.join(make)}\n{made.stderr}")
    solved_before = set((folder / "results").glob("*.txt"))
    command = [engine, "solve", "--jobs", str(folder), "--run", "all",
               *solver_flags(args, table_file)]
    started = time.monotonic()
    running = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    seconds = time.monotonic() - started
    errors = running.stderr
    if running.returncode not in (0, 1, 130):
        sys.exit(f"solve failed ({running.returncode}): {' '.join(command)}\n{errors}")
    nodes = 0
    for result in set((folder / "results").glob("*.txt")) - solved_before:
        nodes += int(re.search(r"^nodes (\d+)", result.read_text(), re.M).group(1))
    join = [engine, "solve", "--jobs", str(folder), "--join"]
    joined = subprocess.run(join, capture_output=True, text=True)
    winner = re.search(r"^winner: (\w+)", joined.stdout, re.M)
    jobs = re.search(r"^jobs: (\d+ of \d+) solved", joined.stdout, re.M)
    if joined.returncode not in (0, 1) or not jobs:
        sys.exit(f"join failed ({joined.returncode}): {' '.join(join)}\n{joined.stderr}")
    searching = re.search(r"^(depth-first|proof-number) search, (\d+) thread", errors, re.M)
    method, threads = searching.groups() if searching else ("proof-number", args.threads)
    stopped = running.returncode == 130
    return (winner.group(1) if winner else None, nodes, round(seconds, 1), method,
            int(threads), stopped, jobs.group(1))


def outcome(black_to_move, white_to_move):
    """The outcome class from the winners with Black and with White to move."""
    return {("Black", "White"): "N", ("White", "Black"): "P",
            ("Black", "Black"): "B", ("White", "White"): "W"}[(black_to_move, white_to_move)]


def table(records):
    """Markdown tables, one per height: a row per width, a column per setup; each cell the
    outcome class and the two solves' nodes and seconds, or how far an unfinished one got."""
    lines = []
    latest = records_by_key(records)
    runs = runs_behind(records)
    for height in sorted({r["height"] for r in records}):
        lines += [f"**{height} rows** (`WIDTHx{height}`)", "",
                  "| width | " + " | ".join(SETUPS) + " |",
                  "|---:|" + "---|" * len(SETUPS)]
        for width in sorted({r["width"] for r in records if r["height"] == height}):
            cells = []
            for setup in SETUPS:
                pair = [latest.get((height, width, setup, side)) for side in "bw"]
                if all(r is None for r in pair):
                    cells.append("")
                elif any(r is None or r["winner"] is None for r in pair):
                    cells.append(half_solved(pair, runs))
                else:
                    chains = [runs[id(r)] for r in pair]
                    nodes = sum(run["nodes"] for chain in chains for run in chain)
                    seconds = sum(run["seconds"] for chain in chains for run in chain)
                    most = max(threads(r) for r in pair)
                    more = f", {most} threads" if most > 1 else ""
                    more += resumption(chains)
                    by_numbers = sum(r.get("method") == "proof-number" for r in pair)
                    more += ["", ", one side by proof numbers", ", proof numbers"][by_numbers]
                    more += "".join(f", {r['jobs']} jobs of a split"
                                    for r in pair if "split" in r)
                    cells.append(f"{outcome(pair[0]['winner'], pair[1]['winner'])} "
                                 f"({nodes:,} nodes, {seconds:.1f} s{more})")
            lines.append(f"| {width} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def half_solved(pair, runs):
    """The cell of an unsolved setup: for each side to move, who wins and in how many nodes, or
    how long the solve ran without proving it, over all its recorded runs (the one side known
    often tells the setup's pattern)."""
    parts = []
    for side, record in zip(("Black", "White"), pair):
        if record is None:
            parts.append(f"{side} to move: not tried")
            continue
        chain = runs[id(record)]
        over = f" over {len(chain)} runs" if len(chain) > 1 else ""
        if record["winner"] is None:
            seconds = sum(run["seconds"] for run in chain)
            jobs = f"; {record['jobs']} jobs of its split solved" if "split" in record else ""
            parts.append(f"{side} to move: open (> {seconds:.0f} s{over}{jobs})")
        else:
            nodes = sum(run["nodes"] for run in chain)
            parts.append(f"{side} to move: {record['winner']} wins ({nodes:,} nodes{over})")
    return "; ".join(parts)


def runs_behind(records):
    """For each record (by `id`), the runs its solve took: the record itself, after the recorded
    unfinished runs whose table it resumed (a "resumed" record carries on the unfinished run
    just before it among its solve's records, when that run kept a table: `--tables`)."""
    chains, last = {}, {}
    for r in records:
        key = (r["height"], r["width"], r["setup"], r["side"])
        before = last.get(key)
        if (r.get("resumed") and before is not None and before["winner"] is None
                and ("--tables" in before.get("command", "") or "split" in before)):
            chains[id(r)] = chains[id(before)] + [r]
        else:
            chains[id(r)] = [r]
        last[key] = r
    return chains


def resumption(chains):
    """What a solved cell says of resumed runs: how many runs its figures add up, or that they
    leave out runs before a resumed one that were not recorded."""
    if any(chain[0].get("resumed") for chain in chains):
        return ", resumed: earlier runs not counted"
    most = max(len(chain) for chain in chains)
    return f", over {most} runs" if most > 1 else ""


def threads(record):
    """The threads a solve ran with: its record's `threads`, else the `--threads` its note
    names (records written before the field was), else one."""
    if "threads" in record:
        return record["threads"]
    named = re.findall(r"--threads (\d+)", record.get("note", ""))
    return max(map(int, named), default=1)


def records_by_key(records):
    """Each (height, width, setup, side)'s latest record that proves a winner, else its latest
    (a solve run again that ran out of time does not hide an earlier proof)."""
    latest = {}
    for r in records:
        key = (r["height"], r["width"], r["setup"], r["side"])
        if r["winner"] is not None or latest.get(key, {}).get("winner") is None:
            latest[key] = r
    return latest


def values(args):
    """The table of each setup's value, by `konane-engine value` within --time seconds."""
    print("| board | " + " | ".join(args.setups) + " |")
    print("|---|" + "---|" * len(args.setups))
    for height in args.heights:
        for width in widths(args.widths):
            cells = []
            for setup in args.setups:
                command = [args.engine, "value", "--opening", "any",
                           "--fen", fen(setup, width, height, "b")]
                try:
                    done = subprocess.run(command, capture_output=True, text=True,
                                          timeout=args.time)
                except subprocess.TimeoutExpired:
                    cells.append(f"open (> {args.time:.0f} s)")
                    continue
                value = re.search(r"^value: (.*)$", done.stdout, re.M)
                stats = re.search(r"(\d+) positions valued, \d+ game forms, time ([\d.]+) s",
                                  done.stderr)
                if done.returncode != 0 or not value or not stats:
                    sys.exit(f"value failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
                cells.append(f"`{value.group(1)}` ({int(stats.group(1)):,} positions, "
                             f"{float(stats.group(2)):.2f} s)")
            print(f"| {width}x{height} | " + " | ".join(cells) + " |", flush=True)


def build():
    """The commit the engine was built from, "-dirty" when the engine's sources differ from it."""
    def git(*words):
        return subprocess.run(["git", "-C", str(ROOT), *words], capture_output=True,
                              text=True).stdout.strip()
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    sources = ["src", "cli", "Cargo.toml", "Cargo.lock", ".cargo"]
    changed = git("status", "--porcelain", "--", *sources)
    return commit + ("-dirty" if changed else "")


def shown(path):
    """A path as records name it: from the checkout's root when inside it."""
    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def widths(text):
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--heights", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--widths", default="2-26")
    parser.add_argument("--setups", nargs="+", choices=SETUPS, default=SETUPS,
                        help="the setups to solve (default: all four)")
    parser.add_argument("--sides", nargs="+", choices=["b", "w"], default=["b", "w"],
                        help="the sides to move to solve with, in this order (default: b w)")
    parser.add_argument("--time", type=float, default=600)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--hash", type=int, help="MB of proof table (default: the solver's)")
    parser.add_argument("--method", choices=["depth-first", "proof-number"],
                        help="the solver's search (default: the solver's, by the board)")
    parser.add_argument("--again", action="store_true",
                        help="solve anew what the results already hold, with this build")
    parser.add_argument("--engine", default=str(ROOT / "target" / "release" / "konane-engine"))
    parser.add_argument("--results", type=pathlib.Path, default=RESULTS,
                        help="the records to read and add to (default: proofs/narrow/"
                             "results.jsonl); splits go to the folder jobs/ beside it")
    parser.add_argument("--table", action="store_true", help="print the tables and stop")
    parser.add_argument("--tables", type=pathlib.Path,
                        help="keep each solve's proof table in this folder, to resume it")
    parser.add_argument("--split", type=int, metavar="DEPTH",
                        help="solve as a split of the positions DEPTH plies down, kept in "
                             "proofs/narrow/jobs/ (commit it: it outlasts the machine)")
    parser.add_argument("--values", action="store_true", help="print the setups' values")
    args = parser.parse_args()
    if args.values:
        values(args)
        return
    if args.table:
        records = [json.loads(line) for line in args.results.read_text().splitlines()]
        print(table(records))
        return
    args.results.parent.mkdir(parents=True, exist_ok=True)
    splits = args.results.parent / "jobs"
    command = " ".join(["scripts/narrow.py", *sys.argv[1:]])
    engine_build = build()
    done = {}
    if args.results.exists():
        done = records_by_key(json.loads(line)
                              for line in args.results.read_text().splitlines())
    for height in args.heights:
        for setup in args.setups:
            for side in args.sides:
                for width in widths(args.widths):
                    if width < 2 or (setup == "vm" and height < 2):
                        continue
                    key = (height, width, setup, side)
                    record = done.get(key)
                    name = f"{width}x{height}-{setup}-{side}"
                    table_file = args.tables / f"{name}.table" if args.tables else None
                    folder = splits / name if args.split else None
                    resumed = (bool(table_file and table_file.exists())
                               or bool(folder and list(folder.glob("results/*.txt"))))
                    if record is None or args.again or (record["winner"] is None
                                                        and (record["limit"] < args.time
                                                             or resumed)):
                        position = fen(setup, width, height, side)
                        if table_file:
                            args.tables.mkdir(parents=True, exist_ok=True)
                        jobs = None
                        if folder:
                            winner, nodes, seconds, method, used, stopped, jobs = solve_split(
                                args.engine, position, width, height, args, folder, table_file)
                        else:
                            winner, nodes, seconds, method, used, stopped = solve(
                                args.engine, position, width, height, args, table_file)
                        record = {"height": height, "width": width, "setup": setup, "side": side,
                                  "fen": position, "winner": winner, "nodes": nodes,
                                  "seconds": seconds, "limit": args.time,
                                  "threads": used, "method": method, "command": command,
                                  "build": engine_build}
                        if resumed:
                            record["resumed"] = True
                        if folder:
                            record["split"] = shown(folder)
                            record["jobs"] = jobs
                        if stopped:
                            record["stopped"] = True
                        with args.results.open("a") as out:
                            out.write(json.dumps(record) + "\n")
                        print(f"{width}x{height} {setup} {side} to move: "
                              f"{winner or 'not proven'} ({nodes} nodes, {seconds:.1f} s)", flush=True)
                        if stopped:
                            sys.exit("the solve was interrupted (its table saved): run stopped")
                    if record["winner"] is None:
                        break


if __name__ == "__main__":
    main()
