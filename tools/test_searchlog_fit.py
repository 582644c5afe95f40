"""Tests of tools/searchlog_fit.py: the logistic fit on rows drawn from a known model, the scores
on hand-computed cases, the outcomes read from a log, and bad input. `make test` runs them
with the venv's Python."""

import contextlib
import csv
import io
import math
import os
import random
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import searchlog_fit  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "docs", "searchlog-sample.csv")
COLUMNS = ("pos,origin,fen,ply,phase,men,legal_moves,depth,seldepth,elapsed_ms,iteration_ms,nodes,best,"
           "score,score_drop,score_trend3,best_move_changes,changes_so_far,stable_iterations,node_share,"
           "adjust_scale,end_2x_ms,end_predicted_ms,next_end_ms,next_nodes,final_depth,final_move,"
           "final_score,changed,gain_cp").split(",")


@contextlib.contextmanager
def log_file(rows):
    """The path of a searchlog CSV of `rows` (dicts of the fields that matter; the rest filled
    in), removed when the block ends."""
    handle = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="")
    writer = csv.DictWriter(handle, fieldnames=COLUMNS)
    writer.writeheader()
    for row in rows:
        full = dict.fromkeys(COLUMNS, "0")
        full.update({k: str(v) for k, v in row.items()})
        writer.writerow(full)
    handle.close()
    try:
        yield handle.name
    finally:
        os.unlink(handle.name)


class Scores(unittest.TestCase):
    def test_log_loss_and_brier_by_hand(self):
        self.assertAlmostEqual(searchlog_fit.log_loss([0.5, 0.9], [1, 0]), (math.log(2) + math.log(10)) / 2)
        self.assertAlmostEqual(searchlog_fit.brier([0.5, 0.9], [1, 0]), (0.25 + 0.81) / 2)

    def test_reliability_bins(self):
        rows = searchlog_fit.reliability([0.05, 0.05, 0.95, 0.91], [0, 1, 1, 1])
        self.assertEqual([(lo, n, observed) for lo, n, _, observed in rows], [(0.0, 2, 0.5), (0.9, 2, 1.0)])
        self.assertAlmostEqual(rows[1][2], 0.93)

    def test_solve(self):
        x = searchlog_fit._solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])
        self.assertAlmostEqual(x[0], 0.8)
        self.assertAlmostEqual(x[1], 1.4)


