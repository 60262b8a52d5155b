#!/usr/bin/env bash
# Predicting real codes (docs/predicting.md): NPB 3.4 kernels built twice from
# the user's own NPB tree -- with Open MPI (mpif90/mpicc) and with SimGrid's
# compilers (smpif90/smpicc) -- this machine calibrated with one command
# (hnm-calibrate machine), then each kernel run for real and predicted by
# hnm-run with no extra option, REPS times each; prints the medians of NPB's
# own "Time in seconds" side by side.
#   bench/predict.sh NPB_DIR [BUILD-DIR] [WORK-DIR]
# NPB_DIR: an NPB 3.4.x tree (the directory holding NPB3.4-MPI, or
# NPB3.4-MPI itself); nothing of it is changed: it is copied into WORK-DIR
# (default /tmp/hnm-predict) and built there. Environment: KERNELS (default
# "ep cg mg is ft"), CLASS (A), NP (2), REPS (3), MPIRUN (mpirun
# --allow-run-as-root --oversubscribe), PREFIX (a command put before the
# calibration and the real runs: "chrt -r 1" on a shared machine, so that
# other processes do not preempt the ranks; docs/predicting.md); the
# calibration is reused if WORK-DIR/machine exists (remove it to recalibrate).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/predict.sh NPB_DIR [BUILD-DIR] [WORK-DIR]" >&2; exit 2; }
NPB=$1
[ -d "$NPB/NPB3.4-MPI" ] && NPB=$NPB/NPB3.4-MPI
[ -f "$NPB/config/make.def.template" ] || { echo "predict.sh: $NPB: not an NPB 3.4 MPI tree" >&2; exit 2; }
cd "$(dirname "$0")/.."
BUILD=$(cd "${2:-build}" && pwd)
WORK=${3:-/tmp/hnm-predict}
KERNELS=${KERNELS:-ep cg mg is ft} CLASS=${CLASS:-A} NP=${NP:-2} REPS=${REPS:-3}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe} PREFIX=${PREFIX:-}
mkdir -p "$WORK"

# The two builds. gfortran >= 10 needs -fallow-argument-mismatch for NPB's
# MPI calls; smpif90/smpicc compile the same sources for SMPI.
for v in real smpi; do
  if [ ! -d "$WORK/$v" ]; then
    cp -r "$NPB" "$WORK/$v"
    mkdir -p "$WORK/$v/bin"
    sed -e 's/^FFLAGS\t= -O3$/FFLAGS\t= -O3 -fallow-argument-mismatch/' \
      "$WORK/$v/config/make.def.template" >"$WORK/$v/config/make.def"
    [ $v = smpi ] && sed -i -e 's/^MPIFC = mpif90/MPIFC = smpif90/' -e 's/^MPICC = mpicc/MPICC = smpicc/' \
      "$WORK/$v/config/make.def"
  fi
  for k in $KERNELS; do
    [ -x "$WORK/$v/bin/$k.$CLASS.x" ] ||
      (cd "$WORK/$v" && make "$k" CLASS="$CLASS" NPROCS="$NP" >"$WORK/$v-$k.log" 2>&1) ||
      { echo "predict.sh: building $k ($v) failed: $WORK/$v-$k.log" >&2; exit 1; }
  done
done

# One command calibrates this machine.
if [ ! -d "$WORK/machine" ]; then
  $PREFIX "$BUILD/bin/hnm-calibrate" machine --mpirun "$MPIRUN" -np "$NP" -d "$WORK/machine"
fi
M=$WORK/machine

# NPB's "Time in seconds" (wall time between its timers), and CPU time.
npbtime() { awk '/Time in seconds/ { print $NF }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "# $(date -u '+%F %H:%M') UTC, $(uname -n), $(nproc) cores, real runs under '${PREFIX:-nothing}'; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %10s %10s %8s %s\n' kernel real_s sim_s sim/real verified
for k in $KERNELS; do
  real=() sim=() ok=yes
  for r in $(seq "$REPS"); do
    out=$($PREFIX $MPIRUN -np "$NP" "$WORK/real/bin/$k.$CLASS.x" 2>&1)
    grep -q 'Verification *= *SUCCESSFUL' <<<"$out" || ok=no
    real+=("$(npbtime <<<"$out")")
    out=$("$BUILD/bin/hnm-run" --model "$M/model.xml" -platform "$M/platform.xml" -hostfile "$M/hostfile" \
      -np "$NP" "$WORK/smpi/bin/$k.$CLASS.x" 2>&1)
    grep -q 'Verification *= *SUCCESSFUL' <<<"$out" || ok=no
    sim+=("$(npbtime <<<"$out")")
  done
  rm=$(printf '%s\n' "${real[@]}" | median) sm=$(printf '%s\n' "${sim[@]}" | median)
  printf '%-8s %10s %10s %8.3f %s   (real %s; sim %s)\n' "$k.$CLASS.$NP" "$rm" "$sm" \
    "$(awk -v a="$sm" -v b="$rm" 'BEGIN { print a / b }')" "$ok" "${real[*]}" "${sim[*]}"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
