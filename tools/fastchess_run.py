"""Playing matches with fastchess: finding it and the engines, the command line, the machine
lock, and fastchess's final report.

fastchess (github Disservin/fastchess, MIT) is the runner OpenBench and the rating-list
testers use: it keeps the clocks in C++, writes each move's time and clock into the PGN, and
runs the pentanomial SPRT. The tools here only build its command line and read what it writes
(tools/fastchess_pgn.py); the statistics are tools/stats.py's.

Every match holds an exclusive `flock` on one lock file (default /tmp/sandglass-match.lock),
so that two matches never share the cores, and plays at most two games at a time.
"""

import contextlib
import dataclasses
import fcntl
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOK = os.path.join(REPO, "data", "books", "noob_3moves_5k.epd")
LOCK = "/tmp/sandglass-match.lock"
MAX_CONCURRENCY = 2
# Debian and Ubuntu install the packaged engines (glaurung, stockfish, toga2, …) here, which is
# not on every user's PATH.
GAMES_DIR = "/usr/games"


# UCI options whose value is a file the engine opens (Sandglass's and Stockfish's network),
# as the engines spell them: fastchess matches names case for case.
FILE_OPTIONS = ("EvalFile",)


@dataclasses.dataclass
class Engine:
    name: str
    cmd: str
    options: list = dataclasses.field(default_factory=list)  # "Name=Value" items

    def __post_init__(self):
        self.options = [file_option(o) for o in self.options]


def file_option(option):
    """`option` ("Name=Value") with a file's path made absolute, or exit naming a file that is
    not there. fastchess runs in the match's output folder and starts the engines there, so a
    relative path would be read from that folder; and an engine that cannot read its EvalFile
    says so in an `info string` nobody reads and plays on with its built-in network, so a
    match would pit one network against itself and look valid. A missing file stops the tool
    as a file that is not a network does (`check_engines`): one line, exit code 2."""
    name, sep, value = option.partition("=")
    if not sep or name.strip() not in FILE_OPTIONS or value in ("", "<embedded>"):
        return option
    path = os.path.abspath(value)
    if not os.path.isfile(path):
        print(f"{os.path.basename(sys.argv[0])}: option {option!r}: no such file {path}, nothing played",
              file=sys.stderr)
        sys.exit(2)
    return f"{name}={path}"


# What an engine says when it refuses an option: Sandglass's `info string error: …`, and
# Stockfish's `No such option`. A refused `EvalFile` is the costly one: the engine plays on with
# its built-in network, and fastchess, which only checks an option's name and range, plays the
# whole match.
REFUSED_OPTION = re.compile(r"\berror\b|no such option", re.IGNORECASE)
CHECK_SECONDS = 30


