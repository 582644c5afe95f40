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
    tools/gauntlet.py --report DIR [DIR ...]

`--report` prints the table again from the games already in one or more `--out` folders, so
that runs split by thread count or by games per control make one table, ordered by control
with a subtotal for each.

Opponents are found on PATH or in /usr/games (Debian's packages glaurung, stockfish,
ethereal-chess, toga2, …); fastchess by --fastchess, $FASTCHESS or PATH. A missing one is
named before anything is played. Each match holds the machine's match lock (--lock) and plays
at most two games at a time. Everything is written under --out (default
target/gauntlet/<date-time>/): the binary's copy (so rebuilding during a long run does not
change the player), and per match fastchess's PGN and output.
"""
import argparse
import json
import os
import re
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


def clock_columns(controls):
    """Whether the lowest clock, and the lowest before a refill, apply to any of these controls
    (as the tools write them): no clock is kept at fixed nodes, and only a repeating control
    such as 40/2 is refilled. A control that cannot be read is given both."""
    parsed = [fastchess_pgn.TimeControl.parse(tc) for tc in controls]
    return (any(tc is None or not tc.nodes for tc in parsed),
            any(tc is None or tc.moves > 0 for tc in parsed))


def table(rows):
    """The Markdown table of rows (control, threads, opponent, figures or None when the match
    failed), in the given order, with a subtotal after each control's last row when a control
    has several; and whether every count is 0. A clock figure that does not apply to the
    control is "—", one that applies but was never read "n/a"."""
    lines = ["| control | threads | opponent | games | score | time forfeits | illegal moves | crashes | stalls | "
             "lowest clock left | lowest before refill |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    everything = total_line("all", rows)
    for i, (tc, threads, opp, f) in enumerate(rows):
        if f is None:
            lines.append(f"| {tc} | {threads} | {opp} | match failed | | | | | | | |")
        else:
            inc = f["incidents"]
            clock, refill = clock_columns([tc])
            lines.append(f"| {tc} | {threads} | {opp} | {f['games']} | {fastchess_pgn.fmt_pct(f['score'])} | "
                         f"{inc['time forfeit']} | {inc['illegal move']} | {inc['crash']} | {inc['stall']} | "
                         f"{fastchess_pgn.fmt_ms(f['lowest_ms'], clock)} | "
                         f"{fastchess_pgn.fmt_ms(f['before_refill_lowest_ms'], refill)} |")
        same = [r for r in rows if r[0] == tc]
        if len(same) > 1 and (i + 1 == len(rows) or rows[i + 1][0] != tc):
            lines.append(total_line(f"**{tc}**", same)[0])
    lines.append(everything[0])
    return "\n".join(lines), everything[1]


def total_line(label, rows):
    """A subtotal row over rows: games, incidents, and the lowest clocks; and whether every
    match played and every count is 0."""
    played = [f for _, _, _, f in rows if f is not None]
    total = dict.fromkeys(fastchess_pgn.INCIDENTS, 0)
    for f in played:
        for k in total:
            total[k] += f["incidents"][k]
    low = [f["lowest_ms"] for f in played if f["lowest_ms"] is not None]
    refill = [f["before_refill_lowest_ms"] for f in played if f["before_refill_lowest_ms"] is not None]
    clock, refills = clock_columns([tc for tc, _, _, _ in rows])
    line = (f"| {label} | | | {sum(f['games'] for f in played)} | | {total['time forfeit']} | "
            f"{total['illegal move']} | {total['crash']} | {total['stall']} | "
            f"{fastchess_pgn.fmt_ms(min(low) if low else None, clock)} | "
            f"{fastchess_pgn.fmt_ms(min(refill) if refill else None, refills)} |")
    return line, len(played) == len(rows) and all(v == 0 for v in total.values())


def threads_of(options):
    """Sandglass's Threads in a list of NAME=VALUE options (1 when not set)."""
    for o in options:
        name, _, value = o.partition("=")
        if name.strip().lower() == "threads":
            return value.strip()
    return "1"


def report(folders):
    """Rows for every match PGN in the folders: the control from the games' TimeControl tag,
    the opponent from the players' names, Sandglass's Threads from fastchess's config.json
    (which gauntlet runs write beside the games); sorted by control, threads, opponent."""
    rows = []
    for folder in folders:
        options = []
        try:
            with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
                options = [f"{k}={v}" for k, v in json.load(f)["engines"][0]["options"]]
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            pass
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".pgn"):
                continue
            games = fastchess_pgn.read_games(os.path.join(folder, name))
            if not games:
                continue
            names = {g.white for g in games} | {g.black for g in games}
            others = sorted(names - {"sandglass", "sandglass-2"})
            opp = others[0] if others else None
            tc = control_label(games[0].headers.get("TimeControl", "?"), name)
            rows.append((tc, threads_of(options), opp or "self", sandglass_figures(games, "sandglass", opp)))
    return sorted(rows, key=lambda r: (control_order(r[0]), r[1], r[2]))


