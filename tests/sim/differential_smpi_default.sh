#!/usr/bin/env bash
# With the smpi-default model, hnm must reproduce SimGrid's built-in SMPI
# model exactly: the same program on the same platform under plain smpirun
# and under hnm-run --model smpi-default gives the same simulated times
# (relative difference < 1e-9; in fact the same digits). The reference here
# is SimGrid itself: plain smpirun with no option beyond the ones both runs
# get (lib.sh's SIMOPTS), in particular SimGrid's own network/optim, which
# hnm-run keeps for smpi-default.
source "$(dirname "$0")/lib.sh"

PLAT=$DATA/../../platforms/default.xml
HOSTS=$DATA/../../platforms/default.hosts
# 31 sizes from 1 B to 64 MiB, on and around every breakpoint of SimGrid's
# factor tables (P = k + 16 <= 257, 732, 1426, 3484, 5776, 9376, 15424,
# 65472) and of the detached threshold (k < 65536).
PP=1,16,100,241,242,716,717,1024,1410,1411,3468,3469,5760,5761,9360,9361,15408,15409,32768,65456,65457,65535,65536,100000,262144,1048576,4194304,16777216,67108864
COLL=8,1024,65536,1048576
# Ranks 0 and 1 are on one cabinet, collectives span two cabinets (16 ranks).
ref=$(plain "$PLAT" "$HOSTS" 16 "$SIM_BIN/pingpong_sizes" "$PP" "$COLL")
got=$(hnm smpi-default "$PLAT" "$HOSTS" 16 "$SIM_BIN/pingpong_sizes" "$PP" "$COLL")

nref=$(grep -c . <<<"$ref")
check "same number of measurements ($nref)" [ "$nref" -eq "$(grep -c . <<<"$got")" ]
check "at least 20 ping-pong sizes" [ "$(grep -c '^pingpong' <<<"$ref")" -ge 20 ]
while read -r op k t_ref && read -r op2 k2 t_got <&3; do
  check "$op $k matches $op2 $k2" [ "$op $k" = "$op2 $k2" ]
  check_close "$op $k bytes" "$t_got" "$t_ref" 1e-9
done <<<"$ref" 3<<<"$got"
check "the same output, digit for digit" [ "$ref" = "$got" ]

# Passive-target locks, which the plugin's unlock remedy takes under every
# model (plugin/hnm_win_fix.cpp): the same output and SMPI warnings.
ref=$(plain "$PLAT" "$HOSTS" 8 "$SIM_BIN/win_locks" 3 2>&1)
got=$(hnm smpi-default "$PLAT" "$HOSTS" 8 "$SIM_BIN/win_locks" 3 2>&1)
check "win_locks at 8 ranks: $(grep -c '^rank' <<<"$ref") lines, the same, digit for digit" \
  bash -c '[ "$(grep -c "^rank" <<<"$1")" -ge 48 ] && [ "$1" = "$2" ]' _ "$ref" "$got"
finish
