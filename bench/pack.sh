#!/usr/bin/env bash
# Schneider et al. 2013's question for halo and monc_halo: derived datatypes
# vs manual packing vs contiguous data, simulated under an interpreted and a
# compiled pack model, and measured with the real MPI. Not a test: prints
# tables (docs/experiments.md, "Packing").
#   bench/pack.sh [BUILD-DIR] [ITERATIONS]      (default: build 20)
# Simulated: hnm-run on the bundled platform, 16 ranks, every model a
# variant of the bundled graphene (pack=interpreted: its default; pack=compiled;
# pack=none: SMPI's free packing), simulate-computation off (deterministic:
# manual loops cost nothing) and on (manual loops measured on this machine).
# Real: Open MPI, 4 ranks on this machine (shared memory).
# Each cell: the median over ITERATIONS swaps of the swap time (CSV time_s).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
IT=${2:-20}
RUN=$BUILD/bin/hnm-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

HALO="--nx 512 --ny 256 --nz 64 --width 3 --iterations $IT"
MONC="--variant p2p --iterations $IT"
SIM=(-np 16 --cfg=smpi/privatization:no --log=root.thres:critical --cfg=smpi/wtime:0)

# median of the time_s column (8th) of a skeleton's CSV on stdin
median() { awk -F, '$1 == "halo" || $1 == "monc_halo" { print $8 }' | sort -g |
           awk '{ v[NR] = $1 } END { if (NR == 0) print "failed"; else if (NR % 2) printf "%.6g", v[(NR + 1) / 2];
                                    else printf "%.6g", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

sim() { # MODEL SIMCOMP PROGRAM ARGS...
  local model=$1 comp=$2 prog=$3
  shift 3
  # shellcheck disable=SC2068
  "$RUN" --model "$model" "${SIM[@]}" --cfg=smpi/simulate-computation:"$comp" "$BUILD/apps/$prog" $@ 2>"$tmp/err" |
    median
}

real() { # PROGRAM ARGS...
  local prog=$1
  shift
  # shellcheck disable=SC2068
  mpirun --allow-run-as-root --oversubscribe -np 4 "$BUILD/apps/$prog-mpi" $@ 2>"$tmp/err" | median
}

echo "# $(date -u +%F) $(uptime | sed 's/.*load/load/')"
echo "# simulated: hnm-run, bundled platform, 16 ranks; median swap time over $IT swaps, seconds"
printf '%-10s %-11s %-26s %-8s %s\n' app pack model sim-comp time_s
for model in graphene graphene:pack=compiled graphene:pack=manual graphene:pack=none; do
  for pk in contiguous datatype; do
    printf '%-10s %-11s %-26s %-8s %s\n' halo "$pk" "$model" no "$(sim "$model" no halo $HALO --pack $pk)"
  done
  printf '%-10s %-11s %-26s %-8s %s\n' monc_halo datatype "$model" no "$(sim "$model" no monc_halo $MONC --pack datatype)"
done
for pk in manual; do
  printf '%-10s %-11s %-26s %-8s %s\n' halo "$pk" graphene no "$(sim graphene no halo $HALO --pack $pk)"
  printf '%-10s %-11s %-26s %-8s %s\n' halo "$pk" graphene yes "$(sim graphene yes halo $HALO --pack $pk)"
  printf '%-10s %-11s %-26s %-8s %s\n' monc_halo "$pk" graphene no "$(sim graphene no monc_halo $MONC --pack $pk)"
  printf '%-10s %-11s %-26s %-8s %s\n' monc_halo "$pk" graphene yes "$(sim graphene yes monc_halo $MONC --pack $pk)"
done
printf '%-10s %-11s %-26s %-8s %s\n' halo contiguous graphene yes "$(sim graphene yes halo $HALO --pack contiguous)"
printf '%-10s %-11s %-26s %-8s %s\n' halo datatype graphene yes "$(sim graphene yes halo $HALO --pack datatype)"
printf '%-10s %-11s %-26s %-8s %s\n' monc_halo datatype graphene yes "$(sim graphene yes monc_halo $MONC --pack datatype)"

echo "# real: Open MPI $(mpirun --version 2>/dev/null | head -1 | awk '{print $NF}'), 4 ranks, this machine; median over $IT swaps"
printf '%-10s %-11s %s\n' app pack time_s
for pk in contiguous manual datatype; do
  printf '%-10s %-11s %s\n' halo "$pk" "$(real halo $HALO --pack $pk)"
done
for pk in manual datatype; do
  printf '%-10s %-11s %s\n' monc_halo "$pk" "$(real monc_halo --nx 32 --ny 32 $MONC --pack $pk)"
done