def file_tag(label, opp):
    """The name a match's files are given: its control (as `label` writes it) and opponent."""
    return f"{label.replace('/', 'per').replace('=', '')}-{opp}"


def control_label(tag, file_name):
    """The control of a match PGN as the live table named it: from the TimeControl tag, which
    fastchess writes as S/move for st=S and "-" at fixed nodes; the node count, which no tag
    holds, is read from the file's name (`file_tag`). A tag that cannot be read is kept."""
    tc = fastchess_pgn.TimeControl.parse(tag)
    if tc is None and tag.strip() == "-":
        m = re.match(r"nodes(\d+)-", file_name)
        tc = fastchess_pgn.TimeControl.parse(f"nodes={m.group(1)}") if m else None
    return tc.label() if tc else tag


def control_order(text):
    """Shorter controls first: by the time a side is given for 40 moves."""
    tc = fastchess_pgn.TimeControl.parse(text)
    return tc.given_by(40) if tc else float("inf")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("engine", nargs="?")
    p.add_argument("--report", nargs="+", metavar="DIR", help="print the table of these --out folders' games")
    p.add_argument("--games", type=int, default=100, help="games per control and opponent (even: pairs)")
    p.add_argument("--opponents", default="self,glaurung")
    p.add_argument("--controls", default="1+0.01,2+0,40/2,st=0.05,10+0.1")
    p.add_argument("--out", help="folder for the games (default target/gauntlet/<date-time>/)")
    p.add_argument("--option", action="append", default=[], help="UCI option for Sandglass, NAME=VALUE")
    fastchess_run.add_arguments(p)
    args = p.parse_args()
    if args.report:
        text, clean = table(report(args.report))
        print(text)
        return 0 if clean else 1
    if not args.engine:
        p.error("the engine to play, or --report DIR")

    controls = [(text, fastchess_pgn.TimeControl.parse(text)) for text in args.controls.split(",")]
    bad = [text for text, tc in controls if tc is None]
    if bad or args.games < 2 or args.games % 2:
        p.error(f"controls {bad} not understood" if bad else "--games: an even number, at least 2")
    opponents = args.opponents.split(",")
    fastchess, paths = fastchess_run.require("gauntlet.py", args.fastchess,
                                             [args.engine] + [o for o in opponents if o != "self"])
    found = dict(zip([o for o in opponents if o != "self"], paths[1:]))
    # A missing network file stops the run before its folder is made.
    options = [fastchess_run.file_option(o) for o in args.option]
    out = os.path.abspath(args.out or os.path.join(fastchess_run.REPO, "target", "gauntlet",
                                                   time.strftime("%Y%m%d-%H%M%S")))
    os.makedirs(out, exist_ok=True)
    player = os.path.join(out, "sandglass")
    shutil.copy2(paths[0], player)
    book = os.path.abspath(args.book)

    me = fastchess_run.Engine("sandglass", player, options)
    others = {opp: (fastchess_run.Engine("sandglass-2", player, options) if opp == "self"
                    else fastchess_run.Engine(opp, found[opp])) for opp in opponents}
    fastchess_run.check_engines("gauntlet.py", [me] + [e for opp, e in others.items() if opp != "self"])
    rows = []
    threads = threads_of(args.option)
    for _, tc in controls:
        text = tc.label()
        for opp in opponents:
            tag = file_tag(text, opp)
            pgn = os.path.join(out, tag + ".pgn")
            cmd = fastchess_run.command(fastchess, [me, others[opp]], tc, args.games // 2, book, args.concurrency, pgn,
                                        log=os.path.join(out, tag + ".log"))
            print("+", shlex.join(cmd), flush=True)
            with fastchess_run.locked(args.lock):
                code, _ = fastchess_run.play(cmd, out, os.path.join(out, tag + ".out"))
            if code != 0 or not os.path.exists(pgn):
                print(f"  {text} vs {opp}: fastchess exited with {code}; see {tag}.out", flush=True)
                rows.append((text, threads, opp, None))
                continue
            f = sandglass_figures(fastchess_pgn.read_games(pgn), "sandglass", None if opp == "self" else opp)
            rows.append((text, threads, opp, f))
            print(f"  {text} vs {opp}: {f['games']} games, score {fastchess_pgn.fmt_pct(f['score'])}, "
                  f"{f['incidents']}, lowest clock {fastchess_pgn.fmt_ms(f['lowest_ms'])}", flush=True)

    text, clean = table(rows)
    print()
    print(text)
    print(f"\ngames and fastchess's output: {out}")
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
