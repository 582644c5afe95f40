#!/usr/bin/env bash
# Wall time of two builds on the same `datagen` work, for speed changes that keep the search
# (and so the data) the same. Both builds generate the same games at once, one thread each,
# each pinned to its own core, and swap cores every round, so that the machine's noise (which
# is ±15 % on a shared 2-core machine) falls on both alike. Every round also checks that the
# two shards are byte for byte equal: a speedup that changes the data is not a speedup.
#
#   [PAUSE_PID=PID] tools/pair_datagen.sh BINARY_A BINARY_B [ROUNDS] [POSITIONS]
#                                                          (defaults: 6 rounds, 3000 positions)
#
# Run it from the repository's root (it reads the book under data/). PAUSE_PID names a
# background job (a long `datagen`) to stop for the duration (SIGSTOP) and resume afterwards
# (SIGCONT, also when the script fails or is interrupted; not if it is killed with SIGKILL,
# after which `kill -CONT PID` resumes the job by hand).
# Prints one line per round and then the median of the A/B time ratios: above 1 means B is
# faster. Exits with status 1 if any round's shards differ or a build fails. Needs `taskset`
# (util-linux), `bc` and two cores.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '8,9p' "$0" >&2; exit 2; }
a=$1
b=$2
rounds=${3:-6}
positions=${4:-3000}
book=data/books/noob_3moves_5k.epd
[ -f "$book" ] || { echo "error: run from the repository's root ($book not found)" >&2; exit 2; }

scratch=$(mktemp -d)
resume() { [ -z "${PAUSE_PID:-}" ] || kill -CONT "$PAUSE_PID" 2>/dev/null || true; }
trap 'resume; rm -rf "$scratch"' EXIT
[ -z "${PAUSE_PID:-}" ] || kill -STOP "$PAUSE_PID"

# Seconds that one build takes for one round's games on one core.
timed() {
  local bin=$1 core=$2 out=$3 seed=$4 start
  start=$(date +%s.%N)
  taskset -c "$core" "$bin" datagen --book "$book" --positions "$positions" --soft-nodes 5000 \
    --min-random-plies 8 --random-plies 9 --reject-score 400 --threads 1 --seed "$seed" \
    --out "$out" >/dev/null 2>&1
  echo "$(date +%s.%N) - $start" | bc >"$out.time"
}

status=0
for i in $(seq "$rounds"); do
  core_a=$((i % 2))
  core_b=$((1 - core_a))
  seed=99$i
  rm -rf "$scratch"/a "$scratch"/b
  timed "$a" "$core_a" "$scratch/a" "$seed" &
  run_a=$!
  timed "$b" "$core_b" "$scratch/b" "$seed" &
  run_b=$!
  wait "$run_a" || { echo "error: $a datagen failed in round $i" >&2; exit 1; }
  wait "$run_b" || { echo "error: $b datagen failed in round $i" >&2; exit 1; }
  same=same
  if ! cmp -s "$scratch/a/shard-0.bin" "$scratch/b/shard-0.bin"; then
    same=DIFFERENT
    status=1
  fi
  ta=$(cat "$scratch/a.time")
  tb=$(cat "$scratch/b.time")
  ratio=$(echo "scale=4; $ta / $tb" | bc)
  echo "$ratio" >>"$scratch/ratios"
  echo "round $i  A ${ta}s  B ${tb}s  A/B $ratio  shards $same"
done
sort -n "$scratch/ratios" |
  awk '{r[NR] = $1} END {m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2; printf "median A/B %.3f over %d rounds\n", m, NR}'
[ "$status" = 0 ] || echo "error: the two builds wrote different data" >&2
exit "$status"