def check_options(engine, seconds=CHECK_SECONDS):
    """The lines in which `engine` refused one of its options, or a one-item list saying it did
    not start or answer: it is started alone, given its options as fastchess will give them
    (after `uci`, before `isready`), and asked `isready`. `quit` follows only after `readyok`,
    as fastchess sends it: an engine may read its input on one thread and answer on another
    (Viridithas does), and leave at a `quit` read before its `readyok` is written. Empty when
    all is well."""
    lines = ["uci"] + [f"setoption name {n.strip()} value {v.strip()}"
                       for n, _, v in (o.partition("=") for o in engine.options)] + ["isready"]
    try:
        proc = subprocess.Popen([engine.cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, errors="replace")
    except OSError as err:
        return [f"cannot start {engine.cmd}: {err}"]
    said = queue.Queue()

    def read():
        # The pipe is closed under this thread once the engine is gone.
        with contextlib.suppress(OSError, ValueError):
            for line in proc.stdout:
                said.put(line.strip())
        said.put(None)

    threading.Thread(target=read, daemon=True).start()
    heard, ready, ended, deadline = [], False, False, time.monotonic() + seconds
    with contextlib.suppress(OSError):
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
    while not ready and time.monotonic() < deadline:
        try:
            line = said.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            ended = True
            break
        heard.append(line)
        ready = line == "readyok"
    with contextlib.suppress(OSError):
        proc.stdin.write("quit\n")
        proc.stdin.close()
    try:
        code = proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
    proc.stdout.close()
    if not ready:
        return [f"no readyok (exit code {code})" if ended else f"no readyok within {seconds} s"]
    return [line for line in heard if REFUSED_OPTION.search(line)]


def check_engines(tool, engines):
    """Exit with code 2, one line for each engine's refusal naming the engine and what it said,
    unless every engine in `engines` starts and takes its options; run before any game is
    played."""
    problems = [f"{e.name} ({e.cmd}): {said}" for e in engines for said in check_options(e)]
    if problems:
        for p in problems:
            print(f"{tool}: an engine refused its options, nothing played: {p}", file=sys.stderr)
        sys.exit(2)


def find_program(name):
    """The absolute path of an executable given by path, or by name on PATH or in /usr/games."""
    if os.sep in name:
        return os.path.abspath(name) if os.path.isfile(name) and os.access(name, os.X_OK) else None
    return shutil.which(name) or shutil.which(name, path=GAMES_DIR)


def require(tool, fastchess, engines):
    """(fastchess's path, [each engine's path]); exits with one line naming everything missing
    before anything is played. `fastchess`: --fastchess, else $FASTCHESS, else on PATH."""
    given = fastchess or os.environ.get("FASTCHESS") or "fastchess"
    runner = find_program(given)
    paths = [find_program(e) for e in engines]
    missing = [] if runner else [f"fastchess ({given!r}; give --fastchess PATH or set FASTCHESS, "
                                 f"README \"Measuring\" says how to build it)"]
    missing += [f"engine {e!r}" for e, p in zip(engines, paths) if p is None]
    if missing:
        print(f"{tool}: not found: {', '.join(dict.fromkeys(missing))}", file=sys.stderr)
        sys.exit(2)
    return runner, paths


def add_arguments(parser, book=True):
    """The options every match tool takes."""
    parser.add_argument("--fastchess", help="the fastchess binary (default: $FASTCHESS, else fastchess on PATH)")
    parser.add_argument("--lock", default=LOCK, help=f"lock file held while playing (default {LOCK})")
    parser.add_argument("--concurrency", type=concurrency, default=MAX_CONCURRENCY,
                        help=f"games at a time, at most {MAX_CONCURRENCY} (default {MAX_CONCURRENCY})")
    if book:
        parser.add_argument("--book", default=BOOK, help=f"EPD opening book (default {os.path.relpath(BOOK, REPO)})")


def concurrency(text):
    value = int(text)
    if not 1 <= value <= MAX_CONCURRENCY:
        raise ValueError(f"concurrency {text}: 1 to {MAX_CONCURRENCY}")
    return value


# fastchess forfeits a move that takes longer than a fixed move time (st=) by any amount unless
# given a `timemargin`, and its measure includes the round trip through the pipes: at st=0.05
# every game was lost by 1-4 ms, Stockfish's against itself too. An engine uses the whole move
# time, as UCI asks, so it cannot absorb that itself. The earlier runner allowed the same 50 ms
# (docs/measurements/reliability.md); clocks get no margin, since running one down is the engine's
# own doing (its Move Overhead), and a forfeit there is what the gauntlet counts.
MOVETIME_MARGIN_MS = 50


def command(fastchess, engines, tc, pairs, book, concurrency, pgn, sprt=None, seed=None, log=None,
            chess960=False):
    """fastchess's command line: `pairs` game pairs (each opening played with both colours) from
    the book in random order, every move's clock in the PGN (`timeleft=true`), crashed
    engines restarted (`-recover`), a fixed move time's margin, the SPRT if given
    (normalized Elo, as fishtest), and Chess960 if asked (fastchess then sets `UCI_Chess960`
    in both engines; the book holds Chess960 starting positions)."""
    cmd = [fastchess]
    for e in engines:
        cmd += ["-engine", f"cmd={e.cmd}", f"name={e.name}"] + [f"option.{o}" for o in e.options]
    margin = [f"timemargin={MOVETIME_MARGIN_MS}"] if tc.movetime else []
    cmd += ["-each", tc.fastchess(), *margin, "proto=uci",
            "-openings", f"file={book}", "format=epd", "order=random",
            "-games", "2", "-rounds", str(pairs), "-repeat",
            "-concurrency", str(concurrency), "-recover",
            "-pgnout", f"file={pgn}", "timeleft=true"]
    if sprt is not None:
        cmd += ["-sprt", f"elo0={sprt.elo0:g}", f"elo1={sprt.elo1:g}", f"alpha={sprt.alpha:g}",
                f"beta={sprt.beta:g}", "model=normalized"]
    if chess960:
        cmd += ["-variant", "fischerandom"]
    if seed is not None:
        cmd += ["-srand", str(seed)]
    if log is not None:
        cmd += ["-log", f"file={log}", "level=warn"]
    return cmd


@contextlib.contextmanager
def locked(path):
    """Hold an exclusive flock on `path` (waiting, and saying so, while another match holds it)."""
    with open(path, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"waiting for {path} (another match is playing) …", file=sys.stderr, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


# What fastchess prints when it does not send an engine an option (a name the engine does not
# declare, in fastchess's exact case, or a value outside its range), and plays on without it.
DROPPED_OPTION = ("doesn't have option", "Invalid value for option")


def dropped_options(output):
    """The lines of fastchess's output that say it left an option out."""
    return [line.strip() for line in output.splitlines() if any(d in line for d in DROPPED_OPTION)]


def play(cmd, cwd, output, echo=False):
    """Run fastchess in `cwd` (it writes config.json there), its output to the file `output`
    and, with `echo`, to our stdout too; return (exit code, output text). A match in which
    fastchess left out an option did not play the settings asked for: it stops there, and the
    exit code is 3, whatever fastchess's."""
    lines = []
    with open(output, "w", encoding="utf-8") as out, subprocess.Popen(
            cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace") as proc:
        def keep(line):
            out.write(line)
            lines.append(line)
            if echo:
                sys.stdout.write(line)
                sys.stdout.flush()

        try:
            for line in proc.stdout:
                keep(line)
                if dropped_options(line):
                    proc.terminate()
                    print(f"error: fastchess did not send an option ({line.strip()}); "
                          "check its name (exact case) and value", file=sys.stderr)
                    return 3, "".join(lines)
        except KeyboardInterrupt:
            # Ctrl-C at a terminal reaches fastchess as well; a SIGINT sent to this process
            # alone is passed on (fastchess takes a second one as it takes the first). Either
            # way fastchess ends its games, writes its PGN and its report, and exits with 1:
            # what it still prints is read, so that the games played are summarised.
            proc.send_signal(signal.SIGINT)
            for line in proc.stdout:
                keep(line)
        code = proc.wait()
    return code, "".join(lines)


def report(text):
    """The last report of fastchess's output (its `Results of A vs B` block) for the first
    engine: games, wins, losses, draws, ptnml and the SPRT's LLR; {} if there is none."""
    start = text.rfind("Results of ")
    if start < 0:
        return {}
    block = text[start:]
    out = {}
    m = re.search(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", block)
    if m:
        out.update(zip(("games", "wins", "losses", "draws"), map(int, m.groups())))
    m = re.search(r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]", block)
    if m:
        out["ptnml"] = [int(x) for x in m.groups()]
    m = re.search(r"LLR: (-?[\d.]+)", block)
    if m:
        out["llr"] = float(m.group(1))
    return out
