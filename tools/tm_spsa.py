#!/usr/bin/env python3
"""SPSA tuning of UCI spin options by self-play: the way Stockfish's fishtest (and, through
OpenBench, Ethereal and Alexandria) tune time-management and search constants.

    tools/tm_spsa.py run --engine target/release/sandglass --tc 5+0.05 --iterations 400 \\
        --param "Slow Mover=100,50,200,10" --param "Soft Stop Factor=200,120,400,20" \\
        --state spsa-tm.json
    tools/tm_spsa.py run --engine target/release/sandglass --tc 40/2 --iterations 400 --pairs 2 \\
        --option "Soft Stop=learned" --param "Soft Stop Learned Scale=5,1,30,2,0.05" \\
        --state spsa-kappa.json
    tools/tm_spsa.py run --engine sandglass-tune --tc nodes=20000 --iterations 6000 --pairs 2 \\
        --params-from-engine --state data/spsa/search-20k.json --log data/spsa/search-20k.csv
    tools/tm_spsa.py selftest

Each iteration plays one game pair (or more, `--pairs`) from the book between two copies of
the engine: A with every parameter at theta + c_k * delta, B at theta - c_k * delta, delta a
random vector of +1/-1. Then theta += R_k * c_k * (wins - losses of A) * delta. The engine
only sees ordinary `setoption` lines, so any spin option can be tuned without a special
build; a constant becomes tunable by giving it a spin option.

Schedule (Spall, "Implementation of the simultaneous perturbation algorithm for stochastic
optimization", IEEE Trans. Aerospace and Electronic Systems 34(3), 1998, with gamma = 0.101
and alpha = 0.602, and the parametrisation by end values of fishtest's SPSA,
official-stockfish/fishtest `server/fishtest/spsa_handler.py`):

    c_k = c / k^gamma,          c chosen so that c_N = c_end
    a_k = a / (A + k)^alpha,    A = 0.1 N, a chosen so that a_N / c_N^2 = r_end
    R_k = a_k / c_k^2

A parameter is "NAME=start,min,max,c_end[,r_end]" (r_end defaults to fishtest's 0.002). c_end
is the perturbation at the end of the run, in the option's own units: large enough that a
game pair can tell theta + c from theta - c (fishtest's guidance is a change worth a few Elo),
small enough to stay in the useful range.

`--option NAME=VALUE` (repeat for more) sets an option on both sides and is not tuned: the
learned soft stop's scale is tuned with `Soft Stop=learned` on both sides, for example.

`--params-from-engine` tunes every search constant at once: it runs `ENGINE tune
--spsa-params` and takes each line it prints (OpenBench's SPSA input, `NAME, int, DEFAULT,
MIN, MAX, C_END, R_END`) as a parameter; a `--param` of the same name replaces that line's
values, and other `--param`s are tuned beside them. The engine offers those constants as
options only when built with `cargo build --release --features tune` (docs/tuning.md); a
normal build refuses them before the first game. `--tc nodes=N` (a fixed node count a move)
is taken only when every tuned parameter is one of those search constants: without a clock a
time-manager option plays no part.

The state (theta, iteration, seed) is written to --state after every iteration, so an
interrupted run resumes with the same command. Every iteration is one line of --log (CSV).
The games are played by fastchess (tools/fastchess_run.py: --fastchess PATH, else $FASTCHESS,
else fastchess on PATH; book data/books/noob_3moves_5k.epd, at most 2 games at a time), the
whole run holding an exclusive flock on --lock (default /tmp/sandglass-match.lock), so only
one match runs on the machine at a time. W/D/L and the time forfeits, illegal moves, crashes
and stalls are read from fastchess's PGN (tools/fastchess_pgn.py).
"""

import argparse
import contextlib
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile

import fastchess_pgn
import fastchess_run

GAMMA = 0.101
ALPHA = 0.602
R_END_DEFAULT = 0.002


