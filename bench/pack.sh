#!/usr/bin/env bash
# Schneider et al. 2013's question for halo and monc_halo: derived datatypes
# vs manual packing vs contiguous data, simulated under an interpreted and a
# compiled pack model, and measured with the real MPI. Not a test: prints
# tables (docs/experiments.md, "Packing").
#   bench/pack.sh [BUILD-DIR] [ITERATIONS]      (default: build 20)
# Simulated: hnm-run on the bundled platform (1 Gbps node links) and on a
# fast one (one cabinet of 16 nodes, 50 Gbps / 1.5 us node links: Cray
# Gemini's class, the paper's machine), 16 ranks, every model a
# variant of the bundled graphene (pack=interpreted: its default; pack=compiled;
# pack=none: SMPI's free packing), simulate-computation off (deterministic:
# manual loops cost nothing) and on (manual loops measured on this machine).
# Real: Open MPI, 2 ranks on this machine (shared memory), 50 swaps.
# Simulated cells: the median over ITERATIONS swaps of the swap time (CSV
# time_s); real ones: the minimum and the median over 50.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
IT=${2:-20}
RIT=50 # real swaps
RUN=$BUILD/bin/hnm-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

HALO="--nx 512 --ny 256 --nz 64 --width 3 --iterations $IT"
MONC="--variant p2p --iterations $IT"
SIM=(-np 16 --cfg=smpi/privatization:no --log=root.thres:critical --cfg=smpi/wtime:0)
"$BUILD/bin/hnm-platform" cluster --cabinets 1 --nodes 16 --bw 50Gbps --lat 1.5us --cabinet-bw 400Gbps \
  --cabinet-lat 1us -o "$tmp/fast.xml" --hostfile "$tmp/fast.hosts" 2>/dev/null || exit 1
PLATFORM=()

# median of the time_s column (8th) of a skeleton's CSV on stdin
median() { awk -F, '$1 == "halo" || $1 == "monc_halo" { print $8 }' | sort -g |
           awk '{ v[NR] = $1 } END { if (NR == 0) print "failed"; else if (NR % 2) printf "%.6g", v[(NR + 1) / 2];
                                    else printf "%.6g", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

sim() { # MODEL SIMCOMP PROGRAM ARGS...
  local model=$1 comp=$2 prog=$3
  shift 3
  # shellcheck disable=SC2068
  "$RUN" --model "$model" "${PLATFORM[@]}" "${SIM[@]}" --cfg=smpi/simulate-computation:"$comp" "$BUILD/apps/$prog" $@ 2>"$tmp/err" |
    median
}

# min and median of the time_s column: the minimum is the run least
# disturbed by the other jobs of a shared machine.
minmed() { awk -F, '$1 == "halo" || $1 == "monc_halo" { print $8 }' | sort -g |
           awk '{ v[NR] = $1 } END { if (NR == 0) print "failed"; else printf "%-12.6g %.6g", v[1], v[int((NR + 1) / 2)] }'; }

real() { # PROGRAM ARGS...
  local prog=$1
  shift
  # shellcheck disable=SC2068
  mpirun --allow-run-as-root --oversubscribe -np 2 "$BUILD/apps/$prog-mpi" $@ 2>"$tmp/err" | minmed
}

echo "# $(date -u +%F) $(uptime | sed 's/.*load/load/')"
for plat in bundled fast; do
  PLATFORM=()
  [ "$plat" = fast ] && PLATFORM=(-platform "$tmp/fast.xml" -hostfile "$tmp/fast.hosts")
  echo "# simulated: hnm-run, $plat platform, 16 ranks; median swap time over $IT swaps, seconds"
  printf '%-10s %-11s %-26s %-8s %s\n' app pack model sim-comp time_s
  for model in graphene graphene:pack=compiled graphene:pack=manual graphene:pack=none; do
    printf '%-10s %-11s %-26s %-8s %s\n' halo datatype "$model" no "$(sim "$model" no halo $HALO --pack datatype)"
    printf '%-10s %-11s %-26s %-8s %s\n' monc_halo datatype "$model" no "$(sim "$model" no monc_halo $MONC --pack datatype)"
  done
  printf '%-10s %-11s %-26s %-8s %s\n' halo contiguous graphene no "$(sim graphene no halo $HALO --pack contiguous)"
  for comp in no yes; do
    printf '%-10s %-11s %-26s %-8s %s\n' halo manual graphene $comp "$(sim graphene $comp halo $HALO --pack manual)"
    printf '%-10s %-11s %-26s %-8s %s\n' monc_halo manual graphene $comp "$(sim graphene $comp monc_halo $MONC --pack manual)"
  done
done

echo "# real: Open MPI $(mpirun --version 2>/dev/null | head -1 | awk '{print $NF}'), 2 ranks (one per core), this machine; $RIT swaps: min and median"
printf '%-10s %-11s %-12s %s\n' app pack min_s median_s
for pk in contiguous manual datatype; do
  printf '%-10s %-11s %s\n' halo "$pk" "$(real halo --nx 256 --ny 128 --nz 64 --width 3 --iterations $RIT --pack $pk)"
done
for pk in manual datatype; do
  printf '%-10s %-11s %s\n' monc_halo "$pk" "$(real monc_halo --nx 32 --ny 16 --variant p2p --iterations $RIT --pack $pk)"
done
