#!/usr/bin/env python3
"""Measures how fast konane-engine answers `stop`: the time from sending `stop` to reading
`bestmove`, over several searches; prints each and the median.

Usage: scripts/stop-latency.py [ENGINE] [RUNS]   (default ./target/release/konane-engine, 9)
"""
import statistics
import sys
import time

from engine_pipe import Engine

engine = sys.argv[1] if len(sys.argv) > 1 else "./target/release/konane-engine"
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 9
engine_process = Engine(engine)
send, read_until = engine_process.send, engine_process.read_until

send("isready")
read_until("readyok")
latencies = []
for run in range(runs):
    send("position startpos moves d5 c5")
    send("go infinite")
    time.sleep(0.5 + 0.1 * run)
    sent = time.perf_counter()
    send("stop")
    read_until("bestmove")
    latencies.append((time.perf_counter() - sent) * 1000)
engine_process.quit()
print("stop latency ms:", " ".join(f"{ms:.2f}" for ms in latencies))
print(f"median {statistics.median(latencies):.2f} ms")
