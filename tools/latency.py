#!/usr/bin/env python3
"""Measure how promptly a UCI engine reacts, over its pipes (standard library only).

Usage: python3 tools/latency.py ./target/release/sandglass [--quick]
       python3 tools/latency.py ./target/release/sandglass --threads 1,2,8 [--runs 20]

1. stop latency: `go infinite`, wait a random 50-300 ms, `stop`; time from stop to bestmove
   (100 times).
2. movetime overshoot: `go movetime 500`; overshoot = (go to bestmove) - 500 ms (50 times).
3. isready latency during a search: `isready` every 100 ms during `go infinite` (50 times).

With --threads, for each Threads value in the list instead: the stop latency and the
`go movetime 300` overshoot, --runs times each (default 20), on a fresh engine per value.
With more threads than cores this shows whether `bestmove` waits for the helper threads.

Times are taken in this process when a line is written and when it is read, so they include
the pipe and scheduling delays a GUI would see. This is a measurement, not a test.
"""

import queue
import random
import statistics
import subprocess
import sys
import threading
import time

TIMEOUT = 30.0


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def send(self, line):
        at = time.monotonic()
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        return at

    def wait_for(self, predicate):
        """(arrival time, line) of the first line matching predicate."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError("timeout waiting for the engine")
            at, line = self.lines.get(timeout=left)
            if line is None:
                raise RuntimeError("the engine closed its output")
            if predicate(line):
                return at, line

    def sync(self):
        self.send("isready")
        self.wait_for(lambda l: l == "readyok")

    def quit(self):
        try:
            self.send("quit")
        except BrokenPipeError:
            pass
        self.proc.wait(timeout=TIMEOUT)


def is_bestmove(line):
    return line.startswith("bestmove ")


def is_depth_info(line):
    return line.startswith("info depth")


def summary(name, values_ms):
    values = sorted(values_ms)
    p90 = values[int(0.9 * (len(values) - 1))]
    print(
        f"{name}: n={len(values)} median {statistics.median(values):.2f} ms, "
        f"p90 {p90:.2f} ms, max {values[-1]:.2f} ms, min {values[0]:.2f} ms"
    )


def stop_latency(engine, runs, rng):
    times = []
    for _ in range(runs):
        engine.send("position startpos")
        engine.sync()
        engine.send("go infinite")
        time.sleep(rng.uniform(0.050, 0.300))
        sent = engine.send("stop")
        at, _ = engine.wait_for(is_bestmove)
        times.append((at - sent) * 1000)
    summary("stop latency (stop -> bestmove)", times)


def movetime_overshoot(engine, runs, movetime=500):
    overshoots = []
    for _ in range(runs):
        engine.send("position startpos")
        engine.sync()
        sent = engine.send(f"go movetime {movetime}")
        at, _ = engine.wait_for(is_bestmove)
        overshoots.append((at - sent) * 1000 - movetime)
    summary(f"movetime {movetime} overshoot (elapsed - {movetime} ms)", overshoots)


def thread_matrix(path, threads_list, runs, rng):
    """Stop latency and movetime-300 overshoot for each Threads value."""
    for threads in threads_list:
        print(f"--- Threads {threads} ---")
        engine = Engine(path)
        engine.send("uci")
        engine.wait_for(lambda l: l == "uciok")
        engine.send(f"setoption name Threads value {threads}")
        engine.sync()
        stop_latency(engine, runs, rng)
        movetime_overshoot(engine, runs, 300)
        engine.quit()


def option_value(name, default):
    """The value after `--name` on the command line, or `default`."""
    argv = sys.argv[1:]
    if name in argv:
        i = argv.index(name)
        if i + 1 < len(argv):
            return argv[i + 1]
        raise SystemExit(f"{name} needs a value")
    return default


def isready_latency(engine, runs):
    times = []
    engine.send("position startpos")
    engine.sync()
    engine.send("go infinite")
    engine.wait_for(is_depth_info)
    for _ in range(runs):
        time.sleep(0.100)
        sent = engine.send("isready")
        at, _ = engine.wait_for(lambda l: l == "readyok")
        times.append((at - sent) * 1000)
    engine.send("stop")
    engine.wait_for(is_bestmove)
    summary("isready latency during go infinite", times)


def main():
    argv = sys.argv[1:]
    valued = {"--threads", "--runs"}
    args = [
        a
        for i, a in enumerate(argv)
        if not a.startswith("--") and (i == 0 or argv[i - 1] not in valued)
    ]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    quick = "--quick" in sys.argv
    rng = random.Random(20240611)
    threads = option_value("--threads", None)
    if threads is not None:
        try:
            threads_list = [int(t) for t in threads.split(",")]
            runs = int(option_value("--runs", "20"))
        except ValueError:
            print("--threads takes a list like 1,2,8 and --runs a number", file=sys.stderr)
            return 2
        thread_matrix(args[0], threads_list, runs, rng)
        return 0
    engine = Engine(args[0])
    engine.send("uci")
    engine.wait_for(lambda l: l == "uciok")
    start = time.monotonic()
    stop_latency(engine, 20 if quick else 100, rng)
    movetime_overshoot(engine, 10 if quick else 50)
    isready_latency(engine, 10 if quick else 50)
    engine.quit()
    print(f"exit code {engine.proc.returncode}; {time.monotonic() - start:.1f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
