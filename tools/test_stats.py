"""Tests of tools/stats.py against the sources' own numbers: fastchess's test suite
(github Disservin/fastchess, `app/tests/elo_test.cpp` and `app/tests/sprt_test.cpp`, which
check to 1 % with doctest's Approx) and fastchess's own report on a real match
(tools/testdata/fastchess_selfplay.out). `make test` runs them with the venv's Python.
"""

import math
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import stats  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def penta(ll, ld, wl, dd, wd, ww):
    """fastchess's Stats(ll, ld, wl, dd, wd, ww) as pentanomial counts [LL, LD, WL+DD, WD, WW]."""
    return [ll, ld, wl + dd, wd, ww]


class Estimate(unittest.TestCase):
    def assertClose(self, got, want, msg=None):
        """Equal to the decimals the source gives (closer than fastchess's own 1 % check)."""
        decimals = len(repr(want).split(".")[1])
        self.assertLessEqual(abs(got - want), 0.5 * 10**-decimals + 1e-9, msg)

    def test_logistic_elo(self):
        self.assertEqual(stats.elo(0.5), 0.0)
        self.assertAlmostEqual(stats.elo(1 / (1 + 10 ** (-100 / 400))), 100.0)
        self.assertAlmostEqual(stats.elo(0.75), 400 * math.log10(3))
        self.assertEqual(stats.elo(1.0), math.inf)
        self.assertEqual(stats.elo(0.0), -math.inf)

    def test_fastchess_elo_wdl(self):
        # fastchess Stats(wins, losses, draws); the printed LOS to two decimals.
        for (w, l, d), want in (((76, 89, 123), {"nelo": -20.76, "nelo_err95": 40.13, "los": 15.53,
                                                 "score": 0.477}),
                                ((136, 96, 111), {"nelo": 49.77, "nelo_err95": 36.77, "elo": 40.70,
                                                  "elo_err95": 30.43, "los": 99.60, "score": 0.558}),
                                ((34, 356, 0), {"nelo": -508.44, "nelo_err95": 34.48, "score": 0.087})):
            got = stats.trinomial(w, d, l)
            for key, value in want.items():
                if key == "los":
                    self.assertEqual(f"{100 * got['los']:.2f}", f"{value:.2f}", (w, l, d))
                else:
                    self.assertClose(got[key], value, msg=(w, l, d, key))

    def test_fastchess_elo_pentanomial(self):
        for counts, want in ((penta(34, 54, 31, 32, 64, 75), {"nelo": 57.94, "nelo_err95": 28.28, "elo": 55.58,
                                                              "elo_err95": 27.65, "los": 100.00, "score": 0.579}),
                             (penta(332, 433, 457, 41, 333, 334), {"nelo": -9.17, "nelo_err95": 10.96,
                                                                   "elo": -8.64, "elo_err95": 10.33,
                                                                   "los": 5.05, "score": 0.488}),
                             (penta(7895, 8757, 5485, 200, 568, 9999), {"nelo": -19.01, "nelo_err95": 2.65,
                                                                        "elo": -21.04, "elo_err95": 2.95,
                                                                        "los": 0.00, "score": 0.470})):
            got = stats.pentanomial(counts)
            for key, value in want.items():
                if key == "los":
                    self.assertEqual(f"{100 * got['los']:.2f}", f"{value:.2f}", counts)
                else:
                    self.assertClose(got[key], value, msg=(counts, key))

    def test_no_spread(self):
        # Every pair drawn: the score is exact, nElo undefined, LOS one half.
        got = stats.pentanomial([0, 0, 7, 0, 0])
        self.assertEqual((got["score"], got["elo"], got["elo_err95"], got["los"]), (0.5, 0.0, 0.0, 0.5))
        self.assertTrue(math.isnan(got["nelo"]))

    def test_printed_interval(self):
        # Finite: as fastchess prints it.
        self.assertEqual(stats.fmt_elo(stats.pentanomial([5, 10, 30, 11, 4])), "-2.9 ± 43.1")
        # One pair won and one half won: the score's upper end passes 100 %, and "± inf" hid
        # the lower end, which is finite.
        one_sided = stats.pentanomial([0, 0, 0, 1, 1])
        self.assertEqual(one_sided["elo_err95"], math.inf)
        self.assertEqual(stats.fmt_elo(one_sided), "+338.0 (95 %: +148.7 to +∞)")
        self.assertEqual(stats.fmt_elo(stats.pentanomial([1, 1, 0, 0, 0])), "-338.0 (95 %: -∞ to -148.7)")
        # Every pair alike: "± 0.0" (or "± nan" at 100 %) claimed an exact figure.
        self.assertEqual(stats.fmt_elo(stats.pentanomial([0, 0, 1, 0, 0])), "+0.0 (no interval: all scored alike)")
        self.assertEqual(stats.fmt_elo(stats.trinomial(3, 0, 0)), "+∞ (no interval: all scored alike)")
        # A summary written before the interval's ends were kept.
        self.assertEqual(stats.fmt_elo({"elo": 10.0, "elo_err95": math.inf}), "+10.0 (95 % interval unbounded)")
        self.assertEqual(stats.fmt_elo({}), "n/a")


