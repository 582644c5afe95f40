#!/usr/bin/env python3
"""The basic mates against a perfect defender: does the engine mate what is won?

    basic_mates.py generate [--tables DIR] [--out FILE.epd] [--seed S]
    basic_mates.py run ENGINE [--suite FILE.epd] [--tables DIR] [--nodes N | --tc 60+1]
                              [--option NAME=VALUE ...] [--only KQvK,KRvK] [--lock FILE]

`generate` draws random legal positions with python-chess, White to move, and keeps those the
3- and 4-man Syzygy tables (data/syzygy) call a White win with a long distance to zeroing:
the longest quarter of the distinct wins found, from which the suite's share is drawn with the
seed. In these endings the only zeroing move is the mate, so the DTZ is the distance to mate.
The goals are king and queen, king and rook, two bishops (on opposite colours) and bishop and
knight against a lone king; king and queen against rook and king and rook against bishop are a
measured row, not a goal (win or hold): the longest wins found, whose DTZ counts to the
capture. Each EPD line carries `id "KQvK.1"` and `c0 "dtz 19"`.

`run` plays each position out. The engine plays White at a fixed node count (`--nodes`, 20,000
by default) or on a clock (`--tc BASE+INC` in seconds, the engine's clock kept by the tool);
Black plays the tables' most stubborn move: a move that escapes the loss if the engine let one
through, else the one that keeps the mate furthest away (by DTZ). The game ends in mate,
stalemate, insufficient material, the third occurrence of a position or the hundredth ply
without a capture or pawn move (the defender claims either), or the engine's flag falling. One
line per position (the result, the plies played and the tables' DTZ at the start), one summary
line per material, and the exit code 1 if a goal position was not mated. A clock run holds the
match lock (an exclusive flock on --lock), since it measures time.

`run` also reads every score the engine reports on the way, bounds included, and counts those
that are not true (issue 106): a `cp` beyond the evaluation's 15,000, a mate for White in a
position the tables do not call a win, one quicker than the tables' distance, or, in a goal
ending (no capture can reset the count), one the fifty-move rule leaves no room for; a mate
against White where the tables do not call it lost. Each is printed, and any makes the exit
code 1.
"""

import argparse
import os
import random
import sys
import time

import chess
import chess.engine
import chess.syzygy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fastchess_pgn  # noqa: E402  (the tools' time-control parser)
import fastchess_run  # noqa: E402  (the match lock, the program finder)
import tablebase_suite  # noqa: E402  (random placement, the tables' defence)

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TABLES = os.path.join(REPO, "data", "syzygy")
SUITE = os.path.join(REPO, "data", "epd", "basic_mates.epd")

# (material, positions in the suite): the goals, then the measured row.
GOALS = [("KQvK", 8), ("KRvK", 8), ("KBBvK", 6), ("KBNvK", 8)]
MEASURED = [("KQvKR", 4), ("KRvKB", 4)]
TRIES = 20_000
MAX_PLIES = 400
DEFAULT_NODES = 20_000
EVAL_LIMIT = 15_000  # the engine's evaluation range (src/eval/mod.rs, EVAL_LIMIT)


