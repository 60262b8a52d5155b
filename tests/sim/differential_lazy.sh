#!/usr/bin/env bash
# network/optim:Lazy with the plugin's mend against Full, on every skeleton
# under every max-min model, at 16 ranks on an hnm-platform cluster (two
# cabinets of 8): every simulated time of every CSV line (time_s and the
# stage times, columns 8 and 9) must agree to 1e-9 relative, and SimGrid's
# own check of each max-min solution (--log=ker_lmm.thres:debug, which
# aborts with "Incorrect value" when a link carries more than its bandwidth)
# must stay silent under Lazy. loggps is not max-min (its Lazy/Full
# difference is port order, docs/models.md) and smpi-default keeps
# SimGrid's defect on purpose (sim.simgrid_bug_lazy).
# SimGrid canary (ctest label simgrid-canary): the mend runs only on
# SimGrid 3.32, so a failure after a SimGrid upgrade is news about SimGrid
# (the defect still there, the mend off; or the bug fixed upstream), not a
# regression of hnm.
source "$(dirname "$0")/lib.sh"
TMP=$WORK
"$BUILD_DIR/bin/hnm-platform" cluster --cabinets 2 --nodes 8 -o "$TMP/p.xml" --hostfile "$TMP/h"
SKELETON_ARGS[transpose]="--nx 32 --ny 16 --nz 8 --algo ring --k 4 --no-payload"

# same_times A B: the largest relative difference of the time fields of two
# CSV outputs, or "shapes" when their lines do not pair up.
same_times() {
  paste -d'\n' <(grep -v '^program' "$1") <(grep -v '^program' "$2") | awk -F, '
    NR % 2 == 1 { a = $8 ";" $9; ka = $1 $2 $7; next }
    { if (ka != $1 $2 $7) { bad = 1; next }
      na = split(a, x, ";"); nb = split($8 ";" $9, y, ";")
      if (na != nb) { bad = 1; next }
      for (i = 1; i <= na; i++) { d = x[i] - y[i]; if (d < 0) d = -d; s = x[i] < 0 ? -x[i] : x[i]
        if (s > 0 && d / s > m) m = d / s; n++ } }
    END { if (bad || n == 0) print "shapes"; else printf "%.3g\n", m }'
}

for s in gcr halo transpose monc_halo; do
  for m in graphene fluid smpi-fixed; do
    # shellcheck disable=SC2086
    hnm "$m" "$TMP/p.xml" "$TMP/h" 16 --cfg=network/optim:Full "$APPS_BIN/$s" ${SKELETON_ARGS[$s]} \
      >"$TMP/full" 2>"$TMP/full.err"
    # shellcheck disable=SC2086
    hnm "$m" "$TMP/p.xml" "$TMP/h" 16 --cfg=network/optim:Lazy --log=ker_lmm.thres:debug \
      "$APPS_BIN/$s" ${SKELETON_ARGS[$s]} >"$TMP/lazy" 2>"$TMP/lazy.err"
    status=$?
    check "$s $m: Lazy runs to its end (status $status), SimGrid's lmm check silent" \
      bash -c '[ "$1" -eq 0 ] && ! grep -q "Incorrect value" "$2"' _ "$status" "$TMP/lazy.err"
    check "$s $m: the lmm check ran" grep -q -m1 "MAX-MIN" "$TMP/lazy.err"
    d=$(same_times "$TMP/full" "$TMP/lazy")
    check "$s $m: Lazy equals Full to 1e-9 (largest relative difference $d)" \
      awk -v d="$d" 'BEGIN { exit !(d != "shapes" && d + 0 <= 1e-9) }'
  done
done
finish
