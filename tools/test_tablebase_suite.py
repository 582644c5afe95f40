"""Tests of tools/tablebase_suite.py's judging: when a play-out counts as kept, which first
scores fit, and that the tables' defence resists longest. They read the shipped 3- and
4-man tables (data/syzygy) with python-chess; `make test` runs them with the venv's Python.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chess  # noqa: E402
import chess.engine  # noqa: E402
import chess.syzygy  # noqa: E402

import tablebase_suite as suite  # noqa: E402

TABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "syzygy")


class Judging(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tb = chess.syzygy.open_tablebase(TABLES)

    @classmethod
    def tearDownClass(cls):
        cls.tb.close()

    def test_a_win_must_stay_within_the_fifty_move_rule(self):
        # Black to move, lost in KQ v KR: kept while the counter leaves room for the DTZ.
        board = chess.Board("8/Q7/8/8/6r1/8/4k3/7K w - - 0 1")
        board.push_uci("a7e7")
        self.assertTrue(suite.still_holds(board, self.tb, "win"))
        board.halfmove_clock = 99
        self.assertFalse(suite.still_holds(board, self.tb, "win"))

    def test_a_draw_is_lost_only_by_a_move_that_loses(self):
        board = chess.Board("8/1R6/3bK3/8/8/8/5k2/8 b - - 0 1")
        kept, lost = 0, 0
        for move in list(board.legal_moves):
            board.push(move)
            if suite.still_holds(board, self.tb, "draw"):
                kept += 1
            else:
                lost += 1
            board.pop()
        # The suite's id says 14 of Black's 19 moves lose.
        self.assertEqual((kept, lost), (5, 14))

    def test_the_defence_resists_longest(self):
        board = chess.Board("8/Q7/8/8/6r1/8/4k3/7K w - - 0 1")
        board.push_uci("a7e7")
        move = suite.defend(board, self.tb)
        board.push(move)
        longest = self.tb.probe_dtz(board)
        board.pop()
        for other in board.legal_moves:
            board.push(other)
            if self.tb.probe_wdl(board) == 2:
                self.assertLessEqual(self.tb.probe_dtz(board), longest)
            board.pop()

    def test_fitting_scores(self):
        def score(cp=None, mate=None):
            pov = chess.engine.Mate(mate) if mate is not None else chess.engine.Cp(cp)
            return chess.engine.PovScore(pov, chess.WHITE)
        self.assertTrue(suite.fitting(score(cp=20000), "win"))
        self.assertTrue(suite.fitting(score(mate=12), "win"))
        self.assertFalse(suite.fitting(score(cp=650), "win"))
        self.assertFalse(suite.fitting(score(mate=-3), "win"))
        self.assertTrue(suite.fitting(score(cp=-40), "draw"))
        self.assertFalse(suite.fitting(score(cp=300), "draw"))
        self.assertFalse(suite.fitting(None, "draw"))


if __name__ == "__main__":
    unittest.main()
