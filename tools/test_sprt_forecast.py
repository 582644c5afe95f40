"""Tests of tools/sprt_forecast.py and of `tools/tm_sprt.py pool`, which prints its forecast.
`make test` runs them with the venv's Python:

    target/venv/bin/python3 -m unittest discover -s tools -p 'test_*.py'
"""

import argparse
import contextlib
import io
import json
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import sprt_forecast as sf  # noqa: E402
import stats  # noqa: E402
import tm_sprt  # noqa: E402

# Wald's bounds for alpha = beta = 0.05, the default of stats.Sprt, fishtest and fastchess.
LA, LB = math.log(0.05 / 0.95), math.log(0.95 / 0.05)


def bayeselo_wdl(bayeselo, drawelo):
    """Win, draw and loss chances in the BayesElo model that sprta.py's examples use."""
    win = 1 / (1 + 10 ** ((drawelo - bayeselo) / 400))
    loss = 1 / (1 + 10 ** ((drawelo + bayeselo) / 400))
    return win, 1 - win - loss, loss


def sprta(elo0, elo1, drawelo, elo):
    """Pass chance and average games of a trinomial SPRT in BayesElo bounds, for a true
    logistic `elo`: the per-game LLR moments fed to sf.exit_brownian, as sprta.py does."""
    p0, p1 = bayeselo_wdl(elo0, drawelo), bayeselo_wdl(elo1, drawelo)
    step = [math.log(a / b) for a, b in zip(p1, p0)]
    target, lo, hi = 1 / (1 + 10 ** (-elo / 400)), -1000.0, 1000.0
    for _ in range(200):  # the BayesElo with this logistic score at the same drawelo
        mid = (lo + hi) / 2
        w, d, _ = bayeselo_wdl(mid, drawelo)
        lo, hi = (mid, hi) if w + d / 2 < target else (lo, mid)
    true = bayeselo_wdl(lo, drawelo)
    mean = sum(p * x for p, x in zip(true, step))
    var = sum(p * x * x for p, x in zip(true, step)) - mean**2
    p, t = sf.exit_brownian(LA, LB, 2 * mean / var)
    return p, t / var


class UniversalFunctions(unittest.TestCase):
    def test_reproduces_sprta_examples(self):
        # Van den Bergh's published runs of sprta.py: "sprta.py 0 4 250 ELO" prints the pass
        # probability and the average running time in games.
        for elo, passes, games in ((-2, 0.05, 16951), (0, 5.00, 39909), (2, 85.89, 51884)):
            p, t = sprta(0, 4, 250, elo)
            self.assertAlmostEqual(100 * p, passes, delta=0.005, msg=elo)
            self.assertAlmostEqual(t, games, delta=2, msg=elo)

    def test_wald_error_rates_at_the_hypotheses(self):
        # Started at 0, the walk passes with alpha at H0 (h = -1) and 1 - beta at H1 (h = +1).
        self.assertAlmostEqual(sf.exit_brownian(LA, LB, -1)[0], 0.05, places=12)
        self.assertAlmostEqual(sf.exit_brownian(LA, LB, 1)[0], 0.95, places=12)

    def test_no_drift_is_the_limit_of_small_drift(self):
        p0, t0 = sf.exit_brownian(-1.0, 2.0, 0.0)
        self.assertAlmostEqual(p0, 1 / 3)
        self.assertAlmostEqual(t0, 2.0)
        for h in (1e-4, -1e-4):
            p, t = sf.exit_brownian(-1.0, 2.0, h)
            self.assertAlmostEqual(p, p0, places=3)
            self.assertAlmostEqual(t, t0, places=3)
        # Near the cut-off, where (2/h)·(…) is 0/0, T must not lose its digits.
        t0 = -LA * LB
        for h in (2e-10, 1e-9, 3e-9, 1e-8, 1e-7, 1e-6, -1e-8):
            self.assertAlmostEqual(sf.exit_brownian(LA, LB, h)[1], t0, delta=1e-6, msg=h)

    def test_strong_drift_does_not_overflow(self):
        for h in (1e4, -1e4, 1e300, -1e300):
            p, t = sf.exit_brownian(LA, LB, h)
            self.assertTrue(0 <= p <= 1 and math.isfinite(t) and t >= 0, (h, p, t))
        self.assertAlmostEqual(sf.exit_brownian(LA, LB, 1e4)[0], 1.0)
        self.assertAlmostEqual(sf.exit_brownian(LA, LB, -1e4)[0], 0.0)