class Gsprt(unittest.TestCase):
    def test_fastchess_normalized_pentanomial(self):
        for counts, (elo0, elo1), want in ((penta(365, 16618, 36029, 200, 16974, 390), (0, 2), 2.25),
                                           (penta(127, 4883, 10311, 401, 5150, 104), (-1.75, 0.25), 3.01),
                                           (penta(0, 0, 0, 0, 0, 5550), (0, 5), 111.82)):
            llr = stats.Sprt(elo0, elo1).llr(counts)
            self.assertAlmostEqual(llr, want, delta=0.01 * want, msg=counts)

    def test_fastchess_normalized_trinomial(self):
        # fastchess Stats(wins, losses, draws).
        for (w, l, d), (elo0, elo1), want in (((36433, 36027, 68692), (0, 2), 0.92),
                                              ((10871, 10650, 20431), (-1.75, 0.25), 2.30),
                                              ((4250, 0, 0), (0, 10), 120.56)):
            llr = stats.Sprt(elo0, elo1).llr_trinomial(w, d, l)
            self.assertAlmostEqual(llr, want, delta=0.01 * want, msg=(w, l, d))

    def test_wald_bounds_and_verdict(self):
        sprt = stats.Sprt.parse("elo0=0,elo1=10")
        self.assertEqual(sprt.bounds(), (math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
        self.assertEqual(f"({sprt.bounds()[0]:.2f}, {sprt.bounds()[1]:.2f})", "(-2.94, 2.94)")
        self.assertEqual(stats.Sprt.parse("elo0=-5,elo1=0,alpha=0.1,beta=0.2").bounds(),
                         (math.log(0.2 / 0.9), math.log(0.8 / 0.1)))
        self.assertEqual(sprt.verdict(2.95), "H1 accepted")
        self.assertEqual(sprt.verdict(-2.95), "H0 accepted")
        self.assertEqual(sprt.verdict(0.0), "not decided")

    def test_bad_parameters_are_refused(self):
        for text in ("elo0=10,elo1=0", "elo0=0", "elo0=0,elo1=5,alpha=1", "elo0=0,elo1=x", "e=1,elo1=2", ""):
            with self.assertRaises(ValueError, msg=text):
                stats.Sprt.parse(text)

    def test_mle_has_the_asked_normalized_elo(self):
        freq = [0.05, 0.25, 0.4, 0.25, 0.05]
        for nelo in (-20.0, 0.0, 7.5):
            p = stats.Sprt(0, 5).mle(freq, nelo)
            self.assertAlmostEqual(sum(p), 1.0, places=9)
            mu = sum(a * q for a, q in zip(stats.PAIR_SCORES, p))
            sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(stats.PAIR_SCORES, p)))
            self.assertAlmostEqual((mu - 0.5) / (math.sqrt(2) * sigma) * stats.NELO_SCALE, nelo, places=6)


