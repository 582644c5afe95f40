#!/usr/bin/env python3
"""Reliability gauntlet: many fast games at awkward controls, counting what testers fear.

Plays Sandglass against itself and against Debian engines through ../shared/tools/match.py at
each control, and prints one table row per (control, opponent): games, score, and Sandglass's
time forfeits, illegal moves, crashes and stalls, plus the lowest clock it was ever left with
(both sides in self-play).
Every count must be 0 with the default Move Overhead.

    python3 tools/gauntlet.py ./target/release/sandglass --games 100 [--opponents self,glaurung]
        [--controls 1+0.01,2+0,40/2,st=0.05,10+0.1] [--concurrency 2] [--out gauntlet/]

The binary is copied first, so rebuilding during a long run does not change the player.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "tools", "match.py"))
BOOK = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data", "books", "noob_3moves.epd"))
INCIDENTS = ("time forfeit", "illegal move", "crash", "stall")


def incidents_of_sandglass(summary, self_play):
    """Sum Sandglass's incidents: engine A only, or both sides in self-play."""
    by_engine = summary.get("losses_by_incident", {})
    names = list(by_engine)
    chosen = names if self_play else names[:1]
    totals = {k: 0 for k in INCIDENTS}
    for name in chosen:
        for k in INCIDENTS:
            totals[k] += by_engine[name].get(k, 0)
    return totals


CLOCK_COMMENT = re.compile(r"(-?\d+)ms\s+(-?\d+)ms")


def lowest_clock_in_pgn(path, self_play):
    """Lowest clock (ms) Sandglass was left with after any of its moves, read from the runner's
    move comments ("<used>ms <left>ms"): engine A's moves, or both sides' in self-play. The
    runner's JSON has engine A's only."""
    import chess.pgn  # the runner needs python-chess anyway
    low = None
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError:
        return None
    with f:
        while (game := chess.pgn.read_game(f)) is not None:
            a_is_white = game.headers.get("White", "").endswith("(A)")
            for node in game.mainline():
                m = CLOCK_COMMENT.search(node.comment or "")
                if not m:
                    continue
                white_moved = not node.board().turn
                if self_play or white_moved == a_is_white:
                    left = int(m.group(2))
                    low = left if low is None else min(low, left)
    return low


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("engine")
    p.add_argument("--games", type=int, default=100, help="games per control and opponent")
    p.add_argument("--opponents", default="self,glaurung")
    p.add_argument("--controls", default="1+0.01,2+0,40/2,st=0.05,10+0.1")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--out", default="gauntlet")
    p.add_argument("--option", action="append", default=[], help="UCI option for Sandglass, NAME=VALUE")
    args = p.parse_args()

    os.makedirs(args.out, exist_ok=True)
    player = os.path.join(tempfile.mkdtemp(prefix="gauntlet-"), "sandglass")
    shutil.copy2(args.engine, player)
    rows = []
    for tc in args.controls.split(","):
        for opp in args.opponents.split(","):
            self_play = opp == "self"
            tag = f"{tc.replace('/', 'per').replace('=', '')}-{opp}"
            cmd = [sys.executable, MATCH, player, player if self_play else opp,
                   "--games", str(args.games), "--tc", tc, "--concurrency", str(args.concurrency),
                   "--book", BOOK, "--pgn", os.path.join(args.out, tag + ".pgn"),
                   "--json", os.path.join(args.out, tag + ".json")]
            for o in args.option:
                cmd += ["--option-a", o] + (["--option-b", o] if self_play else [])
            print("+", " ".join(cmd), flush=True)
            done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            with open(os.path.join(args.out, tag + ".log"), "w") as f:
                f.write(done.stdout)
            try:
                with open(os.path.join(args.out, tag + ".json")) as f:
                    s = json.load(f)
            except (OSError, ValueError):
                print(done.stdout[-2000:])
                rows.append((tc, opp, 0, None, None, None))
                continue
            inc = incidents_of_sandglass(s, self_play)
            low = lowest_clock_in_pgn(os.path.join(args.out, tag + ".pgn"), self_play)
            if low is None:
                low = (s.get("a_time_ms") or {}).get("min_clock_left")
            rows.append((tc, opp, s.get("games", 0), s.get("score"), inc, low))
            print(f"  {tc} vs {opp}: {s.get('games')} games, score {s.get('score')}, {inc}, min clock {low}",
                  flush=True)

    print()
    print("| control | opponent | games | score | time forfeits | illegal moves | crashes | stalls | lowest clock left |")
    print("|---|---|---|---|---|---|---|---|---|")
    total = {k: 0 for k in INCIDENTS}
    games = 0
    for tc, opp, n, score, inc, low in rows:
        if inc is None:
            print(f"| {tc} | {opp} | match failed | | | | | | |")
            continue
        games += n
        for k in INCIDENTS:
            total[k] += inc[k]
        sc = "n/a" if score is None else f"{100 * score:.1f}%"
        lowtxt = "n/a" if low is None else f"{low:.0f} ms"
        print(f"| {tc} | {opp} | {n} | {sc} | {inc['time forfeit']} | {inc['illegal move']} | "
              f"{inc['crash']} | {inc['stall']} | {lowtxt} |")
    print(f"| all | | {games} | | {total['time forfeit']} | {total['illegal move']} | {total['crash']} | "
          f"{total['stall']} | |")
    return 0 if all(v == 0 for v in total.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
