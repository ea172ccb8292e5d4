#!/usr/bin/env python3
"""Measures how fast konane-engine answers `stop`: the time from sending `stop` to reading
`bestmove`, over several searches; prints each and the median.

Usage: scripts/stop-latency.py [ENGINE] [RUNS]   (default ./target/release/konane-engine, 9)
"""
import statistics
import subprocess
import sys
import time

engine = sys.argv[1] if len(sys.argv) > 1 else "./target/release/konane-engine"
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 9
process = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    process.stdin.write(line + "\n")
    process.stdin.flush()


def read_until(prefix):
    while True:
        line = process.stdout.readline()
        if not line:
            sys.exit("the engine closed its output")
        if line.startswith(prefix):
            return line


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
send("quit")
process.wait(timeout=10)
print("stop latency ms:", " ".join(f"{ms:.2f}" for ms in latencies))
print(f"median {statistics.median(latencies):.2f} ms")
