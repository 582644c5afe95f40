#!/usr/bin/env python3
"""What a Windows GUI does to Sandglass, done to the Windows build under Wine.

    python3 tools/cross/windows_uci_check.py target/windows-x86_64-v3/.../sandglass.exe

Every line is sent ending in CRLF, as Windows GUIs send them. Checked, each in its own run
of the engine:
- the handshake, `isready`, and one `bestmove` for each `go`, with `Threads 2`;
- `EvalFile` with a Windows path with spaces (Z: is Wine's drive for `/`): the embedded
  network copied into a folder with spaces gives the same search as the embedded one;
- `SyzygyPath` with drive letters, `;` between folders, and spaces: a folder that does not
  exist gets its error line, and the shipped 3- and 4-man tables in a folder with spaces
  on drive Y: (made for the check in Wine's prefix; the engine runs on Z:, so a path that
  lost its drive letter would not find them) are opened and probed (a king-and-queen win
  scores in the tablebase band, with tbhits);
- bad values with Windows paths: one `info string error` line each, and the engine goes on;
- `watch`: the page is served (its state read over HTTP) and a short game is played to its
  end against a copy of the .exe named as a Windows GUI names it, quoted, with spaces
  (`--black-cmd "Y:\engines dir\black engine.exe"`); the page and the PGN are saved.

Needs tools/cross/toolchain.sh's Wine prefix (tools/cross/run.sh runs the .exe). Prints one
line a check and exits non-zero on the first failure. Python's standard library only.
"""

import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = os.path.join(ROOT, "tools", "cross", "run.sh")
WORK = os.path.join(ROOT, "target", "cross", "windows check")
PREFIX = os.path.join(ROOT, "target", "cross", "wine", "prefix")
# Generous: Wine's first start in a fresh prefix, on a loaded two-core machine.
TIMEOUT = 60.0
KQK = "8/8/8/8/8/3k4/8/3KQ3 w - - 0 1"
# King and queen against king, mated in a few moves: `watch`'s game is short.
SHORT_GAME = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"


class Failure(Exception):
    pass


def windows_path(path):
    """Wine shows the Linux root as drive Z:."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


class Engine:
    """The .exe under Wine, spoken to in CRLF lines."""

    def __init__(self, exe):
        self.process = subprocess.Popen(
            [RUN, exe],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line.encode() + b"\r\n")
        self.process.stdin.flush()

    def until(self, predicate, what):
        """The lines up to and including the first that satisfies `predicate`."""
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=TIMEOUT)
            except queue.Empty:
                raise Failure(f"no {what} within {TIMEOUT:.0f} s; last lines: {seen[-5:]}")
            if line is None:
                raise Failure(f"the engine ended before {what}; last lines: {seen[-5:]}")
            seen.append(line)
            if predicate(line):
                return seen

    def ready(self):
        self.send("isready")
        return self.until(lambda line: line == "readyok", "readyok")

    def search(self, go):
        """`go …`: its lines to the one `bestmove`, which must name a move."""
        self.send(go)
        lines = self.until(lambda line: line.startswith("bestmove"), "bestmove")
        move = lines[-1].split()
        if len(move) < 2 or move[1] == "(none)":
            raise Failure(f"{go}: {lines[-1]}")
        # Exactly one bestmove: isready is answered next, with no second one between.
        extra = [line for line in self.ready() if line.startswith("bestmove")]
        if extra:
            raise Failure(f"{go}: a second bestmove: {extra}")
        return lines

    def quit(self):
        self.send("quit")
        try:
            code = self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise Failure("quit: the engine did not end")
        if code != 0:
            raise Failure(f"quit: exit code {code}")


def nodes_of(lines):
    for line in reversed(lines):
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words:
            return int(words[words.index("nodes") + 1])
    raise Failure(f"no info line with nodes in {lines[-3:]}")


def score_of(lines):
    for line in reversed(lines):
        words = line.split()
        if words[:1] == ["info"] and "score" in words:
            i = words.index("score")
            return words[i + 1], int(words[i + 2]), words
    raise Failure(f"no info line with a score in {lines[-3:]}")


def check_handshake_and_threads(exe):
    engine = Engine(exe)
    engine.send("uci")
    lines = engine.until(lambda line: line == "uciok", "uciok")
    names = [line for line in lines if line.startswith("id name ")]
    if not names or not names[0].startswith("id name Sandglass"):
        raise Failure(f"id name: {names}")
    engine.send("setoption name Threads value 2")
    engine.send("setoption name Hash value 32")
    engine.ready()
    engine.send("ucinewgame")
    engine.send("position startpos moves e2e4 e7e5")
    lines = engine.search("go depth 10")
    engine.send("position startpos moves e2e4 e7e5 g1f3")
    engine.search("go wtime 3000 btime 3000 winc 100 binc 100")
    engine.quit()
    return f"{names[0][8:]}; Threads 2: depth 10 in {nodes_of(lines)} nodes, then a clock search"


def check_eval_file(exe):
    folder = os.path.join(WORK, "a network")
    os.makedirs(folder, exist_ok=True)
    net = os.path.join(folder, "network 9.nnue")
    shutil.copyfile(os.path.join(ROOT, "src", "eval", "nnue", "embedded.nnue"), net)
    counts = []
    for setting in [None, windows_path(net)]:
        engine = Engine(exe)
        engine.send("uci")
        engine.until(lambda line: line == "uciok", "uciok")
        if setting:
            engine.send(f"setoption name EvalFile value {setting}")
            errors = [line for line in engine.ready() if "error" in line]
            if errors:
                raise Failure(f"EvalFile {setting}: {errors}")
        engine.send("position startpos")
        counts.append(nodes_of(engine.search("go depth 9")))
        engine.quit()
    if counts[0] != counts[1]:
        raise Failure(f"EvalFile {windows_path(net)}: {counts[1]} nodes, embedded {counts[0]}")
    return f"EvalFile {windows_path(net)}: the embedded network's search ({counts[0]} nodes)"


def check_syzygy_path(exe):
    folder = os.path.join(WORK, "syzygy tables")
    os.makedirs(folder, exist_ok=True)
    source = os.path.join(ROOT, "data", "syzygy")
    for name in os.listdir(source):
        if name.endswith((".rtbw", ".rtbz")):
            shutil.copyfile(os.path.join(source, name), os.path.join(folder, name))
    missing = "C:\\no such folder"
    value = f"{missing};Y:\\syzygy tables"
    engine = Engine(exe)
    engine.send("uci")
    engine.until(lambda line: line == "uciok", "uciok")
    engine.send(f"setoption name SyzygyPath value {value}")
    said = [line for line in engine.ready() if line.startswith("info string")]
    if not any("error" in line and missing in line for line in said):
        raise Failure(f"SyzygyPath {value}: no error for {missing!r}: {said}")
    if not any("70 table files" in line for line in said):
        raise Failure(f"SyzygyPath {value}: the tables were not opened: {said}")
    engine.send(f"position fen {KQK}")
    lines = engine.search("go depth 6")
    kind, score, words = score_of(lines)
    tbhits = int(words[words.index("tbhits") + 1]) if "tbhits" in words else 0
    if not (kind == "mate" and score > 0 or kind == "cp" and score > 15000) or tbhits == 0:
        raise Failure(f"KQ-K with tables: {' '.join(words)}")
    engine.quit()
    return f"SyzygyPath {value}: error line for the first, 70 files, KQ-K scores {kind} {score} with {tbhits} tbhits"


def check_bad_paths(exe):
    engine = Engine(exe)
    engine.send("uci")
    engine.until(lambda line: line == "uciok", "uciok")
    for name, value in [("EvalFile", "C:\\no such\\net.nnue"), ("SyzygyPath", "Q:\\nothing")]:
        engine.send(f"setoption name {name} value {value}")
        errors = [line for line in engine.ready() if line.startswith("info string error")]
        if len(errors) != 1:
            raise Failure(f"{name} {value}: expected one error line, got {errors}")
    engine.send("position startpos")
    engine.search("go depth 5")
    engine.quit()
    return "a bad EvalFile and SyzygyPath: one error line each, and the engine plays on"


def y_drive():
    """Drive Y: of the Wine prefix, made for these checks: WORK's folder."""
    os.makedirs(WORK, exist_ok=True)
    drive = os.path.join(PREFIX, "dosdevices", "y:")
    if os.path.lexists(drive):
        os.remove(drive)
    os.symlink(WORK, drive)


