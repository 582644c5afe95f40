#!/usr/bin/env python3
"""The rung table (issue 87): Sandglass against the engines above it on the rating list, on
two books and in Chess960, played in small parts that pool across runs and machines.

    tools/rungs.py play target/release/sandglass --opponent carp=PATH \\
        --opponent viridithas=PATH --opponent sf11=PATH --opponent ethereal12=PATH \\
        --chess960 ethereal12 --rounds 1-10 --out DIR
    tools/rungs.py report DIR [DIR ...] [--anchor carp=3538 --anchor sf11=3565 ...]

A round plays, for each opponent in the order given, `--pairs` game pairs (default 10) from
each of the two books, the repository's `data/books/noob_3moves_5k.epd` and
`data/books/8moves_v3_5k.epd`, on which nothing is tuned; then `--pairs` pairs of Chess960
(fastchess's `fischerandom` variant, from `data/books/chess960.epd`) against each `--chess960`
opponent. The parts are small so that a run stopped at any moment leaves every row of the
table about as far along as the others. Part k of round r (k = 1, 2, … in that order) plays
with the seed `--seed` + 10·r + k, or `--seed` + 100·r + k when a round has more than nine
parts, so a part is the same part on any machine. A part whose fastchess output reports all
its games is not played again: the same command resumes a run stopped between parts, and
replays a part it stopped in. A file named `STOP` in the folder ends a run before its next
part (and is removed), so that no part is cut short. Every engine plays with one thread and 16 MB of hash (`--tc`,
default 10+0.1).

The folder keeps a copy of the Sandglass binary it was started with, and its settings (the
opponents' names in order, Chess960's, `--pairs`, `--seed`, `--tc`) in `rungs.json`. A later
run into the same folder with another binary or other settings stops before it plays: the
parts of two builds must not pool, and other settings would name other parts. `report`
refuses folders whose binaries differ, and a part found twice.

`report` pools every part found in the folders whose fastchess output ends in its report (a
part being played, or cut off before fastchess could report, is left out and counted) by
opponent and by book: W/D/L, score,
pentanomial and Elo ± 95 % (tools/stats.py), with a row for both books together; time
forfeits, illegal moves, crashes and stalls of either side (tools/fastchess_pgn.py); and
Sandglass's time a move, the share of its clock used by move 60 and its lowest clock. With
`--anchor NAME=RATING`, the rating fitted from the standard-chess games against the anchored
opponents, both books and each alone (`stats.anchored_rating`, as `stats.py rating`), with the
intervals that count the opponents' disagreement (`stats.rating_spread`). Its exit
code is 1 when Sandglass forfeited, moved illegally, crashed or stalled in any game.
"""
import argparse
import collections
import contextlib
import filecmp
import json
import os
import re
import shlex
import shutil
import sys

import fastchess_pgn
import fastchess_run
import stats

BOOKS = {
    "noob": os.path.join(fastchess_run.REPO, "data", "books", "noob_3moves_5k.epd"),
    "8moves": os.path.join(fastchess_run.REPO, "data", "books", "8moves_v3_5k.epd"),
    "960": os.path.join(fastchess_run.REPO, "data", "books", "chess960.epd"),
}
STANDARD = ("noob", "8moves")
OPTIONS = ["Hash=16", "Threads=1"]
PLAYER = "sandglass"
PART_FILE = re.compile(r"^r(\d+)-(.+)-(noob|8moves|960)-(\d+)\.pgn$")
SETTINGS = "rungs.json"
STOP = "STOP"
MAX_PARTS = 99


def fail(message):
    """One line on stderr and exit code 2: bad input, nothing played or reported."""
    print(f"rungs.py: {message}", file=sys.stderr)
    sys.exit(2)


def schedule(opponents, chess960, rounds, seed):
    """Every part of the rounds, in playing order: (round, opponent, book, seed)."""
    per_round = [(o, b) for o in opponents for b in STANDARD] + [(o, "960") for o in chess960]
    if len(per_round) > MAX_PARTS:
        raise ValueError(f"{len(per_round)} parts a round, at most {MAX_PARTS}")
    step = 10 if len(per_round) <= 9 else 100
    return [(r, o, b, seed + step * r + k)
            for r in rounds for k, (o, b) in enumerate(per_round, start=1)]


def part_name(rnd, opponent, book, seed):
    return f"r{rnd}-{opponent}-{book}-{seed}"