class Parser(argparse.ArgumentParser):
    """argparse, with a refusal on one line."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def fail(message):
    print(f"basic_mates.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def opposite_bishops(board):
    bishops = board.pieces(chess.BISHOP, chess.WHITE)
    light = bishops & chess.BB_LIGHT_SQUARES
    return len(bishops) != 2 or len(light) == 1


def candidates(name, tb, rng, tries):
    """The distinct White wins of material `name`, White to move, found in `tries` random
    placements: {fen: dtz}."""
    found = {}
    for _ in range(tries):
        board = tablebase_suite.placed(name, rng)
        if board is None:
            continue
        board.turn = chess.WHITE
        if not board.is_valid() or board.is_game_over() or not opposite_bishops(board):
            continue
        if tb.probe_wdl(board) == 2:
            found[board.fen()] = tb.probe_dtz(board)
    return found


def pick(found, count, rng, longest=False):
    """`count` of the longest quarter of `found` (at least `count` of the longest), or with
    `longest` the `count` longest themselves, longest first; ties in DTZ are broken by the
    FEN, so a seed always picks the same ones."""
    ranked = sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))
    if longest:
        return ranked[:count]
    pool = ranked[:max(count, len(ranked) // 4)]
    return sorted(rng.sample(pool, min(count, len(pool))), key=lambda kv: (-kv[1], kv[0]))


def epd_line(fen, ident, dtz):
    return chess.Board(fen).epd(id=ident, c0=f"dtz {dtz}")


def read_suite(path):
    """[(material, id, board, dtz)] from an EPD file that `generate` wrote."""
    rows = []
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        fail(f"cannot read the suite {path}: {e.strerror}")
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            board, ops = chess.Board.from_epd(line)
            ident = ops["id"]
            dtz = int(ops["c0"].split()[1])
        except (ValueError, KeyError, IndexError):
            fail(f"{path} line {n}: not a basic-mates EPD line (a position, id and c0 \"dtz N\")")
        rows.append((ident.split(".")[0], ident, board, dtz))
    return rows


def generate(args):
    rng = random.Random(args.seed)
    tb = chess.syzygy.open_tablebase(args.tables)
    lines = []
    for name, count in GOALS + MEASURED:
        found = candidates(name, tb, rng, TRIES)
        chosen = pick(found, count, rng, longest=(name, count) in MEASURED)
        if len(chosen) < count:
            fail(f"{name}: only {len(chosen)} wins found in {TRIES} tries")
        for i, (fen, dtz) in enumerate(chosen, 1):
            lines.append(epd_line(fen, f"{name}.{i}", dtz))
        print(f"{name}: {count} of {len(found)} wins, DTZ {chosen[-1][1]} to {chosen[0][1]}")
    tb.close()
    with open(args.out, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    print(f"{len(lines)} positions written to {args.out}")


def stubborn(board, tb):
    """The tables' most stubborn move for the side to move: the best result it can still
    reach, and when lost the longest distance to zeroing (tablebase_suite's defence)."""
    return tablebase_suite.defend(board, tb)


def ended(board):
    """Why the game is over, or None: mate, stalemate, insufficient material, or a draw the
    defender claims (the third occurrence, or a hundred plies without a capture or pawn
    move)."""
    if board.is_checkmate():
        return "mated"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient"
    if board.is_repetition(3):
        return "repetition"
    if board.halfmove_clock >= 100:
        return "fifty"
    return None


class Clock:
    """The engine's clock at BASE+INC (ms), kept by the tool; the defender's never runs."""

    def __init__(self, tc):
        self.tc = tc
        self.left = tc.base

    def limit(self):
        return chess.engine.Limit(white_clock=self.left / 1000, black_clock=self.tc.base / 1000,
                                  white_inc=self.tc.inc / 1000, black_inc=self.tc.inc / 1000)

    def spend(self, seconds):
        """False when the flag fell."""
        self.left -= 1000 * seconds
        if self.left < 0:
            return False
        self.left += self.tc.inc
        return True


def untrue(score, board, tb, goal):
    """Why `score` (a chess.engine.PovScore), reported with White to move on `board`, is not
    a true score; None when it is. `goal`: a lone king's ending, where only the mate resets the
    fifty-move count."""
    white = score.white()
    mate = white.mate()
    if mate is None:
        cp = white.score()
        return f"cp {cp} beyond the evaluation's {EVAL_LIMIT}" if abs(cp) > EVAL_LIMIT else None
    wdl = tb.probe_wdl(board)
    if mate <= 0:
        return None if wdl == -2 else f"mate {mate} where the tables say {wdl:+d}"
    if wdl != 2:
        return f"mate {mate} where the tables say {wdl:+d}"
    plies, dtz = 2 * mate - 1, abs(tb.probe_dtz(board))
    if plies < dtz:
        return f"mate {mate} ({plies} plies) where the tables need {dtz}"
    room = 100 - board.halfmove_clock
    if goal and plies > room:
        return f"mate {mate} ({plies} plies) past the fifty-move rule in {room}"
    return None


def think(engine, board, limit, ident):
    """The engine's move, and every score it reported on the way, as (score, its line)."""
    scores = []
    with engine.analysis(board, limit, game=ident) as analysis:
        for info in analysis:
            if "score" in info:
                bound = " lowerbound" if info.get("lowerbound") else ""
                bound += " upperbound" if info.get("upperbound") else ""
                scores.append((info["score"], f"depth {info.get('depth')} {info['score'].white()}{bound}"))
        best = analysis.wait()
    return best.move, scores


def play_out(engine, board, ident, tb, nodes, tc, goal=True):
    """(how it ended, plies played, the untrue scores): the engine plays White, the tables
    Black."""
    board = board.copy()
    clock = Clock(tc) if tc else None
    plies = 0
    bad = []
    while plies < MAX_PLIES:
        why = ended(board)
        if why:
            if why == "mated" and board.turn == chess.WHITE:
                why = "lost"
            return why, plies, bad
        if board.turn == chess.BLACK:
            board.push(stubborn(board, tb))
        else:
            limit = clock.limit() if clock else chess.engine.Limit(nodes=nodes)
            start = time.monotonic()
            move, scores = think(engine, board, limit, ident)
            if clock and not clock.spend(time.monotonic() - start):
                return "flag", plies, bad
            if move is None:
                return "no move", plies, bad
            for score, line in scores:
                why_untrue = untrue(score, board, tb, goal)
                if why_untrue:
                    bad.append(f"ply {plies + 1} {line}: {why_untrue}")
            board.push(move)
        plies += 1
    return "too long", plies, bad


def parse_options(items):
    options = {"Hash": 16, "Threads": 1}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            fail(f"--option {item!r}: NAME=VALUE")
        options[name.strip()] = value
    return options


def run(args):
    tc = None
    if args.tc is not None:
        tc = fastchess_pgn.TimeControl.parse(args.tc)
        if tc is None or tc.nodes or tc.movetime or tc.moves or tc.base <= 0:
            fail(f"--tc {args.tc!r}: BASE+INC in seconds, e.g. 60+1")
    if args.nodes is not None and args.nodes < 1:
        fail(f"--nodes {args.nodes}: at least 1")
    rows = read_suite(args.suite)
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {r[0] for r in rows}
        if unknown:
            fail(f"--only: no position of {', '.join(sorted(unknown))} in {args.suite}")
        rows = [r for r in rows if r[0] in wanted]
    path = fastchess_run.find_program(args.engine)
    if path is None:
        fail(f"engine {args.engine!r} not found")
    options = parse_options(args.option)
    tb = chess.syzygy.open_tablebase(args.tables)
    try:
        engine = chess.engine.SimpleEngine.popen_uci(path)
    except (OSError, chess.engine.EngineError) as e:
        fail(f"engine {path} did not start: {e}")
    try:
        try:
            engine.configure(options)
        except chess.engine.EngineError as e:
            fail(f"engine {path} refused an option: {e}")
        if tc:
            with fastchess_run.locked(args.lock):
                failed = play_suite(engine, rows, tb, args.nodes or DEFAULT_NODES, tc, args)
        else:
            failed = play_suite(engine, rows, tb, args.nodes or DEFAULT_NODES, None, args)
    finally:
        engine.quit()
        tb.close()
    return 1 if failed else 0


def play_suite(engine, rows, tb, nodes, tc, args):
    """Plays every row, prints its line and the summaries; the number of goals not mated and
    of untrue scores."""
    goals = {name for name, _ in GOALS}
    totals = {}
    untrue_scores = 0
    for material, ident, board, dtz in rows:
        why, plies, bad = play_out(engine, board, ident, tb, nodes, tc, material in goals)
        for line in bad:
            print(f"{ident:10} untrue score at {line}", flush=True)
        untrue_scores += len(bad)
        t = totals.setdefault(material, {"n": 0, "mated": 0, "plies": 0, "dtz": 0, "failed": []})
        t["n"] += 1
        if why == "mated":
            t["mated"] += 1
            t["plies"] += plies
            t["dtz"] += dtz
        else:
            t["failed"].append(f"{ident} {why}")
        print(f"{ident:10} {why:12} plies {plies:3}  dtz {dtz:3}  {board.fen()}", flush=True)
    budget = f"{tc.label()} clock" if tc else f"{nodes} nodes a move"
    options = " ".join(f"{o}" for o in args.option)
    failed = 0
    for material, t in totals.items():
        kind = "goal" if material in goals else "measured"
        if kind == "goal":
            failed += t["n"] - t["mated"]
        pace = f"plies {t['plies']} against dtz {t['dtz']}" if t["mated"] else "no mate"
        rest = f"; not mated: {', '.join(t['failed'])}" if t["failed"] else ""
        print(f"{material:6} {kind:8} mated {t['mated']}/{t['n']}, {pace}{rest}")
    mated = sum(t["mated"] for m, t in totals.items() if m in goals)
    n = sum(t["n"] for m, t in totals.items() if m in goals)
    print(f"goals mated {mated} of {n} at {budget}{' with ' + options if options else ''}")
    print(f"untrue scores {untrue_scores}")
    return failed + untrue_scores


def main():
    parser = Parser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    g = sub.add_parser("generate")
    g.add_argument("--tables", default=TABLES)
    g.add_argument("--out", default=SUITE)
    g.add_argument("--seed", type=int, default=106)
    r = sub.add_parser("run")
    r.add_argument("engine")
    r.add_argument("--suite", default=SUITE)
    r.add_argument("--tables", default=TABLES)
    budget = r.add_mutually_exclusive_group()
    budget.add_argument("--nodes", type=int, help=f"nodes a move (default {DEFAULT_NODES})")
    budget.add_argument("--tc", help="the engine's clock, BASE+INC in seconds")
    r.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    r.add_argument("--only", help="materials to play, e.g. KQvK,KRvK")
    r.add_argument("--lock", default=fastchess_run.LOCK, help="the match tools' lock file")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args)
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
