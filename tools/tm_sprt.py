#!/usr/bin/env python3
"""SPRT between two option settings of Sandglass (or two binaries), with the clock figures
the time manager is judged by, as a MEASUREMENTS.md row.

    tools/tm_sprt.py run --name "node fraction on vs off" --tc 5+0.05 --games 400 \\
        --binary-a target/release/sandglass --option-b "TM NodeFraction=false" \\
        --sprt elo0=0,elo1=10 --append MEASUREMENTS.md
    tools/tm_sprt.py analyse --name "…" --tc 5+0.05 --json run.json --pgn run.pgn [--append MEASUREMENTS.md]
    tools/tm_sprt.py pool --sprt elo0=0,elo1=10 run1.json run2.json [--ptnml 3,20,25,9,3]

`run` plays the match with fastchess (tools/fastchess_run.py: --fastchess PATH, else
$FASTCHESS, else fastchess on PATH; book data/books/noob_3moves_5k.epd; game pairs with
colours reversed; at most 2 games at a time), holding an exclusive flock on --lock (default
/tmp/sandglass-match.lock) so that only one match runs on the machine at a time; fastchess
stops early when the SPRT is decided. It writes the PGN, fastchess's output and a JSON summary
under --out-dir (default target/tm_sprt/), then analyses them. The row gives W/D/L, Elo ±
95 %, the SPRT verdict, and for each engine the mean time per move, the share of the time
given by its 60th move that it had used then (games that lasted that long), its lowest clock
and, at a repeating control such as 40/2, the clock it had left before each refill (mean and
lowest), all read from fastchess's clock comments (tools/fastchess_pgn.py). fastchess's
command goes under the row. `--tc nodes=N` plays every move at N nodes with no clock: a screen
of two networks or searches that the other work on the machine cannot disturb (a change of
speed does not show in it, so time-sensitive questions still need a timed control).

`pool` adds up runs of the same question (same engines and options, different seeds, e.g. a
match stopped on one date and continued on a later one with a rebuild of the same commit): it
sums W/D/L and the pentanomial game-pair counts and prints Elo ± 95 % and the SPRT's LLR for
the whole, with the estimator and GSPRT of tools/stats.py (the ones fishtest and fastchess
use), so the pooled figures mean what each run's do. A run whose JSON is gone can be given by
its pentanomial counts (`--ptnml`, as MEASUREMENTS.md records them). While the SPRT is
undecided, `pool` also forecasts its chance to pass and the games it still needs
(tools/sprt_forecast.py explains how); `--simulate RUNS` checks that forecast by continuing the
test RUNS times with the same GSPRT. `pool` is arithmetic only: it needs no runner.
"""

import argparse
import json
import math
import os
import random
import re
import shlex
import statistics
import sys
import time

import fastchess_pgn
import fastchess_run
import sprt_forecast
import stats

OUT_DIR = os.path.join(fastchess_run.REPO, "target", "tm_sprt")


def fmt(v, spec, none="n/a"):
    return none if v is None else format(v, spec)


def row(name, tc, summary, clocks, command):
    """The MEASUREMENTS.md row of a run and fastchess's command under it. The clock figures are
    "—" where the control keeps no clock (nodes=N) or gives no share to measure (st=S), and
    "n/a" where they apply but no game gave one."""
    a, b = summary["engine_a"], summary["engine_b"]
    sprt = summary.get("sprt")
    verdict = f"{sprt['result']} (LLR {sprt['llr']:+.2f})" if sprt else "-"
    refills = any(c.get("refills") for c in clocks.values())
    control = fastchess_pgn.TimeControl.parse(tc)
    clock = control is None or not control.nodes
    share = clock and not (control and control.movetime)
    dash = fastchess_pgn.NOT_APPLICABLE

    def side(n):
        c = clocks.get(n, {})
        v = c.get("share_by_60")
        used = f"{'n/a' if v is None else format(100 * v, '.0f') + '%'} ({c.get('games_to_60', 0)} g)"
        used = used if share else dash
        text = (f"{fastchess_pgn.fmt_ms(c.get('ms_per_move'))}, {used}, "
                f"{fastchess_pgn.fmt_ms(c.get('lowest_ms'), clock)}")
        if refills:
            text += (f", {fmt(c.get('before_refill_mean_ms'), '.0f')}/"
                     f"{fmt(c.get('before_refill_lowest_ms'), '.0f')} ms")
        return text

    line = (f"| {name} | {tc} | {summary['games']} | {summary['wins']}/{summary['draws']}/{summary['losses']} | "
            f"{stats.fmt_elo(summary)} | {verdict} | {side(a)} | {side(b)} |")
    header = ("| question | control | games | W/D/L (A) | Elo ± 95% | SPRT | A: time/move, used by move 60 "
              "(games), lowest clock" + (", before refill mean/lowest" if refills else "") +
              " | B: same |\n|---|---|---|---|---|---|---|---|")
    return header, line + f"\n\n`{command}`\n"