def reported_games(out_file):
    """The games fastchess's output `out_file` reports on; None without its report (a part
    being played, cut off before fastchess could report, or never begun)."""
    try:
        with open(out_file, encoding="utf-8", errors="replace") as f:
            return fastchess_run.report(f.read()).get("games")
    except OSError:
        return None


def finished(out_file, pairs):
    """Whether fastchess's output `out_file` reports all 2·pairs games of its part."""
    return reported_games(out_file) == 2 * pairs


def rounds_arg(text):
    """`3` or `1-10`: the rounds to play, from 1."""
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", text.strip())
    first, last = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (0, 0)
    if not m or first < 1 or last < first:
        raise argparse.ArgumentTypeError(f"{text!r}: a round (3) or a range of rounds (1-10), from 1")
    return range(first, last + 1)


def name_and_value(text):
    """`NAME=VALUE`, the name fit for a file name (letters, digits, `.`, `_`, `+`, `-`)."""
    name, sep, value = text.partition("=")
    if not sep or not value or not re.fullmatch(r"[A-Za-z0-9._+-]+", name):
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE, the name of letters, digits, . _ + -")
    return name, value


def keep_settings(out, settings):
    """Write the folder's settings on its first run; exit naming the first that differs on a
    later one."""
    path = os.path.join(out, SETTINGS)
    try:
        with open(path, encoding="utf-8") as f:
            kept = json.load(f)
    except FileNotFoundError:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(settings, f, indent=1)
        return
    except (OSError, ValueError) as err:
        fail(f"cannot read {path}: {err}")
    for key, value in settings.items():
        if kept.get(key) != value:
            fail(f"{out} was played with {key} {kept.get(key)!r}, not {value!r}; give another --out")


def play(args):
    names = [n for n, _ in args.opponent]
    if len(set(names)) != len(names) or PLAYER in names:
        fail(f"opponents need distinct names other than {PLAYER!r}")
    unknown = [n for n in args.chess960 if n not in names]
    if unknown:
        fail(f"--chess960 {', '.join(unknown)}: not among the opponents")
    try:
        parts = schedule(names, args.chess960, args.rounds, args.seed)
    except ValueError as err:
        fail(str(err))
    fastchess, paths = fastchess_run.require("rungs.py", args.fastchess,
                                             [args.engine] + [p for _, p in args.opponent])
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    player = os.path.join(out, PLAYER)
    if os.path.exists(player) and not filecmp.cmp(player, paths[0], shallow=False):
        fail(f"{out} holds the games of another Sandglass binary; give another --out")
    keep_settings(out, {"opponents": names, "chess960": args.chess960, "pairs": args.pairs,
                        "seed": args.seed, "tc": args.tc})
    if not os.path.exists(player):
        shutil.copy2(paths[0], player)
    me = fastchess_run.Engine(PLAYER, player, OPTIONS)
    others = {n: fastchess_run.Engine(n, p, OPTIONS) for n, p in zip(names, paths[1:])}
    fastchess_run.check_engines("rungs.py", [me, *others.values()])
    tc = fastchess_pgn.TimeControl.parse(args.tc)
    for rnd, opp, book, seed in parts:
        tag = part_name(rnd, opp, book, seed)
        pgn, out_file = os.path.join(out, tag + ".pgn"), os.path.join(out, tag + ".out")
        if finished(out_file, args.pairs):
            continue
        if os.path.exists(os.path.join(out, STOP)):
            os.remove(os.path.join(out, STOP))
            print(f"rungs.py: {STOP} found; stopped before {tag}", flush=True)
            return 0
        with fastchess_run.locked(args.lock):
            # Asked again under the lock: another run into the folder may have played the
            # part while this one waited.
            if finished(out_file, args.pairs):
                continue
            # fastchess appends to a PGN: the games of a part stopped half-way go, and the
            # part is played again whole.
            with contextlib.suppress(FileNotFoundError):
                os.remove(pgn)
            cmd = fastchess_run.command(fastchess, [me, others[opp]], tc, args.pairs, BOOKS[book],
                                        args.concurrency, pgn, seed=seed, chess960=book == "960",
                                        log=os.path.join(out, tag + ".log"))
            print("+", shlex.join(cmd), flush=True)
            code, text = fastchess_run.play(cmd, out, out_file)
        said = fastchess_run.report(text)
        print(f"  {tag}: {said.get('games', 0)} games, W/D/L {said.get('wins')}/{said.get('draws')}/"
              f"{said.get('losses')}, pentanomial {said.get('ptnml')}", flush=True)
        if code != 0:
            print(f"rungs.py: fastchess exited with {code} in {tag}; see {tag}.out", file=sys.stderr)
            return 1
    return 0


