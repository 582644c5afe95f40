#!/usr/bin/env python3
"""SPRT between two option settings of Sandglass (or two binaries), with the clock figures
the time manager is judged by, as a MEASUREMENTS.md row.

    tools/tm_sprt.py run --name "node fraction on vs off" --tc 5+0.05 --games 400 \\
        --binary-a /work/bin/sandglass-x --option-b "TM NodeFraction=false" \\
        --sprt elo0=0,elo1=10 --append MEASUREMENTS.md
    tools/tm_sprt.py analyse --name "…" --json run.json --pgn run.pgn [--append MEASUREMENTS.md]
    tools/tm_sprt.py pool --sprt elo0=0,elo1=10 run1.json run2.json [--ptnml 3,20,25,9,3]

`pool` adds up runs of the same question (same engines and options, different seeds, e.g. a
match stopped at the end of one session and continued in the next): it sums W/D/L and the
pentanomial game-pair counts and prints Elo ± 95 % and the SPRT's LLR for the whole, with
match.py's own estimator and GSPRT, so the pooled figures mean what each run's do. A run
whose JSON is gone can be given by its pentanomial counts (`--ptnml`, as MEASUREMENTS.md
records them). While the SPRT is undecided, `pool` also forecasts its chance to pass and the
games it still needs (tools/sprt_forecast.py explains how); `--simulate RUNS` checks that
forecast by continuing the test RUNS times with match.py's own GSPRT.

`run` plays the match with ../shared/tools/match.py (book noob_3moves.epd, concurrency 2),
holding an exclusive lock on --lock (default /work/match.lock) so that only one match runs on
the machine at a time, then analyses it. The row gives W/D/L, Elo ± 95 %, the SPRT verdict,
and for each engine the mean time per move, the share of base + increments it had used by its
60th move (games that lasted that long) and its lowest clock, read from the PGN's move
comments (`… <elapsed>ms <left>ms`). The exact command goes under the row.

Run it with the Python that has python-chess (e.g. /work/venv/bin/python).
"""

import argparse
import fcntl
import json
import math
import os
import random
import re
import shlex
import statistics
import subprocess
import sys
import time

import sprt_forecast
import stats

HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "tools", "match.py"))
BOOK = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data", "books", "noob_3moves.epd"))
CLOCK = re.compile(r"(\d+)ms (-?\d+)ms\s*(,|$)")
MOVE_N = 60


