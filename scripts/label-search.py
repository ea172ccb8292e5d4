#!/usr/bin/env python3
"""Adds a search's score to each game-result line of an evaluation data set.

Usage: scripts/label-search.py [--engine PATH] [--nodes N] [--parts K] [--best] SRC > DST

Every `w`/`l` line of SRC (`<label> <position string>`, see `cargo run --example eval_data`)
is searched by the engine with `go nodes N` and written as `<label> <position string>
<score>`, the score in hundredths of log-odds for the side to move (a forced win or loss as
+3000 or -3000), and with --best the search's best move after it (`<label> <position string>
<score> <move>`: what the network's move-choice training learns from); proven lines (`W`/`L`), blank lines and comments are copied as they are, in
the same order. K engines (one per core by default) each take every K-th line, each with its
own table carried from line to line, so the same SRC, N, K and engine build give the same
scores: the search has no clock under `go nodes`. `konane::search::tune` fits the evaluation
to the mean of the game's result and the score's win probability.
"""
import argparse
import os
import sys
import threading

from engine_pipe import Engine


def score_of(info):
    """The score of an `info ... score cp N` or `score mate N` line, or None."""
    words = info.split()
    if "score" not in words:
        return None
    at = words.index("score")
    kind, value = words[at + 1], int(words[at + 2])
    if kind == "cp":
        return value
    return 3000 if value > 0 else -3000


def label_part(engine, nodes, lines, part, parts, scores, best):
    """Searches every parts-th unproven line from `part` on, storing scores by line index."""
    engine = Engine(engine)
    engine.send("uci")
    engine.send("setoption name Opening value any")
    engine.send("isready")
    engine.read_until("readyok")
    for index in range(part, len(lines), parts):
        label, _, position = lines[index].partition(" ")
        if label not in ("w", "l"):
            continue
        engine.send("position fen " + position)
        engine.send("go nodes %d" % nodes)
        said = engine.read_lines_until("bestmove")
        found = [score_of(line) for line in said]
        found = [score for score in found if score is not None]
        if not found:
            raise RuntimeError("line %d: the engine gave no score" % (index + 1))
        scores[index] = "%d" % found[-1]
        if best:
            scores[index] += " " + said[-1].split()[1]
    engine.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src")
    parser.add_argument("--engine", default="target/release/konane-engine")
    parser.add_argument("--nodes", type=int, default=150000)
    parser.add_argument("--parts", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--best", action="store_true", help="write the best move too")
    args = parser.parse_args()
    with open(args.src) as source:
        lines = [line.rstrip("\n") for line in source]
    scores = {}
    errors = []

    def run(part):
        try:
            label_part(args.engine, args.nodes, lines, part, args.parts, scores, args.best)
        except (Exception, SystemExit) as error:  # reported below, once every part has stopped
            errors.append(str(error))

    workers = [threading.Thread(target=run, args=(part,)) for part in range(args.parts)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        sys.exit("label-search: " + "; ".join(errors))
    for index, line in enumerate(lines):
        print(line if index not in scores else "%s %s" % (line, scores[index]))


if __name__ == "__main__":
    main()
