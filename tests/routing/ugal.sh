#!/usr/bin/env bash
# Routing decisions read from simulated times, against hand-computed max-min
# answers (the textbook fluid model: T = L + size / B per flow, max-min
# sharing). Dragonfly of 3 groups of one router, 4 nodes per router, one
# global link of B = 10 GB/s between two groups, latency 0 unless said.
# Flows of S = 1e6 bytes (SMPI sends S + 16: T = (S + 16) / B) start
# together between distinct nodes; their routes are chosen in rank order.
#
# Adversarial, P flows from group 0 to group 1. Minimal and both Valiant
# variants (one router per group: the intermediate router is the
# intermediate group's) put all P on one path: P x T each. UGAL compares
# the paths' backlogs (seconds of bytes not yet sent, hnm_routing.h) plus
# one link latency per hop: flow 1, idle, minimal (backlog T on g0->g1);
# flow 2: T against 0, Valiant via group 2; flow 3: T against T (no tie:
# the threshold keeps it minimal); flow 4: 2T against T, Valiant. P = 2: T, T (the best: both paths
# used); P = 3: the Valiant flow alone, T, the two minimal ones 2T; P = 4:
# two and two, 2T each (the best, against 4T).
#
# Whole path against the source group's view: X: group 2 -> group 1 first
# (minimal, backlog T on g2->g1), A: group 0 -> group 1 (minimal), B: group
# 0 -> group 1. ugal-l sees g0->g1 (T) against g0->g2 (0): B goes Valiant,
# through g2->g1 with X: A = T, X = B = 2T. ugal-g also sees g2->g1 (T): a
# tie, B goes minimal with A: X = T, A = B = 2T (also minimal's answer).
#
# Idle network with latency 1us: minimal's 3 links (up, global, down),
# 3us + T, not Valiant's 4us + T.
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK
S=1000000
T=$(calc "($S + 16) / 1e10")
shape=(--groups 3 --chassis 1 --routers 1 --nodes 4 --blue-links 1 --black-links 1 --green-links 1 --bw 10GBps)
# run ROUTING LAT NODE... : the receive time of each flow (node pairs in rank order), by rank
run() {
  local r=$1 lat=$2
  shift 2
  "$HNM_PLATFORM" dragonfly "${shape[@]}" --lat "$lat" --routing "$r" -o "$tmp/$r.txt" 2>/dev/null
  printf 'node-%s\n' "$@" >"$tmp/h"
  hnm "$FLUID" "$tmp/$r.txt" "$tmp/h" $# "$ROUTING_BIN/flows" "${SIZE:-$S}" | sort -k2,2n | awk '{ print $3 }' | tr '\n' ' '
  echo
}
adversarial() { # ROUTING P
  local nodes=() i
  for i in $(seq 0 $(($2 - 1))); do nodes+=("$i" $((4 + i))); done
  run "$1" 0 "${nodes[@]}"
}
for r in ugal-l ugal-g; do
  read -r a b < <(adversarial $r 2)
  check_close "$r, 2 flows: minimal" "$a" "$T" 1e-9
  check_close "$r, 2 flows: Valiant" "$b" "$T" 1e-9
  read -r a b c < <(adversarial $r 3)
  check_close "$r, 3 flows: minimal 1" "$a" "$(calc "2 * $T")" 1e-9
  check_close "$r, 3 flows: the Valiant one" "$b" "$T" 1e-9
  check_close "$r, 3 flows: minimal 2" "$c" "$(calc "2 * $T")" 1e-9
  for x in $(adversarial $r 4); do check_close "$r, 4 flows: two per path" "$x" "$(calc "2 * $T")" 1e-9; done
done
# An exact tie under the default threshold, in doubles. hnm-platform writes
# the default as 10 x 1e-6 = 9.9999999999999991e-06 s (thr), --lat 2ns as
# 2e-9 s (L). Two flows of S2 = 100004 bytes (100020 on the wire) from group
# 0 to group 1 at the same instant: flow 1 goes minimal (idle); flow 2 sees
# minimal's backlog q = 100020 B / 1e10 B/s = 1.0002e-05 s on 1 router link
# against Valiant's 0 on 2: UGAL keeps minimal when q + 1 L <= 0 + 2 L + thr,
# and q + L and 2 L + thr (about 1.0004e-05 s) round to the same double
# (0x1.4fadb4a606dcbp-17, by hand in Python: 100020/1e10 + 2e-9 ==
# (2 * 2e-9) + 10 * 1e-6). `<=` sends flow 2 minimal: both share g0->g1,
# 3 L + 2 x 100020 / 1e10 each; a strict `<` would send it Valiant and
# both would end near 3 L + 100020 / 1e10.
for r in ugal-l ugal-g; do
  read -r a b < <(SIZE=100004 run $r 2ns 0 4 1 5)
  check_close "$r, exact tie (backlog + L = 2 L + threshold): flow 1 minimal" "$a" "$(calc "6e-9 + 2 * 100020 / 1e10")" 1e-9
  check_close "$r, exact tie (backlog + L = 2 L + threshold): flow 2 minimal too" "$b" "$(calc "6e-9 + 2 * 100020 / 1e10")" 1e-9
done
for r in minimal valiant-group valiant-router; do
  for x in $(adversarial $r 4); do check_close "$r, 4 flows on one path" "$x" "$(calc "4 * $T")" 1e-9; done
done
# X = node 8 -> node 4, A = node 0 -> node 5, B = node 1 -> node 6.
read -r x a b < <(run ugal-l 0 8 4 0 5 1 6)
check_close "ugal-l: X shares g2->g1 with B" "$x" "$(calc "2 * $T")" 1e-9
check_close "ugal-l: A alone on g0->g1" "$a" "$T" 1e-9
check_close "ugal-l: B went Valiant" "$b" "$(calc "2 * $T")" 1e-9
for r in ugal-g minimal; do
  read -r x a b < <(run $r 0 8 4 0 5 1 6)
  check_close "$r: X alone on g2->g1" "$x" "$T" 1e-9
  check_close "$r: A shares g0->g1 with B" "$a" "$(calc "2 * $T")" 1e-9
  check_close "$r: B minimal" "$b" "$(calc "2 * $T")" 1e-9
done
for r in ugal-l ugal-g; do
  read -r a < <(run $r 1us 0 4)
  check_close "$r, idle: minimal (3 links of 1us)" "$a" "$(calc "3e-6 + $T")" 1e-9
done
read -r a < <(run valiant-group 1us 0 4)
check_close "valiant-group, idle: 4 links of 1us" "$a" "$(calc "4e-6 + $T")" 1e-9
finish
