#!/bin/bash
# skel.sh -- tests of apps/skel.c's timing and reporting through
# tests/apps/skel_unit.c (apps/skel.h, docs/skeletons/): the common-start
# window formula, the batched report's reduction (MAX of times and stage
# times, SUM of messages, binomial tree, any P) and its late-start verdict
# (exit 2, no line printed), with Open MPI and under SMPI.
source "$(dirname "$0")/lib.sh"

U=$UNIT_BIN/skel_unit
U_MPI=$UNIT_BIN/skel_unit-mpi
need mpirun "$U_MPI"

# expect_report WHAT OUT P SYNC: the two lines skel_unit prints on P ranks.
expect_report() {
  local what=$1 out=$2 p=$3 sync=$4
  check "$what: window,ok" grep -qx 'window,ok' <<<"$out"
  local alloc=private
  [ "$sync" = window ] && alloc=shared
  check "$what: alloc,$alloc $(grep -m1 '^skel_unit: ' <<<"$out")" grep -qx "alloc,$alloc" <<<"$out"
  check "$what: line a" grep -qx "skel_unit,a,none,$p,x=1;sync=$sync,2,$((p * (p + 1) / 2)),$((p - 1)),$((p - 1));$p" <<<"$out"
  check "$what: line b" grep -qx "skel_unit,b,none,$p,x=1;sync=$sync,0,$p,0," <<<"$out"
  check "$what: a before b" test "$(grep '^skel_unit,' <<<"$out" | cut -d, -f2 | tr -d '\n')" = ab
}

# expect_late WHAT RC OUT ERR P: status 2 (or non-zero from mpirun), the
# message on stderr naming line 1 and 2.5e-06 s, no report line.
expect_late() {
  local what=$1 rc=$2 out=$3 err=$4 p=$5
  check "$what: non-zero exit (got $rc), no timeout" test "$rc" -ne 0 -a "$rc" -ne 124
  check "$what: message" grep -q "skel_unit: a rank reached the common start of line 1 of this report (skel_unit,b,none,$p,x=1;sync=[a-z]*) 2.5e-06 s late" <<<"$err"
  check "$what: no report line" bash -c '! grep -q "^skel_unit," <<<"$1"' _ "$out"
}

for p in 1 2 3 4 5 7 8; do
  out=$(mpi "$p" "$U_MPI" -1 2>&1) || true
  expect_report "mpi P=$p" "$out" "$p" barrier
done
for p in 1 3 6 8 13; do
  out=$(sim fluid "$p" "$U" -1 2>&1) || true
  expect_report "fluid P=$p" "$out" "$p" window
done

# The window's idle time: a few microseconds of messages on flat32 (10 us
# links: the allreduces of P = 4 take 4 x 2 x 10 us at least, the window
# twice that), plus SKEL_WINDOW_NOISE (1 ms) when SMPI counts computation
# (a later --cfg wins over SIMOPTS's).
for sc in no yes; do
  out=$(sim fluid 4 "$U" -1 --cfg=smpi/simulate-computation:$sc 2>&1) || true
  gap=$(sed -n 's/^gap,//p' <<<"$out")
  expect_report "fluid P=4, simulate-computation:$sc" "$out" 4 window
  if [ $sc = no ]; then
    check "simulate-computation:no: window $gap s within (50 us, 1 ms)" awk -v g="$gap" 'BEGIN { exit !(g > 5e-5 && g < 1e-3) }'
    nogap=$gap
  else
    # Beyond the 1 ms, what SMPI measured of the program's own code before
    # the window (printf, MPI_Init's return: 0.1-0.2 ms here) is injected.
    check "simulate-computation:yes: window $gap s >= $nogap + 1 ms, < + 6 ms" \
      awk -v g="$gap" -v n="$nogap" 'BEGIN { d = g - n - 1e-3; exit !(d >= 0 && d < 5e-3) }'
  fi
done

err=$WORK/err
rc=0
out=$(mpi 3 "$U_MPI" 2 2>"$err") || rc=$?
expect_late "mpi P=3, rank 2 late" "$rc" "$out" "$(cat "$err")" 3
for c in "5 3" "8 0"; do
  set -- $c
  rc=0
  out=$(sim fluid "$1" "$U" "$2" 2>"$err") || rc=$?
  check "fluid P=$1, rank $2 late: exit 2 (got $rc)" test "$rc" -eq 2
  expect_late "fluid P=$1, rank $2 late" "$rc" "$out" "$(cat "$err")" "$1"
done
rm -f "$err"

finish
