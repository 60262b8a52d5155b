#!/usr/bin/env bash
# The full calibration validation of docs/calibration.md on this machine:
# for Open MPI over shared memory (btl vader) and TCP loopback (btl tcp),
# measure (apps/calibrate-mpi through hnm-calibrate run), fit (hybrid model,
# report, PNG plots, single-segment LogGPS and fluid fits), simulate the
# same benchmark under hnm-run on two nodes with each of the three models,
# and print hnm-calibrate compare's table (per op and size decade: se, abs
# and bias errors of each model).
#   bench/calibration.sh [BUILD-DIR] [OUT-DIR] [BENCHMARK OPTIONS...]
# Default benchmark options: the paper's range, 1 B to 100 MiB, 200 sizes,
# 11 repetitions. Everything is left in OUT-DIR (default cal-out).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
OUT=${2:-cal-out}
shift $(($# > 2 ? 2 : $#))
ARGS=("$@")
[ ${#ARGS[@]} -gt 0 ] || ARGS=(--min 1 --max 100MiB --sizes 200 --reps 11 --seed 1)
CAL=$BUILD/bin/hnm-calibrate
TWO=(-platform tests/data/platforms/two.xml -hostfile tests/data/platforms/two.hosts)
for btl in vader tcp; do
  d=$OUT/$btl
  start=$(date +%s)
  "$CAL" run --mpirun "mpirun --allow-run-as-root --oversubscribe --mca btl self,$btl" -d "$d/real" -- \
    "${ARGS[@]}" --delay 1e-4
  echo "== btl $btl: measured in $(($(date +%s) - start)) s ($(($(wc -l < "$d/real/p2p.csv") - 1)) measurements)"
  "$CAL" fit "$d"/real/*.csv -o "$d/hybrid.xml" --report "$d/report" --name "openmpi-$btl"
  for m in hybrid:"$d/hybrid.xml" loggps:"$d/report/loggps.xml" fluid:"$d/report/fluid.xml"; do
    "$CAL" run --simulate --model "${m#*:}" "${TWO[@]}" -d "$d/${m%%:*}" -- "${ARGS[@]}" --no-probe --no-contention
  done
  sed -n '3,5p' "$d/report/report.txt"
  "$CAL" compare "$d/real/p2p.csv" hybrid="$d/hybrid/p2p.csv" loggps="$d/loggps/p2p.csv" fluid="$d/fluid/p2p.csv" |
    tee "$d/compare.txt"
done
