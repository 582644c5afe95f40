"""Tests of the match tools' side that needs no games: fastchess's command line, the lock, the
one-line refusal when a program is missing, fastchess's report, and the rows the tools print
from fastchess's real output (tools/testdata/). `make test` runs them; no fastchess is needed.
"""

import argparse
import contextlib
import fcntl
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import fastchess_pgn as fp  # noqa: E402
import fastchess_run as fr  # noqa: E402
import gauntlet  # noqa: E402
import stats  # noqa: E402
import tm_sprt  # noqa: E402
from test_sprt_forecast import pooled  # noqa: E402

DATA = os.path.join(HERE, "testdata")


def sample(name):
    return os.path.join(DATA, name)


class CommandLine(unittest.TestCase):
    def test_fastchess_command(self):
        engines = [fr.Engine("a", "/bin/a", ["Move Overhead=50", "TM NodeFraction=false"]), fr.Engine("b", "/bin/b")]
        cmd = fr.command("/bin/fastchess", engines, fp.TimeControl.parse("40/2"), 3, "/book.epd", 2, "/o/g.pgn",
                         sprt=stats.Sprt(-5, 0), seed=7, log="/o/f.log")
        self.assertEqual(cmd, [
            "/bin/fastchess",
            "-engine", "cmd=/bin/a", "name=a", "option.Move Overhead=50", "option.TM NodeFraction=false",
            "-engine", "cmd=/bin/b", "name=b",
            "-each", "tc=40/2", "proto=uci",
            "-openings", "file=/book.epd", "format=epd", "order=random",
            "-games", "2", "-rounds", "3", "-repeat", "-concurrency", "2", "-recover",
            "-pgnout", "file=/o/g.pgn", "timeleft=true",
            "-sprt", "elo0=-5", "elo1=0", "alpha=0.05", "beta=0.05", "model=normalized",
            "-srand", "7", "-log", "file=/o/f.log", "level=warn"])

    def test_a_fixed_move_time_gets_a_margin(self):
        # Without one, fastchess forfeited every st=0.05 game by the 1-4 ms of its own pipes.
        def each(tc):
            cmd = fr.command("/bin/fastchess", [fr.Engine("a", "/bin/a")], fp.TimeControl.parse(tc), 1,
                             "/book.epd", 2, "/o/g.pgn")
            i = cmd.index("-each")
            return cmd[i + 1:cmd.index("-openings")]

        self.assertEqual(each("st=0.05"), ["st=0.05", "timemargin=50", "proto=uci"])
        # A clock is the engine's to keep: no margin hides a forfeit there.
        for tc in ("10+0.1", "40/2", "nodes=20000"):
            self.assertEqual(len(each(tc)), 2, tc)

    def test_a_network_file_is_given_by_its_absolute_path(self):
        # fastchess starts the engines in the match's folder: data/nets/x.nnue, relative to
        # where the tool ran, was not found there, and the engine played its built-in network.
        with tempfile.NamedTemporaryFile(dir=os.getcwd(), suffix=".nnue") as net:
            relative = os.path.relpath(net.name)
            engine = fr.Engine("a", "/bin/a", [f"EvalFile={relative}", "Hash=16", "EvalFile=<embedded>"])
            self.assertEqual(engine.options, [f"EvalFile={net.name}", "Hash=16", "EvalFile=<embedded>"])
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit) as refused:
            fr.Engine("a", "/bin/a", ["EvalFile=no/such/net.nnue"])
        self.assertEqual(refused.exception.code, 2)
        self.assertIn("no such file", err.getvalue())

    def test_an_option_fastchess_did_not_send_stops_the_match(self):
        # fastchess warns and plays on without the option: a match of settings nobody asked for.
        out = ("Warning; sandglass-b doesn't have option evalfile\n"
               "Invalid value for option Hash: 999999\nStarted game 1 of 2\n")
        self.assertEqual(len(fr.dropped_options(out)), 2)
        script = "print(\"Warning; b doesn't have option evalfile\"); import time; time.sleep(30)"
        with tempfile.TemporaryDirectory() as d, contextlib.redirect_stderr(io.StringIO()) as err:
            code, _ = fr.play([sys.executable, "-c", script], d, os.path.join(d, "out"))
        self.assertEqual(code, 3)
        self.assertIn("did not send an option", err.getvalue())

    def test_default_book_is_the_shipped_one(self):
        self.assertTrue(os.path.isfile(fr.BOOK), fr.BOOK)
        self.assertEqual(os.path.relpath(fr.BOOK, fr.REPO), os.path.join("data", "books", "noob_3moves_5k.epd"))

    def test_concurrency_at_most_two(self):
        self.assertEqual(fr.concurrency("2"), 2)
        for text in ("0", "3", "-1"):
            with self.assertRaises(ValueError):
                fr.concurrency(text)