class AgainstTheGsprt(unittest.TestCase):
    """The normal approximation against the exact pentanomial GSPRT of tools/stats.py (itself
    checked against fastchess's numbers in test_stats.py)."""

    @classmethod
    def setUpClass(cls):
        cls.sprt = stats.Sprt.parse("elo0=-10,elo1=0")
        cls.base = [0.05, 0.25, 0.4, 0.25, 0.05]  # a pair distribution to tilt to a given nElo

    def test_same_constants_as_the_gsprt(self):
        # fishtest's LLRcalc.py: nelo_divided_by_nt = 800 / math.log(10)  # 347.43558552260146
        self.assertEqual(sf.NELO_SCALE, stats.NELO_SCALE)
        self.assertAlmostEqual(sf.NELO_SCALE, 347.43558552260146, places=12)
        self.assertEqual((LA, LB), self.sprt.bounds())

    def test_llr_variance_per_pair(self):
        # Var of one pair's exact log-likelihood ratio ln(p1/p0) under the true distribution.
        for nelo in (-15.0, -5.0, 0.0, 5.0):
            truth = self.sprt.mle(self.base, nelo)
            p0, p1 = self.sprt.mle(truth, -10), self.sprt.mle(truth, 0)
            step = [math.log(b / a) for a, b in zip(p0, p1)]
            mean = sum(q * x for q, x in zip(truth, step))
            var = sum(q * (x - mean) ** 2 for q, x in zip(truth, step))
            self.assertAlmostEqual(var, sf.pair_llr_moments(-10, 0, nelo)[1], delta=0.01 * var, msg=nelo)

    def test_standard_error_of_the_estimate(self):
        # The estimate's nElo moves by one standard error when the pair score moves by one.
        ptnml = [60, 300, 500, 300, 60]
        pairs = sum(ptnml)
        scores = stats.PAIR_SCORES
        sigma = math.sqrt(sum(c * (x - 0.5) ** 2 for c, x in zip(ptnml, scores)) / pairs)
        shift = sigma / math.sqrt(pairs)
        # Move one pair's worth of score mass at a time: WL+DD → WD shifts the mean by 1/(4·pairs).
        moved = list(ptnml)
        k = round(4 * pairs * shift)
        moved[2], moved[3] = moved[2] - k, moved[3] + k
        nelo = stats.estimate(scores, moved, 2)["nelo"]
        per_error = nelo / (k / (4 * pairs) / shift)
        self.assertAlmostEqual(per_error, sf.nelo_standard_error(pairs), delta=0.02 * per_error)

    def test_drift_per_pair(self):
        for nelo in (-15.0, -7.5, -3.3, 0.0, 5.0):
            truth = self.sprt.mle(self.base, nelo)  # a pair distribution whose nElo is exactly `nelo`
            pairs = 1_000_000
            exact = self.sprt.llr([pairs * q for q in truth]) / pairs
            mean, _ = sf.pair_llr_moments(-10, 0, nelo)
            self.assertAlmostEqual(exact, mean, delta=0.005 * abs(mean) + 1e-9, msg=nelo)

    def test_forecast_of_a_decided_or_even_test(self):
        bounds = (LA, LB)
        self.assertEqual(sf.remaining(3.0, bounds, -10, 0, -3), (1.0, 0.0))
        self.assertEqual(sf.remaining(-3.0, bounds, -10, 0, -3), (0.0, 0.0))
        # At the midpoint from LLR 0 the test passes half the time; Wald's zero-drift
        # running time -LA*LB over the per-pair variance 2*10^2/S^2.
        p, pairs = sf.remaining(0.0, bounds, -10, 0, -5)
        self.assertAlmostEqual(p, 0.5)
        self.assertAlmostEqual(pairs, -LA * LB / (200 / sf.NELO_SCALE**2))
        # From LLR +1 the walk is nearer the top: the bounds are measured from where it stands.
        p, pairs = sf.remaining(1.0, bounds, -10, 0, -5)
        self.assertAlmostEqual(p, (1 - LA) / (LB - LA))
        self.assertAlmostEqual(pairs, (1 - LA) * (LB - 1) / (200 / sf.NELO_SCALE**2))

    def test_averaging_tends_to_the_plug_in(self):
        few = sf.forecast(0.4, (LA, LB), -10, 0, -3.3, 1_000)
        many = sf.forecast(0.4, (LA, LB), -10, 0, -3.3, 10**9)
        self.assertAlmostEqual(many["averaged"]["pass"], many["plug_in"]["pass"], places=4)
        self.assertAlmostEqual(many["averaged"]["games"] / many["plug_in"]["games"], 1, places=3)
        # Uncertainty pulls the pass chance towards one half.
        self.assertLess(few["averaged"]["pass"], few["plug_in"]["pass"])
        self.assertGreater(few["averaged"]["pass"], 0.5)


def pooled(runs, ptnml=(), sprt=None):
    """What `tm_sprt.py pool` prints for `runs` (each written to a JSON file, as `run` writes
    its summary) and `ptnml` counts, with `--sprt sprt`."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, run in enumerate(runs):
            paths.append(os.path.join(tmp, f"{i}.json"))
            with open(paths[-1], "w", encoding="utf-8") as f:
                json.dump(run, f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            tm_sprt.pool(argparse.Namespace(json=paths, ptnml=list(ptnml), sprt=sprt, simulate=0, seed=1))
    return out.getvalue()


class Pool(unittest.TestCase):
    """`tm_sprt.py pool` over JSON runs and runs given by their counts."""

    RUNS = ({"games": 120, "wins": 34, "draws": 51, "losses": 35, "ptnml": [5, 10, 30, 11, 4]},
            {"games": 120, "wins": 31, "draws": 65, "losses": 24, "ptnml": [3, 10, 27, 17, 3]})

    def pool(self, runs, ptnml=()):
        return pooled(runs, ptnml, sprt="elo0=-10,elo1=0")

    def test_json_runs(self):
        text = self.pool(self.RUNS)
        self.assertIn("0.json: 120 games, 34/51/35, ptnml [5, 10, 30, 11, 4]", text)
        self.assertIn("pooled: 240 games, W/D/L 65/116/59, ptnml [8, 20, 57, 28, 7], score 51.2 %", text)
        self.assertIn("LLR +0.36 bounds (-2.94, 2.94): not decided", text)
        self.assertIn("forecast, if the true nElo is the estimate +13.0", text)

    def test_a_run_given_by_its_counts(self):
        # The same figures, but W/D/L is not known for the run given by its counts.
        text = self.pool(self.RUNS[:1], ["3,10,27,17,3"])
        self.assertIn("pooled: 240 games, ptnml [8, 20, 57, 28, 7], score 51.2 %", text)
        self.assertIn("LLR +0.36 bounds (-2.94, 2.94): not decided", text)


if __name__ == "__main__":
    unittest.main()
