"""Tests of tools/fastchess_pgn.py on real fastchess output (tools/testdata/, README there):
the results, incidents and clocks it reads must agree with what fastchess itself printed, and
the clock comments must obey fastchess's own clock rules. `make test` runs them.
"""

import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fastchess_pgn as fp  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata")
CLOCKED = ("selfplay", "repeating", "forfeits", "incidents")
SAMPLES = CLOCKED + ("nodes",)


def games(sample):
    return fp.read_games(os.path.join(DATA, f"fastchess_{sample}.pgn"))


def finished_lines(sample):
    """fastchess's `Finished game N (White vs Black): result {reason}` lines, in order."""
    with open(os.path.join(DATA, f"fastchess_{sample}.out"), encoding="utf-8") as f:
        return re.findall(r"Finished game \d+ \((\S+) vs (\S+)\): (\S+) \{(.*)\}", f.read())


class TimeControls(unittest.TestCase):
    def test_forms(self):
        self.assertEqual(fp.TimeControl.parse("10+0.1"), fp.TimeControl(base=10000, inc=100))
        self.assertEqual(fp.TimeControl.parse("40/2"), fp.TimeControl(base=2000, moves=40))
        self.assertEqual(fp.TimeControl.parse("st=0.05"), fp.TimeControl(movetime=50))
        self.assertEqual(fp.TimeControl.parse("0.05/move"), fp.TimeControl(movetime=50))
        self.assertEqual(fp.TimeControl.parse("nodes=20000"), fp.TimeControl(nodes=20000))
        self.assertEqual(fp.TimeControl.parse("nodes=20000").fastchess(), "nodes=20000")
        for text in ("10+0.1", "40/2", "1+0.01", "st=0.05", "40/60+1"):
            self.assertEqual(fp.TimeControl.parse(text).fastchess(), text if text.startswith("st") else "tc=" + text)
        for text in ("", "fast", "0/60", "10+", "st=", "nodes=", "nodes=0", "nodes=1.5"):
            self.assertIsNone(fp.TimeControl.parse(text), text)

    def test_time_given_by_move_60(self):
        self.assertEqual(fp.TimeControl.parse("10+0.1").given_by(60), 16000)
        self.assertEqual(fp.TimeControl.parse("40/2").given_by(60), 4000)  # two periods begun
        self.assertEqual(fp.TimeControl.parse("40/2").given_by(40), 2000)
        self.assertTrue(fp.TimeControl.parse("40/2").refills_at(80))
        self.assertFalse(fp.TimeControl.parse("40/2").refills_at(41))


class Results(unittest.TestCase):
    def test_every_game_as_fastchess_reported_it(self):
        # The PGN adds the illegal move itself: "White makes an illegal move: a1a1".
        for sample in SAMPLES:
            read = [(g.white, g.black, g.headers["Result"], g.reason.split(": ")[0]) for g in games(sample)]
            self.assertEqual(sorted(read), sorted(finished_lines(sample)), sample)

    def test_tally_matches_the_report(self):
        # fastchess_selfplay.out: "Games: 8, Wins: 4, Losses: 1, Draws: 3", "Ptnml(0-2): [0, 0, 2, 1, 1]".
        t = fp.tally(games("selfplay"), "sandglass-a")
        self.assertEqual((t["games"], t["wins"], t["losses"], t["draws"]), (8, 4, 1, 3))
        self.assertEqual(t["ptnml"], [0, 0, 2, 1, 1])
        self.assertEqual(t["incidents"], {})
        mirror = fp.tally(games("selfplay"), "sandglass-b")
        self.assertEqual((mirror["wins"], mirror["losses"], mirror["ptnml"]), (1, 4, [1, 1, 2, 0, 0]))

    def test_incidents_by_loser(self):
        self.assertEqual(fp.tally(games("forfeits"), "sandglass")["incidents"],
                         {"slow": {"time forfeit": 2, "illegal move": 0, "crash": 0, "stall": 0}})
        found = sorted(g.incident() for g in games("incidents"))
        self.assertEqual(found, [("crash", "crash")] * 2 + [("illegal", "illegal move")] * 2 + [("stall", "stall")] * 2)
        for g in games("selfplay") + games("repeating"):
            self.assertIsNone(g.incident())
        # Against one opponent only: the gauntlet's pairs.
        t = fp.tally(games("incidents"), "sandglass", opponent="illegal")
        self.assertEqual((t["wins"], t["games"], t["ptnml"]), (2, 2, [0, 0, 0, 0, 1]))
        self.assertEqual(list(t["incidents"]), ["illegal"])

    def test_a_stall_before_the_first_move_is_read_from_fastchess_output(self):
        # Both games ended before the stalling engine's first move, so the PGN has no comment
        # that says why. fastchess's output does: game 1 failed while the engine was started
        # (fastchess calls that a disconnect, naming the side to move), game 2 stalled.
        self.assertEqual([g.incident() for g in games("first_move")], [("stall", "crash"), ("stall", "stall")])
        self.assertEqual([g.reason for g in games("first_move")],
                         ["White disconnects", "White's connection stalls"])
        with tempfile.TemporaryDirectory() as tmp:
            alone = os.path.join(tmp, "fastchess_first_move.pgn")
            shutil.copy(os.path.join(DATA, "fastchess_first_move.pgn"), alone)
            self.assertEqual([g.incident() for g in fp.read_games(alone)], [("stall", "crash")] * 2)

    def test_reasons_in_the_pgn_are_kept(self):
        # The illegal move's comment names the move, fastchess's output line does not.
        reasons = [g.reason for g in games("incidents")]
        self.assertIn("Black makes an illegal move: a1a1", reasons)
        self.assertEqual(len(reasons), 6)