def analyse(args, command):
    with open(args.json, encoding="utf-8") as f:
        summary = json.load(f)
    names = [summary["engine_a"], summary["engine_b"]]
    games = fastchess_pgn.read_games(args.pgn)
    clocks = fastchess_pgn.clock_figures(games, names, fastchess_pgn.TimeControl.parse(args.tc))
    header, text = row(args.name, args.tc, summary, clocks, summary.get("command", command))
    print(header)
    print(text)
    if args.append:
        with open(args.append, "a", encoding="utf-8") as f:
            f.write("\n" + header + "\n" + text)


def summarise(games, names, sprt, fastchess_report, command):
    """The run's figures from its PGN, A's view (as `pool` reads them), checked against
    fastchess's own report."""
    t = fastchess_pgn.tally(games, names[0], opponent=names[1])
    pairs = sum(t["ptnml"])
    complete = pairs > 0 and 2 * pairs == t["games"]
    est = stats.pentanomial(t["ptnml"]) if complete else stats.trinomial(t["wins"], t["draws"], t["losses"])
    llr = sprt.llr(t["ptnml"]) if pairs else 0.0
    summary = {"engine_a": names[0], "engine_b": names[1], "games": t["games"], "wins": t["wins"],
               "draws": t["draws"], "losses": t["losses"], "ptnml": t["ptnml"], "complete_pairs": pairs,
               "elo_model": "pentanomial" if complete else "trinomial", **est,
               "sprt": {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
                        "llr": llr, "result": sprt.verdict(llr)},
               "losses_by_incident": {n: t["incidents"].get(n, dict.fromkeys(fastchess_pgn.INCIDENTS, 0))
                                      for n in names},
               "command": command}
    theirs = {k: fastchess_report.get(k) for k in ("games", "wins", "draws", "losses", "ptnml")}
    ours = {k: summary[k] for k in theirs}
    if fastchess_report and theirs != ours:
        print(f"warning: the PGN gives {ours}, fastchess's report {theirs}", file=sys.stderr)
    return summary


def run(args):
    binaries = [args.binary_a, args.binary_b or args.binary_a]
    fastchess, paths = fastchess_run.require("tm_sprt.py run", args.fastchess, binaries)
    tc = fastchess_pgn.TimeControl.parse(args.tc)
    if tc is None:
        sys.exit(f"--tc {args.tc!r}: expected B+I (10+0.1), M/B (40/2), M/B+I, st=S or nodes=N")
    try:
        sprt = stats.Sprt.parse(args.sprt)
    except ValueError as err:
        sys.exit(str(err))
    if args.games < 2 or args.games % 2:
        sys.exit("--games: an even number (game pairs), at least 2")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    slug = re.sub(r"[^a-z0-9]+", "-", args.name.lower()).strip("-") or "match"
    os.makedirs(args.out_dir, exist_ok=True)
    base = os.path.abspath(os.path.join(args.out_dir, f"{slug}-{stamp}"))
    args.json, args.pgn = base + ".json", base + ".pgn"
    names = [f"{os.path.basename(p)}-{side}" for p, side in zip(paths, "AB")]
    engines = [fastchess_run.Engine(n, p, opts) for n, p, opts in zip(names, paths, (args.option_a, args.option_b))]
    fastchess_run.check_engines("tm_sprt.py run", engines)
    cmd = fastchess_run.command(fastchess, engines, tc, args.games // 2, os.path.abspath(args.book),
                                args.concurrency, args.pgn, sprt=sprt, seed=args.seed, log=base + ".log")
    with fastchess_run.locked(args.lock):
        code, output = fastchess_run.play(cmd, args.out_dir, base + ".out", echo=True)
    games = fastchess_pgn.read_games(args.pgn) if os.path.exists(args.pgn) else []
    if not games:
        sys.exit(f"fastchess failed with exit code {code}; its output is in {base}.out")
    if code != 0:
        # Ctrl-C (a run stopped by hand, or cut at its time budget) makes fastchess exit with
        # 1: the games it finished still count, and `pool` can add them to the next run.
        print(f"warning: fastchess exited with code {code} (interrupted?); summarising the "
              f"{len(games)} games in {args.pgn}", file=sys.stderr)
    summary = summarise(games, names, sprt, fastchess_run.report(output), shlex.join(cmd))
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)
    analyse(args, summary["command"])
    return 1 if code != 0 else 0


