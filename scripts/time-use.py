#!/usr/bin/env python3
"""Measures how much of a `go movetime N` konane-engine uses: the time from sending `go` to
reading `bestmove`, over positions along one 8x8 game and one 6x6 game; prints for each N the
median and the range of the time taken, as a share of N.

Usage: scripts/time-use.py [ENGINE] [N...]   (default ./target/release/konane-engine, 10 30 100)
"""
import statistics
import sys
import time

from engine_pipe import Engine

engine = sys.argv[1] if len(sys.argv) > 1 else "./target/release/konane-engine"
move_times = [int(n) for n in sys.argv[2:]] or [10, 30, 100]
engine_process = Engine(engine)
send, read_until = engine_process.send, engine_process.read_until

send("uci")
read_until("uciok")
for move_time in move_times:
    shares = []
    for size in (8, 6):
        send(f"setoption name Width value {size}")
        send(f"setoption name Height value {size}")
        send("ucinewgame")
        moves = []
        while True:
            send("position startpos moves " + " ".join(moves))
            send("isready")
            read_until("readyok")
            sent = time.monotonic()
            send(f"go movetime {move_time}")
            best = read_until("bestmove").split()[1]
            shares.append((time.monotonic() - sent) * 1000 / move_time)
            if best == "0000":
                break
            moves.append(best)
    print(
        f"movetime {move_time}: {len(shares)} moves, time taken / movetime: median "
        f"{statistics.median(shares):.2f}, min {min(shares):.2f}, max {max(shares):.2f}"
    )
engine_process.quit()
