"""Tests of tools/tm_spsa.py that play no game: Spall's schedule against its defining end
values (the module's selftest) and the options set on both sides. `make test` runs them with
the venv's Python.
"""

import contextlib
import io
import os
import sys
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


if __name__ == "__main__":
    unittest.main()
