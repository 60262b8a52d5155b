#!/bin/bash
# bench/osu_rma_remedy.sh -- the plugin's passive-target remedy
# (plugin/hnm_win_fix.cpp, docs/scale.md) against SMPI's own code on OSU's
# one-sided benchmarks: every benchmark x synchronisation x window kind,
# run twice under hnm-run (--cfg=hnm/unlock-remedy:yes and :no), their
# whole output compared. Prints one line per pair that differs and a count.
#
#   bench/osu_rma_remedy.sh [BUILD] OSU_DIR [MODEL]
#
# OSU_DIR: an OSU micro-benchmarks tree built with SMPI's compilers
# (docs/predicting.md: SMPI_PRETEND_CC=1 ./configure CC=smpicc ...; make),
# whose mpi/one-sided/ holds osu_put_latency and the others. MODEL: default
# graphene. Combinations a benchmark refuses (its usage message) are
# skipped and counted apart. Under a minute on this machine.
set -euo pipefail
BUILD=build
[ $# -ge 2 ] && [ -d "$1/bin" ] && { BUILD=$1; shift; }
[ $# -ge 1 ] || { sed -n 2,14p "$0" >&2; exit 2; }
OSU=$1 MODEL=${2:-graphene}
DIR=$OSU/mpi/one-sided
[ -x "$DIR/osu_put_latency" ] || { echo "osu_rma_remedy.sh: no built osu_put_latency in $DIR" >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
bench_need "$BUILD/bin/hnm-run" "$BUILD/bin/hnm-platform"
bench_work
TMP=$work
"$BUILD/bin/hnm-platform" cluster --cabinets 2 --nodes 8 -o "$TMP/p.xml" --hostfile "$TMP/h" >/dev/null

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), model $MODEL, OSU: $(head -c 200 "$OSU/CHANGES" 2>/dev/null | grep -m1 -o 'OSU[^,]*' || echo "$OSU")"
compared=0 differ=0 refused=0
for b in put_latency get_latency put_bw get_bw put_bibw acc_latency get_acc_latency fop_latency cas_latency; do
  [ -x "$DIR/osu_$b" ] || continue
  for s in lock flush flush_local lock_all pscw fence; do
    for w in create allocate; do
      for r in yes no; do
        timeout 300 "$BUILD/bin/hnm-run" --model "$MODEL" -platform "$TMP/p.xml" -hostfile "$TMP/h" -np 2 \
          --cfg=smpi/privatization:1 --cfg=smpi/simulate-computation:no --log=root.thres:critical \
          "--cfg=hnm/unlock-remedy:$r" "$DIR/osu_$b" -m 1:4096 -i 20 -x 2 -s "$s" -w "$w" >"$TMP/$r" 2>&1 &&
          echo "status 0" >>"$TMP/$r" || echo "status $?" >>"$TMP/$r"
      done
      if grep -qi "usage\|invalid\|not supported" "$TMP/yes"; then
        refused=$((refused + 1))
        continue
      fi
      compared=$((compared + 1))
      cmp -s "$TMP/yes" "$TMP/no" || { differ=$((differ + 1)); echo "differs: osu_$b -s $s -w $w"; }
    done
  done
done
echo "compared $compared, differing $differ (refused by the benchmark: $refused)"
[ "$differ" -eq 0 ]
