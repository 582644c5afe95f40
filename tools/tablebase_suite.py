#!/usr/bin/env python3
"""A suite of 3- and 4-man endgames for the Syzygy work, and its play-out.

    tablebase_suite.py generate TABLES OUT.epd [--seed S]
    tablebase_suite.py run ENGINE SUITE.epd TABLES [--syzygy] [--movetime MS] [--lock FILE]

`generate` draws random legal positions with python-chess and keeps, for each material of
WINS, the longest wins for the side to move (by DTZ, within the fifty-move rule), and for
each of DRAWS, the drawn positions where the side to move has the most losing moves. Each
EPD line carries `c0 "win"` or `c0 "draw"` and an `id`.

`run` plays each position out: the engine moves for the side to move (`--movetime`, 200 ms
by default), with `SyzygyPath` set to TABLES when `--syzygy` is given; the other side plays
the tables' best move (python-chess reads the same TABLES): the longest resistance when
lost (by DTZ), else a drawing move, the same one every run. A position is

- kept: a win ends in mate before the fifty-move rule or a repetition can draw it; a draw
  is never turned into a loss by the engine within 40 of its moves (a draw by the rules
  ends it early);
- scored fitly: the engine's first move reports a winning score for a win (a mate, or at
  least 1,000 cp) and a score within 100 cp of zero for a draw;
- solved: both.

Prints one line per position and the totals. Holds the match lock (an exclusive flock on
--lock) while it plays, since a move time is a timing measurement.
"""

import argparse
import os
import random
import sys
import zlib

import chess
import chess.engine
import chess.syzygy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fastchess_run  # noqa: E402  (the match lock, shared with the match tools)

WINS = ["KQvKR", "KBNvK", "KRvKN", "KQvKP", "KRvKP", "KPvKP", "KBBvK", "KQvKB", "KRvKB"]
DRAWS = ["KRvKB", "KRvKN", "KQvKQ", "KRvKR", "KPvKP", "KBvKP", "KNvKP", "KQvKR"]
PER_WIN = 4
PER_DRAW = 3
MAX_DRAW_MOVES = 40
MAX_MOVES = 200

PIECES = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def placed(name, rng):
    """The material `name` (White's side first, e.g. `KRvKB`) on random squares with a random
    side to move, or None when a pawn lands on the first or last rank; not yet checked for
    legality. The tablebase cross-check test draws its positions with it too."""
    white, black = name.split("v")
    board = chess.Board(None)
    pieces = [(chess.KING, chess.WHITE), (chess.KING, chess.BLACK)]
    pieces += [(PIECES[c], chess.WHITE) for c in white[1:]]
    pieces += [(PIECES[c], chess.BLACK) for c in black[1:]]
    for (piece, color), square in zip(pieces, rng.sample(range(64), len(pieces))):
        if piece == chess.PAWN and chess.square_rank(square) in (0, 7):
            return None
        board.set_piece_at(square, chess.Piece(piece, color))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board


def random_position(name, rng):
    board = placed(name, rng)
    return board if board and board.is_valid() and not board.is_game_over() else None


def losing_moves(board, tb):
    lost = 0
    for move in board.legal_moves:
        board.push(move)
        if tb.probe_wdl(board) == 2:
            lost += 1
        board.pop()
    return lost


