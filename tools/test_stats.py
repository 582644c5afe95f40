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


class RatingSpread(unittest.TestCase):
    """The interval that counts the opponents' disagreement (issue 107)."""

    # Sandglass 1.1.0's rung table, both books (docs/measurements/strength.md, 2026-12-05, the
    # table complete): the anchors as docs/measuring.md's `rungs.py report` command gives them,
    # the pentanomial counts [LL, LD, WL+DD, WD, WW] and W/D/L of the same 1,600 games.
    TABLE = (("Ethereal 12", 3390, (10, 36, 63, 65, 26), (150, 161, 89)),
             ("Stockfish 11", 3565, (62, 91, 36, 11, 0), (20, 156, 224)),
             ("Viridithas 10.0.0", 3557, (55, 70, 55, 19, 1), (51, 139, 210)),
             ("Carp 3.0.1", 3538, (90, 72, 33, 5, 0), (25, 103, 272)))

    def test_dersimonian_laird_by_hand(self):
        """Three studies, y = 0, 3, 6 with variances v = 1, 2, 4, worked by hand:
        weights w = 1/v = 1, 1/2, 1/4, Σw = 7/4; fixed-effect mean ȳ = (0 + 3/2 + 3/2)/(7/4) = 12/7;
        Q = 1·(12/7)² + ½·(9/7)² + ¼·(30/7)² = (144 + 40.5 + 225)/49 = 819/98 ≈ 8.357;
        Σw² = 1 + 1/4 + 1/16 = 21/16, C = 7/4 − (21/16)/(7/4) = 7/4 − 3/4 = 1;
        τ² = (Q − (k − 1))/C = 819/98 − 2 = 623/98 = 89/14 ≈ 6.357;
        w* = 1/(v + τ²) = 14/103, 14/117, 14/145;
        mean = (3/117 + 6/145)/(1/103 + 1/117 + 1/145) = 117111/43951 ≈ 2.66458;
        its variance 1/Σw* = 1/(14·(1/103 + 1/117 + 1/145)) ≈ 2.83984, standard error ≈ 1.68518."""
        mean, low, high, tau2, q = stats.dersimonian_laird([0, 3, 6], [1, 2, 4])
        self.assertAlmostEqual(q, 819 / 98, places=12)
        self.assertAlmostEqual(tau2, 89 / 14, places=12)
        self.assertAlmostEqual(mean, 117111 / 43951, places=12)
        se = 1 / math.sqrt(14 * (1 / 103 + 1 / 117 + 1 / 145))
        self.assertAlmostEqual(se, 1.68518, places=5)
        self.assertAlmostEqual(low, mean - stats.Z95 * se, places=12)
        self.assertAlmostEqual(high, mean + stats.Z95 * se, places=12)

    def test_dersimonian_laird_without_spread_is_the_fixed_effect(self):
        # Q below its expectation k − 1: τ² is 0 and the mean the inverse-variance one.
        mean, low, high, tau2, q = stats.dersimonian_laird([1.0, 1.5, 2.0], [1.0, 1.0, 1.0])
        self.assertEqual(tau2, 0.0)
        self.assertAlmostEqual(q, 0.5)
        self.assertAlmostEqual(mean, 1.5)
        self.assertAlmostEqual(high - mean, stats.Z95 / math.sqrt(3))

    def test_chi2_p_value(self):
        # The 95 % quantiles of χ² on 1 to 5 degrees of freedom, and on 2 the closed form e^(−x/2).
        for x, dof in ((3.841458820694124, 1), (5.991464547107979, 2), (7.814727903251178, 3),
                       (9.487729036781154, 4), (11.070497693516351, 5)):
            self.assertAlmostEqual(stats.chi2_sf(x, dof), 0.05, places=12, msg=dof)
        self.assertAlmostEqual(stats.chi2_sf(3.0, 2), math.exp(-1.5), places=12)
        self.assertEqual(stats.chi2_sf(0.0, 3), 1.0)

    def test_agreeing_opponents_keep_the_games_interval(self):
        """Four opponents, each anchored within a few Elo of the rating that scores what the match
        scored: χ² is below its k − 1, φ ≤ 1, τ = 0; the quasi-likelihood interval is the games'
        own and DerSimonian–Laird's is the same to half an Elo (it weights linearised
        performances, the games' interval solves the pooled score equation: equal to first
        order)."""
        matches = []
        for (name, _, ptnml, _), offset in zip(self.TABLE, (5, -5, 8, -3)):
            exact = 3400 - stats.elo(stats.pentanomial(ptnml)["score"])
            matches.append(stats.AnchoredMatch(name, round(exact) + offset, ptnml=ptnml))
        rating, low, high = stats.anchored_rating(matches)
        spread = stats.rating_spread(matches)
        self.assertLessEqual(spread["phi"], 1.0)
        self.assertEqual(spread["quasi"], (low, high))
        self.assertEqual(spread["tau"], 0.0)
        for got, want in zip(spread["dl"], (rating, low, high)):
            self.assertAlmostEqual(got, want, delta=0.5)
        for _, r in spread["leave_one_out"]:
            self.assertTrue(low < r < high, r)

    def test_the_1_1_0_rung_table(self):
        """The issue 107 figures: 3384, χ² about 74 on 3 degrees of freedom with the pentanomial
        variance (about 69 with the trinomial, which ignores that a pair's two games share an
        opening), about ±65 counting the disagreement, τ about 63, and 3358 to 3411 leaving one
        anchor out (without Ethereal 12, without Carp)."""
        penta_matches = [stats.AnchoredMatch(n, a, ptnml=p) for n, a, p, _ in self.TABLE]
        tri_matches = [stats.AnchoredMatch(n, a, wdl=w) for n, a, _, w in self.TABLE]
        rating, low, high = stats.anchored_rating(penta_matches)
        self.assertEqual((f"{rating:.0f}", f"{low:.0f}", f"{high:.0f}"), ("3384", "3371", "3397"))
        spread = stats.rating_spread(penta_matches)
        self.assertEqual((f"{spread['chi2']:.1f}", spread["dof"]), ("74.0", 3))
        self.assertLess(spread["p"], 1e-14)
        quasi_low, quasi_high = spread["quasi"]
        self.assertEqual((f"{quasi_low:.0f}", f"{quasi_high:.0f}"), ("3313", "3446"))
        mean, dl_low, dl_high = spread["dl"]
        self.assertEqual((f"{mean:.0f}", f"{dl_low:.0f}", f"{dl_high:.0f}", f"{spread['tau']:.0f}"),
                         ("3378", "3315", "3441", "63"))
        loo = dict(spread["leave_one_out"])
        self.assertEqual((f"{min(loo.values()):.0f}", f"{max(loo.values()):.0f}"), ("3358", "3411"))
        self.assertEqual(min(loo, key=loo.get), "Ethereal 12")
        self.assertEqual(max(loo, key=loo.get), "Carp 3.0.1")
        trinomial_spread = stats.rating_spread(tri_matches)
        self.assertEqual(f"{trinomial_spread['chi2']:.1f}", "69.2")
        self.assertEqual(f"{(trinomial_spread['quasi'][1] - trinomial_spread['quasi'][0]) / 2:.0f}", "65")

    def test_the_printed_lines(self):
        lines = stats.spread_lines([stats.AnchoredMatch(n, a, ptnml=p) for n, a, p, _ in self.TABLE])
        self.assertEqual(lines[0], "opponents' agreement: Pearson χ² 74.0 on 3 degrees of freedom, "
                                   "p = 6e-16, dispersion φ = 24.65")
        self.assertEqual(lines[1], "quasi-likelihood (variance × φ when φ > 1): 95 % interval 3313 to 3446 (± 66)")
        self.assertEqual(lines[2], "DerSimonian–Laird random effect: 3378, 95 % interval 3315 to 3441 (± 63), "
                                   "spread between opponents τ = 63 Elo")
        self.assertEqual(lines[3], "leaving one opponent out: 3358 (without Ethereal 12) to 3411 (without Carp 3.0.1)")

    def test_nothing_to_measure_the_spread_by(self):
        one = [stats.AnchoredMatch("a", 3000, wdl=(10, 20, 30))]
        self.assertIsNone(stats.rating_spread(one))
        self.assertEqual(stats.spread_lines(one), [])
        swept = one + [stats.AnchoredMatch("b", 2000, wdl=(10, 0, 0))]
        self.assertIsNone(stats.rating_spread(swept))
        self.assertIn("not measured", stats.spread_lines(swept)[0])


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