class AnchoredRating(unittest.TestCase):
    """One opponent: the rating is the anchor plus fastchess's Elo and the interval fastchess's,
    to the printed decimals (the counts are those of Estimate's fastchess cases). Several:
    the score equation holds, and opponents of one rating pool into one."""

    def test_one_opponent_is_fastchess_elo_from_the_anchor(self):
        for match, elo, err in ((stats.AnchoredMatch("a", 3000, wdl=(136, 111, 96)), 40.70, 30.43),
                                (stats.AnchoredMatch("b", 3390, ptnml=penta(34, 54, 31, 32, 64, 75)),
                                 55.58, 27.65),
                                (stats.AnchoredMatch("c", 2500, ptnml=penta(332, 433, 457, 41, 333, 334)),
                                 -8.64, 10.33)):
            rating, low, high = stats.anchored_rating([match])
            self.assertEqual(f"{rating - match.anchor:.2f}", f"{elo:.2f}", match)
            self.assertEqual(f"{(high - low) / 2:.2f}", f"{err:.2f}", match)

    def test_points_scored_equal_points_expected(self):
        matches = [stats.AnchoredMatch("e", 3390, ptnml=(5, 32, 52, 59, 52)),
                   stats.AnchoredMatch("c", 3538, wdl=(3, 13, 24)),
                   stats.AnchoredMatch("s", 3565, wdl=(4, 16, 20))]
        rating, low, high = stats.anchored_rating(matches)
        scored = (2 * (0.25 * 32 + 0.5 * 52 + 0.75 * 59 + 52)) + (3 + 6.5) + (4 + 8)
        self.assertAlmostEqual(sum(m.games() * stats.expected(rating, m.anchor) for m in matches), scored,
                               places=6)
        # Between the weakest and the strongest performance, and the interval around it.
        self.assertTrue(3538 + stats.elo(9.5 / 40) < rating < 3390 + stats.elo(0.6512), rating)
        self.assertTrue(low < rating < high)

    def test_opponents_of_one_rating_pool(self):
        apart = stats.anchored_rating([stats.AnchoredMatch("x", 3000, wdl=(10, 20, 30)),
                                       stats.AnchoredMatch("y", 3000, wdl=(30, 20, 10))])
        pooled = stats.anchored_rating([stats.AnchoredMatch("xy", 3000, wdl=(40, 40, 40))])
        self.assertAlmostEqual(apart[0], pooled[0], places=6)
        self.assertAlmostEqual(apart[0], 3000, places=6)

    def test_a_clean_sweep_has_no_upper_end(self):
        rating, low, high = stats.anchored_rating([stats.AnchoredMatch("w", 2000, wdl=(10, 0, 0))])
        self.assertEqual((rating, high), (math.inf, math.inf))

    def test_bad_match_text_is_refused(self):
        self.assertEqual(stats.AnchoredMatch.parse("Carp 3.0.1,3538,wdl=3,13,24").wdl, (3, 13, 24))
        for text in ("Carp,3538", "Carp,x,wdl=1,2,3", "Carp,3538,wdl=1,2", "Carp,3538,ptnml=1,2,3",
                     "Carp,3538,wdl=0,0,0", "Carp,3538,elo=5", "Carp,3538,wdl=-1,2,3"):
            with self.assertRaises(ValueError, msg=text):
                stats.AnchoredMatch.parse(text)


class FastchessReport(unittest.TestCase):
    """Every figure of fastchess's own final report on a real match, recomputed from its counts."""

    def test_recomputes_the_report(self):
        with open(os.path.join(HERE, "testdata", "fastchess_selfplay.out"), encoding="utf-8") as f:
            text = f.read()
        number = r"(-?[\d.]+|inf|-inf|nan)"
        elo = re.search(rf"Elo: {number} \+/- {number}, nElo: {number} \+/- {number}", text)
        los = re.search(rf"LOS: {number} %", text)
        games = re.search(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+), Points: [\d.]+ "
                          rf"\({number} %\)", text)
        ptnml = re.search(r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]", text)
        llr = re.search(rf"LLR: {number} \([-\d.]+%\) \({number}, {number}\) \[{number}, {number}\]", text)
        self.assertTrue(elo and los and games and ptnml and llr, text)
        counts = [int(x) for x in ptnml.groups()]
        got = stats.pentanomial(counts)
        for value, printed in ((got["elo"], elo[1]), (got["elo_err95"], elo[2]), (got["nelo"], elo[3]),
                               (got["nelo_err95"], elo[4]), (100 * got["los"], los[1]),
                               (100 * got["score"], games[5])):
            self.assertEqual(f"{value:.2f}", printed, text)
        w, l, d = (int(x) for x in games.groups()[1:4])
        self.assertEqual(2 * sum(counts), w + l + d)
        sprt = stats.Sprt(float(llr[4]), float(llr[5]))
        self.assertEqual(f"{sprt.llr(counts):.2f}", llr[1])
        self.assertEqual(f"({sprt.bounds()[0]:.2f}, {sprt.bounds()[1]:.2f})", f"({llr[2]}, {llr[3]})")


if __name__ == "__main__":
    unittest.main()