def generate(args):
    rng = random.Random(args.seed)
    tb = chess.syzygy.open_tablebase(args.tables)
    lines = []
    for name in WINS:
        found = {}
        for _ in range(6000):
            b = random_position(name, rng)
            if b is None or tb.probe_wdl(b) != 2:
                continue
            found[b.fen()] = tb.probe_dtz(b)
        best = sorted(found.items(), key=lambda kv: -kv[1])[:PER_WIN]
        for i, (fen, dtz) in enumerate(best):
            lines.append(f'{" ".join(fen.split()[:4])} c0 "win"; id "{name}.win.{i + 1} dtz {dtz}";')
    for name in DRAWS:
        found = {}
        for _ in range(6000):
            b = random_position(name, rng)
            if b is None or tb.probe_wdl(b) != 0:
                continue
            found[b.fen()] = (losing_moves(b, tb), b.legal_moves.count())
        best = sorted(found.items(), key=lambda kv: (-kv[1][0], kv[0]))[:PER_DRAW]
        for i, (fen, (lost, n)) in enumerate(best):
            lines.append(f'{" ".join(fen.split()[:4])} c0 "draw"; id "{name}.draw.{i + 1} {lost} of {n} lose";')
    with open(args.out, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    print(f"{len(lines)} positions written to {args.out}")


def defend(board, tb):
    """The tables' move for the side that is not the engine: the longest resistance when
    lost, else a move that keeps its result, the same one every run (by a checksum of the
    position)."""
    scored = []
    for move in board.legal_moves:
        board.push(move)
        scored.append((-tb.probe_wdl(board), move.uci()))
        board.pop()
    best = max(w for w, _ in scored)
    moves = sorted(m for w, m in scored if w == best)
    if best < 0:
        def resistance(uci):
            board.push(chess.Move.from_uci(uci))
            plies = tb.probe_dtz(board)
            board.pop()
            return plies
        return chess.Move.from_uci(max(moves, key=resistance))
    return chess.Move.from_uci(moves[zlib.crc32(board.fen().encode()) % len(moves)])


def still_holds(board, tb, expected):
    """After the engine's move: does the side to move (the opponent) still lose (for a
    win) or not win (for a draw), under the fifty-move rule as the counter stands?"""
    wdl = tb.probe_wdl(board)
    plies = abs(tb.probe_dtz(board)) if wdl != 0 else 0
    within_rule = board.halfmove_clock + plies <= 100
    if expected == "win":
        return wdl < 0 and within_rule
    return not (wdl > 0 and within_rule)


def play_out(engine, fen, expected, tb, movetime):
    """Whether the engine kept the result, and the score it reported for its first move."""
    board = chess.Board(fen)
    side = board.turn
    first_score = None
    engine_moves = 0
    while True:
        if board.is_checkmate():
            return board.turn != side, first_score
        if board.is_game_over(claim_draw=True):
            # Stalemate, insufficient material, fifty moves, repetition: a draw.
            return expected == "draw", first_score
        if board.turn != side:
            board.push(defend(board, tb))
            continue
        if expected == "draw" and engine_moves >= MAX_DRAW_MOVES:
            return True, first_score
        if engine_moves >= MAX_MOVES:
            return False, first_score
        result = engine.play(board, chess.engine.Limit(time=movetime / 1000),
                             info=chess.engine.INFO_SCORE, game=fen)
        if first_score is None:
            first_score = result.info.get("score")
        board.push(result.move)
        engine_moves += 1
        if not board.is_checkmate() and not still_holds(board, tb, expected):
            return False, first_score


def fitting(score, expected):
    if score is None:
        return False
    pov = score.relative
    if expected == "win":
        return pov.is_mate() and pov.mate() > 0 or (pov.score() or 0) >= 1000
    return not pov.is_mate() and abs(pov.score()) <= 100


def run(args):
    tests = []
    for line in open(args.suite):
        line = line.strip()
        if not line:
            continue
        fields = line.split()
        fen = " ".join(fields[:4]) + " 0 1"
        expected = "win" if 'c0 "win"' in line else "draw"
        ident = line.split('id "')[1].split('"')[0]
        tests.append((fen, expected, ident))
    tb = chess.syzygy.open_tablebase(args.tables)
    with fastchess_run.locked(args.lock):
        play_suite(args, tests, tb)


def play_suite(args, tests, tb):
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    options = {"Hash": 16, "Threads": 1}
    if args.syzygy:
        options["SyzygyPath"] = os.path.abspath(args.tables)
    engine.configure(options)
    kept_n = fit_n = solved_n = 0
    for fen, expected, ident in tests:
        kept, score = play_out(engine, fen, expected, tb, args.movetime)
        fit = fitting(score, expected)
        kept_n += kept
        fit_n += fit
        solved_n += kept and fit
        shown = score.relative if score else None
        print(f"{ident:32} {expected:5} kept={int(kept)} fit={int(fit)} first={shown} {fen}", flush=True)
    engine.quit()
    print(f"solved {solved_n} of {len(tests)} (kept the result {kept_n}, fitting first score {fit_n}); "
          f"{'with' if args.syzygy else 'without'} tables, {args.movetime} ms a move")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("tables")
    g.add_argument("out")
    g.add_argument("--seed", type=int, default=85)
    r = sub.add_parser("run")
    r.add_argument("engine")
    r.add_argument("suite")
    r.add_argument("tables")
    r.add_argument("--syzygy", action="store_true")
    r.add_argument("--movetime", type=int, default=200)
    r.add_argument("--lock", default=fastchess_run.LOCK, help="the match tools' lock file")
    args = parser.parse_args()
    generate(args) if args.command == "generate" else run(args)


if __name__ == "__main__":
    sys.exit(main())
