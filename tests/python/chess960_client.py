#!/usr/bin/env python3
"""Play Chess960 with Sandglass through python-chess, as a GUI does in a Chess960 game.

Usage: python3 tests/python/chess960_client.py <path to the sandglass binary>

python-chess sets UCI_Chess960 itself for a board made with chess960=True, sends castling
as king-takes-own-rook and reads the engine's moves the same way. Exit code 0 when every
check passes, 1 when one fails, 3 when python-chess is missing. Run by tests/uci_python.rs.
"""

import sys

try:
    import chess
    import chess.engine
except ImportError as exc:
    print(f"python-chess is missing ({exc}): run `make test`", file=sys.stderr)
    sys.exit(3)

TIMEOUT = 30.0
# King e1 between rooks b1 and g1 (Shredder-FEN GBgb): O-O-O is legal for both sides.
CASTLING = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"


def check(condition, message):
    if not condition:
        print(f"FAIL: {message}", file=sys.stderr)
        sys.exit(1)


def main():
    engine = chess.engine.SimpleEngine.popen_uci(sys.argv[1], timeout=TIMEOUT)
    try:
        check("UCI_Chess960" in engine.options, "UCI_Chess960 is not declared")
        board = chess.Board(CASTLING, chess960=True)
        # Castling out: the engine must name it king-takes-rook (e1b1), which python-chess
        # reads back as the castling move; a wrong text would not be this move.
        white = board.parse_san("O-O-O")
        result = engine.play(board, chess.engine.Limit(depth=3), root_moves=[white])
        check(result.move == white, f"engine played {result.move}, wanted castling {white}")
        check(board.is_castling(result.move), f"{result.move} is not castling")
        print(f"white castles: {result.move.uci()} ({board.san(result.move)})")
        # Castling in: python-chess sends `moves e1b1`; the engine must accept it and castle
        # with Black too.
        board.push(result.move)
        black = board.parse_san("O-O-O")
        result = engine.play(board, chess.engine.Limit(depth=3), root_moves=[black])
        check(result.move == black, f"engine played {result.move}, wanted castling {black}")
        board.push(result.move)
        print(f"black castles: {result.move.uci()}; {board.fen(shredder=True)}")
        check(board.fen(shredder=True).startswith("2kr2r1/"), board.fen(shredder=True))
        # A short game from Chess960 start position 0 (BBQNNRKR): every move must be legal.
        board = chess.Board.from_chess960_pos(0)
        board.chess960 = True
        for _ in range(16):
            if board.is_game_over():
                break
            result = engine.play(board, chess.engine.Limit(depth=4))
            check(result.move in board.legal_moves, f"illegal move {result.move} in {board.fen()}")
            board.push(result.move)
        print("game from position 0:", " ".join(m.uci() for m in board.move_stack))
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
