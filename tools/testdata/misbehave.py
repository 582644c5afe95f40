#!/usr/bin/env python3
"""A UCI engine that plays like ENGINE until its AFTER-th `go`, then fails in one way, so that a
real fastchess run ends games by each of its incident rules (tools/testdata/README.md):

    misbehave.py crash|illegal|slow|stall AFTER ENGINE [ARGS...]

crash: exits. illegal: answers `bestmove a1a1`. slow: holds ENGINE's bestmove back for 1.5 s
(a time forfeit at 1+0.01). stall: stops answering `isready` (fastchess's -ping-ms then ends it).
"""

import subprocess
import sys
import threading
import time

MODE, AFTER = sys.argv[1], int(sys.argv[2])
engine = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
gos = 0


def forward():
    for line in engine.stdout:
        if line.startswith("bestmove") and MODE == "slow" and gos >= AFTER:
            time.sleep(1.5)
        if line.startswith("readyok") and MODE == "stall" and gos >= AFTER:
            continue
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=forward, daemon=True).start()
for line in sys.stdin:
    if line.startswith("go"):
        gos += 1
        if gos == AFTER and MODE == "crash":
            engine.kill()
            sys.exit(3)
        if gos == AFTER and MODE == "illegal":
            print("bestmove a1a1", flush=True)
            continue
    engine.stdin.write(line)
    engine.stdin.flush()
    if line.strip() == "quit":
        break
engine.wait()