def parse_tc(text):
    """(base ms, increment ms) of a B+I or B control; None for others (no share computed)."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", text.strip())
    if not m:
        return None
    return float(m.group(1)) * 1000, float(m.group(2) or 0) * 1000


def clock_figures(pgn_path, names, tc):
    """Per engine name: mean ms per move, mean share used by its 60th move, lowest clock."""
    try:
        import chess.pgn
    except ImportError:
        sys.exit("python-chess is missing: run this with /work/venv/bin/python")
    per = {n: {"used": [], "share": [], "lowest": None} for n in names}
    with open(pgn_path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            side = {True: game.headers.get("White"), False: game.headers.get("Black")}
            count = {True: 0, False: 0}
            board = game.board()
            for node in game.mainline():
                white = board.turn
                board.push(node.move)
                m = CLOCK.search(node.comment or "")
                name = side[white]
                if not m or name not in per:
                    continue
                used, left = float(m.group(1)), float(m.group(2))
                rec = per[name]
                rec["used"].append(used)
                rec["lowest"] = left if rec["lowest"] is None else min(rec["lowest"], left)
                count[white] += 1
                if tc and count[white] == MOVE_N:
                    total = tc[0] + MOVE_N * tc[1]
                    rec["share"].append((total - left) / total)
    out = {}
    for n, rec in per.items():
        out[n] = {
            "ms_per_move": statistics.fmean(rec["used"]) if rec["used"] else None,
            "share_by_60": statistics.fmean(rec["share"]) if rec["share"] else None,
            "games_to_60": len(rec["share"]),
            "lowest_ms": rec["lowest"],
        }
    return out


def fmt(v, spec, none="n/a"):
    return none if v is None else format(v, spec)


def row(name, tc, summary, clocks, command):
    a, b = summary["engine_a"], summary["engine_b"]
    sprt = summary.get("sprt")
    verdict = f"{sprt['result']} (LLR {sprt['llr']:+.2f})" if sprt else "-"

    def side(n):
        c = clocks.get(n, {})
        return (f"{fmt(c.get('ms_per_move'), '.0f')} ms, "
                f"{fmt(c.get('share_by_60') and 100 * c['share_by_60'], '.0f')}% "
                f"({c.get('games_to_60', 0)} g), {fmt(c.get('lowest_ms'), '.0f')} ms")

    line = (f"| {name} | {tc} | {summary['games']} | {summary['wins']}/{summary['draws']}/{summary['losses']} | "
            f"{fmt(summary.get('elo'), '+.1f')} ± {fmt(summary.get('elo_err95'), '.1f')} | {verdict} | "
            f"{side(a)} | {side(b)} |")
    header = ("| question | control | games | W/D/L (A) | Elo ± 95% | SPRT | A: time/move, used by move 60 "
              "(games), lowest clock | B: same |\n|---|---|---|---|---|---|---|---|")
    return header, line + f"\n\n`{command}`\n"


def analyse(args, command):
    with open(args.json, encoding="utf-8") as f:
        summary = json.load(f)
    names = [summary["engine_a"], summary["engine_b"]]
    clocks = clock_figures(args.pgn, names, parse_tc(args.tc))
    header, text = row(args.name, args.tc, summary, clocks, command)
    print(header)
    print(text)
    if args.append:
        with open(args.append, "a", encoding="utf-8") as f:
            f.write("\n" + header + "\n" + text)


def run(args):
    stamp = time.strftime("%Y%m%d-%H%M%S")
    slug = re.sub(r"[^a-z0-9]+", "-", args.name.lower()).strip("-") or "match"
    base = os.path.join(args.out_dir, f"{slug}-{stamp}")
    args.json, args.pgn = base + ".json", base + ".pgn"
    cmd = [sys.executable, args.match, args.binary_a, args.binary_b or args.binary_a,
           "--games", str(args.games), "--tc", args.tc, "--concurrency", str(args.concurrency),
           "--book", args.book, "--json", args.json, "--pgn", args.pgn]
    if args.sprt:
        cmd += ["--sprt", args.sprt]
    for o in args.option_a:
        cmd += ["--option-a", o]
    for o in args.option_b:
        cmd += ["--option-b", o]
    os.makedirs(args.out_dir, exist_ok=True)
    with open(args.lock, "w") as lock:
        print(f"waiting for {args.lock} …", file=sys.stderr)
        fcntl.flock(lock, fcntl.LOCK_EX)
        code = subprocess.call(cmd)
    if code != 0 or not os.path.exists(args.json):
        sys.exit(f"match.py failed with exit code {code}")
    analyse(args, shlex.join(cmd))


def pool(args):
    try:
        sprt = stats.Sprt.parse(args.sprt)
    except ValueError as err:
        sys.exit(str(err))
    runs = []
    for path in args.json:
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    for text in args.ptnml:
        try:
            counts = [int(x) for x in text.split(",")]
        except ValueError:
            counts = []
        if len(counts) != 5 or min(counts) < 0 or sum(counts) == 0:
            sys.exit(f"--ptnml {text!r}: expected five counts LL,LD,WL+DD,WD,WW, not all 0")
        runs.append({"games": 2 * sum(counts), "ptnml": counts, "from": f"--ptnml {text}"})
    if not runs:
        sys.exit("pool needs --json files or --ptnml counts")
    ptnml = [sum(r.get("ptnml", [0] * 5)[i] for r in runs) for i in range(5)]
    pairs = sum(ptnml)
    games = sum(r["games"] for r in runs)
    keys = ("wins", "draws", "losses")
    wdl = [sum(r[k] for r in runs) for k in keys] if all("wins" in r for r in runs) else None
    # The GSPRT, and so the forecast, counts complete pairs only.
    paired = stats.pentanomial(ptnml) if pairs else None
    if pairs and 2 * pairs == games:
        model, est = "pentanomial", paired
    elif wdl:
        model, est = "trinomial", stats.trinomial(*wdl)
    else:
        sys.exit("pool: a --ptnml run cannot be pooled with runs whose pairs are incomplete")
    llr = sprt.llr(ptnml) if pairs else 0.0
    lo, hi = sprt.bounds()
    verdict = sprt.verdict(llr)
    for name, r in zip(args.json + args.ptnml, runs):
        run_wdl = f"{r['wins']}/{r['draws']}/{r['losses']}, " if "wins" in r else ""
        print(f"{r.get('from', name)}: {r['games']} games, {run_wdl}ptnml {r.get('ptnml')}")
    wdl_text = "W/D/L " + "/".join(map(str, wdl)) + ", " if wdl else ""
    print(f"pooled: {games} games, {wdl_text}ptnml {ptnml}, score {100 * est['score']:.1f} %, "
          f"Elo {est['elo']:+.1f} ± {est['elo_err95']:.1f} ({model}), nElo {est['nelo']:+.1f}, "
          f"LOS {100 * est['los']:.1f} %")
    print(f"SPRT [{sprt.elo0:g}, {sprt.elo1:g}] over the {pairs} complete pairs: LLR {llr:+.2f} "
          f"bounds ({lo:.2f}, {hi:.2f}): {verdict}")
    if verdict == "not decided" and paired and math.isfinite(paired["nelo"]):
        outlook = sprt_forecast.forecast(llr, (lo, hi), sprt.elo0, sprt.elo1, paired["nelo"], pairs)
        print(sprt_forecast.describe(outlook))
        if args.simulate:
            simulate(sprt, ptnml, args.simulate, args.seed)


def simulate(sprt, ptnml, runs, seed, check_every=10, cap_pairs=100_000):
    """A check on the forecast: continue the test `runs` times with pairs drawn from the pooled
    frequencies (the estimate taken as the truth), with the same GSPRT looked at every
    `check_every` pairs, and report how often it passed and how many more games it took."""
    rng = random.Random(seed)
    lo, hi = sprt.bounds()
    passed, extra = 0, []
    for _ in range(runs):
        counts, added = list(ptnml), 0
        while added < cap_pairs:
            for cell in rng.choices(range(5), weights=ptnml, k=check_every):
                counts[cell] += 1
            added += check_every
            llr = sprt.llr(counts)
            if llr >= hi or llr <= lo:
                passed += llr >= hi
                break
        extra.append(2 * added)
    print(f"simulated, {runs} continuations from the pooled frequencies (seed {seed}): passed "
          f"{100 * passed / runs:.0f} %, {statistics.fmean(extra):,.0f} more games on average "
          f"(median {statistics.median(extra):,.0f}; capped at {2 * cap_pairs:,} games)")


def positive_int(text):
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run", help="play the match, then analyse it")
    r.add_argument("--binary-a", required=True)
    r.add_argument("--binary-b", help="default: the same binary as A")
    r.add_argument("--option-a", action="append", default=[], metavar="NAME=VALUE")
    r.add_argument("--option-b", action="append", default=[], metavar="NAME=VALUE")
    r.add_argument("--games", type=int, default=400)
    r.add_argument("--sprt", default="elo0=0,elo1=10")
    r.add_argument("--concurrency", type=int, default=2)
    r.add_argument("--book", default=BOOK, help=f"default {BOOK}")
    r.add_argument("--lock", default="/work/match.lock")
    r.add_argument("--match", default=MATCH, help=f"match.py (default {MATCH})")
    r.add_argument("--out-dir", default="/work/logs")
    a = sub.add_parser("analyse", help="analyse a finished match (its --json and --pgn)")
    a.add_argument("--json", required=True)
    a.add_argument("--pgn", required=True)
    for s in (r, a):
        s.add_argument("--name", required=True, help="the question, for the table row")
        s.add_argument("--tc", default="10+0.1")
        s.add_argument("--append", help="append the row to this file (MEASUREMENTS.md)")
    q = sub.add_parser("pool", help="add up several runs of the same question (their --json files), "
                       "and forecast how much longer an undecided SPRT should take")
    q.add_argument("--sprt", default="elo0=0,elo1=10")
    q.add_argument("--ptnml", action="append", default=[], metavar="LL,LD,WL+DD,WD,WW",
                   help="a run given by its pentanomial counts instead of its JSON (repeatable)")
    q.add_argument("--simulate", type=positive_int, default=0, metavar="RUNS",
                   help="check the forecast by simulating RUNS continuations of the test "
                   "(CPU-heavy: about a second each on this machine)")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("json", nargs="*")
    args = p.parse_args()
    if args.what == "pool":
        pool(args)
    elif args.what == "run":
        run(args)
    else:
        if not (os.path.exists(args.json) and os.path.exists(args.pgn)):
            sys.exit("--json and --pgn must both exist")
        analyse(args, shlex.join(sys.argv))


if __name__ == "__main__":
    main()
