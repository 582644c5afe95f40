#!/usr/bin/env bash
# Perft speed of our Position wrapper against the chess crate's own perft loop, on the six
# classic positions (perft/classic6.epd), run alternately so both see the same machine noise.
#
#   tools/perft_vs_crate.sh [ROUNDS] [BINARY]      (defaults: 5, ./target/release/sandglass)
#
# Prints one line per position: median Mnps of each and two ratios (of the medians, and the
# median of the per-round ratios). Ratio > 1 means the bare crate loop is faster.
set -euo pipefail
rounds=${1:-5}
bin=${2:-./target/release/sandglass}
positions=(
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6|start"
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|Kiwipete"
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|7|position 3"
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|5|position 4"
  "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|5|position 5"
  "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5|position 6"
)
mnps() { "$bin" perft "$2" --fen "$1" ${3:-} | grep -o '[0-9.]* Mnps' | cut -d' ' -f1; }
for entry in "${positions[@]}"; do
  IFS='|' read -r fen depth name <<<"$entry"
  for _ in $(seq "$rounds"); do
    echo "$(mnps "$fen" "$depth") $(mnps "$fen" "$depth" --baseline)"
  done | python3 -c '
import statistics as st, sys
pairs = [tuple(map(float, line.split())) for line in sys.stdin]
w = st.median(p[0] for p in pairs); b = st.median(p[1] for p in pairs)
r = st.median(p[1] / p[0] for p in pairs)
print(f"{sys.argv[1]:11s} d{sys.argv[2]}  Position {w:6.1f} Mnps  crate loop {b:6.1f} Mnps  ratio {b / w:.3f}  pair median {r:.3f}")
' "$name" "$depth"
done