class Param:
    """One tuned spin option."""

    def __init__(self, spec):
        if "=" not in spec:
            raise ValueError(f"parameter '{spec}': expected NAME=start,min,max,c_end[,r_end]")
        name, values = spec.split("=", 1)
        parts = [v.strip() for v in values.split(",")]
        if len(parts) not in (4, 5):
            raise ValueError(f"parameter '{spec}': expected 4 or 5 numbers after '='")
        try:
            numbers = [float(v) for v in parts]
        except ValueError:
            raise ValueError(f"parameter '{spec}': not a number") from None
        self.name = name.strip()
        self.start, self.low, self.high, self.c_end = numbers[:4]
        self.r_end = numbers[4] if len(numbers) == 5 else R_END_DEFAULT
        if not self.name:
            raise ValueError(f"parameter '{spec}': empty name")
        if not self.low <= self.start <= self.high:
            raise ValueError(f"parameter '{self.name}': start outside [min, max]")
        if self.c_end <= 0 or self.r_end <= 0:
            raise ValueError(f"parameter '{self.name}': c_end and r_end must be positive")

    def clamp(self, x):
        return min(self.high, max(self.low, x))


class Schedule:
    """Spall's gains, parametrised by their values at the last iteration (fishtest)."""

    def __init__(self, iterations, c_end, r_end):
        self.n = iterations
        self.big_a = 0.1 * iterations
        self.c = c_end * iterations**GAMMA
        a_end = r_end * c_end**2
        self.a = a_end * (self.big_a + iterations) ** ALPHA

    def c_k(self, k):
        return self.c / k**GAMMA

    def a_k(self, k):
        return self.a / (self.big_a + k) ** ALPHA

    def r_k(self, k):
        return self.a_k(k) / self.c_k(k) ** 2


def params_from_spsa_lines(text):
    """The parameters of OpenBench SPSA input lines, `NAME, int, DEFAULT, MIN, MAX, C_END,
    R_END`, as `sandglass tune --spsa-params` prints them. Only integers: the games set each
    option to a whole number."""
    params = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            raise ValueError(f"SPSA input line {number} {line!r}: expected "
                             "NAME, int, DEFAULT, MIN, MAX, C_END, R_END")
        name, _, *numbers = fields
        params.append(Param(f"{name}={','.join(numbers)}"))
    if not params:
        raise ValueError("the SPSA input names no parameter")
    return params


