#!/usr/bin/env bash
# The papers' sweeps, reduced to minutes on a 2-core machine, through
# hnm-compare (docs/experiments.md). Not a test.
#   bench/experiments/run.sh [BUILD-DIR] [WHICH...]
# WHICH: fig9 (Degomme et al. 2013, Fig. 9), fig5a fig5b (Zheng & Marguinaud 2018, Fig. 5a/5b), fig9a
# (Zheng & Marguinaud 2018, Fig. 9a), fig10c (Zheng & Marguinaud 2018, Fig. 10c), reference (the models
# against mpirun on this machine); default all of them.
# CSVs, run logs, gnuplot scripts and data, and the tables printed by
# hnm-compare plot go to $OUT (default BUILD-DIR/experiments); the PNGs that
# docs/experiments.md shows are copied to $IMG (default docs/img). Re-running
# resumes: runs already ok are
# skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
shift || true
WHICH=("$@")
[ $# -eq 0 ] && WHICH=(fig9 fig5a fig5b fig9a fig10c reference)
OUT=${OUT:-$BUILD/experiments}
IMG=${IMG:-docs/img}
WORKERS=${WORKERS:-2}
TIMEOUT=${TIMEOUT:-120}   # seconds of wall time per run; a run over it is recorded as timeout
RETRY=${RETRY:-0}         # 1: run again the runs recorded as failed or timeout
NORETRY=()
[ "$RETRY" = 1 ] || NORETRY=(--no-retry)
mkdir -p "$OUT" "$IMG"
CMP=$BUILD/bin/hnm-compare
PLAT=$BUILD/bin/hnm-platform
APPS=$BUILD/apps

# Settings that matter at scale (docs/scale.md): no privatization, small
# stacks, simulated computation off (only communication is studied), shared
# no-payload buffers.
SIM=()
for o in --cfg=smpi/privatization:no --cfg=contexts/stack-size:128 --cfg=smpi/simulate-computation:no \
         --cfg=smpi/shared-malloc-blocksize:1073741824 --log=root.thres:critical; do
  SIM+=("--sim-opt=$o")
done

# Platforms: graphene (Degomme et al. 2013) and the presets of Zheng & Marguinaud 2018, Table 1, scaled to a
# few hundred hosts, one rank per host.
"$PLAT" cluster --preset graphene -o "$OUT/graphene.xml" --hostfile "$OUT/graphene.hosts" 2>/dev/null
"$PLAT" dragonfly --preset dragonfly-MM --scale 0.001 -o "$OUT/dragonfly.xml" --hostfile "$OUT/dragonfly.hosts" 2>/dev/null
"$PLAT" torus --preset torus-M --scale 0.022 --ranks-per-host 1 -o "$OUT/torus.xml" --hostfile "$OUT/torus.hosts" 2>/dev/null
"$PLAT" fattree --preset fattree-M --scale 0.001 -o "$OUT/fattree.xml" --hostfile "$OUT/fattree.hosts" 2>/dev/null

NP=16,32,64,128,256
TRANSPOSE=(--no-payload --nx 1152 --ny 576 --nz 64)

sweep() { # NAME hnm-compare-run-args...
  local name=$1
  shift
  echo "== $name" >&2
  local t0=$SECONDS
  "$CMP" run --workers "$WORKERS" --timeout "$TIMEOUT" "${NORETRY[@]}" "${SIM[@]}" -o "$OUT/$name.csv" "$@" || true
  echo "== $name: $((SECONDS - t0)) s" >&2
}

plot() { # CSV NAME hnm-compare-plot-args...: $OUT/NAME.txt (table), $OUT/NAME-*.png
  local csv=$1 name=$2
  shift 2
  "$CMP" plot "$OUT/$csv.csv" -o "$OUT/$name" "$@" >"$OUT/$name.txt"
}
figure() { # like plot, and the PNGs copied to $IMG (the ones docs/experiments.md shows)
  plot "$@"
  cp "$OUT/$2"-*.png "$IMG/"
}

for w in "${WHICH[@]}"; do
  case $w in
  fig9)
    # As in Degomme et al. 2013 (Section V.C), the pairwise-exchange algorithm for every
    # size; then SMPI's default selection (Open MPI's), for contrast.
    # LogGPS with its default single port (the paper's), and with LogGOPSim's
    # duplex ports for contrast (docs/models.md, "Ports").
    A2A=(--platform "$OUT/graphene.xml" --model graphene --model loggps --model loggps:ports=duplex --model fluid
         --np 8,16,32,64,128
         --metric csv:seconds:op=alltoall
         --args "--pingpong-sizes 1 --alltoall-sizes 102400" --args "--pingpong-sizes 1 --alltoall-sizes 4194304")
    sweep degomme2013-fig9 "${A2A[@]}" --sim-opt=--cfg=smpi/alltoall:pair -- "$APPS/pingpong_alltoall"
    sweep degomme2013-fig9-selector "${A2A[@]}" -- "$APPS/pingpong_alltoall"
    for c in degomme2013-fig9 degomme2013-fig9-selector; do
      for s in 102400 4194304; do
        figure $c $c-$s --only "args=--pingpong-sizes 1 --alltoall-sizes $s" --reference graphene \
          --title "MPI_Alltoall $s B per pair, graphene, $([ $c = degomme2013-fig9 ] && echo pairwise || echo SMPI selector) (Degomme et al. 2013, Fig. 9)"
      done
    done ;;
  fig5a)
    sweep zheng2018-fig5a --platform "$OUT/dragonfly.xml" --model graphene --model fluid --np $NP \
      --args "--algo burst" --args "--algo bruck" --args "--algo ring --k 1" --args "--algo ring --k 4" \
      --args "--algo mpi" -- "$APPS/transpose" "${TRANSPOSE[@]}"
    for m in graphene fluid; do
      figure zheng2018-fig5a zheng2018-fig5a-$m --only model=$m \
        --title "transpose 1152x576x64, dragonfly-MM/1000, $m (Zheng & Marguinaud 2018, Fig. 5a)"
    done ;;
  fig5b)
    sweep zheng2018-fig5b --platform "$OUT/torus.xml" --platform "$OUT/fattree.xml" --platform "$OUT/dragonfly.xml" \
      --model graphene --model fluid --np $NP --args "--algo ring --k 4" -- "$APPS/transpose" "${TRANSPOSE[@]}"
    for m in graphene fluid; do
      figure zheng2018-fig5b zheng2018-fig5b-$m --only model=$m \
        --title "transpose ring-4 by topology, $m (Zheng & Marguinaud 2018, Fig. 5b)"
    done ;;
  fig9a)
    sweep zheng2018-fig9a-halo --platform "$OUT/dragonfly.xml" --model graphene --model fluid --np $NP \
      --args "--width 3" --args "--width 10" --args "--width 20" -- "$APPS/halo" --scale 0.001 --no-payload
    for m in graphene fluid; do
      $([ $m = fluid ] && echo figure || echo plot) zheng2018-fig9a-halo zheng2018-fig9a-$m --only model=$m \
        --title "halo 911x455x256 by width, dragonfly-MM/1000, $m (Zheng & Marguinaud 2018, Fig. 9a)"
    done
    # The transposition of the same grid, for comparison (Fig. 9a's black line).
    sweep zheng2018-fig9a-transpose --platform "$OUT/dragonfly.xml" --model graphene --model fluid --np $NP \
      --args "--algo ring --k 4" -- "$APPS/transpose" --no-payload --nx 911 --ny 455 --nz 256
    figure zheng2018-fig9a-transpose zheng2018-fig9a-transpose --title "transpose 911x455x256 ring-4, dragonfly-MM/1000" ;;
  fig10c)
    args=()
    for k in 2 3 4 5 6 8 12 16 21 32; do args+=(--args "--algo recursive --k $k"); done
    sweep zheng2018-fig10c --platform "$OUT/dragonfly.xml" --model graphene --model fluid --np $NP "${args[@]}" \
      --args "--algo mpi" -- "$APPS/gcr" --report call --no-payload
    # The optimal radix per model and process count (lowest time_s); columns
    # found by name in the CSV header (hnm-compare's CSV contract).
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
             $col["status"] == "ok" && $col["args"] ~ /recursive/ {
               split($col["args"], a, " "); k = a[4]; key = $col["model"] " " $col["np"]; t = $col["time_s"] + 0
               if (!(key in best) || t < best[key]) { best[key] = t; kbest[key] = k } }
             END { for (key in best) print key, kbest[key], best[key] }' "$OUT/zheng2018-fig10c.csv" |
      sort -k1,1 -k2,2n | awk 'BEGIN { print "model np optimal_k time_s" } { print }' >"$OUT/zheng2018-fig10c-optimal.txt"
    cat "$OUT/zheng2018-fig10c-optimal.txt"
    for m in graphene fluid; do
      figure zheng2018-fig10c zheng2018-fig10c-$m --only model=$m \
        --title "gcr call, recursive-k by radix, $m (Zheng & Marguinaud 2018, Fig. 10c)"
    done ;;
  reference)
    # This machine as a platform: one host, 8 ranks on its loopback; the
    # same transposition with mpirun (transpose-mpi), payload and packing real.
    "$PLAT" cluster --cabinets 1 --nodes 1 --ranks-per-host 8 -o "$OUT/one.xml" --hostfile "$OUT/one.hosts" 2>/dev/null
    # Twice: SMPI's own default smpi/host-speed, given explicitly since
    # hnm-run counts computation at the platform's speed by default (20000
    # flop/s: the packing measured on this machine is scaled by 20000 / 1e9
    # on the 1 Gf hosts), then 1Gf (the packing counted at its measured
    # duration, hnm-run's default here); the options column keeps the two
    # apart.
    for hs in --sim-opt=--cfg=smpi/host-speed:20000f --sim-opt=--cfg=smpi/host-speed:1Gf; do
      # shellcheck disable=SC2086
      "$CMP" run --workers 1 --timeout "$TIMEOUT" "${NORETRY[@]}" --reference --platform "$OUT/one.xml" \
        --model graphene --model fluid --np 2,4,8 --sim-opt=--cfg=smpi/privatization:no \
        --sim-opt=--log=root.thres:critical --sim-opt=--cfg=smpi/simulate-computation:yes $hs \
        --args "--algo ring --k 4" --args "--algo burst" \
        -o "$OUT/reference.csv" -- "$APPS/transpose" --nx 576 --ny 288 --nz 32 --iterations 3 || true
    done
    figure reference reference --reference mpirun --only "args=--algo ring --k 4" \
      --title "transpose 576x288x32 x3 ring-4, this machine: models vs mpirun" ;;
  *) echo "unknown experiment '$w'" >&2; exit 2 ;;
  esac
done
