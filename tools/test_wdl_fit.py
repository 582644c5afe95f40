"""Tests of tools/wdl_fit.py: the model against Stockfish's own numbers, the fit on games
drawn from a known model, and the reading of fastchess's PGN comments. `make test` runs
them with the venv's Python."""

import math
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wdl_fit  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class Model(unittest.TestCase):
    def test_stockfish_normalisation(self):
        # Stockfish 17 reports 100 cp where the side to move wins half its games at material
        # 58 (`to_cp` = 100 · v / a with a = p_a(58/58), the sum of a's coefficients).
        a_c, b_c = wdl_fit.STOCKFISH_17
        a = wdl_fit.poly(a_c, 1.0)
        self.assertAlmostEqual(a, 371.65842782, places=6)
        w, d, l = wdl_fit.wdl(a, 58, a_c, b_c)
        self.assertAlmostEqual(w, 0.5)
        self.assertAlmostEqual(w + d + l, 1.0)
        # Stockfish's integer rounding: int(0.5 + 1000 / (1 + exp((a - v) / b))).
        self.assertEqual(wdl_fit.per_mille(0, 58, a_c, b_c), (7, 986, 7))

    def test_material_and_clamps(self):
        self.assertEqual(wdl_fit.material_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"), 78)
        self.assertEqual(wdl_fit.scaled_material(5), 17 / 58)
        self.assertEqual(wdl_fit.scaled_material(90), 78 / 58)
        a_c, b_c = wdl_fit.STOCKFISH_17
        self.assertEqual(wdl_fit.wdl(5000, 40, a_c, b_c), wdl_fit.wdl(2000, 40, a_c, b_c))

    def test_triples_sum_to_1000(self):
        a_c, b_c = wdl_fit.STOCKFISH_17
        for v in range(-1500, 1501, 37):
            w, d, l = wdl_fit.per_mille(v, 30, a_c, b_c)
            self.assertEqual(w + d + l, 1000)
            self.assertGreaterEqual(d, 0)


class Fit(unittest.TestCase):
    def test_recovers_a_known_model(self):
        # Games drawn from a model with a and b linear in material: the fit (degree 1) finds
        # it again, and its likelihood is at least the true model's.
        truth_a, truth_b = (-60.0, 160.0), (10.0, 50.0)
        rng = random.Random(7)
        games = []
        for _ in range(400):
            game = []
            for _ in range(40):
                v = rng.randint(-400, 400)
                material = rng.randint(17, 78)
                w, d, _ = wdl_fit.wdl(v, material, truth_a, truth_b)
                u = rng.random()
                game.append((v, material, 1.0 if u < w else 0.5 if u < w + d else 0.0))
            games.append(game)
        counts = wdl_fit.aggregate(games)
        a, b, nll = wdl_fit.fit(counts, degree=1)
        for got, want in zip(a + b, truth_a + truth_b):
            self.assertLess(abs(got - want), 12, (a, b))
        cells = wdl_fit._cells(counts)
        true_params = [c / wdl_fit.SCALE for c in truth_a + truth_b]
        nll_truth, _ = wdl_fit.negative_log_likelihood(true_params, cells, 1, with_gradient=False)
        self.assertLessEqual(nll, nll_truth + 1e-9)
        # Calibrated on its own games: a better Brier score than the constant model.
        total = sum(len(g) for g in games)
        rates = [sum(c[i] for c in counts.values()) / total for i in range(3)]
        check = wdl_fit.calibration(games, a, b, rates)
        self.assertLess(check["brier"], check["brier_constant"])
        self.assertEqual(check["positions"], total)
        for count, predicted, observed in check["reliability"]:
            if count > 2000:
                self.assertLess(abs(predicted - observed), 0.03)

    def test_gradient_matches_finite_differences(self):
        rng = random.Random(3)
        counts = {}
        for _ in range(200):
            key = (rng.randint(-500, 500), rng.randint(10, 80))
            counts[key] = [rng.randint(0, 3), rng.randint(0, 3), rng.randint(0, 3)]
        cells = wdl_fit._cells(counts)
        params = [0.1, -0.2, 0.3, 1.4, 0.05, -0.1, 0.2, 0.7]
        _, grad = wdl_fit.negative_log_likelihood(params, cells, 3)
        h = 1e-6
        for i in range(len(params)):
            up, down = list(params), list(params)
            up[i] += h
            down[i] -= h
            f_up, _ = wdl_fit.negative_log_likelihood(up, cells, 3, with_gradient=False)
            f_down, _ = wdl_fit.negative_log_likelihood(down, cells, 3, with_gradient=False)
            self.assertAlmostEqual(grad[i], (f_up - f_down) / (2 * h), places=5)


class Reading(unittest.TestCase):
    def test_comments(self):
        self.assertEqual(wdl_fit.parse_score("+0.35/12 0.221s, tl=9.979s"), ("cp", 35))
        self.assertEqual(wdl_fit.parse_score("-1.07/15 0.3s"), ("cp", -107))
        self.assertEqual(wdl_fit.parse_score("0.00/20 0.1s"), ("cp", 0))
        self.assertEqual(wdl_fit.parse_score("-M3/20 0.030s"), ("mate", -1))
        self.assertIsNone(wdl_fit.parse_score("book"))
        self.assertIsNone(wdl_fit.parse_score(""))

    def test_fastchess_pgn(self):
        # 8 self-play games at 1+0.01: both players are Sandglass, every scored position
        # counts, and the outcome is the side to move's.
        path = os.path.join(HERE, "testdata", "fastchess_selfplay.pgn")
        games = wdl_fit.read_games([path], "sandglass")
        self.assertEqual(len(games), 8)
        self.assertGreater(sum(len(g) for g in games), 100)
        for game in games:
            for v, material, outcome in game:
                self.assertIn(outcome, (0.0, 0.5, 1.0))
                self.assertLessEqual(material, 78)
                self.assertLess(abs(v), wdl_fit.DECIDED_CP)
        # Consecutive positions alternate sides: a decisive game's outcomes alternate too.
        decisive = next(g for g in games if g and g[0][2] != 0.5)
        self.assertTrue(all(a[2] + b[2] == 1.0 for a, b in zip(decisive, decisive[1:])))
        self.assertEqual(wdl_fit.read_games([path], "nobody"), [[] for _ in range(8)])


class Figure(unittest.TestCase):
    def test_svg(self):
        rows = [(10, 0.05, 0.1), (0, None, None), (100, 0.5, 0.48), (10, 0.95, 0.9)]
        svg = wdl_fit.reliability_svg(rows, "title", ["one", "two"])
        self.assertTrue(svg.startswith("<svg"))
        self.assertEqual(svg.count("<circle"), 3)
        self.assertIn("two", svg)
        self.assertFalse(math.isnan(len(svg)))


if __name__ == "__main__":
    unittest.main()