def question(summary):
    """What a run asked, from its summary: the two engines' names and options, the control and
    the book, as fastchess's command line gave them (the binaries' paths left out, since parts
    may be played by rebuilds of the same code on other machines), and the SPRT."""
    groups = []
    for token in shlex.split(summary.get("command", ""))[1:]:
        if token.startswith("-") and "=" not in token:
            groups.append([token])
        elif groups and not token.startswith("cmd="):
            groups[-1].append(token)
    setup = tuple(tuple(g) for g in groups if g[0] in ("-engine", "-each", "-openings"))
    sprt = summary.get("sprt", {})
    return (summary.get("engine_a"), summary.get("engine_b"), setup,
            tuple(sprt.get(k) for k in ("elo0", "elo1", "alpha", "beta")))


def pool_sprt(args, runs):
    """The SPRT of the pooled runs: their own, which must be one, or --sprt for --ptnml alone.
    Parts of different questions (other engines, options, control, book or bounds) would add
    up to a figure that answers none of them, so they are refused."""
    asked = {question(r) for r in runs if "from" not in r}
    if len(asked) > 1:
        lines = "\n".join(f"  {name}: {question(r)}" for name, r in zip(args.json, runs))
        sys.exit(f"pool: the runs ask different questions:\n{lines}")
    try:
        given = stats.Sprt.parse(args.sprt) if args.sprt else None
    except ValueError as err:
        sys.exit(str(err))
    if asked:
        bounds = next(iter(asked))[3]
        own = stats.Sprt(*bounds) if None not in bounds else None
        if given and own and given != own:
            sys.exit(f"pool: --sprt {args.sprt} is not the runs' own SPRT {own}")
        if given or own:
            return given or own
    if given is None:
        sys.exit("pool: give --sprt (runs given by --ptnml alone do not say theirs)")
    return given


# What `pool` needs of a run's summary, as `run` writes it (a part written by hand may hold no
# more); fastchess's config.json has "games" too, but never "ptnml".
RUN_KEYS = ("games", "ptnml")


def run_record(data):
    """Is `data`, a JSON file's content, a run's summary? fastchess writes its own config.json
    (its settings, for resuming) into the folder of the runs, so `pool DIR/*.json` is given it
    too; it is told by its content, which is the same under any name."""
    return isinstance(data, dict) and all(k in data for k in RUN_KEYS)


def fastchess_config(data):
    """Does `data` look like fastchess's config.json (its engines and schedule)?"""
    return isinstance(data, dict) and isinstance(data.get("engines"), list) and "rounds" in data


