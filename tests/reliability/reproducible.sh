#!/usr/bin/env bash
# hnm-compare sweeps are reproducible by default: it adds
# --cfg=smpi/simulate-computation:no unless a --sim-opt sets that option,
# so two identical sweeps give byte-identical results (every column but
# the host's own measurements wall_s and maxrss_kib; rows sorted by index,
# since they are appended as the runs finish).
source "$(dirname "$0")/lib.sh"
PLAT=$DATA/platforms/flat32.xml
sweep() {
  (cd "$RUNDIR" && timeout 300 "$HNM_COMPARE" run --model graphene --model fluid --platform "$PLAT" --np 2,4 \
     --metric simclock --workers 2 --sim-opt=--cfg=smpi/privatization:no "$@" -- "$PROG" 65536 2>/dev/null)
}
# Rows come in completion order: sorted by index, without wall_s, maxrss_kib.
results() { cut -d, -f1-9,12- "$1" | LC_ALL=C sort -t, -k1,1n; }
sweep -o a.csv
sweep -o b.csv
check "first sweep: 4 ok rows" [ "$(grep -c ',ok,0$' "$RUNDIR/a.csv")" -eq 4 ]
check "the options column says simulate-computation:no" \
  grep -q 'smpi/privatization:no --cfg=smpi/simulate-computation:no,' "$RUNDIR/a.csv"
check "two identical sweeps: byte-identical results" [ "$(results "$RUNDIR/a.csv")" = "$(results "$RUNDIR/b.csv")" ]
out=$(cd "$RUNDIR" && "$HNM_COMPARE" run --dry-run --np 2 --sim-opt=--cfg=smpi/simulate-computation:yes -o c.csv -- "$PROG")
check "a --sim-opt setting it wins (no second value)" \
  [ "$(grep -o 'simulate-computation:[a-z]*' <<<"$out" | sort -u)" = "simulate-computation:yes" ]
check "hnm-run --help states its default" grep -q 'smpi/simulate-computation:yes' <<<"$("$HNM_RUN" --help)"
finish