class Lock(unittest.TestCase):
    def test_held_while_inside(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "lock")
            with fr.locked(path):
                with open(path) as other, self.assertRaises(BlockingIOError):
                    fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            with open(path) as other:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released


class MissingPrograms(unittest.TestCase):
    """Each tool names what is missing in one line, exits non-zero, and plays nothing."""

    def refuse(self, args, missing):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, PATH=tmp)  # no fastchess on this PATH
            env.pop("FASTCHESS", None)
            out = os.path.join(tmp, "out")
            done = subprocess.run([sys.executable, *args, out], cwd=tmp, env=env, capture_output=True, text=True,
                                  timeout=60)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(done.stdout, "")
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
            for word in missing:
                self.assertIn(word, done.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), [], "nothing written")

    def test_gauntlet(self):
        self.refuse([os.path.join(HERE, "gauntlet.py"), sys.executable, "--opponents", "self", "--out"],
                    ["gauntlet.py: not found: fastchess"])
        self.refuse([os.path.join(HERE, "gauntlet.py"), sys.executable, "--fastchess", sys.executable,
                     "--opponents", "self,no-such-engine", "--out"], ["engine 'no-such-engine'"])

    def test_tm_sprt_run(self):
        self.refuse([os.path.join(HERE, "tm_sprt.py"), "run", "--name", "x", "--binary-a", sys.executable,
                     "--binary-b", "no-such-engine", "--out-dir"], ["fastchess", "engine 'no-such-engine'"])

    def test_tm_spsa_run(self):
        self.refuse([os.path.join(HERE, "tm_spsa.py"), "run", "--engine", sys.executable, "--iterations", "1",
                     "--param", "Slow Mover=100,50,200,10", "--log"], ["tm_spsa.py run: not found: fastchess"])

    def test_found_on_path_or_in_usr_games(self):
        self.assertEqual(fr.find_program(sys.executable), sys.executable)
        self.assertIsNone(fr.find_program("/no/such/program"))
        self.assertIsNone(fr.find_program("no-such-program-at-all"))


STUB_ENGINE = """#!{python}
# A UCI engine that only answers: it refuses an EvalFile that does not end in .nnue as
# Sandglass refuses a file that is not a network, and never answers isready when its own
# file's name ends in "mute". When the name ends in "hasty" it reads its input on a thread
# of its own and leaves at once on quit, and takes half a second to be ready: a quit sent
# right after isready ends it before its readyok, as it ends Viridithas 10.
import os, queue, sys, threading, time
mute, hasty = sys.argv[0].endswith("mute"), sys.argv[0].endswith("hasty")
lines = queue.Queue()
def read():
    for line in sys.stdin:
        if hasty and line.split()[:1] == ["quit"]:
            os._exit(0)
        lines.put(line)
    lines.put("quit")
threading.Thread(target=read, daemon=True).start()
while True:
    line = lines.get()
    words = line.split()
    if words[:1] == ["isready"] and hasty:
        time.sleep(0.5)
    if words[:1] == ["uci"]:
        print("id name stub\\nuciok", flush=True)
    elif words[:3] == ["setoption", "name", "EvalFile"] and not line.strip().endswith(".nnue"):
        print("info string error: option 'EvalFile': not a network", flush=True)
    elif words[:1] == ["isready"] and not mute:
        print("readyok", flush=True)
    elif words[:1] == ["quit"]:
        break
"""


def stub_engine(folder, name="engine"):
    """The path of STUB_ENGINE written into `folder` as `name`."""
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(STUB_ENGINE.format(python=sys.executable))
    os.chmod(path, 0o755)
    return path