def pool(args):
    runs, paths = [], []
    for path in args.json:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as err:
            sys.exit(f"pool: {path}: {err}")
        if not run_record(data):
            what = "fastchess's settings (config.json)" if fastchess_config(data) else "not a run's summary"
            print(f"pool: skipped {path}: {what}", file=sys.stderr)
            continue
        runs.append(data)
        paths.append(path)
    args.json = paths
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
    sprt = pool_sprt(args, runs)
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
          f"Elo {stats.fmt_elo(est)} ({model}), nElo {stats.signed(est['nelo'])}, "
          f"LOS {100 * est['los']:.1f} %")
    print(f"SPRT [{sprt.elo0:g}, {sprt.elo1:g}] over the {pairs} complete pairs: LLR {llr:+.2f} "
          f"bounds ({lo:.2f}, {hi:.2f}): {verdict}")
    if verdict == "not decided" and paired and math.isfinite(paired["nelo"]):
        outlook = sprt_forecast.forecast(llr, (lo, hi), sprt.elo0, sprt.elo1, paired["nelo"], pairs)
        print(sprt_forecast.describe(outlook))
        if args.simulate:
            simulate(sprt, ptnml, args.simulate, args.seed)


def simulate(sprt, ptnml, runs, seed, cap_pairs=100_000):
    """A check on the forecast: continue the test `runs` times with pairs drawn from the pooled
    frequencies (the estimate taken as the truth), with the same GSPRT looked at after every
    pair, as fastchess looks after every game (the pentanomial changes once a pair), and report
    how often it passed and how many more games it took. Far from the bounds the pairs come in
    batches that cannot reach one: a batch of (distance to the nearer bound) / (twice the most
    one pair moves the LLR) pairs. Looking only every ten pairs instead overstated the games
    by 3 to 5 %."""
    rng = random.Random(seed)
    lo, hi = sprt.bounds()
    passed, extra = 0, []
    for _ in range(runs):
        counts, added = list(ptnml), 0
        while added < cap_pairs:
            llr, step = sprt.llr_step(counts)
            if llr >= hi or llr <= lo:
                passed += llr >= hi
                break
            batch = max(1, int(min(hi - llr, llr - lo) / (2 * step)))
            for cell in rng.choices(range(5), weights=ptnml, k=batch):
                counts[cell] += 1
            added += batch
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
    r.add_argument("--games", type=int, default=400, help="games (an even number: pairs); fewer if the SPRT ends")
    r.add_argument("--sprt", default="elo0=0,elo1=10")
    r.add_argument("--seed", type=int, help="fastchess's -srand (the book order)")
    r.add_argument("--out-dir", default=OUT_DIR, help=f"default {os.path.relpath(OUT_DIR, fastchess_run.REPO)}/")
    fastchess_run.add_arguments(r)
    a = sub.add_parser("analyse", help="analyse a finished match (its --json and --pgn)")
    a.add_argument("--json", required=True)
    a.add_argument("--pgn", required=True)
    for s in (r, a):
        s.add_argument("--name", required=True, help="the question, for the table row")
        s.add_argument("--tc", default="10+0.1")
        s.add_argument("--append", help="append the row to this file (MEASUREMENTS.md)")
    q = sub.add_parser("pool", help="add up several runs of the same question (their --json files), "
                       "and forecast how much longer an undecided SPRT should take")
    q.add_argument("--sprt", help="the SPRT, elo0=…,elo1=…[,alpha=…,beta=…]: the runs' own by "
                   "default (needed with --ptnml alone)")
    q.add_argument("--ptnml", action="append", default=[], metavar="LL,LD,WL+DD,WD,WW",
                   help="a run given by its pentanomial counts instead of its JSON (repeatable)")
    q.add_argument("--simulate", type=positive_int, default=0, metavar="RUNS",
                   help="check the forecast by simulating RUNS continuations of the test "
                   "(CPU-heavy: about a second each on this machine)")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("json", nargs="*")
    args = p.parse_args()
    # Appended only to a file that exists, checked before any game: a path relative to another
    # folder (tools/, say) would otherwise start a new MEASUREMENTS.md there after the match.
    if getattr(args, "append", None) and not os.path.isfile(args.append):
        sys.exit(f"--append {args.append}: no such file")
    if args.what == "pool":
        pool(args)
    elif args.what == "run":
        sys.exit(run(args))
    else:
        if not (os.path.exists(args.json) and os.path.exists(args.pgn)):
            sys.exit("--json and --pgn must both exist")
        analyse(args, shlex.join(sys.argv))


if __name__ == "__main__":
    main()
