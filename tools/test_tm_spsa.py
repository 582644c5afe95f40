"""Tests of tools/tm_spsa.py that play no game: Spall's schedule against its defining end
values (the module's selftest), the options set on both sides, and the parameters read from
an engine's `tune --spsa-params`. `make test` runs them with the venv's Python.
"""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tm_spsa  # noqa: E402


class Schedule(unittest.TestCase):
    def test_selftest(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            tm_spsa.selftest()
        self.assertIn("selftest ok", out.getvalue())


class FixedOptions(unittest.TestCase):
    def setUp(self):
        self.params = [tm_spsa.Param("Soft Stop Learned Scale=5,1,30,2")]

    def test_options_are_name_value_pairs(self):
        got = tm_spsa.fixed_options(["Soft Stop=learned", " Hash = 16 ", "EvalFile="],
                                    self.params)
        self.assertEqual(got, [("Soft Stop", "learned"), ("Hash", "16"), ("EvalFile", "")])
        self.assertEqual(tm_spsa.fixed_options(None, self.params), [])

    def test_malformed_or_tuned_options_are_refused(self):
        for bad in ("Soft Stop", "=learned", "  =x", "Soft Stop Learned Scale=9"):
            with self.assertRaises(ValueError, msg=bad) as caught:
                tm_spsa.fixed_options([bad], self.params)
            self.assertIn(bad.strip() if "=" in bad else bad, str(caught.exception))


class ParamsFromEngine(unittest.TestCase):
    LINES = ("RfpMargin, int, 75, 30, 150, 6, 0.002\n"
             "LmrMinDepth, int, 3, 2, 5, 0.5, 0.002\n")

    def test_openbench_lines_become_params(self):
        params = tm_spsa.params_from_spsa_lines(self.LINES + "\n")
        got = [(p.name, p.start, p.low, p.high, p.c_end, p.r_end) for p in params]
        self.assertEqual(got, [("RfpMargin", 75, 30, 150, 6, 0.002),
                               ("LmrMinDepth", 3, 2, 5, 0.5, 0.002)])

    def test_malformed_lines_are_refused(self):
        for bad in ("", "RfpMargin, int, 75, 30, 150, 6",
                    "RfpMargin, float, 75, 30, 150, 6, 0.002",
                    "RfpMargin, int, 200, 30, 150, 6, 0.002",
                    "RfpMargin, int, x, 30, 150, 6, 0.002"):
            with self.assertRaises(ValueError, msg=bad):
                tm_spsa.params_from_spsa_lines(bad)

    def test_an_explicit_param_replaces_the_engines_and_others_join(self):
        engine = tm_spsa.params_from_spsa_lines(self.LINES)
        explicit = [tm_spsa.Param("LmrMinDepth=3,3,4,0.5"),
                    tm_spsa.Param("Slow Mover=100,50,200,10")]
        merged = tm_spsa.merge_params(engine, explicit)
        self.assertEqual([p.name for p in merged], ["RfpMargin", "LmrMinDepth", "Slow Mover"])
        self.assertEqual((merged[1].low, merged[1].high), (3, 4))

    @unittest.skipUnless(os.name == "posix", "the stand-in engine is a shell script")
    def test_the_engines_lines_are_read(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "engine")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\n[ \"$1 $2\" = \"tune --spsa-params\" ] || exit 3\n"
                        f"printf '{self.LINES}'\n")
            os.chmod(fake, 0o755)
            self.assertEqual([p.name for p in tm_spsa.engine_params(fake)],
                             ["RfpMargin", "LmrMinDepth"])
            with self.assertRaises(ValueError):
                tm_spsa.engine_params(os.path.join(tmp, "missing"))


class Control(unittest.TestCase):
    SEARCH = {"RfpMargin", "LmrMinDepth"}

    def test_a_node_count_tunes_search_constants(self):
        tc = tm_spsa.fastchess_pgn.TimeControl.parse("nodes=20000")
        tm_spsa.check_control(tc, [tm_spsa.Param("RfpMargin=75,30,150,6")], self.SEARCH)

    def test_a_node_count_refuses_a_clock_option(self):
        tc = tm_spsa.fastchess_pgn.TimeControl.parse("nodes=20000")
        params = [tm_spsa.Param("RfpMargin=75,30,150,6"), tm_spsa.Param("Slow Mover=100,50,200,10")]
        with self.assertRaises(ValueError) as caught:
            tm_spsa.check_control(tc, params, self.SEARCH)
        self.assertIn("Slow Mover is not a search constant", str(caught.exception))
        self.assertNotIn("RfpMargin", str(caught.exception))

    def test_a_clock_tunes_anything(self):
        tc = tm_spsa.fastchess_pgn.TimeControl.parse("5+0.05")
        tm_spsa.check_control(tc, [tm_spsa.Param("Slow Mover=100,50,200,10")], set())


if __name__ == "__main__":
    unittest.main()
