#!/usr/bin/env python3
"""Reliability gauntlet: many fast games at awkward controls, counting what testers fear.

Plays Sandglass against itself and against Debian engines with fastchess at each control, and
prints one table row per (control, opponent): games, Sandglass's score, and its time
forfeits, illegal moves, crashes and stalls (as fastchess's `[Termination]` tags and reasons
record them, tools/fastchess_pgn.py), plus the lowest clock it was ever left with and, at a
repeating control such as 40/2, the lowest clock before a refill (both sides in self-play).
Every count must be 0 with the default Move Overhead.

    tools/gauntlet.py target/release/sandglass --games 100 [--opponents self,glaurung]
        [--controls 1+0.01,2+0,40/2,st=0.05,10+0.1] [--out DIR] [--fastchess PATH]

Opponents are found on PATH or in /usr/games (Debian's packages glaurung, stockfish,
ethereal-chess, toga2, …); fastchess by --fastchess, $FASTCHESS or PATH. A missing one is
named before anything is played. Each match holds the machine's match lock (--lock) and plays
at most two games at a time. Everything is written under --out (default
target/gauntlet/<date-time>/): the binary's copy (so rebuilding during a long run does not
change the player), and per match fastchess's PGN and output.
"""
import argparse
import os
import shlex
import shutil
import sys
import time

import fastchess_pgn
import fastchess_run


def sandglass_figures(games, player, opponent):
    """Sandglass's games, score, incidents and lowest clocks against one opponent; in
    self-play (opponent None) both sides are Sandglass."""
    names = [player] if opponent else [player, player + "-2"]
    t = fastchess_pgn.tally(games, player, opponent=opponent or names[1])
    incidents = dict.fromkeys(fastchess_pgn.INCIDENTS, 0)
    for name in names:
        for kind, n in t["incidents"].get(name, {}).items():
            incidents[kind] += n
    clocks = fastchess_pgn.clock_figures(games, names).values()
    low = [c["lowest_ms"] for c in clocks if c["lowest_ms"] is not None]
    refill = [c["before_refill_lowest_ms"] for c in clocks if c["before_refill_lowest_ms"] is not None]
    score = (t["wins"] + t["draws"] / 2) / t["games"] if t["games"] else None
    return {"games": t["games"], "score": score, "incidents": incidents,
            "lowest_ms": min(low) if low else None, "before_refill_lowest_ms": min(refill) if refill else None}


def table(rows):
    """The Markdown table, and whether every count is 0."""
    lines = ["| control | opponent | games | score | time forfeits | illegal moves | crashes | stalls | "
             "lowest clock left | lowest before refill |", "|---|---|---|---|---|---|---|---|---|---|"]
    total, games = dict.fromkeys(fastchess_pgn.INCIDENTS, 0), 0
    for tc, opp, f in rows:
        if f is None:
            lines.append(f"| {tc} | {opp} | match failed | | | | | | | |")
            continue
        games += f["games"]
        for k in total:
            total[k] += f["incidents"][k]
        inc = f["incidents"]
        lines.append(f"| {tc} | {opp} | {f['games']} | {fastchess_pgn.fmt_pct(f['score'])} | {inc['time forfeit']} | "
                     f"{inc['illegal move']} | {inc['crash']} | {inc['stall']} | "
                     f"{fastchess_pgn.fmt_ms(f['lowest_ms'])} | {fastchess_pgn.fmt_ms(f['before_refill_lowest_ms'])} |")
    lines.append(f"| all | | {games} | | {total['time forfeit']} | {total['illegal move']} | {total['crash']} | "
                 f"{total['stall']} | | |")
    return "\n".join(lines), all(v == 0 for v in total.values()) and all(f for _, _, f in rows)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("engine")
    p.add_argument("--games", type=int, default=100, help="games per control and opponent (even: pairs)")
    p.add_argument("--opponents", default="self,glaurung")
    p.add_argument("--controls", default="1+0.01,2+0,40/2,st=0.05,10+0.1")
    p.add_argument("--out", help="folder for the games (default target/gauntlet/<date-time>/)")
    p.add_argument("--option", action="append", default=[], help="UCI option for Sandglass, NAME=VALUE")
    fastchess_run.add_arguments(p)
    args = p.parse_args()

    controls = [(text, fastchess_pgn.TimeControl.parse(text)) for text in args.controls.split(",")]
    bad = [text for text, tc in controls if tc is None]
    if bad or args.games < 2 or args.games % 2:
        p.error(f"controls {bad} not understood" if bad else "--games: an even number, at least 2")
    opponents = args.opponents.split(",")
    fastchess, paths = fastchess_run.require("gauntlet.py", args.fastchess,
                                             [args.engine] + [o for o in opponents if o != "self"])
    found = dict(zip([o for o in opponents if o != "self"], paths[1:]))
    out = os.path.abspath(args.out or os.path.join(fastchess_run.REPO, "target", "gauntlet",
                                                   time.strftime("%Y%m%d-%H%M%S")))
    os.makedirs(out, exist_ok=True)
    player = os.path.join(out, "sandglass")
    shutil.copy2(paths[0], player)
    book = os.path.abspath(args.book)

    rows = []
    for text, tc in controls:
        for opp in opponents:
            tag = f"{text.replace('/', 'per').replace('=', '')}-{opp}"
            me = fastchess_run.Engine("sandglass", player, args.option)
            other = (fastchess_run.Engine("sandglass-2", player, args.option) if opp == "self"
                     else fastchess_run.Engine(opp, found[opp]))
            pgn = os.path.join(out, tag + ".pgn")
            cmd = fastchess_run.command(fastchess, [me, other], tc, args.games // 2, book, args.concurrency, pgn,
                                        log=os.path.join(out, tag + ".log"))
            print("+", shlex.join(cmd), flush=True)
            with fastchess_run.locked(args.lock):
                code, _ = fastchess_run.play(cmd, out, os.path.join(out, tag + ".out"))
            if code != 0 or not os.path.exists(pgn):
                print(f"  {text} vs {opp}: fastchess exited with {code}; see {tag}.out", flush=True)
                rows.append((text, opp, None))
                continue
            f = sandglass_figures(fastchess_pgn.read_games(pgn), "sandglass", None if opp == "self" else opp)
            rows.append((text, opp, f))
            print(f"  {text} vs {opp}: {f['games']} games, score {fastchess_pgn.fmt_pct(f['score'])}, "
                  f"{f['incidents']}, lowest clock {fastchess_pgn.fmt_ms(f['lowest_ms'])}", flush=True)

    text, clean = table(rows)
    print()
    print(text)
    print(f"\ngames and fastchess's output: {out}")
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
