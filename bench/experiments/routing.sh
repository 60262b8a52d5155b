#!/usr/bin/env bash
# Routing on the dragonfly (docs/experiments.md, "Zheng & Marguinaud 2018,
# Figures 5d, 9c and 7"): the ring-4 transposition and the width-20 halo
# under SimGrid's DRAGONFLY zone and hnm's minimal, Valiant and UGAL
# routings, then link loads and congestion maps of one run of each. Not a
# test.
#   bench/experiments/routing.sh [BUILD-DIR]
# CSVs, tables, link loads and figures go to $OUT (default
# BUILD-DIR/experiments); the PNGs docs/experiments.md shows are copied to
# $IMG (default docs/img). Re-running resumes the sweeps.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
OUT=${OUT:-$BUILD/experiments}
IMG=${IMG:-docs/img}
WORKERS=${WORKERS:-2}
TIMEOUT=${TIMEOUT:-300}
NP=${NP:-16,32,64,128,256}
MODEL=${MODEL:-fluid}
mkdir -p "$OUT" "$IMG"
CMP=$BUILD/bin/hnm-compare
PLAT=$BUILD/bin/hnm-platform
RUN=$BUILD/bin/hnm-run
LP=$BUILD/bin/hnm-linkplot
APPS=$BUILD/apps

# dragonfly-MM scaled by 0.001: 4 groups x 4 chassis x 4 routers x 4 nodes,
# 256 hosts, 16 global links between two groups (SimGrid: one link of 16 x
# the bandwidth on one router per group; routed: 16 links, one per router).
D=(--preset dragonfly-MM --scale 0.001)
"$PLAT" dragonfly "${D[@]}" -o "$OUT/df-simgrid.xml" --hostfile "$OUT/df.hosts" 2>/dev/null
for r in minimal valiant ugal; do
  "$PLAT" dragonfly "${D[@]}" --routing $r -o "$OUT/df-$r.txt" 2>/dev/null
done
PLATS=(--platform "$OUT/df-simgrid.xml:$OUT/df.hosts")
for r in minimal valiant ugal; do PLATS+=(--platform "$OUT/df-$r.txt:$OUT/df.hosts"); done
SIM=()
for o in --cfg=smpi/privatization:no --cfg=contexts/stack-size:128 --cfg=smpi/simulate-computation:no \
         --cfg=smpi/shared-malloc-blocksize:1073741824 --log=root.thres:critical; do
  SIM+=("--sim-opt=$o")
done
TRANSPOSE=("$APPS/transpose" --no-payload --nx 1152 --ny 576 --nz 64)
HALO=("$APPS/halo" --scale 0.001 --no-payload)

sweep() { # NAME hnm-compare-run-args...
  local name=$1
  shift
  echo "== $name" >&2
  local t0=$SECONDS
  "$CMP" run --workers "$WORKERS" --timeout "$TIMEOUT" --no-retry "${SIM[@]}" -o "$OUT/$name.csv" "$@" || true
  echo "== $name: $((SECONDS - t0)) s" >&2
}
sweep zheng2018-fig5d "${PLATS[@]}" --model "$MODEL" --np "$NP" --args "--algo ring --k 4" -- "${TRANSPOSE[@]}"
"$CMP" plot "$OUT/zheng2018-fig5d.csv" -o "$OUT/zheng2018-fig5d" \
  --title "transpose 1152x576x64 ring-4 by routing, dragonfly-MM/1000, $MODEL (Zheng & Marguinaud 2018, Fig. 5d)" \
  >"$OUT/zheng2018-fig5d.txt"
sweep zheng2018-fig9c "${PLATS[@]}" --model "$MODEL" --np "$NP" --args "--width 20" -- "${HALO[@]}"
"$CMP" plot "$OUT/zheng2018-fig9c.csv" -o "$OUT/zheng2018-fig9c" \
  --title "halo width 20 by routing, dragonfly-MM/1000, $MODEL (Zheng & Marguinaud 2018, Fig. 9c)" \
  >"$OUT/zheng2018-fig9c.txt"
cp "$OUT/zheng2018-fig5d-time.png" "$OUT/zheng2018-fig9c-time.png" "$IMG/"

# Link loads of the 256-process transposition, one run per routing (Fig. 7).
SIMRUN=(--cfg=smpi/privatization:no --cfg=contexts/stack-size:128 --cfg=smpi/simulate-computation:no
        --cfg=smpi/shared-malloc-blocksize:1073741824 --log=root.thres:critical)
dist=()
for p in simgrid minimal valiant ugal; do
  f="$OUT/df-$p.txt"
  [ $p = simgrid ] && f="$OUT/df-simgrid.xml"
  if [ ! -s "$OUT/load-$p.csv" ]; then
    t0=$SECONDS
    "$RUN" --model "$MODEL" --link-load "$OUT/load-$p.csv" -platform "$f" -hostfile "$OUT/df.hosts" -np 256 \
      "${SIMRUN[@]}" "${TRANSPOSE[@]}" --algo ring --k 4 >"$OUT/load-$p.out"
    echo "== link load $p: $((SECONDS - t0)) s" >&2
  fi
  "$LP" map "$OUT/load-$p.csv" -o "$OUT/zheng2018-fig7-$p" \
    --title "transpose ring-4, 256 processes, dragonfly-MM/1000, $p routing: mean utilisation"
  cp "$OUT/zheng2018-fig7-$p.png" "$IMG/"
  dist+=("$p=$OUT/load-$p.csv")
done
"$LP" dist -o "$OUT/zheng2018-fig8" --title "router links' mean utilisation, transpose ring-4, 256 processes" \
  "${dist[@]}"
cp "$OUT/zheng2018-fig8-cdf.png" "$IMG/"
# Summary of each link-load file: router links' count, mean and max of mean utilisation, share of bytes on global links.
for p in simgrid minimal valiant ugal; do
  awk -F, -v p=$p 'NR > 1 && $2 != "node-up" && $2 != "node-down" && $2 != "loopback" {
      n++; s += $9; if ($9 > m) m = $9; if ($2 == "global") { g += $7; ng++; gs += $9 } else if ($2 == "local") l += $7 }
    END { printf "%-8s router links %4d  mean util %.4f  max %.4f  global links %3d (mean util %.4f)  bytes global %.3e local %.3e\n",
          p, n, s / n, m, ng, ng ? gs / ng : 0, g, l }' "$OUT/load-$p.csv"
done | tee "$OUT/zheng2018-fig7.txt"
