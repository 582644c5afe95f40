#!/usr/bin/env python3
"""Damage copies of the shipped Syzygy tables and probe them: does the engine refuse the bad
file, or die?

Each round copies the table folder, changes 1 to 4 random bytes of one file (the files taken
in turn), and runs `sandglass probe` on 40 random legal positions of that file's material. A
run that ends by a signal (a segmentation fault, say) is a crash: the engine must instead
refuse the file with a message and probe on without it. Crashed copies are kept in the work
folder with their positions, for a test to be made of them.

    target/venv/bin/python3 tools/tablebase_fuzz.py target/release/sandglass --rounds 840 \\
        --seed 7 --within 400

`--within N` changes bytes among each file's first N only (the header, index and size tables
of the small files); without it, anywhere in the file, data blocks included.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

import tablebase_suite

TABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "syzygy")


def fail(message):
    """One line and exit code 2, as the project's other tools do on bad input."""
    print(f"tablebase_fuzz: error: {message}", file=sys.stderr)
    sys.exit(2)


def damage(path, rng, within):
    data = bytearray(open(path, "rb").read())
    places = []
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(min(within or len(data), len(data)))
        data[at] = rng.randrange(256)
        places.append(at)
    with open(path, "wb") as out:
        out.write(data)
    return places


def positions(material, rng, count=40):
    """Legal positions, game over or not: `KBvK` is always a draw by material, and its
    table is probed all the same."""
    fens = []
    while len(fens) < count:
        board = tablebase_suite.placed(material, rng)
        if board is not None and board.is_valid():
            fens.append(board.fen())
    return fens


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", help="the sandglass binary")
    parser.add_argument("--rounds", type=int, default=840)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--within", type=int, default=0, help="damage only the first N bytes")
    parser.add_argument("--tables", default=TABLES, help="the intact tables (default: shipped)")
    parser.add_argument("--keep", default=None,
                        help="folder for crashed copies (default: a temporary one)")
    args = parser.parse_args()
    if not os.access(args.engine, os.X_OK):
        fail(f"{args.engine} is not an executable")
    try:
        names = sorted(f for f in os.listdir(args.tables) if f.endswith((".rtbw", ".rtbz")))
    except OSError as e:
        fail(f"cannot read {args.tables}: {e.strerror}")
    if not names:
        fail(f"no .rtbw or .rtbz file in {args.tables}")
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="tablebase-fuzz-")
    keep = args.keep or work
    crashes = refused = 0
    for n in range(args.rounds):
        name = names[n % len(names)]
        copy = os.path.join(work, "tables")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(args.tables, copy)
        places = damage(os.path.join(copy, name), rng, args.within)
        fens = positions(name.split(".")[0], rng)
        run = subprocess.run([args.engine, "probe", "--syzygy-path", copy],
                             input="\n".join(fens) + "\n", capture_output=True, text=True,
                             timeout=120)
        if run.returncode < 0:
            crashes += 1
            kept = os.path.join(keep, f"crash-{args.seed}-{n}")
            shutil.copytree(copy, kept)
            with open(os.path.join(kept, "positions.fen"), "w") as out:
                out.write("\n".join(fens) + "\n")
            print(f"crash: {name}, bytes {places}, signal {-run.returncode}", flush=True)
        elif name.split(".")[0] in run.stderr:
            refused += 1
    shutil.rmtree(os.path.join(work, "tables"), ignore_errors=True)
    if not crashes and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.rounds} damaged copies: {crashes} crashed, {refused} refused with a message")
    sys.exit(1 if crashes else 0)


if __name__ == "__main__":
    main()
