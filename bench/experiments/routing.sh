#!/usr/bin/env bash
# Routing on the dragonfly at scale (docs/experiments.md, "Zheng & Marguinaud
# 2018, Figures 5d, 9c and 7"): the ring-4 transposition and the width-20
# halo under hnm's minimal, valiant-group, valiant-router, ugal-l and ugal-g
# routings on dragonfly-MM scaled to 20736 nodes (12 groups of 12 x 12
# routers, one global link from every router to every other group: the
# paper's machine, smaller), ranks dealt over the routers (round-robin), then
# link loads and congestion maps of the 1024-process transposition (and of
# minimal routing on dragonfly-SL scaled to 15376 nodes, Fig. 7d). Not a test.
#   bench/experiments/routing.sh [BUILD-DIR]
# NP_T / NP_H: process counts of the transposition (default 1024) and
# of the halo (default 1024,4096,16384). CSVs, tables, link loads and figures
# go to $OUT (default BUILD-DIR/experiments); the PNGs docs/experiments.md
# shows are copied to $IMG (default docs/img). Re-running resumes the sweeps.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
OUT=${OUT:-$BUILD/experiments}
IMG=${IMG:-docs/img}
WORKERS=${WORKERS:-1}
TIMEOUT=${TIMEOUT:-3600}
NP_T=${NP_T:-1024}
NP_H=${NP_H:-1024,4096,16384}
MODEL=${MODEL:-fluid}
mkdir -p "$OUT" "$IMG"
CMP=$BUILD/bin/hnm-compare
PLAT=$BUILD/bin/hnm-platform
RUN=$BUILD/bin/hnm-run
LP=$BUILD/bin/hnm-linkplot
APPS=$BUILD/apps
ROUTINGS=(minimal valiant-group valiant-router ugal-l ugal-g)

D=(--preset dragonfly-MM --scale 0.05 --placement round-robin --routing-seed 1)
PLATS=()
for r in "${ROUTINGS[@]}"; do
  "$PLAT" dragonfly "${D[@]}" --routing "$r" -o "$OUT/mm-$r.txt" --hostfile "$OUT/mm.hosts" 2>/dev/null
  PLATS+=(--platform "$OUT/mm-$r.txt:$OUT/mm.hosts")
done
"$PLAT" dragonfly --preset dragonfly-SL --scale 0.06 --placement round-robin --routing minimal \
  -o "$OUT/sl-minimal.txt" --hostfile "$OUT/sl.hosts" 2>/dev/null
SIM=()
for o in --cfg=smpi/privatization:no --cfg=contexts/stack-size:128 --cfg=smpi/simulate-computation:no \
         --cfg=smpi/shared-malloc-blocksize:1073741824 --log=root.thres:critical; do
  SIM+=("--sim-opt=$o")
done
TRANSPOSE=("$APPS/transpose" --no-payload --nx 1152 --ny 576 --nz 64)
HALO=("$APPS/halo" --scale 0.01 --no-payload)

sweep() { # NAME hnm-compare-run-args...
  local name=$1
  shift
  echo "== $name" >&2
  local t0=$SECONDS
  "$CMP" run --workers "$WORKERS" --timeout "$TIMEOUT" --no-retry "${SIM[@]}" -o "$OUT/$name.csv" "$@" || true
  echo "== $name: $((SECONDS - t0)) s" >&2
}
sweep zheng2018-fig5d "${PLATS[@]}" --model "$MODEL" --np "$NP_T" --args "--algo ring --k 4" -- "${TRANSPOSE[@]}"
"$CMP" plot "$OUT/zheng2018-fig5d.csv" -o "$OUT/zheng2018-fig5d" \
  --title "transpose 1152x576x64 ring-4 by routing, dragonfly-MM/20 (20736 nodes), $MODEL (Zheng & Marguinaud 2018, Fig. 5d)" \
  >"$OUT/zheng2018-fig5d.txt"
# (one process count: a table in docs/experiments.md, no figure)

# Link loads of the 1024-process transposition, one run per routing (Fig. 7).
SIMRUN=(--cfg=smpi/privatization:no --cfg=contexts/stack-size:128 --cfg=smpi/simulate-computation:no
        --cfg=smpi/shared-malloc-blocksize:1073741824 --log=root.thres:critical)
dist=()
for p in "${ROUTINGS[@]}" sl-minimal; do
  f="$OUT/mm-$p.txt" h="$OUT/mm.hosts" what="dragonfly-MM/20, $p routing"
  [ $p = sl-minimal ] && f="$OUT/sl-minimal.txt" h="$OUT/sl.hosts" what="dragonfly-SL/16.7, minimal routing"
  if [ ! -s "$OUT/load-$p.csv" ]; then
    t0=$SECONDS
    "$RUN" --model "$MODEL" --link-load "$OUT/load-$p.csv" -platform "$f" -hostfile "$h" -np 1024 \
      "${SIMRUN[@]}" "${TRANSPOSE[@]}" --algo ring --k 4 >"$OUT/load-$p.out"
    echo "== link load $p: $((SECONDS - t0)) s" >&2
  fi
  "$LP" map "$OUT/load-$p.csv" -o "$OUT/zheng2018-fig7-$p" \
    --title "transpose ring-4, 1024 processes, $what: mean utilisation"
  cp "$OUT/zheng2018-fig7-$p.png" "$IMG/"
  [ $p = sl-minimal ] || dist+=("$p=$OUT/load-$p.csv")
done
"$LP" dist -o "$OUT/zheng2018-fig8" --title "router links' mean utilisation, transpose ring-4, 1024 processes, MM/20" \
  "${dist[@]}"
cp "$OUT/zheng2018-fig8-cdf.png" "$IMG/"
# Summary of each link-load file: router links' count, mean and max of mean utilisation, bytes on global and local links.
for p in "${ROUTINGS[@]}" sl-minimal; do
  awk -F, -v p=$p 'NR > 1 && $2 != "node-up" && $2 != "node-down" && $2 != "loopback" {
      n++; s += $9; if ($9 > m) m = $9; if ($2 == "global") { g += $7; ng++; gs += $9; if ($9 > gm) gm = $9 }
      else if ($2 == "local") l += $7 }
    END { printf "%-14s router links %5d  mean util %.4f  max %.4f  global links %5d (mean util %.4f, max %.4f)  bytes global %.3e local %.3e\n",
          p, n, s / n, m, ng, ng ? gs / ng : 0, gm, g, l }' "$OUT/load-$p.csv"
done | tee "$OUT/zheng2018-fig7.txt"

# The halo last: its 16384-process runs are the longest.
sweep zheng2018-fig9c "${PLATS[@]}" --model "$MODEL" --np "$NP_H" --args "--width 20" -- "${HALO[@]}"
"$CMP" plot "$OUT/zheng2018-fig9c.csv" -o "$OUT/zheng2018-fig9c" \
  --title "halo width 20 by routing, dragonfly-MM/20 (20736 nodes), $MODEL (Zheng & Marguinaud 2018, Fig. 9c)" \
  >"$OUT/zheng2018-fig9c.txt"
cp "$OUT/zheng2018-fig9c-time.png" "$IMG/"