def pooled(folders):
    """({(opponent, book): [each part's games]}, [parts left out]) of the parts in the folders:
    those that fastchess reported on; the others are being played or were cut off. Parts are
    kept apart: a game pair is two games of one `[Round]` of one part, and every part numbers
    its rounds from 1. Exits when the folders' Sandglass binaries differ, or when one part (an
    opponent, a book and a seed) is found twice."""
    builds = [os.path.join(f, PLAYER) for f in folders if os.path.isfile(os.path.join(f, PLAYER))]
    for build in builds[1:]:
        if not filecmp.cmp(builds[0], build, shallow=False):
            fail(f"{builds[0]} and {build} are different binaries: their games do not pool")
    parts, seen, left_out = collections.defaultdict(list), {}, []
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            m = PART_FILE.match(name)
            if not m:
                continue
            key = m.group(2, 3, 4)
            if key in seen:
                fail(f"{os.path.join(folder, name)} repeats {seen[key]} (the same opponent, book and seed)")
            path = seen[key] = os.path.join(folder, name)
            if reported_games(path[:-len(".pgn")] + ".out") is None:
                left_out.append(name[:-len(".pgn")])
                continue
            parts[(m.group(2), m.group(3))].append(fastchess_pgn.read_games(path))
    return parts, left_out


def figures(parts, opponent):
    """Sandglass's tally against `opponent`, summed over the parts, with its estimate and its
    clock figures."""
    t = {"wins": 0, "draws": 0, "losses": 0, "games": 0, "ptnml": [0] * 5,
         "incidents": collections.defaultdict(collections.Counter)}
    for games in parts:
        one = fastchess_pgn.tally(games, PLAYER, opponent)
        for key in ("wins", "draws", "losses", "games"):
            t[key] += one[key]
        t["ptnml"] = [a + b for a, b in zip(t["ptnml"], one["ptnml"])]
        for who, kinds in one["incidents"].items():
            t["incidents"][who].update(kinds)
    t["estimate"] = (stats.pentanomial(t["ptnml"]) if sum(t["ptnml"])
                     else stats.trinomial(t["wins"], t["draws"], t["losses"]) if t["games"] else None)
    every = [g for games in parts for g in games]
    t["clock"] = fastchess_pgn.clock_figures(every, [PLAYER])[PLAYER]
    return t


def incidents_text(t):
    """Incidents by loser, as `carp: 1 time forfeit`, or `none`."""
    parts = []
    for who, kinds in sorted(t["incidents"].items()):
        said = ", ".join(f"{n} {k}" for k, n in kinds.items() if n)
        if said:
            parts.append(f"{who}: {said}")
    return "; ".join(parts) or "none"