class EngineCheck(unittest.TestCase):
    """Before a match, each engine is started alone with its options: one that refuses its
    EvalFile would otherwise play the whole match on its built-in network."""

    def test_options_taken(self):
        with tempfile.TemporaryDirectory() as tmp:
            net = os.path.join(tmp, "net.nnue")
            open(net, "w").close()
            engine = fr.Engine("a", stub_engine(tmp), [f"EvalFile={net}", "Hash=16"])
            self.assertEqual(fr.check_options(engine), [])

    def test_a_refused_network_is_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            wrong = os.path.join(tmp, "net.txt")
            open(wrong, "w").close()
            engine = fr.Engine("a", stub_engine(tmp), [f"EvalFile={wrong}"])
            self.assertEqual(fr.check_options(engine), ["info string error: option 'EvalFile': not a network"])
            with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit) as stop:
                fr.check_engines("tool", [fr.Engine("b", stub_engine(tmp, "b")), engine])
            self.assertEqual(stop.exception.code, 2)
            self.assertIn("a (", err.getvalue())
            self.assertIn("not a network", err.getvalue())
            self.assertNotIn("b (", err.getvalue())

    def test_an_engine_that_leaves_on_quit_is_asked_to_quit_after_readyok(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(fr.check_options(fr.Engine("a", stub_engine(tmp, "hasty"), ["Hash=16"])), [])

    def test_an_engine_that_does_not_answer(self):
        with tempfile.TemporaryDirectory() as tmp:
            mute = fr.Engine("a", stub_engine(tmp, "mute"))
            self.assertEqual(fr.check_options(mute, seconds=1), ["no readyok within 1 s"])
            self.assertEqual(fr.check_options(fr.Engine("a", "/bin/true"), seconds=1), ["no readyok (exit code 0)"])
            self.assertIn("cannot start", fr.check_options(fr.Engine("a", os.path.join(tmp, "none")))[0])

    def test_tm_sprt_run_plays_nothing_with_a_refused_option(self):
        # A file that is not a network and a missing file stop the tool alike, in one line
        # with exit code 2, as the README says; a missing one exited with 1.
        with tempfile.TemporaryDirectory() as tmp:
            wrong = os.path.join(tmp, "net.txt")
            open(wrong, "w").close()
            for option, said in ((f"EvalFile={wrong}", "refused its options"),
                                 (f"EvalFile={os.path.join(tmp, 'missing.nnue')}", "no such file")):
                done = subprocess.run([sys.executable, os.path.join(HERE, "tm_sprt.py"), "run", "--name", "x",
                                       "--binary-a", stub_engine(tmp), "--option-b", option,
                                       "--fastchess", sys.executable, "--lock", os.path.join(tmp, "lock"),
                                       "--out-dir", os.path.join(tmp, "out")],
                                      capture_output=True, text=True, timeout=60)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
                self.assertIn(said, done.stderr)
                self.assertEqual(os.listdir(os.path.join(tmp, "out")), [])

    def test_gauntlet_plays_nothing_with_a_missing_network(self):
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run([sys.executable, os.path.join(HERE, "gauntlet.py"), stub_engine(tmp),
                                   "--opponents", "self", "--fastchess", sys.executable,
                                   "--option", f"EvalFile={os.path.join(tmp, 'missing.nnue')}",
                                   "--lock", os.path.join(tmp, "lock"), "--out", os.path.join(tmp, "out")],
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(done.stderr.strip().splitlines(),
                             [f"gauntlet.py: option 'EvalFile={os.path.join(tmp, 'missing.nnue')}': no such file "
                              f"{os.path.join(tmp, 'missing.nnue')}, nothing played"])
            self.assertFalse(os.path.exists(os.path.join(tmp, "out")), "nothing written")


INTERRUPTED = """#!{python}
# A stand-in for fastchess stopped by Ctrl-C: it writes a real run's games under the engine
# names it is given, prints that run's report and "interrupted", and exits with 1 as fastchess does.
import sys
names = [a[5:] for a in sys.argv if a.startswith("name=")]
pgn = next(a[5:] for a in sys.argv if a.startswith("file=") and a.endswith(".pgn"))
def renamed(path):
    return open(path).read().replace("sandglass-a", names[0]).replace("sandglass-b", names[1])
open(pgn, "w").write(renamed({games!r}))
print(renamed({out!r}))
print("Tournament was interrupted.")
sys.exit(1)
"""


def stand_in_fastchess(folder, template):
    """A stand-in for fastchess in `folder`, from `template`, that replays a real run's games."""
    fake = os.path.join(folder, "fastchess")
    with open(fake, "w", encoding="utf-8") as f:
        f.write(template.format(python=sys.executable, games=sample("fastchess_selfplay.pgn"),
                                out=sample("fastchess_selfplay.out")))
    os.chmod(fake, 0o755)
    return fake


def tm_sprt_cut(folder, fastchess):
    """`tm_sprt.py run` of the question "cut" with the stand-in `fastchess`, all in `folder`."""
    return [sys.executable, os.path.join(HERE, "tm_sprt.py"), "run", "--name", "cut", "--tc", "1+0.01",
            "--games", "20", "--binary-a", stub_engine(folder), "--fastchess", fastchess,
            "--lock", os.path.join(folder, "lock"), "--out-dir", folder]


class Interrupted(unittest.TestCase):
    def test_tm_sprt_run_summarises_the_games_played(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake = stand_in_fastchess(tmp, INTERRUPTED)
            done = subprocess.run(tm_sprt_cut(tmp, fake), capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 1, done.stderr)
            self.assertIn("exited with code 1", done.stderr)
            self.assertIn("| cut | 1+0.01 | 8 | 4/3/1 |", done.stdout)
            (summary,) = [n for n in os.listdir(tmp) if n.endswith(".json") and n.startswith("cut-")]
            with open(os.path.join(tmp, summary), encoding="utf-8") as f:
                self.assertEqual(json.load(f)["ptnml"], [0, 0, 2, 1, 1])


STOPPED_BY_SIGNAL = """#!{python}
# A stand-in for fastchess that plays until SIGINT, as fastchess does: it says it has started
# (the file `started` beside it), and on the signal writes a real run's games under the engine
# names it is given, prints that run's report and "interrupted", and exits with 1.
import os, signal, sys, time
names = [a[5:] for a in sys.argv if a.startswith("name=")]
pgn = next(a[5:] for a in sys.argv if a.startswith("file=") and a.endswith(".pgn"))
def renamed(path):
    return open(path).read().replace("sandglass-a", names[0]).replace("sandglass-b", names[1])
def stop(signum, frame):
    open(pgn, "w").write(renamed({games!r}))
    print(renamed({out!r}))
    print("Tournament was interrupted.", flush=True)
    sys.exit(1)
signal.signal(signal.SIGINT, stop)
open(os.path.join(os.path.dirname(sys.argv[0]), "started"), "w").close()
for _ in range(600):
    time.sleep(0.1)
sys.exit(5)
"""


def own_group_with_sigint():
    """In the child before it runs: a process group of its own, as a terminal's job has, and
    SIGINT at its default even where the tests run in the background (which ignores it), so
    that Python raises KeyboardInterrupt as it does at a terminal."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class StoppedBySignal(unittest.TestCase):
    """Ctrl-C, or a SIGINT sent to tm_sprt.py alone, ends the run with the summary of the
    games played, not a traceback."""

    def stop_run(self, whole_group):
        with tempfile.TemporaryDirectory() as tmp:
            fake = stand_in_fastchess(tmp, STOPPED_BY_SIGNAL)
            proc = subprocess.Popen(tm_sprt_cut(tmp, fake), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, preexec_fn=own_group_with_sigint)
            started = os.path.join(tmp, "started")
            for _ in range(600):
                if os.path.exists(started) or proc.poll() is not None:
                    break
                time.sleep(0.05)
            self.assertTrue(os.path.exists(started), "the stand-in started")
            if whole_group:
                os.killpg(proc.pid, signal.SIGINT)
            else:
                os.kill(proc.pid, signal.SIGINT)
            stdout, stderr = proc.communicate(timeout=60)
            self.assertNotIn("Traceback", stderr)
            self.assertEqual(proc.returncode, 1, stderr)
            self.assertIn("exited with code 1", stderr)
            self.assertIn("| cut | 1+0.01 | 8 | 4/3/1 |", stdout)
            self.assertTrue(any(n.startswith("cut-") and n.endswith(".json") for n in os.listdir(tmp)))

    def test_ctrl_c_at_a_terminal(self):
        self.stop_run(whole_group=True)

    def test_sigint_to_the_tool_alone(self):
        self.stop_run(whole_group=False)


class Report(unittest.TestCase):
    def test_fastchess_final_report(self):
        with open(sample("fastchess_selfplay.out"), encoding="utf-8") as f:
            got = fr.report(f.read())
        self.assertEqual(got, {"games": 8, "wins": 4, "losses": 1, "draws": 3, "ptnml": [0, 0, 2, 1, 1],
                               "llr": 0.10})
        self.assertEqual(fr.report("Indexing opening suite...\n"), {})


class TmSprtRow(unittest.TestCase):
    """`tm_sprt.py run`'s summary and row from a real fastchess run, fastchess's own figures."""

    def test_selfplay(self):
        with open(sample("fastchess_selfplay.out"), encoding="utf-8") as f:
            report = fr.report(f.read())
        games = fp.read_games(sample("fastchess_selfplay.pgn"))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            s = tm_sprt.summarise(games, ["sandglass-a", "sandglass-b"], stats.Sprt(0, 10), report, "fastchess …")
        self.assertEqual(err.getvalue(), "", "the PGN and fastchess's report agree")
        # fastchess printed: Elo: 136.97 +/- 187.60, LLR: 0.10.
        self.assertEqual((s["games"], s["wins"], s["draws"], s["losses"]), (8, 4, 3, 1))
        self.assertEqual((f"{s['elo']:.2f}", f"{s['elo_err95']:.2f}", f"{s['sprt']['llr']:.2f}"),
                         ("136.97", "187.60", "0.10"))
        clocks = fp.clock_figures(games, ["sandglass-a", "sandglass-b"])
        header, text = tm_sprt.row("smoke", "1+0.01", s, clocks, s["command"])
        self.assertIn("| smoke | 1+0.01 | 8 | 4/3/1 | +137.0 ± 187.6 | not decided (LLR +0.10) | ", text)
        self.assertIn("% (5 g), 172 ms | ", text)
        self.assertTrue(text.endswith("\n\n`fastchess …`\n"))
        self.assertNotIn("refill", header)

    def test_pool_reads_the_summary(self):
        games = fp.read_games(sample("fastchess_selfplay.pgn"))
        s = tm_sprt.summarise(games, ["sandglass-a", "sandglass-b"], stats.Sprt(0, 10), {}, "")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "run.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(s, f)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                tm_sprt.pool(argparse.Namespace(json=[path], ptnml=[], sprt="elo0=0,elo1=10", simulate=0, seed=1))
        # fastchess printed: Points: 5.5 (68.75 %), LLR: 0.10 (-2.94, 2.94).
        self.assertIn("pooled: 8 games, W/D/L 4/3/1, ptnml [0, 0, 2, 1, 1], score 68.8 %, Elo +137.0 ± 187.6",
                      out.getvalue())
        self.assertIn("LLR +0.10 bounds (-2.94, 2.94): not decided", out.getvalue())

    def test_pool_skips_what_is_not_a_run(self):
        # fastchess writes config.json beside the runs, so `pool DIR/*.json` was given it and
        # stopped with "the runs ask different questions". It is told by its content: a copy
        # under another name is skipped too.
        games = fp.read_games(sample("fastchess_selfplay.pgn"))
        s = tm_sprt.summarise(games, ["sandglass-a", "sandglass-b"], stats.Sprt(0, 10), {}, "")
        config = {"engines": [{"name": "sandglass-a", "cmd": "sandglass", "options": [["Hash", "16"]]}],
                  "games": 2, "rounds": 200, "concurrency": 2, "config_name": "config.json",
                  "sprt": {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05, "enabled": True}}
        with tempfile.TemporaryDirectory() as tmp:
            files = {"run.json": s, "config.json": config, "settings.json": config, "other.json": [1, 2]}
            for name, data in files.items():
                with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                    json.dump(data, f)
            paths = sorted(os.path.join(tmp, name) for name in files)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                tm_sprt.pool(argparse.Namespace(json=paths, ptnml=[], sprt=None, simulate=0, seed=1))
        self.assertIn("pooled: 8 games, W/D/L 4/3/1", out.getvalue())
        self.assertIn("run.json: 8 games", out.getvalue())
        skipped = err.getvalue().splitlines()
        self.assertEqual(len(skipped), 3, skipped)
        self.assertEqual(sum("fastchess's settings" in line for line in skipped), 2, skipped)
        self.assertTrue(any("other.json: not a run's summary" in line for line in skipped), skipped)

    def test_pool_refuses_parts_of_different_questions(self):
        games = fp.read_games(sample("fastchess_selfplay.pgn"))
        command = ("fastchess -engine cmd=/a/sandglass name=sandglass-a option.Hash=16 "
                   "-engine cmd=/b/sandglass name=sandglass-b -each tc=10+0.1 proto=uci -srand 1")
        part = tm_sprt.summarise(games, ["sandglass-a", "sandglass-b"], stats.Sprt(0, 10), {}, command)
        rebuilt = dict(part, command=command.replace("/a/", "/c/").replace("-srand 1", "-srand 2"))
        other_tc = dict(part, command=command.replace("10+0.1", "nodes=20000"))
        other_sprt = dict(part, sprt=dict(part["sprt"], elo0=-10, elo1=0))

        # Another binary path and seed is the same question, and the runs' own SPRT is used.
        self.assertIn("SPRT [0, 10] over the 8 complete pairs", pooled([part, rebuilt]))
        for other in (other_tc, other_sprt):
            with self.assertRaises(SystemExit):
                pooled([part, other])
        with self.assertRaises(SystemExit):
            pooled([part], sprt="elo0=-5,elo1=5")

    def test_a_disagreement_with_fastchess_is_reported(self):
        games = fp.read_games(sample("fastchess_selfplay.pgn"))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            tm_sprt.summarise(games, ["sandglass-a", "sandglass-b"], stats.Sprt(0, 10), {"games": 10}, "")
        self.assertIn("warning", err.getvalue())

    def test_fixed_nodes_and_move_time_rows_say_what_does_not_apply(self):
        # At nodes=N there is no clock and at st=S no share of it to use: such a figure is "—",
        # where the row said "n/a%" and "n/a ms"; one drawn pair gave "+0.0 ± 0.0".
        names = ["sandglass-a", "sandglass-b"]
        games = fp.read_games(sample("fastchess_nodes.pgn"))
        s = tm_sprt.summarise(games, names, stats.Sprt(0, 10), {}, "")
        _, text = tm_sprt.row("x", "nodes=5000", s, fp.clock_figures(games, names, fp.TimeControl.parse("nodes=5000")),
                              "")
        self.assertIn("| x | nodes=5000 | 2 | 0/2/0 | +0.0 (no interval: all scored alike) | not decided (LLR -0.00) | "
                      "4 ms, —, — | 4 ms, —, — |", text)
        self.assertNotIn("n/a", text)
        games = fp.read_games(sample("fastchess_selfplay.pgn"))
        s = tm_sprt.summarise(games, names, stats.Sprt(0, 10), {}, "")
        _, text = tm_sprt.row("x", "st=0.05", s, fp.clock_figures(games, names), "")
        self.assertIn("| +137.0 ± 187.6 | not decided (LLR +0.10) | 22 ms, —, 172 ms | 21 ms, —, 173 ms |", text)

    def test_repeating_control_shows_the_refills(self):
        games = fp.read_games(sample("fastchess_repeating.pgn"))
        s = tm_sprt.summarise(games, ["sandglass-a", "sandglass-b"], stats.Sprt(0, 10), {}, "")
        header, text = tm_sprt.row("x", "20/0.5", s, fp.clock_figures(games, ["sandglass-a", "sandglass-b"]), "")
        self.assertIn("before refill mean/lowest", header)
        self.assertIn(", 66 ms, ", text)  # sandglass-b's lowest clock, before a refill (test_fastchess_pgn)


class GauntletRow(unittest.TestCase):
    def test_counts_only_sandglass_losses(self):
        f = gauntlet.sandglass_figures(fp.read_games(sample("fastchess_forfeits.pgn")), "sandglass", "slow")
        self.assertEqual((f["games"], f["score"], sum(f["incidents"].values())), (2, 1.0, 0))
        f = gauntlet.sandglass_figures(fp.read_games(sample("fastchess_incidents.pgn")), "crash", "sandglass")
        self.assertEqual((f["games"], f["score"], f["incidents"]["crash"]), (2, 0.0, 2))
        text, clean = gauntlet.table([("1+0.01", "1", "crash", f)])
        self.assertFalse(clean)
        self.assertIn("| 1+0.01 | 1 | crash | 2 | 0.0% | 0 | 0 | 2 | 0 | ", text)

    def test_self_play_counts_both_sides(self):
        # The self-play sample under the names gauntlet gives in self-play: the player and "-2".
        games = fp.read_games(sample("fastchess_selfplay.pgn"))
        for g in games:
            for side in ("White", "Black"):
                g.headers[side] = {"sandglass-a": "sandglass", "sandglass-b": "sandglass-2"}[g.headers[side]]
        f = gauntlet.sandglass_figures(games, "sandglass", None)
        self.assertEqual((f["games"], f["score"], f["lowest_ms"]), (8, 5.5 / 8, 172.0))
        text, clean = gauntlet.table([("1+0.01", "1", "self", f)])
        self.assertTrue(clean)
        # No refill at 1+0.01: that figure does not apply.
        self.assertIn("| 1+0.01 | 1 | self | 8 | 68.8% | 0 | 0 | 0 | 0 | 172 ms | — |", text)

    def test_report_joins_folders_by_control_with_subtotals(self):
        # Two --out folders: one run at Threads 2 (fastchess's config.json says so) against
        # "slow", one without a config against itself; both at 1+0.01, so one subtotal.
        with tempfile.TemporaryDirectory() as tmp:
            two, one = os.path.join(tmp, "t2"), os.path.join(tmp, "t1")
            os.mkdir(two)
            os.mkdir(one)
            with open(sample("fastchess_forfeits.pgn"), encoding="utf-8") as f:
                forfeits = f.read()
            with open(os.path.join(two, "1+0.01-slow.pgn"), "w", encoding="utf-8") as f:
                f.write(forfeits)
            with open(os.path.join(two, "config.json"), "w", encoding="utf-8") as f:
                json.dump({"engines": [{"name": "sandglass", "options": [["Threads", "2"]]}]}, f)
            with open(sample("fastchess_selfplay.pgn"), encoding="utf-8") as f:
                selfplay = f.read().replace('"sandglass-a"', '"sandglass"').replace('"sandglass-b"', '"sandglass-2"')
            with open(os.path.join(one, "1+0.01-self.pgn"), "w", encoding="utf-8") as f:
                f.write(selfplay)
            rows = gauntlet.report([two, one])
        self.assertEqual([(tc, threads, opp, f["games"]) for tc, threads, opp, f in rows],
                         [("1+0.01", "1", "self", 8), ("1+0.01", "2", "slow", 2)])
        text, clean = gauntlet.table(rows)
        self.assertTrue(clean)
        self.assertIn("| 1+0.01 | 2 | slow | 2 | 100.0% | 0 | 0 | 0 | 0 | ", text)
        self.assertIn("| **1+0.01** | | | 10 | | 0 | 0 | 0 | 0 | ", text)
        self.assertTrue(text.endswith("| all | | | 10 | | 0 | 0 | 0 | 0 | 172 ms | — |"), text)

    def test_fixed_nodes_and_move_time_are_named_as_when_played(self):
        # fastchess's tag says "0.05/move" for st=0.05 and "-" at fixed nodes: the report named
        # the controls so, where the live table said st=0.05 and nodes=5000, and a node-limited
        # row printed "n/a" for clocks it never had.
        with open(sample("fastchess_nodes.pgn"), encoding="utf-8") as f:
            nodes = f.read().replace('"sandglass-a"', '"sandglass"').replace('"sandglass-b"', '"sandglass-2"')
        with open(sample("fastchess_selfplay.pgn"), encoding="utf-8") as f:
            timed = f.read().replace('"sandglass-a"', '"sandglass"').replace('"sandglass-b"', '"sandglass-2"')
        with tempfile.TemporaryDirectory() as tmp:
            for label, text in (("nodes=5000", nodes), ("st=0.05", timed.replace('"1+0.01"', '"0.05/move"'))):
                with open(os.path.join(tmp, gauntlet.file_tag(label, "self") + ".pgn"), "w", encoding="utf-8") as f:
                    f.write(text)
            rows = gauntlet.report([tmp])
        self.assertEqual([(tc, f["games"]) for tc, _, _, f in rows], [("nodes=5000", 2), ("st=0.05", 8)])
        self.assertEqual([fp.TimeControl.parse(tc).label() for tc in ("st=0.05", "nodes=5000", "40/2", "10+0.1")],
                         ["st=0.05", "nodes=5000", "40/2", "10+0.1"])
        text, _ = gauntlet.table(rows)
        self.assertIn("| nodes=5000 | 1 | self | 2 | 50.0% | 0 | 0 | 0 | 0 | — | — |", text)
        self.assertIn("| st=0.05 | 1 | self | 8 | 68.8% | 0 | 0 | 0 | 0 | ", text)
        self.assertNotIn("/move", text)

    def test_threads_come_from_the_options(self):
        self.assertEqual(gauntlet.threads_of(["Hash=16", "threads = 2"]), "2")
        self.assertEqual(gauntlet.threads_of(["Hash=16"]), "1")


if __name__ == "__main__":
    unittest.main()
