#!/usr/bin/env python3
"""Write the Chess960 perft suite and the Chess960 opening book, counted by python-chess.

    target/venv/bin/python tools/chess960_perft.py            # both files
    target/venv/bin/python tools/chess960_perft.py --book-only

perft/chess960.epd holds, in Shredder-FEN (so that `sandglass perft --suite` reads them as
Chess960 without a flag):
  - every STEP-th of the 960 starting positions (Scharnagl numbers 0, STEP, 2*STEP, ...) at
    depths 1-4, and every DEEP_STEP-th also at depth 5;
  - hand-made positions with castling rights in odd states (see HAND_MADE), at depths 1-4.
Every count comes from python-chess (`chess.Board(fen, chess960=True)`), an independent move
generator; the Rust test tests/perft.rs checks Sandglass against the file.

data/books/chess960.epd holds all 960 starting positions in Shredder-FEN, in Scharnagl order,
as an EPD book for fastchess (`-variant fischerandom -openings file=... format=epd`).
"""

import argparse
import os
import sys

import chess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEP = 10
DEEP_STEP = 40
HAND_DEPTH = 4

# (what it tests, FEN). Each is read with chess960=True and written back as python-chess's
# Shredder-FEN, so the rights in the file are the ones python-chess accepted.
HAND_MADE = [
    ("rooks next to the king on both sides", "3rkr2/8/8/8/8/8/8/3RKR2 w FDfd - 0 1"),
    ("king on b, rooks on a and h", "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"),
    ("king on g, rooks on a and h", "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1"),
    ("king on g, one right lost each", "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w Hh - 0 1"),
    ("empty board between king b1 and rook h1", "1k5r/8/8/8/8/8/8/1K5R w Hh - 0 1"),
    ("king f1 and rook g1 swap squares", "5kr1/8/8/8/8/8/8/5KR1 w Gg - 0 1"),
    ("king d1 and rook c1 swap squares", "2rk4/8/8/8/8/8/8/2RK4 w Cc - 0 1"),
    ("castling rook shields the king's destination", "4k3/8/8/8/8/8/8/r1RK4 w C - 0 1"),
    ("castling rook pinned along the first rank", "4k3/8/8/8/8/8/8/q1RK3R w HC - 0 1"),
    ("knight can capture a castling rook", "1r2k2r/8/2N5/8/8/8/8/1R2K2R w HBhb - 0 1"),
    ("promotion captures a castling rook, rights mixed with standard ones",
     "1r2k2r/P7/8/8/8/8/8/R3K1R1 w GAhb - 0 1"),
    ("double Fischer random", "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFgb - 0 1"),
    ("bishop attacks a square the king crosses", "1r2k1r1/8/8/8/8/8/5b2/1R2K1R1 w GBgb - 0 1"),
    ("black to move with inner rook rights", "rr2k1rr/8/8/8/8/8/8/RR2K1RR b GBgb - 0 1"),
    ("en passant beside Chess960 rights", "1r2k1r1/8/8/3pP3/8/8/8/1R2K1R1 w GBgb d6 0 2"),
]


def perft(board, depth):
    """Leaf nodes `depth` plies below `board` (the last ply is counted, not played)."""
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def line(board, depths):
    fen = board.fen(shredder=True)
    counts = " ".join(f";D{d} {perft(board, d)}" for d in depths)
    return f"{fen} {counts}"


def book_lines():
    return [chess.Board.from_chess960_pos(n).fen(shredder=True) for n in range(960)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--book-only", action="store_true")
    args = parser.parse_args()

    with open(os.path.join(ROOT, "data/books/chess960.epd"), "w") as book:
        book.write("\n".join(book_lines()) + "\n")
    if args.book_only:
        return

    out = ["# Chess960 perft suite, counted by python-chess %s with tools/chess960_perft.py."
           % chess.__version__,
           "# Starting positions: every %dth Scharnagl number at D1-D4 (every %dth also D5),"
           % (STEP, DEEP_STEP),
           "# then hand-made positions with castling rights in odd states at D1-D%d."
           % HAND_DEPTH]
    for n in range(0, 960, STEP):
        board = chess.Board.from_chess960_pos(n)
        depths = range(1, 6 if n % DEEP_STEP == 0 else 5)
        out.append(line(board, depths))
        print(f"start {n}", file=sys.stderr, flush=True)
    for what, fen in HAND_MADE:
        board = chess.Board(fen, chess960=True)
        if not board.is_valid():
            sys.exit(f"invalid hand-made position ({what}): {fen}: {board.status()!r}")
        if board.fen(shredder=True).split()[2] != fen.split()[2]:
            sys.exit(f"python-chess changed the rights of ({what}): {fen}")
        out.append(f"# {what}")
        out.append(line(board, range(1, HAND_DEPTH + 1)))
        print(what, file=sys.stderr, flush=True)
    with open(os.path.join(ROOT, "perft/chess960.epd"), "w") as suite:
        suite.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
