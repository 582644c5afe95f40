#!/usr/bin/env python3
"""Resident memory of the engine as Hash is resized up and down.

    python3 tools/memory.py ./target/release/sandglass [--cycles 10] [--big 1024]

Resizes Hash between 1 MB and --big MB, waits for `readyok` after each change, and reads
VmRSS from /proc/<pid>/status. Prints RSS after each step and the overhead beyond the
table (RSS − Hash), which must stay a small constant; after shrinking, RSS must return.
"""
import argparse
import subprocess
import sys


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("engine")
    p.add_argument("--cycles", type=int, default=10)
    p.add_argument("--big", type=int, default=1024)
    args = p.parse_args()
    eng = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        eng.stdin.write(line + "\n")
        eng.stdin.flush()

    def ready():
        send("isready")
        for line in eng.stdout:
            if line.strip() == "readyok":
                return
        sys.exit("engine died")

    ready()
    rows = [("start (Hash 16)", 16, rss_mb(eng.pid))]
    # A search fills the table and touches the search thread's stack.
    send("go depth 12")
    for line in eng.stdout:
        if line.startswith("bestmove"):
            break
    rows.append(("after go depth 12", 16, rss_mb(eng.pid)))
    for i in range(args.cycles):
        for mb in (args.big, 1):
            send(f"setoption name Hash value {mb}")
            ready()
            rows.append((f"cycle {i + 1}: Hash {mb}", mb, rss_mb(eng.pid)))
    send("quit")
    eng.wait(timeout=5)
    print(f"{'step':<24} {'Hash MB':>8} {'RSS MB':>8} {'RSS-Hash':>9}")
    for name, mb, rss in rows:
        print(f"{name:<24} {mb:>8} {rss:>8.1f} {rss - mb:>9.1f}")
    overhead = max(rss - mb for _, mb, rss in rows)
    print(f"largest RSS beyond the table: {overhead:.1f} MB; exit code {eng.returncode}")


if __name__ == "__main__":
    main()
