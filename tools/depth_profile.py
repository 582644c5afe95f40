#!/usr/bin/env python3
"""Depth, speed and branching factor of a UCI engine on a set of positions (standard library).

Usage: python3 tools/depth_profile.py ENGINE EPD [--count 20] [--nodes 500000] [--depth 16]
                                      [--chess960] [--hash 16] [--seed 107]

Takes --count positions of the EPD file drawn at random with --seed (in file order; a
stride would not do for data/books/chess960.epd, whose Scharnagl order puts both bishops in
the corner on every sixteenth line) and, with
the engine's tables cleared (`ucinewgame`) before each search, runs:
1. `go nodes N`: the depth it reaches and its nodes a second;
2. `go depth D`: the nodes and time it needs, the score, and the effective branching
   factor, (nodes to depth D / nodes to depth D-4) ** (1/4), from the info lines.
Prints one tab-separated row a position, then the medians. --chess960 sets UCI_Chess960
(Shredder-FEN castling, as in data/books/chess960.epd). Threads is 1.

This is a measurement, not a test: run it at low priority (`nice -n 19`) beside other work.
"""

import argparse
import random
import statistics
import subprocess
import sys


class Engine:
    def __init__(self, path, chess960, hash_mb):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        lines = []
        for line in self.proc.stdout:
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines
        sys.exit(f"error: the engine closed its output before '{prefix}'")

    def search(self, fen, go):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait_for("readyok")
        self.send(go)
        return [parse_info(line) for line in self.wait_for("bestmove")]

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def parse_info(line):
    """The numeric fields and the score (in centipawns, mates as +-100000) of an info line."""
    tokens = line.split()
    if not tokens or tokens[0] != "info" or "depth" not in tokens or "nodes" not in tokens:
        return None
    info = {}
    for key in ("depth", "nodes", "nps", "time"):
        if key in tokens:
            info[key] = int(tokens[tokens.index(key) + 1])
    if "score" in tokens:
        kind, value = tokens[tokens.index("score") + 1 : tokens.index("score") + 3]
        info["score"] = int(value) if kind == "cp" else (100000 if int(value) > 0 else -100000)
    info["bound"] = "lowerbound" in tokens or "upperbound" in tokens
    return info


def last_by_depth(infos):
    """The last exact-score info line of each depth, by depth."""
    out = {}
    for info in infos:
        if info and "score" in info and not info["bound"]:
            out[info["depth"]] = info
    return out


def fens(path, count, seed):
    with open(path, encoding="utf-8") as f:
        lines = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
    if count >= len(lines):
        return lines
    return [lines[i] for i in sorted(random.Random(seed).sample(range(len(lines)), count))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine")
    ap.add_argument("epd")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--nodes", type=int, default=500000)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--chess960", action="store_true")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--seed", type=int, default=107)
    args = ap.parse_args()
    if args.depth < 5:
        sys.exit("error: --depth must be at least 5 (the branching factor spans four plies)")
    try:
        positions = fens(args.epd, args.count, args.seed)
    except OSError as e:
        sys.exit(f"error: cannot read {args.epd}: {e}")
    engine = Engine(args.engine, args.chess960, args.hash)
    rows = []
    print("depth@nodes\tknps\tnodes@depth\tms@depth\tebf\tscore@depth\tfen")
    for fen in positions:
        by_nodes = last_by_depth(engine.search(fen, f"go nodes {args.nodes}"))
        by_depth = last_by_depth(engine.search(fen, f"go depth {args.depth}"))
        top = by_nodes[max(by_nodes)]
        end = by_depth.get(args.depth)
        start = by_depth.get(args.depth - 4)
        if end is None or start is None:
            print(f"# no complete depth {args.depth} for {fen}", file=sys.stderr)
            continue
        row = {
            "depth": max(by_nodes),
            "knps": top["nps"] / 1000,
            "nodes": end["nodes"],
            "ms": end["time"],
            "ebf": (end["nodes"] / start["nodes"]) ** 0.25,
            "score": end["score"],
        }
        rows.append(row)
        print(
            f"{row['depth']}\t{row['knps']:.0f}\t{row['nodes']}\t{row['ms']}\t"
            f"{row['ebf']:.2f}\t{row['score']}\t{fen}",
            flush=True,
        )
    engine.quit()
    if not rows:
        sys.exit("error: no position reached the depth")
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    abs_score = statistics.median(abs(r["score"]) for r in rows)
    print(
        f"median of {len(rows)}: depth@{args.nodes} {med['depth']}, {med['knps']:.0f} knps, "
        f"{med['nodes']:.0f} nodes and {med['ms']:.0f} ms to depth {args.depth}, "
        f"EBF {med['ebf']:.2f}, |score| {abs_score:.0f} cp"
    )


if __name__ == "__main__":
    main()
