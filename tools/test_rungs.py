"""Tests of tools/rungs.py without games: the parts' order and seeds, when a part counts as
finished, playing and resuming with a stand-in for fastchess, and the report's pooling, in
which a game pair is two games of one round of one part. `make test` runs them.
"""

import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import rungs  # noqa: E402
from test_fastchess_run import stub_engine  # noqa: E402

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
        with self.assertRaises(ValueError):
            rungs.schedule([f"e{i}" for i in range(50)], [], range(1, 2), 1000)

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


# A stand-in for fastchess: it appends `-rounds` drawn pairs to the `-pgnout` file (as
# fastchess appends), each game's Event naming the seed and the variant, notes its seed in
# calls.txt, and prints fastchess's report. With FAKE_GAMES=N in its environment it stops
# after N games and exits with 1, as fastchess does when it is interrupted.
FAKE_FASTCHESS = """#!{python}
import os, sys
args = sys.argv[1:]
value = lambda flag: args[args.index(flag) + 1]
names = [a[5:] for a in args if a.startswith("name=")]
pgn = next(a[5:] for a in args[args.index("-pgnout"):] if a.startswith("file="))
seed, pairs = value("-srand"), int(value("-rounds"))
variant = value("-variant") if "-variant" in args else "standard"
games = min(2 * pairs, int(os.environ.get("FAKE_GAMES", 2 * pairs)))
with open("calls.txt", "a") as f:
    f.write(seed + "\\n")
with open(pgn, "a") as f:
    for g in range(games):
        white, black = names if g % 2 == 0 else names[::-1]
        f.write(f'[Event "{{seed}} {{variant}}"]\\n[Round "{{g // 2 + 1}}"]\\n[White "{{white}}"]\\n'
                f'[Black "{{black}}"]\\n[Result "1/2-1/2"]\\n[TimeControl "10+0.1"]\\n\\n'
                '1. e4 {{+0.10/12 0.250s, tl=9.850s}} e5 {{-0.10/12 0.300s, tl=9.800s}} 1/2-1/2\\n\\n')
print(f"Results of {{names[0]}} vs {{names[1]}}")
print(f"Games: {{games}}, Wins: 0, Losses: 0, Draws: {{games}}, Points: {{games / 2}}")
print(f"Ptnml(0-2): [0, 0, {{games // 2}}, 0, 0]")
sys.exit(0 if games == 2 * pairs else 1)
"""