def table(parts):
    """The Markdown table of the parts {(opponent, book): [games of each part]}, and the
    tallies {(opponent, book or "both"): tally}."""
    rows = ["| opponent | book | games | W/D/L | score | pentanomial | Elo ± 95 % | incidents (loser) | "
            "Sandglass a move | clock used by move 60 | lowest clock |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    tallies = {}
    opponents = list(dict.fromkeys(opp for opp, _ in sorted(parts)))
    for opp in opponents:
        keys = [(b, parts[(opp, b)]) for b in STANDARD if parts.get((opp, b))]
        if len(keys) == 2:
            keys.append(("both", parts[(opp, STANDARD[0])] + parts[(opp, STANDARD[1])]))
        if parts.get((opp, "960")):
            keys.append(("960", parts[(opp, "960")]))
        for book, its_parts in keys:
            t = tallies[(opp, book)] = figures(its_parts, opp)
            if not t["games"]:
                continue
            c = t["clock"]
            score = (t["wins"] + t["draws"] / 2) / t["games"]
            label = f"**{book}**" if book == "both" else book
            rows.append(f"| {opp} | {label} | {t['games']} | {t['wins']}/{t['draws']}/{t['losses']} | "
                        f"{100 * score:.1f} % | {t['ptnml']} | {stats.fmt_elo(t['estimate'])} | "
                        f"{incidents_text(t)} | {fastchess_pgn.fmt_ms(c['ms_per_move'])} | "
                        f"{fastchess_pgn.fmt_pct(c['share_by_60'])} | {fastchess_pgn.fmt_ms(c['lowest_ms'])} |")
    return "\n".join(rows), tallies


def ratings(tallies, anchors):
    """Lines giving the rating fitted on both books and on each, from the anchored opponents."""
    lines = []
    for book in ("both",) + STANDARD:
        matches = []
        for opp, rating in anchors:
            t = tallies.get((opp, book))
            if book == "both" and t is None:
                t = tallies.get((opp, STANDARD[0])) or tallies.get((opp, STANDARD[1]))
            if t is not None and sum(t["ptnml"]):
                matches.append(stats.AnchoredMatch(opp, rating, ptnml=tuple(t["ptnml"])))
        if not matches:
            continue
        r, lo, hi = stats.anchored_rating(matches)
        each = ", ".join(f"{m.name} {m.anchor + stats.elo(stats.pentanomial(m.ptnml)['score']):.0f}"
                         for m in matches)
        line = (f"rating, {'both books' if book == 'both' else book}: {r:.0f}, 95 % interval {lo:.0f} to {hi:.0f}, "
                f"{sum(m.games() for m in matches)} games in pairs; performances: {each}")
        spread = stats.rating_spread(matches)
        if spread is not None:
            (q_lo, q_hi), (dl, dl_lo, dl_hi) = spread["quasi"], spread["dl"]
            line += (f"; with the opponents' disagreement (χ² {spread['chi2']:.1f} on {spread['dof']} d.o.f.): "
                     f"quasi-likelihood {q_lo:.0f} to {q_hi:.0f}, DerSimonian–Laird {dl:.0f} ({dl_lo:.0f} to "
                     f"{dl_hi:.0f}, τ {spread['tau']:.0f})")
        lines.append(line)
    return lines


def report(args):
    missing = [f for f in args.folders if not os.path.isdir(f)]
    if missing:
        fail(f"no such folder: {', '.join(missing)}")
    parts, left_out = pooled(args.folders)
    if not parts:
        fail(f"no finished part in {', '.join(args.folders)}")
    stray = [n for n, _ in args.anchor if n not in {opp for opp, _ in parts}]
    if stray:
        fail(f"--anchor {', '.join(stray)}: no such opponent in the games")
    text, tallies = table(parts)
    print(text)
    for line in ratings(tallies, [(n, float(v)) for n, v in args.anchor]):
        print(line)
    if left_out:
        print(f"left out, without fastchess's report (being played, or cut off): {', '.join(left_out)}")
    own = sum(n for (_, book), t in tallies.items() if book != "both"
              for n in t["incidents"].get(PLAYER, {}).values())
    return 1 if own else 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    pl = sub.add_parser("play", help="play the rounds' parts not yet finished")
    pl.add_argument("engine", help="the Sandglass binary")
    pl.add_argument("--opponent", type=name_and_value, action="append", required=True,
                    metavar="NAME=PATH", help="an opponent and its program; repeat, in playing order")
    pl.add_argument("--chess960", action="append", default=[], metavar="NAME",
                    help="also play this opponent in Chess960; repeat")
    pl.add_argument("--rounds", type=rounds_arg, required=True, help="3, or 1-10")
    pl.add_argument("--pairs", type=int, default=10, help="game pairs a part (default 10)")
    pl.add_argument("--seed", type=int, default=87000, help="the first seed (default 87000)")
    pl.add_argument("--tc", default="10+0.1", help="time control (default 10+0.1)")
    pl.add_argument("--out", required=True, help="folder for the parts' games")
    fastchess_run.add_arguments(pl, book=False)
    rp = sub.add_parser("report", help="the pooled table of the parts in these folders")
    rp.add_argument("folders", nargs="+")
    rp.add_argument("--anchor", type=name_and_value, action="append", default=[], metavar="NAME=RATING",
                    help="an opponent's rating on the list, for the fit; repeat")
    args = p.parse_args(argv)
    if args.command == "play":
        if args.pairs < 1:
            p.error("--pairs: at least 1")
        if fastchess_pgn.TimeControl.parse(args.tc) is None:
            p.error(f"--tc {args.tc!r} not understood")
        try:
            return play(args)
        except KeyboardInterrupt:
            # Between parts (a part's fastchess is stopped by fastchess_run.play): nothing lost.
            print("rungs.py: stopped; the same command resumes", file=sys.stderr)
            return 130
    for name, value in args.anchor:
        try:
            float(value)
        except ValueError:
            p.error(f"--anchor {name}={value}: the rating is a number")
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
