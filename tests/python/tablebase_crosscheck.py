"""Cross-check the engine's Syzygy probes against python-chess's `chess.syzygy`.

python-chess reads the same files with a prober of its own (Niklas Fiekas's port of Ronald de
Man's probing code to Python), so two independent readings must agree. For every material
set in the folder, random legal positions are drawn (kings and pieces on random squares,
either side to move, pawns off the first and last ranks, the side not to move not in
check); python-chess probes WDL and DTZ, `sandglass probe` does the same, and every line
must match.

    python3 tablebase_crosscheck.py SANDGLASS TABLE_DIR [PER_SET] [SEED]

Prints `checked N positions over M material sets` and exits 0 when all agree; otherwise
prints each disagreement and exits 1.
"""

import os
import random
import subprocess
import sys

import chess
import chess.syzygy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import tablebase_suite  # noqa: E402  (the suite's random placement of a material)


def material_sets(folder):
    """The table names with both a WDL and a DTZ file, e.g. `KRPvKB`."""
    names = {f[:-5] for f in os.listdir(folder) if f.endswith(".rtbw")}
    return sorted(n for n in names if os.path.exists(os.path.join(folder, n + ".rtbz")))


def random_position(name, rng):
    """A random legal position of the material `name` (White's side first), or None."""
    board = tablebase_suite.placed(name, rng)
    if board is None:
        return None
    # Now and then a double pawn push just made, so that en passant is probed too.
    if rng.random() < 0.3:
        for square in board.pieces(chess.PAWN, not board.turn):
            rank = chess.square_rank(square)
            behind = square + (8 if board.turn == chess.BLACK else -8)
            start = square + (16 if board.turn == chess.BLACK else -16)
            if rank == (3 if board.turn == chess.BLACK else 4) and not board.piece_at(behind) \
                    and not board.piece_at(start):
                board.ep_square = behind
                break
    if not board.is_valid():
        return None
    if board.ep_square is not None and not board.has_legal_en_passant():
        board.ep_square = None
    return board


def main():
    engine, folder = sys.argv[1], sys.argv[2]
    per_set = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 85)
    sets = material_sets(folder)
    boards = []
    for name in sets:
        drawn = 0
        while drawn < per_set:
            board = random_position(name, rng)
            if board is not None:
                boards.append(board)
                drawn += 1
    with chess.syzygy.open_tablebase(folder) as tablebase:
        expected = [f"{tablebase.probe_wdl(b)} {0 if b.is_checkmate() or b.is_stalemate() else tablebase.probe_dtz(b)}"
                    for b in boards]
    fens = "".join(b.fen() + "\n" for b in boards)
    out = subprocess.run([engine, "probe", "--syzygy-path", folder], input=fens,
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        print(f"sandglass probe failed ({out.returncode}):\n{out.stderr}")
        return 1
    got = out.stdout.splitlines()
    if len(got) != len(boards):
        print(f"{len(got)} answers for {len(boards)} positions:\n{out.stderr}")
        return 1
    wrong = [(b.fen(), e, g) for b, e, g in zip(boards, expected, got) if e != g]
    for fen, e, g in wrong[:50]:
        print(f"{fen}: python-chess {e}, sandglass {g}")
    print(f"checked {len(boards)} positions over {len(sets)} material sets, {len(wrong)} disagree")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
