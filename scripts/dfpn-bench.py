#!/usr/bin/env python3
"""A benchmark for the proof-number search: 24 narrow solves of up to a few million positions.

One solve's count moves a long way with small changes to the search (one hundredth of
log-odds on one weight of the start moved single solves by -12% to +38%; src/solve/dfpn.rs),
so a change to the search is judged over many solves: this runs each of CASES once on one
thread with the same table, checks its winner against proofs/narrow/results.jsonl (a wrong
answer fails the run), and prints a line of JSON per solve. --compare reads two such runs
and prints, per solve and overall, the ratio of the second's positions and time to the
first's: the geometric means, with the standard error of the mean log ratio, which says how
far the overall ratio can be trusted. A change of no meaning (tempo on an empty board -15 for
-16) gave 0.987 times the positions, one standard error 0.926 to 1.053, single solves from
0.37 to 2.18 times: an overall ratio within about 13% of 1 is noise.

Usage: scripts/dfpn-bench.py [--engine PATH] [--hash 256] > RUN.jsonl
       scripts/dfpn-bench.py --compare BASE.jsonl NEW.jsonl
"""
import argparse
import json
import math
import os
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import narrow  # noqa: E402  (the setups' positions and the way a solve is run)

# (height, width, setup, side to move): narrow solves of 0.1M to 3.5M positions (build 43ddfbb).
CASES = [
    (4, 18, "vm", "b"), (4, 13, "vc", "b"), (3, 15, "hc", "b"), (4, 19, "vm", "w"),
    (4, 18, "vm", "w"), (4, 10, "hm", "w"), (4, 11, "hm", "w"), (4, 10, "hm", "b"),
    (3, 14, "hc", "b"), (4, 19, "vm", "b"), (4, 10, "hc", "b"), (3, 20, "vm", "b"),
    (4, 11, "hc", "b"), (3, 18, "vm", "w"), (4, 21, "vm", "b"), (4, 20, "vm", "w"),
    (4, 21, "vm", "w"), (4, 20, "vm", "b"), (4, 14, "vc", "b"), (4, 12, "vc", "w"),
    (3, 21, "vm", "w"), (4, 13, "vc", "w"), (3, 16, "hc", "b"), (3, 23, "vm", "b"),
]


def name(case):
    height, width, setup, side = case
    return f"{width}x{height} {setup} {side}"


def recorded_winners():
    """The winner of each case the narrow results prove (None where none does)."""
    records = (json.loads(line) for line in narrow.RESULTS.read_text().splitlines())
    return {key: record["winner"] for key, record in narrow.records_by_key(records).items()}


def run(args):
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"{args.engine}: no engine there (build it: cargo build --release --bins)")
    winners = recorded_winners()
    settings = argparse.Namespace(threads=1, time=args.time, hash=args.hash,
                                  method="proof-number")
    for case in CASES:
        height, width, setup, side = case
        position = narrow.fen(setup, width, height, side)
        winner, nodes, seconds, *_ = narrow.solve(args.engine, position, width, height,
                                                 settings)
        if winner is None:
            sys.exit(f"{name(case)}: not proven in {args.time} s")
        recorded = winners.get(case)
        if recorded is None:
            sys.exit(f"{name(case)}: the narrow results prove no winner to check against")
        if winner != recorded:
            sys.exit(f"{name(case)}: {winner} wins, where the results say {recorded}")
        print(json.dumps({"case": name(case), "nodes": nodes, "seconds": seconds}), flush=True)


def read_run(path):
    try:
        lines = pathlib.Path(path).read_text().splitlines()
        return {record["case"]: record for record in map(json.loads, lines)}
    except (OSError, ValueError, KeyError) as error:
        sys.exit(f"{path}: not a run of this benchmark ({error})")


def compare(base_path, new_path):
    base, new = read_run(base_path), read_run(new_path)
    shared = [case for case in base if case in new]
    if len(shared) < 2:
        sys.exit("the two runs share fewer than two solves")
    print(f"{'solve':14} {'base nodes':>12} {'new nodes':>12} {'nodes':>7} {'time':>7}")
    logs = {"nodes": [], "seconds": []}
    for case in shared:
        ratios = {key: max(new[case][key], 1e-3) / max(base[case][key], 1e-3) for key in logs}
        for key, ratio in ratios.items():
            logs[key].append(math.log(ratio))
        print(f"{case:14} {base[case]['nodes']:>12,} {new[case]['nodes']:>12,} "
              f"{ratios['nodes']:>7.3f} {ratios['seconds']:>7.3f}")
    for key, label in [("nodes", "positions"), ("seconds", "time")]:
        mean = statistics.mean(logs[key])
        error = statistics.stdev(logs[key]) / math.sqrt(len(logs[key]))
        print(f"{label}: {math.exp(mean):.3f} times the base's (geometric mean of {len(shared)}; "
              f"one standard error {math.exp(mean - error):.3f} to {math.exp(mean + error):.3f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine",
                        default=str(narrow.ROOT / "target" / "release" / "konane-engine"))
    parser.add_argument("--hash", type=int, default=256, help="MB of proof table")
    parser.add_argument("--time", type=float, default=600, help="seconds a solve may take")
    parser.add_argument("--compare", nargs=2, metavar=("BASE", "NEW"))
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    else:
        run(args)


if __name__ == "__main__":
    main()
