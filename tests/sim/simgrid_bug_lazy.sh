#!/usr/bin/env bash
# Pins SimGrid's selective-update defect (3.32 to 4.1; docs/lazy-bug/README.md) where
# hnm keeps it on purpose: plain smpirun and --model smpi-default (plain
# smpirun, bit for bit), under their default network/optim:Lazy.
# SimGrid canary (ctest label simgrid-canary): if this fails after a SimGrid
# upgrade, with max-min's values, the bug was fixed upstream -- not a
# regression of hnm; the plugin's mend (plugin/hnm_lmm_fix.cpp) then finds
# no defect in its self-check and stays off ("not needed", hnm-run
# --explain), and this test and the docs should say so.
#
# The fan-out of tests/sim/fanout.sh (2 flows to B, 2 or 8 to C, all at
# time 0): SimGrid solves the flows to C against LA alone, so each runs at
# its bound, F x 10 MB/s, and LC carries 2 or 8 times its bandwidth; C's
# last receive ends at LF x 20 ms + P / (F x 10 MB/s) instead of max-min's
# LF x 20 ms + NC x 1.05 P / (F x 10 MB/s). SimGrid's own check of each
# solution (--log=ker_lmm.thres:debug) aborts on it; with the mend
# (smpi-fixed) the same check stays silent.
source "$(dirname "$0")/lib.sh"
PLAT=$DATA/platforms/fanout.xml HOSTS=$DATA/platforms/fanout.hosts
BYTES=5000000 P=5000016 BW=10000000 LAT=0.02 LF=11.6436 F=0.940694
TMP=$WORK
t() { awk -v r="$1" '$1 == "fanout" && $2 == r { print $3 }' <<<"$2"; }

wrong=$(calc "$LF * $LAT + $P / ($F * $BW)")
for nc in 2 8; do
  maxmin=$(calc "$LF * $LAT + $nc * 1.05 * $P / ($F * $BW)")
  plain_out=$(plain "$PLAT" "$HOSTS" 3 "$SIM_BIN/fanout" 2 "$nc" "$BYTES")
  check_close "plain smpirun 2+$nc: C's flows at their bound (max-min says $maxmin)" "$(t 2 "$plain_out")" \
    "$wrong" 1e-9
  hnm_out=$(hnm smpi-default "$PLAT" "$HOSTS" 3 "$SIM_BIN/fanout" 2 "$nc" "$BYTES")
  check "smpi-default 2+$nc is plain smpirun, defect included" [ "$hnm_out" = "$plain_out" ]
done

# SimGrid's own lmm check: aborts on plain Lazy, silent with the mend.
plain "$PLAT" "$HOSTS" 3 --log=ker_lmm.thres:debug "$SIM_BIN/fanout" 2 2 "$BYTES" >/dev/null 2>"$TMP/plain"
status=$?
hnm smpi-fixed "$PLAT" "$HOSTS" 3 --cfg=network/optim:Lazy --log=ker_lmm.thres:debug "$SIM_BIN/fanout" 2 8 \
  "$BYTES" >"$TMP/fixed.out" 2>"$TMP/fixed"
fixed_status=$?
check "SimGrid's lmm check aborts on plain Lazy (status $status)" grep -q "Incorrect value" "$TMP/plain"
check "with the mend, SimGrid's lmm check is silent (status $fixed_status)" \
  bash -c '[ "$1" -eq 0 ] && ! grep -q "Incorrect value" "$2"' _ "$fixed_status" "$TMP/fixed"
check "with the mend, the lmm check ran (its debug output is there)" grep -q "MAX-MIN" "$TMP/fixed"

# The upstream reproducer (docs/lazy-bug/repro.cpp, s4u), as its README
# prints it: max-min under Full, LC at twice its bandwidth under Lazy.
REPRO=$SOURCE_DIR/docs/lazy-bug
if ! g++ -std=c++17 "$REPRO/repro.cpp" -o "$TMP/repro" -lsimgrid 2>"$TMP/cc"; then
  check "docs/lazy-bug/repro.cpp builds: $(head -c 300 "$TMP/cc")" false
else
  opts=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --log=root.thres:critical)
  full=$("$TMP/repro" "$REPRO/platform.xml" "${opts[@]}" --cfg=network/optim:Full)
  lazy=$("$TMP/repro" "$REPRO/platform.xml" "${opts[@]}" --cfg=network/optim:Lazy)
  check "repro, Full: LC at its bandwidth" grep -qx "at 0.5 s, link LC carries 10000000 B/s of its 10000000 B/s" \
    <<<"$full"
  check "repro, Full: all four done at 1.02 s" [ "$(grep -c "done at 1.020000000 s" <<<"$full")" -eq 4 ]
  check "repro, Lazy: LC at twice its bandwidth" \
    grep -qx "at 0.5 s, link LC carries 20000000 B/s of its 10000000 B/s" <<<"$lazy"
  check "repro, Lazy: the flows to C done at 0.52 s" [ "$(grep -c "A -> C done at 0.520000000 s" <<<"$lazy")" -eq 2 ]
fi
finish
