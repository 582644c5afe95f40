#!/usr/bin/env python3
"""Drive Sandglass through python-chess, as a real GUI would.

Usage: python3 tests/python/client.py <path to the sandglass binary>

Exit code 0 when every check passes, 1 when one fails, 3 when python-chess is missing.
Run by tests/uci_python.rs; `make test` installs python-chess into target/venv.
"""

import sys
import time

try:
    import chess
    import chess.engine
except ImportError as exc:
    print(f"python-chess is missing ({exc}): run `make test` (it installs it into target/venv)", file=sys.stderr)
    sys.exit(3)

# Every python-chess command (handshake, isready, bestmove of a bounded search) must come
# within this many seconds; generous for a loaded CI machine.
TIMEOUT = 30.0

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def check_line(board, moves, what):
    """Every move of `moves` is legal in turn from `board`."""
    b = board.copy()
    for i, move in enumerate(moves):
        check(move in b.legal_moves, f"{what}: move {i + 1} ({move}) of {moves} is illegal in {b.fen()}")
        b.push(move)


def test_identity(engine):
    name = engine.id.get("name", "")
    check(name.startswith("Sandglass"), f"id name is {name!r}")
    check("author" in engine.id, "no id author")
    for option in ["Hash", "Threads", "Ponder", "MultiPV", "Move Overhead", "Clear Hash", "TimeManager"]:
        check(option in engine.options, f"option {option} is not declared")
    hash_option = engine.options["Hash"]
    check(hash_option.type == "spin" and hash_option.min == 1, f"Hash declared as {hash_option}")
    print(f"identity: {name}, {len(engine.options)} options")


def test_configure(engine):
    engine.configure({"Hash": 32})
    engine.configure({"Move Overhead": 20, "TimeManager": "classic"})
    engine.configure({"TimeManager": "expositor", "Move Overhead": 10})
    engine.ping()
    # python-chess checks values against the declaration before sending them.
    try:
        engine.configure({"Hash": 0})
    except chess.engine.EngineError:
        pass
    else:
        raise Failure("Hash 0 was accepted by the declaration")
    engine.ping()
    print("configure: Hash 32, Move Overhead, TimeManager accepted; Hash 0 refused")


def test_analyse(engine):
    for fen in [chess.STARTING_FEN, KIWIPETE]:
        board = chess.Board(fen)
        info = engine.analyse(board, chess.engine.Limit(depth=6))
        check("score" in info, f"analyse depth 6 gave no score: {info}")
        check(info.get("pv"), f"analyse depth 6 gave no pv: {info}")
        check(info.get("depth") == 6, f"analyse depth 6 ended at depth {info.get('depth')}")
        check_line(board, info["pv"], "analyse pv")
        print(f"analyse depth 6: score {info['score']}, pv {' '.join(m.uci() for m in info['pv'])}")
    # A mate in one is scored as a mate.
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    check(info["score"].relative == chess.engine.Mate(1), f"mate in 1 scored {info['score']}")
    check(info["pv"][0] == chess.Move.from_uci("a1a8"), f"mate in 1: pv {info['pv']}")


def test_play_with_clock(engine):
    """Ten moves each side with 5 s + 0.05 s, the engine playing both sides."""
    board = chess.Board()
    inc = 0.05
    clock = {chess.WHITE: 5.0, chess.BLACK: 5.0}
    engine.configure({"Hash": 32})
    spent = []
    for ply in range(20):
        side = board.turn
        limit = chess.engine.Limit(
            white_clock=clock[chess.WHITE],
            black_clock=clock[chess.BLACK],
            white_inc=inc,
            black_inc=inc,
        )
        start = time.monotonic()
        result = engine.play(board, limit)
        took = time.monotonic() - start
        check(result.move is not None, f"ply {ply + 1}: no move")
        check(result.move in board.legal_moves, f"ply {ply + 1}: illegal move {result.move} in {board.fen()}")
        clock[side] -= took
        check(clock[side] >= 0, f"ply {ply + 1}: flagged, clock {clock[side]:.3f} s after {took:.3f} s")
        clock[side] += inc
        spent.append(took)
        board.push(result.move)
        if board.is_game_over():
            break
    print(
        f"play: {len(spent)} plies, max {max(spent) * 1000:.0f} ms, total {sum(spent):.2f} s, "
        f"clocks white {clock[chess.WHITE]:.2f} s black {clock[chess.BLACK]:.2f} s"
    )


def test_play_with_ponder(engine):
    """A few moves with pondering on: python-chess sends go ponder, then ponderhit or stop."""
    board = chess.Board()
    for ply in range(6):
        result = engine.play(board, chess.engine.Limit(white_clock=3, black_clock=3), ponder=True)
        check(result.move in board.legal_moves, f"ponder ply {ply + 1}: illegal move {result.move}")
        board.push(result.move)
        if result.ponder is not None:
            check(result.ponder in board.legal_moves, f"ponder move {result.ponder} is illegal")
    engine.ping()
    print(f"ponder: {' '.join(m.uci() for m in board.move_stack)}")


def test_analysis_with_stop(engine):
    board = chess.Board(KIWIPETE)
    with engine.analysis(board) as analysis:
        start = time.monotonic()
        depth = 0
        for info in analysis:
            depth = max(depth, info.get("depth", 0))
            if "pv" in info:
                check_line(board, info["pv"], "analysis pv")
            if depth >= 5 or time.monotonic() - start > TIMEOUT:
                break
        check(depth >= 5, f"analysis reached only depth {depth}")
        stopped = time.monotonic()
        analysis.stop()
        best = analysis.wait()
        took = time.monotonic() - stopped
    check(best.move in board.legal_moves, f"analysis stop: illegal bestmove {best.move}")
    check(took < 1.0, f"analysis stop: bestmove {took * 1000:.0f} ms after stop")
    engine.ping()
    print(f"analysis: depth {depth}, stopped, bestmove {best.move} {took * 1000:.1f} ms after stop")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    engine = chess.engine.SimpleEngine.popen_uci(sys.argv[1], timeout=TIMEOUT)
    try:
        test_identity(engine)
        test_configure(engine)
        test_analyse(engine)
        test_play_with_clock(engine)
        test_play_with_ponder(engine)
        test_analysis_with_stop(engine)
    except Failure as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        engine.quit()
    print("all python-chess checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
