#!/usr/bin/env bash
# Predicting real codes (docs/predicting.md): NPB 3.4 kernels built twice from
# the user's own NPB tree -- with Open MPI (mpif90/mpicc) and with SimGrid's
# compilers (smpif90/smpicc) -- this machine calibrated with one command
# (hnm-calibrate machine), then each kernel run for real and predicted by
# hnm-run with no extra option, REPS times each, real and predicted runs
# taking turns; prints the medians of NPB's own "Time in seconds" side by
# side, with the load average before and after each kernel's runs.
#   bench/predict.sh NPB_DIR [BUILD-DIR] [WORK-DIR]
# NPB_DIR: an NPB 3.4.x tree (the directory holding NPB3.4-MPI, or
# NPB3.4-MPI itself); nothing of it is changed: it is copied into WORK-DIR
# (default /tmp/hnm-predict) and built there. Environment: KERNELS (default
# "ep cg mg is ft"), CLASS (A), NP (2), REPS (3), MPIRUN (mpirun
# --allow-run-as-root --oversubscribe), HOSTS (hosts of the calibrated
# platform, default NP), RANKS_PER_HOST (1; 2 with HOSTS=NP/2 simulates
# two ranks sharing each host's processor, as an oversubscribed real run
# shares a core), PREFIX (a command put before the calibration, the real
# runs and the simulations: "chrt -r 1" on a shared machine, so that other
# processes do not preempt the ranks, nor the simulation while it measures
# their computation; docs/predicting.md), SIMPREFIX (the simulations' own,
# default PREFIX); the calibration is reused if its directory
# WORK-DIR/machine-HOSTS exists: remove it to recalibrate.
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
SIMPREFIX=${SIMPREFIX-$PREFIX} HOSTS=${HOSTS:-$NP} RANKS_PER_HOST=${RANKS_PER_HOST:-1}
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

# One command calibrates this machine (the point-to-point part on 2 ranks,
# the platform with HOSTS hosts).
M=$WORK/machine-$HOSTS
if [ ! -d "$M" ]; then
  $PREFIX "$BUILD/bin/hnm-calibrate" machine --mpirun "$MPIRUN" --np 2 --hosts "$HOSTS" -d "$M"
fi
# The hostfile: the calibration's, or RANKS_PER_HOST places on each host.
HOSTFILE=$M/hostfile
if [ "$RANKS_PER_HOST" != 1 ]; then
  HOSTFILE=$WORK/hostfile-$HOSTS-$RANKS_PER_HOST
  sed "s/\$/:$RANKS_PER_HOST/" "$M/hostfile" >"$HOSTFILE"
fi

# NPB's "Time in seconds" (wall time between its timers), and CPU time.
npbtime() { awk '/Time in seconds/ { print $NF }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "# $(date -u '+%F %H:%M') UTC, $(uname -n), $(nproc) cores, real runs under '${PREFIX:-nothing}'," \
  "simulations under '${SIMPREFIX:-nothing}', $HOSTS hosts x $RANKS_PER_HOST ranks; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %10s %10s %8s %s\n' kernel real_s sim_s sim/real verified
for k in $KERNELS; do
  real=() sim=() ok=yes load=$(cut -d' ' -f1 /proc/loadavg)
  for r in $(seq "$REPS"); do
    out=$($PREFIX $MPIRUN -np "$NP" "$WORK/real/bin/$k.$CLASS.x" 2>&1)
    grep -q 'Verification *= *SUCCESSFUL' <<<"$out" || ok=no
    real+=("$(npbtime <<<"$out")")
    out=$($SIMPREFIX "$BUILD/bin/hnm-run" --model "$M/model.xml" -platform "$M/platform.xml" -hostfile "$HOSTFILE" \
      -np "$NP" "$WORK/smpi/bin/$k.$CLASS.x" 2>&1)
    grep -q 'Verification *= *SUCCESSFUL' <<<"$out" || ok=no
    sim+=("$(npbtime <<<"$out")")
  done
  rm=$(printf '%s\n' "${real[@]}" | median) sm=$(printf '%s\n' "${sim[@]}" | median)
  printf '%-8s %10s %10s %8.3f %s   (real %s; sim %s; load %s-%s)\n' "$k.$CLASS.$NP" "$rm" "$sm" \
    "$(awk -v a="$sm" -v b="$rm" 'BEGIN { print a / b }')" "$ok" "${real[*]}" "${sim[*]}" "$load" \
    "$(cut -d' ' -f1 /proc/loadavg)"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
