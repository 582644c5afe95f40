"""Tests of tools/basic_mates.py's side that plays no game: the defender's most stubborn move,
the EPD round trip, the endings a game can have, the engine's clock and the suite's positions.
They read the shipped 3- and 4-man tables (data/syzygy) with python-chess; `make test` runs
them with the venv's Python.
"""

import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chess  # noqa: E402
import chess.engine  # noqa: E402
import chess.syzygy  # noqa: E402

import basic_mates as bm  # noqa: E402
import fastchess_pgn  # noqa: E402


class Defence(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tb = chess.syzygy.open_tablebase(bm.TABLES)

    @classmethod
    def tearDownClass(cls):
        cls.tb.close()

    def test_the_lone_king_keeps_the_mate_furthest_away(self):
        # Black to move in KQ v K: the move chosen leaves White the longest way to mate, and
        # it heads for the centre rather than the corner.
        board = chess.Board("8/8/8/8/8/2k5/8/K6Q b - - 0 1")
        move = bm.stubborn(board, self.tb)
        board.push(move)
        longest = self.tb.probe_dtz(board)
        board.pop()
        for other in board.legal_moves:
            board.push(other)
            self.assertLessEqual(self.tb.probe_dtz(board), longest, other.uci())
            board.pop()

    def test_an_untrue_score_is_named(self):
        # KQ v K, White to move, 17 plies from mate by the tables' DTZ.
        fen = "8/8/3k4/8/8/8/8/K6Q w - - 0 1"
        board = chess.Board(fen)
        dtz = self.tb.probe_dtz(board)

        def score(text, at=board):
            kind, value = text.split()
            value = int(value)
            cp = chess.engine.Mate(value) if kind == "mate" else chess.engine.Cp(value)
            return bm.untrue(chess.engine.PovScore(cp, chess.WHITE), at, self.tb, True)

        self.assertIsNone(score("cp 812"))
        self.assertIsNone(score(f"mate {(dtz + 1) // 2}"))
        self.assertIn("evaluation", score("cp 20913"))
        self.assertIn("tables need", score(f"mate {(dtz - 1) // 2}"))
        self.assertIn("fifty-move", score("mate 66"))
        self.assertIn("tables say", score("mate -3"))
        late = chess.Board(fen.replace(" 0 1", " 90 60"))
        self.assertIn("fifty-move", score(f"mate {(dtz + 1) // 2}", late))
        # A drawn position (the king takes the queen) has no mate for either side.
        drawn = chess.Board("8/8/8/8/8/8/1Q6/k6K b - - 0 1")
        drawn.push_uci("a1b2")
        self.assertIn("tables say", bm.untrue(chess.engine.PovScore(chess.engine.Mate(3), chess.WHITE),
                                              drawn, self.tb, True))

    def test_a_hanging_queen_is_taken(self):
        # Black's king can take the queen: every other move loses, so the defence takes it.
        board = chess.Board("8/8/8/8/8/8/1Q6/k6K b - - 0 1")
        self.assertEqual(bm.stubborn(board, self.tb), chess.Move.from_uci("a1b2"))


class Suite(unittest.TestCase):
    def test_the_epd_round_trip(self):
        fen = "8/8/3k4/8/8/8/8/K6Q w - - 0 1"
        line = bm.epd_line(fen, "KQvK.3", 17)
        self.assertEqual(line, '8/8/3k4/8/8/8/8/K6Q w - - id "KQvK.3"; c0 "dtz 17";')
        with tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False) as f:
            f.write(line + "\n\n")
        try:
            rows = bm.read_suite(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(len(rows), 1)
        material, ident, board, dtz = rows[0]
        self.assertEqual((material, ident, board.fen(), dtz), ("KQvK", "KQvK.3", fen, 17))

    def test_the_shipped_suite_is_white_to_move_and_winning(self):
        rows = bm.read_suite(bm.SUITE)
        counts = {}
        for material, _, board, dtz in rows:
            counts[material] = counts.get(material, 0) + 1
            self.assertEqual(board.turn, chess.WHITE)
            self.assertTrue(board.is_valid())
            self.assertTrue(0 < dtz <= 100)
            if material == "KBBvK":
                self.assertTrue(bm.opposite_bishops(board))
        self.assertEqual(counts, dict(bm.GOALS + bm.MEASURED))

    def test_the_pick_takes_the_longest_quarter(self):
        found = {f"fen{i:02}": i for i in range(40)}
        chosen = bm.pick(found, 3, random.Random(1))
        self.assertEqual(len(chosen), 3)
        self.assertTrue(all(dtz >= 30 for _, dtz in chosen))
        self.assertEqual(chosen, sorted(chosen, key=lambda kv: -kv[1]))
        self.assertEqual(chosen, bm.pick(found, 3, random.Random(1)))
        self.assertEqual([dtz for _, dtz in bm.pick(found, 3, None, longest=True)], [39, 38, 37])

    def test_two_bishops_on_one_colour_are_refused(self):
        self.assertTrue(bm.opposite_bishops(chess.Board("8/8/3k4/8/8/8/8/KBB5 w - - 0 1")))
        self.assertFalse(bm.opposite_bishops(chess.Board("8/8/3k4/8/8/8/8/KB1B4 w - - 0 1")))


class Ending(unittest.TestCase):
    def test_how_a_game_ends(self):
        self.assertEqual(bm.ended(chess.Board("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")), "mated")
        self.assertEqual(bm.ended(chess.Board("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")), "stalemate")
        self.assertEqual(bm.ended(chess.Board("k7/8/1K6/8/8/8/8/7R b - - 100 80")), "fifty")
        self.assertIsNone(bm.ended(chess.Board("k7/8/1K6/8/8/8/8/7R b - - 99 80")))
        board = chess.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1")
        for _ in range(2):
            for move in ["h1h2", "a8b8", "h2h1", "b8a8"]:
                board.push_uci(move)
        self.assertEqual(bm.ended(board), "repetition")

    def test_the_clock_falls(self):
        clock = bm.Clock(fastchess_pgn.TimeControl.parse("1+0.5"))
        self.assertTrue(clock.spend(0.8))
        self.assertAlmostEqual(clock.left, 700)
        self.assertEqual(clock.limit().white_clock, 0.7)
        self.assertFalse(clock.spend(0.8))


if __name__ == "__main__":
    unittest.main()
