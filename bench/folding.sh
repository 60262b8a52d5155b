#!/usr/bin/env bash
# Folding (docs/predicting.md, "Why CG is predicted too slow"): a rank's
# computation measured by SMPI, which runs every rank on one core of the
# simulating machine, against the same computation in a real run, where each
# rank has a core and its caches to itself. bench/folding.c streams MIB MiB
# per rank, the ranks taking turns; rank 0's burst is timed with the other
# rank idle (other 0) and streaming its own MIB MiB in between (other MIB).
# Not a test.
#   bench/folding.sh [BUILD-DIR] [WORK-DIR]
# Environment: SIZES (MiB per rank, default "4 12 24"), ITERATIONS (40),
# REPS (3: the median of REPS runs is printed), MPIRUN (mpirun
# --allow-run-as-root --oversubscribe), PREFIX (a command put before every
# run, real and simulated: "chrt -r 1" on a shared machine, as
# bench/predict.sh), MACHINE (a directory of hnm-calibrate machine; default
# WORK-DIR/machine, calibrated here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(cd "${1:-build}" && pwd)
WORK=${2:-/tmp/hnm-folding}
SIZES=${SIZES:-4 12 24} ITERATIONS=${ITERATIONS:-40} REPS=${REPS:-3}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe} PREFIX=${PREFIX:-}
MACHINE=${MACHINE:-$WORK/machine}
mkdir -p "$WORK"
mpicc -O2 bench/folding.c -o "$WORK/folding-mpi"
smpicc -O2 bench/folding.c -o "$WORK/folding" 2>/dev/null
[ -d "$MACHINE" ] ||
  $PREFIX "$BUILD/bin/hnm-calibrate" machine --mpirun "$MPIRUN" -d "$MACHINE" >/dev/null

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
burst() { awk '/^mib / { print $8 }'; }
echo "# $(date -u '+%F %H:%M') UTC, $(uname -n), $(nproc) cores, runs under '${PREFIX:-nothing}'"
printf '%-6s %-6s %12s %12s %9s   %s\n' mib other real_s sim_s sim/real load
for mib in $SIZES; do
  for other in "$mib" 0; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    real=() sim=()
    for _ in $(seq "$REPS"); do
      real+=("$($PREFIX $MPIRUN -np 2 "$WORK/folding-mpi" "$mib" "$ITERATIONS" "$other" | burst)")
      sim+=("$($PREFIX "$BUILD/bin/hnm-run" --model "$MACHINE/model.xml" -platform "$MACHINE/platform.xml" \
        -hostfile "$MACHINE/hostfile" -np 2 "$WORK/folding" "$mib" "$ITERATIONS" "$other" 2>/dev/null | burst)")
    done
    rm=$(printf '%s\n' "${real[@]}" | median) sm=$(printf '%s\n' "${sim[@]}" | median)
    printf '%-6s %-6s %12s %12s %9.2f   %s-%s\n' "$mib" "$other" "$rm" "$sm" \
      "$(awk -v a="$sm" -v b="$rm" 'BEGIN { print a / b }')" "$load" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
