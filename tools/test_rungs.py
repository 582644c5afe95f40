"""Tests of tools/rungs.py without games: the parts' order and seeds, when a part counts as
finished, and the report's pooling, in which a game pair is two games of one round of one
part. `make test` runs them.
"""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import rungs  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata")
LADDER = ["carp", "viridithas", "sf11", "ethereal12"]


def game(rnd, white, black, result, termination="normal"):
    """One game as fastchess writes it, two moves long, both clocks read."""
    return (f'[Event "t"]\n[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n[Termination "{termination}"]\n[TimeControl "10+0.1"]\n\n'
            f"1. e4 {{+0.10/12 0.250s, tl=9.850s}} e5 {{-0.10/12 0.300s, tl=9.800s}} {result}\n\n")


def pair(rnd, opponent, first, second, termination="normal"):
    """Sandglass with White, then with Black, from one opening: its results in each."""
    flip = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2"}
    return (game(rnd, "sandglass", opponent, first)
            + game(rnd, opponent, "sandglass", flip[second], termination))


class Schedule(unittest.TestCase):
    def test_a_round_is_each_opponent_on_both_books_then_chess960(self):
        parts = rungs.schedule(LADDER, ["ethereal12"], range(1, 3), 87000)
        self.assertEqual(len(parts), 18)
        self.assertEqual(parts[0], (1, "carp", "noob", 87011))
        self.assertEqual(parts[1], (1, "carp", "8moves", 87012))
        self.assertEqual(parts[7], (1, "ethereal12", "8moves", 87018))
        self.assertEqual(parts[8], (1, "ethereal12", "960", 87019))
        self.assertEqual(parts[9], (2, "carp", "noob", 87021))
        self.assertEqual(len({seed for *_, seed in parts}), 18)

    def test_seeds_stay_apart_with_more_than_nine_parts_a_round(self):
        parts = rungs.schedule(LADDER + ["toga"], LADDER, range(1, 4), 1000)
        seeds = [seed for *_, seed in parts]
        self.assertEqual(len(parts), 3 * 14)
        self.assertEqual(len(set(seeds)), len(seeds))
        self.assertEqual(seeds[:2], [1101, 1102])
        self.assertEqual(seeds[14], 1201)

    def test_a_part_is_finished_when_fastchess_reports_all_its_games(self):
        out = os.path.join(DATA, "fastchess_selfplay.out")  # 8 games
        self.assertTrue(rungs.finished(out, 4))
        self.assertFalse(rungs.finished(out, 10))
        self.assertFalse(rungs.finished(os.path.join(DATA, "no-such.out"), 4))

    def test_bad_arguments(self):
        self.assertEqual(rungs.rounds_arg("3"), range(3, 4))
        self.assertEqual(rungs.rounds_arg("2-5"), range(2, 6))
        for bad in ("0", "5-2", "x", "1-"):
            with self.assertRaises(Exception, msg=bad):
                rungs.rounds_arg(bad)
        self.assertEqual(rungs.name_and_value("sf11=/usr/bin/sf"), ("sf11", "/usr/bin/sf"))
        for bad in ("sf11", "=x", "a/b=x", "a b=x", "carp="):
            with self.assertRaises(Exception, msg=bad):
                rungs.name_and_value(bad)


class Report(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def part(self, name, text):
        with open(os.path.join(self.dir.name, name + ".pgn"), "w", encoding="utf-8") as f:
            f.write(text)

    def run_report(self, *anchors):
        argv = ["report", self.dir.name] + [a for x in anchors for a in ("--anchor", x)]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = rungs.main(argv)
        return code, out.getvalue()

    def test_parts_pool_pair_by_pair(self):
        # Every part numbers its rounds from 1: read as one file, round 1 would hold six games
        # and no pair.
        self.part("r1-carp-noob-87011", pair(1, "carp", "1-0", "1-0"))
        self.part("r2-carp-noob-87021", pair(1, "carp", "0-1", "1/2-1/2"))
        self.part("r1-carp-8moves-87012", pair(1, "carp", "1/2-1/2", "1/2-1/2"))
        parts = rungs.pooled([self.dir.name])
        self.assertEqual(len(parts[("carp", "noob")]), 2)
        _, tallies = rungs.table(parts)
        noob, both = tallies[("carp", "noob")], tallies[("carp", "both")]
        self.assertEqual((noob["wins"], noob["draws"], noob["losses"]), (2, 1, 1))
        self.assertEqual(noob["ptnml"], [0, 1, 0, 0, 1])
        self.assertEqual(both["ptnml"], [0, 1, 1, 0, 1])
        self.assertEqual(both["games"], 6)
        # Lowest as Black: 9.800 s after the move, the 0.1 s increment not yet earned.
        self.assertEqual(both["clock"]["lowest_ms"], 9800 - 100)

    def test_the_table_the_rating_and_the_exit_code(self):
        self.part("r1-carp-noob-87011", pair(1, "carp", "1/2-1/2", "0-1"))
        self.part("r1-sf11-noob-87015", pair(1, "sf11", "1/2-1/2", "1-0", termination="time forfeit"))
        code, text = self.run_report("carp=3538", "sf11=3565")
        self.assertEqual(code, 0, text)
        self.assertIn("| carp | noob | 2 | 0/1/1 | 25.0 % | [0, 1, 0, 0, 0] |", text)
        self.assertIn("sf11: 1 time forfeit", text)
        # One pair against each: a quarter of the points against 3538, three quarters against
        # 3565, so the rating is where the expected points sum to one: midway, 3551.5.
        self.assertIn("rating, noob: 3552", text)
        self.part("r1-ethereal12-960-87019", pair(1, "ethereal12", "1/2-1/2", "0-1", termination="time forfeit"))
        code, text = self.run_report()
        self.assertEqual(code, 1, "a forfeit by Sandglass fails the report")
        self.assertIn("| ethereal12 | 960 | 2 |", text)
        self.assertIn("sandglass: 1 time forfeit", text)


if __name__ == "__main__":
    unittest.main()
