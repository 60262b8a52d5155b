#!/usr/bin/env bash
# Cost of hnm's callbacks: wall time of the same 1024-rank workload under
# SimGrid's built-in SMPI model (plain smpirun) and under
# hnm-run --model smpi-default (same simulated results), measured side by
# side, alternating, REPS times each; prints the medians and their ratio.
#   bench/overhead.sh [BUILD-DIR] [RANKS] [REPS]
set -euo pipefail
cd "$(dirname "$0")/.."
# The command line and the workload (bench/workload.sh).
source bench/workload.sh
workload_setup "$@"

now() { date +%s.%N; }
for r in $(seq 1 "$REPS"); do
  t0=$(now); smpirun "${ARGS[@]}" >"$tmp/plain.out"; t1=$(now)
  "$RUN" --model smpi-default --no-tcmalloc "${ARGS[@]}" >"$tmp/hnm.out"; t2=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$tmp/plain.t"
  awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }' >>"$tmp/hnm.t"
  echo "rep $r/$REPS: plain $(tail -1 "$tmp/plain.t") s, hnm $(tail -1 "$tmp/hnm.t") s" >&2
done
if ! cmp -s "$tmp/plain.out" "$tmp/hnm.out"; then
  echo "overhead.sh: simulated results differ between plain smpirun and smpi-default!" >&2
  diff "$tmp/plain.out" "$tmp/hnm.out" >&2 || true
  exit 1
fi
p=$(median "$tmp/plain.t")
h=$(median "$tmp/hnm.t")
echo "ranks=$RANKS reps=$REPS plain_smpirun_s=$p hnm_smpi_default_s=$h ratio=$(awk -v a="$h" -v b="$p" 'BEGIN { printf "%.3f", a / b }')"
