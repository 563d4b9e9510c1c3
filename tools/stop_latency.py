#!/usr/bin/env python3
"""Measures how quickly the engine stops: the time from `stop` to `bestmove`
during `go infinite`, and how far `go movetime T` overshoots T.

Usage: tools/stop_latency.py [ENGINE COMMAND...]
(default: ./target/release/epaminondas engine). Prints the median and the
worst case of each over a number of positions along a game.
"""
import statistics
import subprocess
import sys
import time

command = sys.argv[1:] or ["./target/release/epaminondas", "engine"]
engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def wait_for(prefix):
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("the engine quit")
        if line.startswith(prefix):
            return line.strip()


send("ugi")
wait_for("ugiok")
moves = []
stop_ms, overshoot_ms = [], []
for trial in range(20):
    send("position startpos moves " + " ".join(moves) if moves else "position startpos")
    send("isready")
    wait_for("readyok")
    # Stop during an infinite search.
    send("go infinite")
    time.sleep(0.3)
    sent = time.monotonic()
    send("stop")
    best = wait_for("bestmove")
    stop_ms.append((time.monotonic() - sent) * 1000)
    # A fixed time per move.
    movetime = 100
    sent = time.monotonic()
    send(f"go movetime {movetime}")
    wait_for("bestmove")
    overshoot_ms.append((time.monotonic() - sent) * 1000 - movetime)
    move = best.split()[1]
    if move == "none":
        break
    moves.append(move)

send("quit")
print(f"stop -> bestmove: median {statistics.median(stop_ms):.1f} ms, worst {max(stop_ms):.1f} ms ({len(stop_ms)} searches)")
print(f"movetime 100 overshoot: median {statistics.median(overshoot_ms):.1f} ms, worst {max(overshoot_ms):.1f} ms")
