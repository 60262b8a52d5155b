#!/usr/bin/env bash
# UGAL-L decisions read from simulated times (fluid model: T = L + size / B
# per flow, max-min sharing, crosstraffic off). Dragonfly of 3 groups of one
# router, 4 nodes per router, one global link of B = 10 GB/s between groups,
# latency 0. P flows of S = 1e6 bytes from nodes of group 0 to distinct nodes
# of group 1 start together (SMPI sends S + 16 bytes; T = (S + 16) / B).
# Routes are chosen one flow after the other; UGAL-L compares q_min x 1 hop
# with q_val x 2 hops (q: flows in progress on the path's first router link):
#   flow 1: 0 vs 0 -> minimal; flow 2: 1 vs 0 -> Valiant (via group 2);
#   flow 3: 1 vs 2 -> minimal; flow 4: 2 vs 2 -> minimal (ties minimal).
# So with P = 3: Valiant flow alone at B -> T, two minimal flows at B/2 -> 2T;
# P = 4: T, and three at B/3 -> 3T. Minimal and Valiant routing put all P on
# one global link (G = 3: the only intermediate group is 2): P x T each.
# Idle network with latency 1us: one flow takes 3 links (minimal: up, global,
# down) -> 3us + T, not Valiant's 4us + T.
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK
S=1000000
T=$(calc "($S + 16) / 1e10")
shape=(--groups 3 --chassis 1 --routers 1 --nodes 4 --blue-links 1 --black-links 1 --green-links 1 --bw 10GBps)
times() { # ROUTING P LAT: sorted receive times
  "$HNM_PLATFORM" dragonfly "${shape[@]}" --lat "$3" --routing "$1" -o "$tmp/$1.txt"
  : >"$tmp/h"
  for i in $(seq 0 $(($2 - 1))); do printf 'node-%d\nnode-%d\n' "$i" $((4 + i)) >>"$tmp/h"; done
  hnm "$FLUID" "$tmp/$1.txt" "$tmp/h" $((2 * $2)) "$ROUTING_BIN/flows" "$S" | awk '{ print $3 }' | sort -g | tr '\n' ' '
  echo
}
read -r a b c < <(times ugal 3 0)
check_close "ugal, 3 flows: the Valiant one" "$a" "$T" 1e-9
check_close "ugal, 3 flows: minimal 1" "$b" "$(calc "2 * $T")" 1e-9
check_close "ugal, 3 flows: minimal 2" "$c" "$(calc "2 * $T")" 1e-9
read -r a b c d < <(times ugal 4 0)
check_close "ugal, 4 flows: the Valiant one" "$a" "$T" 1e-9
for x in "$b" "$c" "$d"; do check_close "ugal, 4 flows: a minimal one" "$x" "$(calc "3 * $T")" 1e-9; done
for r in minimal valiant; do
  for x in $(times $r 4 0); do check_close "$r, 4 flows on one global link" "$x" "$(calc "4 * $T")" 1e-9; done
done
read -r a < <(times ugal 1 1us)
check_close "ugal, idle: minimal (3 links of 1us)" "$a" "$(calc "3e-6 + $T")" 1e-9
read -r a < <(times valiant 1 1us)
check_close "valiant, idle: 4 links of 1us" "$a" "$(calc "4e-6 + $T")" 1e-9
finish