def check_watch(exe):
    folder = os.path.join(WORK, "engines dir")
    os.makedirs(folder, exist_ok=True)
    shutil.copyfile(exe, os.path.join(folder, "black engine.exe"))
    save = os.path.join(WORK, "watch game")
    for ending in [".pgn", ".html"]:
        if os.path.exists(save + ending):
            os.remove(save + ending)
    black = '"Y:\\engines dir\\black engine.exe"'
    process = subprocess.Popen(
        [RUN, exe, "watch", "--port", "0", "--no-wait", "--tc", "10/2", "--fen", SHORT_GAME,
         "--black-cmd", black, "--linger", "1", "--save", windows_path(save)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        url = None
        said = []
        for line in process.stdout:
            said.append(line.rstrip())
            if "open http://" in line:
                url = line[line.index("http://"):].split()[0].rstrip("/")
                break
        if url is None:
            raise Failure(f"watch printed no address: {said} {process.stderr.read()}")
        with urllib.request.urlopen(url + "/state.json", timeout=TIMEOUT) as answer:
            state = answer.read().decode()
        if answer.status != 200 or '"kind":"uci"' not in state:
            raise Failure(f"watch's state: {answer.status} {state[:200]}")
        code = process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        raise Failure("watch's game did not end within 120 s")
    finally:
        if process.poll() is None:
            process.kill()
    if code != 0:
        raise Failure(f"watch ended with exit code {code}: {process.stderr.read()[-500:]}")
    with open(save + ".pgn") as pgn_file:
        pgn = pgn_file.read()
    if "1... " not in pgn or "[Result " not in pgn:
        raise Failure(f"the saved PGN: {pgn[:300]}")
    if not os.path.getsize(save + ".html"):
        raise Failure("the saved page is empty")
    result = pgn.split('[Result "')[1].split('"')[0]
    return f"watch: page served at {url}, a game against --black-cmd {black} played to {result}, saved"


def main():
    if len(sys.argv) != 2 or not os.path.isfile(sys.argv[1]):
        print("usage: windows_uci_check.py SANDGLASS.EXE", file=sys.stderr)
        return 2
    exe = sys.argv[1]
    y_drive()
    checks = [
        check_handshake_and_threads,
        check_eval_file,
        check_syzygy_path,
        check_bad_paths,
        check_watch,
    ]
    for check in checks:
        try:
            print(f"ok: {check(exe)}", flush=True)
        except Failure as failure:
            print(f"FAIL: {check.__name__}: {failure}", file=sys.stderr)
            return 1
    print(f"{len(checks)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