class Play(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        tmp = self.dir.name
        self.fastchess = os.path.join(tmp, "fastchess")
        with open(self.fastchess, "w", encoding="utf-8") as f:
            f.write(FAKE_FASTCHESS.format(python=sys.executable))
        os.chmod(self.fastchess, 0o755)
        self.engine, self.rival = stub_engine(tmp, "sandglass-build"), stub_engine(tmp, "rival")
        self.out = os.path.join(tmp, "table")

    def play(self, engine=None, games=None, pairs="2"):
        """rungs.py play's exit code; its stderr in self.said."""
        argv = ["play", engine or self.engine, "--opponent", f"a={self.rival}", "--opponent",
                f"b={self.rival}", "--chess960", "b", "--rounds", "1-2", "--pairs", pairs, "--seed", "500",
                "--out", self.out, "--fastchess", self.fastchess, "--lock", os.path.join(self.dir.name, "lock")]
        env = {"FAKE_GAMES": str(games)} if games is not None else {}
        err = io.StringIO()
        with mock.patch.dict(os.environ, env), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(err):
            try:
                code = rungs.main(argv)
            except SystemExit as stop:
                code = stop.code
        self.said = err.getvalue()
        return code

    def calls(self):
        with open(os.path.join(self.out, "calls.txt"), encoding="utf-8") as f:
            return [int(x) for x in f.read().split()]

    def events(self, name):
        with open(os.path.join(self.out, name + ".pgn"), encoding="utf-8") as f:
            return [line for line in f if line.startswith("[Event")]

    def test_parts_are_played_once_resumed_and_replayed_whole(self):
        self.assertEqual(self.play(games=3), 1, "a part stopped half-way stops the run")
        self.assertEqual(self.calls(), [511])
        self.assertEqual(len(self.events("r1-a-noob-511")), 3)
        self.assertEqual(self.play(), 0)
        # The stopped part again, whole and alone in its file, then the rest of both rounds:
        # five parts a round, seeds 500 + 10·round + part.
        self.assertEqual(self.calls(), [511, 511, 512, 513, 514, 515, 521, 522, 523, 524, 525])
        self.assertEqual(self.events("r1-a-noob-511"), ['[Event "511 standard"]\n'] * 4)
        self.assertEqual(self.events("r2-b-960-525"), ['[Event "525 fischerandom"]\n'] * 4)
        self.assertEqual(self.play(), 0)
        self.assertEqual(len(self.calls()), 11, "finished parts are not played again")
        # A STOP file ends a run before its next part, and goes.
        open(os.path.join(self.out, "STOP"), "w").close()
        os.remove(os.path.join(self.out, "r2-b-noob-523.out"))
        self.assertEqual(self.play(), 0)
        self.assertEqual(len(self.calls()), 11)
        self.assertFalse(os.path.exists(os.path.join(self.out, "STOP")))
        self.assertEqual(self.play(), 0)
        self.assertEqual(self.calls()[-1], 523, "the part without its report is played again")
        parts, left_out = rungs.pooled([self.out])
        self.assertEqual(left_out, [])
        self.assertEqual(sorted(parts), [("a", "8moves"), ("a", "noob"), ("b", "8moves"), ("b", "960"),
                                         ("b", "noob")])
        _, tallies = rungs.table(parts)
        self.assertEqual(tallies[("a", "both")]["ptnml"], [0, 0, 8, 0, 0])

    def test_a_folder_keeps_its_build_and_its_settings(self):
        self.assertEqual(self.play(), 0)
        other = stub_engine(self.dir.name, "another-build")
        with open(other, "a", encoding="utf-8") as f:
            f.write("# another build\n")
        self.assertEqual(self.play(engine=other), 2)
        self.assertIn("another Sandglass binary", self.said)
        # With other pairs every part would read as unfinished, and its games would go.
        self.assertEqual(self.play(pairs="1"), 2)
        self.assertIn("pairs 2, not 1", self.said)
        self.assertEqual(len(self.calls()), 10)
        self.assertEqual(len(self.events("r1-a-noob-511")), 4)
        # Two folders of different builds, or one part twice, do not pool.
        copy = os.path.join(self.dir.name, "copy")
        os.makedirs(copy)
        shutil.copy2(os.path.join(self.out, "r1-a-noob-511.pgn"), copy)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err, \
                self.assertRaises(SystemExit) as stop:
            rungs.main(["report", self.out, copy])
        self.assertEqual(stop.exception.code, 2)
        self.assertIn("repeats", err.getvalue())
        shutil.copy2(other, os.path.join(copy, "sandglass"))
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err, \
                self.assertRaises(SystemExit):
            rungs.main(["report", self.out, copy])
        self.assertIn("different binaries", err.getvalue())


class Report(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def part(self, name, text, reported=True):
        """A part's PGN, and fastchess's output with its report (the figures are not read)."""
        with open(os.path.join(self.dir.name, name + ".pgn"), "w", encoding="utf-8") as f:
            f.write(text)
        with open(os.path.join(self.dir.name, name + ".out"), "w", encoding="utf-8") as f:
            f.write("Started game 1 of 2\n")
            if reported:
                f.write("Results of sandglass vs x\nGames: 2, Wins: 0, Losses: 0, Draws: 2\n")

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
        self.part("r3-carp-noob-87031", pair(1, "carp", "1-0", "1-0"), reported=False)
        parts, left_out = rungs.pooled([self.dir.name])
        self.assertEqual(left_out, ["r3-carp-noob-87031"], "a part being played is left out")
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
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            self.run_report("karp=3538")
        self.assertIn("--anchor karp: no such opponent", err.getvalue())
        code, text = self.run_report()
        self.assertEqual(code, 1, "a forfeit by Sandglass fails the report")
        self.assertIn("| ethereal12 | 960 | 2 |", text)
        self.assertIn("sandglass: 1 time forfeit", text)

    def test_the_rating_line_counts_the_opponents_disagreement(self):
        # The 1.1.0 table's pentanomial counts (tools/test_stats.py's RatingSpread.TABLE).
        tallies = {(name, "both"): {"ptnml": list(ptnml)} for name, ptnml in
                   (("ethereal12", (10, 36, 63, 65, 26)), ("sf11", (62, 91, 36, 11, 0)),
                    ("viridithas", (55, 70, 55, 19, 1)), ("carp", (90, 72, 33, 5, 0)))}
        anchors = [("carp", 3538.0), ("viridithas", 3557.0), ("sf11", 3565.0), ("ethereal12", 3390.0)]
        line, = rungs.ratings(tallies, anchors)
        self.assertIn("rating, both books: 3384, 95 % interval 3371 to 3397, 1600 games in pairs", line)
        self.assertIn("with the opponents' disagreement (χ² 74.0 on 3 d.o.f.): quasi-likelihood 3313 to 3446, "
                      "DerSimonian–Laird 3378 (3315 to 3441, τ 63)", line)


if __name__ == "__main__":
    unittest.main()