def engine_params(engine):
    """The parameters `ENGINE tune --spsa-params` prints."""
    try:
        out = subprocess.run([engine, "tune", "--spsa-params"], capture_output=True, text=True,
                             timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ValueError(f"{engine} tune --spsa-params: {e}") from None
    if out.returncode != 0:
        said = (out.stderr.strip().splitlines() or ["no message"])[0]
        raise ValueError(f"{engine} tune --spsa-params: exit {out.returncode}: {said}")
    return params_from_spsa_lines(out.stdout)


def merge_params(from_engine, explicit):
    """The engine's parameters, each replaced by an explicit one of the same name, then the
    explicit ones the engine did not list."""
    by_name = {p.name: p for p in explicit}
    merged = [by_name.pop(p.name, p) for p in from_engine]
    return merged + [p for p in explicit if p.name in by_name]


def fixed_options(specs, params):
    """The --option NAME=VALUE settings as (name, value) pairs, set on both sides. A name
    that is also tuned would be set twice, and one setting would silently lose."""
    tuned = {p.name for p in params}
    out = []
    for spec in specs or []:
        name, sep, value = spec.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise ValueError(f"--option '{spec}': expected NAME=VALUE")
        if name in tuned:
            raise ValueError(f"--option '{spec}': {name} is tuned by a --param")
        out.append((name, value))
    return out


def check_control(tc, params, search_names):
    """Refuse a node count unless every tuned parameter is one of the engine's search constants
    (`search_names`, the names `tune --spsa-params` prints). At a fixed node count no clock
    runs, so a time-manager option would be tuned on noise alone; a search constant changes
    the tree a node budget buys, which is what the games then measure."""
    if not tc.nodes:
        return
    clock_only = [p.name for p in params if p.name not in search_names]
    if clock_only:
        what = "is not a search constant" if len(clock_only) == 1 else "are not search constants"
        raise ValueError(f"--tc nodes={tc.nodes}: {', '.join(clock_only)} {what} (the engine's "
                         "`tune --spsa-params`), and without a clock plays no part; tune it at "
                         "a clock (B+I, M/B, M/B+I or st=S)")


def spsa_step(theta, params, k, iterations, delta, result):
    """theta after one iteration whose plus side scored `result` = wins - losses."""
    out = []
    for x, p, d in zip(theta, params, delta):
        s = Schedule(iterations, p.c_end, p.r_end)
        out.append(p.clamp(x + s.r_k(k) * s.c_k(k) * result * d))
    return out


def play(args, plus, minus, seed):
    """Play --pairs game pairs, A at `plus`, B at `minus`; return A's (wins, draws, losses) and
    the count of games lost by a time forfeit, illegal move, crash or stall."""
    names = ("plus", "minus")
    engines = [fastchess_run.Engine(name, args.engine,
                                    [f"{n}={v}" for n, v in args.fixed + values])
               for name, values in zip(names, (plus, minus))]
    fastchess_run.check_engines("tm_spsa.py run", engines)
    with tempfile.TemporaryDirectory(prefix="tm_spsa-") as tmp:
        pgn = os.path.join(tmp, "games.pgn")
        cmd = fastchess_run.command(args.fastchess, engines, args.tc_parsed, args.pairs, args.book,
                                    args.concurrency, pgn, seed=seed)
        code, output = fastchess_run.play(cmd, tmp, os.path.join(tmp, "games.out"))
        if code != 0 or not os.path.exists(pgn):
            sys.stderr.write(output[-2000:])
            raise RuntimeError(f"fastchess failed (exit {code})")
        t = fastchess_pgn.tally(fastchess_pgn.read_games(pgn), names[0], opponent=names[1])
    faults = sum(n for side in t["incidents"].values() for n in side.values())
    return t["wins"], t["draws"], t["losses"], faults


def load_state(path, params, args):
    if path and os.path.exists(path):
        with open(path) as f:
            s = json.load(f)
        names = [p.name for p in params]
        if s.get("names") != names or s.get("iterations") != args.iterations:
            raise SystemExit(f"{path} holds a different run ({s.get('names')}, "
                             f"{s.get('iterations')} iterations); use another --state")
        return s
    return {"names": [p.name for p in params], "iterations": args.iterations,
            "k": 0, "theta": [p.start for p in params],
            "seed": args.seed if args.seed is not None else random.randrange(1 << 30),
            "wins": 0, "draws": 0, "losses": 0}


def save_state(path, state):
    if not path:
        return
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def run(args):
    params = [Param(s) for s in args.param or []]
    table = engine_params(args.engine) if args.params_from_engine or args.tc_parsed.nodes else []
    if args.params_from_engine:
        params = merge_params(table, params)
    check_control(args.tc_parsed, params, {p.name for p in table})
    args.fixed = fixed_options(args.option, params)
    state = load_state(args.state, params, args)
    with contextlib.ExitStack() as stack:
        stack.enter_context(fastchess_run.locked(args.lock))
        log = stack.enter_context(open(args.log, "a", newline="")) if args.log else None
        writer = csv.writer(log) if log else None
        if writer and state["k"] == 0:
            writer.writerow(["k", "c_k(first)", "W", "D", "L"] + [p.name for p in params])
        while state["k"] < args.iterations:
            k = state["k"] + 1
            rng = random.Random(state["seed"] * 1_000_003 + k)
            delta = [rng.choice((-1, 1)) for _ in params]
            theta = state["theta"]
            plus, minus = [], []
            for x, p, d in zip(theta, params, delta):
                c = Schedule(args.iterations, p.c_end, p.r_end).c_k(k)
                plus.append((p.name, round(p.clamp(x + c * d))))
                minus.append((p.name, round(p.clamp(x - c * d))))
            w, d_, l, faults = play(args, plus, minus, rng.randrange(1 << 30))
            state["theta"] = spsa_step(theta, params, k, args.iterations, delta, w - l)
            state["k"] = k
            state["wins"] += w
            state["draws"] += d_
            state["losses"] += l
            state["faults"] = state.get("faults", 0) + faults
            save_state(args.state, state)
            first = Schedule(args.iterations, params[0].c_end, params[0].r_end).c_k(k)
            if writer:
                writer.writerow([k, f"{first:.3f}", w, d_, l]
                                + [f"{x:.3f}" for x in state["theta"]])
                log.flush()
            shown = ", ".join(f"{p.name} {x:.1f}" for p, x in zip(params, state["theta"]))
            print(f"iteration {k}/{args.iterations}: +{w} ={d_} -{l} -> {shown}", flush=True)
    print("tuned: " + ", ".join(f"{p.name}={round(x)}" for p, x in zip(params, state["theta"])))
    print(f"games: {2 * args.pairs * state['k']}, plus side W/D/L "
          f"{state['wins']}/{state['draws']}/{state['losses']}, "
          f"time forfeits, illegal moves, crashes and stalls: {state.get('faults', 0)}")


def selftest():
    """The schedule meets its defining end values; a step moves theta the right way."""
    n, c_end, r_end = 1000, 10.0, 0.002
    s = Schedule(n, c_end, r_end)
    assert math.isclose(s.c_k(n), c_end, rel_tol=1e-12)
    assert math.isclose(s.r_k(n), r_end, rel_tol=1e-12)
    # Gains shrink: c_1 = c_end * N^0.101 (about 2.01 c_end for N = 1000), a_k decreasing.
    assert math.isclose(s.c_k(1), c_end * 1000**0.101, rel_tol=1e-12)
    assert 2.0 < s.c_k(1) / c_end < 2.02
    assert s.a_k(1) > s.a_k(n)
    p = Param("Slow Mover=100,50,200,10")
    assert (p.start, p.low, p.high, p.c_end, p.r_end) == (100, 50, 200, 10, R_END_DEFAULT)
    # A plus side that won 2-0 with delta +1 raises theta by R_k * c_k * 2 (clamped).
    up = spsa_step([100.0], [p], n, n, [1], 2)[0]
    assert math.isclose(up, 100 + r_end * c_end * 2, rel_tol=1e-12)
    assert spsa_step([100.0], [p], n, n, [-1], 2)[0] < 100
    assert spsa_step([199.99], [p], 1, n, [1], 2)[0] == 200
    for bad in ("Slow Mover", "X=1,2,3", "X=5,10,20,1", "X=a,b,c,d", "X=1,0,2,0"):
        try:
            Param(bad)
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad!r}")
    print("selftest ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="tune")
    r.add_argument("--engine", required=True)
    r.add_argument("--param", action="append",
                   help="NAME=start,min,max,c_end[,r_end] (repeat)")
    r.add_argument("--params-from-engine", action="store_true",
                   help="tune every parameter `ENGINE tune --spsa-params` prints (a --param of "
                        "the same name replaces its values)")
    r.add_argument("--option", action="append",
                   help="NAME=VALUE set on both sides, not tuned (repeat)")
    r.add_argument("--iterations", type=int, required=True)
    r.add_argument("--tc", default="5+0.05")
    r.add_argument("--pairs", type=int, default=1, help="game pairs per iteration")
    r.add_argument("--state", help="JSON file: resume from it, update it every iteration")
    r.add_argument("--log", help="CSV file: one line per iteration")
    r.add_argument("--seed", type=int)
    fastchess_run.add_arguments(r)
    sub.add_parser("selftest", help="check the schedule and the update")
    args = ap.parse_args()
    if args.cmd == "selftest":
        selftest()
        return
    if not args.param and not args.params_from_engine:
        raise SystemExit("nothing to tune: give --param or --params-from-engine")
    if args.iterations < 1 or args.pairs < 1:
        raise SystemExit("--iterations and --pairs must be at least 1")
    args.tc_parsed = fastchess_pgn.TimeControl.parse(args.tc)
    if args.tc_parsed is None:
        raise SystemExit(f"--tc {args.tc!r}: expected B+I (5+0.05), M/B (40/2), M/B+I, st=S "
                         "or nodes=N")
    args.fastchess, (args.engine,) = fastchess_run.require("tm_spsa.py run", args.fastchess, [args.engine])
    args.book = os.path.abspath(args.book)
    try:
        run(args)
    except ValueError as e:
        raise SystemExit(f"error: {e}")


if __name__ == "__main__":
    main()