class Clocks(unittest.TestCase):
    def test_comments_follow_fastchess_clock(self):
        # Start at base + increment; each move: minus its time, plus the increment, plus the
        # base on every M-th move at M/B. Exact to the millisecond in every timed sample game.
        for sample in CLOCKED:
            for g in games(sample):
                tc = g.time_control(True)
                last = {True: tc.base + tc.inc, False: tc.base + tc.inc}
                self.assertGreater(len(g.moves), 5, sample)
                for m in g.moves:
                    want = last[m.white] - m.elapsed_ms + tc.inc + (tc.base if tc.refills_at(m.number) else 0)
                    self.assertEqual(round(m.tl_ms), round(want), (sample, g.white, m))
                    last[m.white] = m.tl_ms

    def test_moves_alternate_from_the_fen(self):
        for g in games("selfplay"):
            first_white = g.headers["FEN"].split()[1] == "w"
            self.assertEqual([m.white for m in g.moves[:4]], [first_white, not first_white] * 2)
            self.assertEqual(len(g.moves), int(g.headers["PlyCount"]))

    def test_clock_left_before_each_refill(self):
        # fastchess_repeating.pgn, game 1 at 20/0.5: White (sandglass-b) plays its 20th move
        # 23. fxe5 with 85 ms on the clock in 19 ms: 66 ms left before the refill (tl=0.566s);
        # Black (sandglass-a) 23... Ng4 from 135 ms in 26 ms: 109 ms.
        g = games("repeating")[0]
        twentieth = [m for m in g.moves if m.number == 20]
        tc = fp.TimeControl.parse("20/0.5")
        self.assertEqual([round(fp.clock_left(m, tc)) for m in twentieth], [66, 109])
        figures = fp.clock_figures(games("repeating"), ["sandglass-a", "sandglass-b"])
        b = figures["sandglass-b"]
        self.assertEqual(b["refills"], 2 + 4)  # 45 and 82 moves in its two games
        self.assertLessEqual(b["before_refill_lowest_ms"], 66)
        self.assertEqual(b["lowest_ms"], b["before_refill_lowest_ms"])

    def test_share_used_by_move_60(self):
        # The share from the clock comment equals the sum of the move times over the time given.
        for g in games("selfplay"):
            for white in (True, False):
                own = [m for m in g.moves if m.white == white]
                if len(own) < 60:
                    continue
                one = fp.clock_figures([g], [g.white if white else g.black])
                share = next(iter(one.values()))["share_by_60"]
                self.assertAlmostEqual(share, sum(m.elapsed_ms for m in own[:60]) / 1600, places=9)

    def test_a_flag_is_read_as_the_overrun(self):
        # fastchess gives the overrun itself (tl=-0.012s); no increment was added to take off.
        m = fp.Move(white=False, number=30, elapsed_ms=9612.0, tl_ms=-12.0)
        self.assertEqual(fp.clock_left(m, fp.TimeControl.parse("10+0.1")), -12.0)

    def test_fixed_time_per_move(self):
        # st=: the clock left is the move time less what the move took (negative when over).
        m = fp.Move(True, 1, 51.0, -1.0)
        self.assertEqual(fp.clock_left(m, fp.TimeControl.parse("st=0.05")), -1.0)

    def test_fixed_nodes_keep_no_clock(self):
        # fastchess writes "tl=0.000s" at fixed nodes; that is no clock, not a clock at zero.
        nodes = games("nodes")
        self.assertEqual({g.headers["TimeControl"] for g in nodes}, {"-"})
        figures = fp.clock_figures(nodes, ["sandglass-a", "sandglass-b"], fp.TimeControl.parse("nodes=5000"))
        for side in figures.values():
            self.assertIsNone(side["lowest_ms"])
            self.assertIsNone(side["share_by_60"])
            self.assertGreater(side["ms_per_move"], 0)


if __name__ == "__main__":
    unittest.main()