class Fit(unittest.TestCase):
    def test_recovers_a_known_model(self):
        rng = random.Random(88)
        truth = [-1.0, 2.0, -0.5]
        xs, ys = [], []
        for _ in range(20000):
            x = [rng.uniform(-1, 1), rng.uniform(0, 4)]
            p = searchlog_fit.logistic(truth[0] + truth[1] * x[0] + truth[2] * x[1])
            xs.append(x)
            ys.append(1 if rng.random() < p else 0)
        coefs = searchlog_fit.fit_logistic(xs, ys)
        for got, want in zip(coefs, truth):
            self.assertAlmostEqual(got, want, delta=0.1)

    def test_outcomes_read_from_a_log(self):
        # One search: e2e4 at depths 4 and 5, d2d4 at 6, final d2d4. gain_cp counts from the
        # final move: e2e4 is 30 cp worse.
        base = {"pos": 0, "nodes": 1000, "legal_moves": 20, "phase": 24, "final_move": "d2d4"}
        with log_file([
            dict(base, depth=4, best="e2e4", score=20, changed=1, gain_cp=30),
            dict(base, depth=5, best="e2e4", score=25, changed=1, gain_cp=30),
            dict(base, depth=6, best="d2d4", score=40, changed=0, gain_cp=0),
        ]) as path:
            searches = searchlog_fit.read_log([path])
        final = searchlog_fit.examples(searches, "final")
        self.assertEqual([(y, w) for _, y, w, _ in final], [(1, 30.0), (1, 30.0), (0, 0.0)])
        # The next iteration: no change from 4 to 5, a change worth 30 from 5 to 6, and the
        # last iteration has no next.
        following = searchlog_fit.examples(searches, "next")
        self.assertEqual([(y, w) for _, y, w, _ in following], [(0, 0.0), (1, 30.0)])
        self.assertEqual(searchlog_fit.examples(searches, "next", min_depth=5)[0][1], 1)

    def test_replay_stops_where_each_rule_says(self):
        # Nodes 100, 300, 1000, 3000, 10000, 30000 at depths 1 to 6; plan 2000 nodes, soft 2860.
        nodes = [100, 300, 1000, 3000, 10000, 30000]
        rows = [dict(pos=0, depth=d + 1, nodes=n, best="e2e4" if d < 4 else "d2d4", legal_moves=20,
                     adjust_scale=1, changed=1 if d < 4 else 0, gain_cp=25 if d < 4 else 0)
                for d, n in enumerate(nodes)]
        with log_file(rows) as path:
            search = searchlog_fit.read_log([path])[(0, 0)]
        # 2x: at depth 3, 1000 + 2 × 700 < 2860; at depth 4, 3000 + 2 × 2000 ≥ 2860.
        self.assertEqual(searchlog_fit.replay(search, 2000, "2x"), (3000.0, 25.0, True, False))
        coefs = [0.0] * (len(searchlog_fit.FEATURES) + 1)  # P = ½ everywhere
        # No price (κ 0): only the ceiling, 2.5 × 2860 = 7150, stops it: 3000 + 4000 < 7150,
        # 10000 + 14000 ≥ 7150 at depth 5, where the move is the final one.
        self.assertEqual(searchlog_fit.replay(search, 2000, "learned", coefs, 10.0, 0.0),
                         (10000.0, 0.0, False, False))
        # A high price stops it at the first depth it judges, 4 (½ × 10 cp < 100 × 4000 / 2000).
        self.assertEqual(searchlog_fit.replay(search, 2000, "learned", coefs, 10.0, 100.0),
                         (3000.0, 25.0, True, False))
        # Below depth 4 only a spent soft limit stops it, however high the price: with a plan
        # of 500 nodes (soft 715) at depth 3, not before.
        self.assertEqual(searchlog_fit.replay(search, 500, "learned", coefs, 10.0, 100.0)[0], 1000.0)
        # A plan the log is too shallow for: nothing stops it, and it says it ran out.
        self.assertEqual(searchlog_fit.replay(search, 10**6, "learned", coefs, 10.0, 0.0)[3], True)

    def test_features_read_as_the_engine_reads_them(self):
        # src/time/soft.rs's test change_probability_is_the_fitted_logistic reads these
        # signs to [16, 1, 2, .5, .2, .4, ln 30, .5, 1.5]; the fit must read the log the same.
        row = {"nodes": "65536", "best_move_changes": "1.0000", "stable_iterations": "2",
               "node_share": "0.5000", "score_drop": "20", "score_trend3": "-40", "legal_moves": "30",
               "phase": "12", "score": "-150"}
        got = [f(row) for _, f in searchlog_fit.FEATURES]
        want = [16.0, 1.0, 2.0, 0.5, 0.2, 0.4, math.log(30), 0.5, 1.5]
        for name, g, w in zip([n for n, _ in searchlog_fit.FEATURES], got, want):
            self.assertAlmostEqual(g, w, msg=name)

    def test_sample_log_fits(self):
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(searchlog_fit.main([SAMPLE, "--holdout", "4", "--plans", "50000"]), 0)
        self.assertIn("target next", out.getvalue())
        self.assertIn("plan    50000 nodes", out.getvalue())
        self.assertIn("held_out", out.getvalue())

    def test_shipped_model_read_from_the_source(self):
        # The engine's own file: as many coefficients as the fit has, and a positive worth.
        coefs, worth = searchlog_fit.shipped_model()
        self.assertEqual(len(coefs), len(searchlog_fit.FEATURES) + 1)
        self.assertGreater(worth, 0.0)
        # A file laid out as soft.rs is, across lines, read to its numbers.
        text = ("pub const LEARNED_WORTH_CP: f64 = 12.5;\n"
                "pub const LEARNED_COEFFICIENTS: [f64; 10] = [\n"
                "    0.5, -1.0, 2.0, 0.0, -0.25,\n    1e-2, 3.0, -4.0, 5.0, 6.0,\n];\n")
        with tempfile.NamedTemporaryFile("w", suffix=".rs", delete=False) as handle:
            handle.write(text)
        try:
            self.assertEqual(searchlog_fit.shipped_model(handle.name),
                             ([0.5, -1.0, 2.0, 0.0, -0.25, 0.01, 3.0, -4.0, 5.0, 6.0], 12.5))
        finally:
            os.unlink(handle.name)

    def test_shipped_model_scored_beside_the_fit(self):
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(searchlog_fit.main([SAMPLE, "--holdout", "4", "--plans", "50000", "--shipped"]), 0)
        text = out.getvalue()
        self.assertIn("the shipped model", text)
        self.assertIn("shipped learned (κ", text)


class BadInput(unittest.TestCase):
    def run_main(self, *args):
        err = io.StringIO()
        with redirect_stderr(err), redirect_stdout(io.StringIO()):
            code = searchlog_fit.main(list(args))
        return code, err.getvalue()

    def test_missing_file(self):
        code, err = self.run_main("no-such-log.csv")
        self.assertEqual(code, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)

    def test_not_a_searchlog(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as handle:
            handle.write("a,b\n1,2\n")
        try:
            code, err = self.run_main(handle.name)
        finally:
            os.unlink(handle.name)
        self.assertEqual(code, 2)
        self.assertIn("not a searchlog CSV", err)

    def test_a_field_that_is_not_a_number(self):
        with log_file([{"pos": 0, "depth": 4, "nodes": "many", "best": "e2e4"}]) as path:
            code, err = self.run_main(path)
        self.assertEqual(code, 2)
        self.assertIn(":2:", err)

    def test_bad_plans(self):
        for plans in ("many", "0", "-5"):
            code, err = self.run_main(SAMPLE, "--plans", plans)
            self.assertEqual(code, 2, plans)
            self.assertIn("--plans", err)

    def test_shipped_model_of_the_wrong_size(self):
        with tempfile.NamedTemporaryFile("w", suffix=".rs", delete=False) as handle:
            handle.write("const LEARNED_WORTH_CP: f64 = 1.0;\nconst LEARNED_COEFFICIENTS: [f64; 2] = [1.0, 2.0];\n")
        try:
            with self.assertRaisesRegex(ValueError, "2 coefficients"):
                searchlog_fit.shipped_model(handle.name)
            with self.assertRaisesRegex(ValueError, "no LEARNED_COEFFICIENTS"):
                searchlog_fit.shipped_model(SAMPLE)
        finally:
            os.unlink(handle.name)

    def test_one_outcome_only(self):
        with log_file([{"pos": p, "depth": d, "best": "e2e4", "final_move": "e2e4"}
                       for p in range(3) for d in (4, 5)]) as path:
            code, err = self.run_main(path)
        self.assertEqual(code, 2)
        self.assertIn("both outcomes", err)


if __name__ == "__main__":
    unittest.main()
