#!/usr/bin/env bash
# Max-min sharing under fluid: ranks 0 and 1 (two nodes of one switch) each
# send 4 detached messages of 4096 B to the other at the same instant, the
# receives already posted. Each direction's four flows leave through the
# sender's 1 Gb/s UP link and share it equally, so each rank's last receive
# completes 20 us + 4 x (4096 + 16) / B after the start.
# SimGrid 3.32's default network/optim:Lazy gets this wrong when, as under
# fluid, a never-saturating link (the removed limiter) is on the route: it
# lets flows run unshared. hnm-run therefore uses network/optim:Full; the
# last check shows the bug is real (else that default can go).
source "$(dirname "$0")/lib.sh"
B=125000000 k=4096
run() { hnm "$FLUID" "$DATA/platforms/flat32.xml" "$DATA/platforms/flat32.hosts" 2 "$@" "$SIM_BIN/exchange" 4 "$k"; }
want=$(calc "20e-6 + 4 * ($k + 16) / $B")
out=$(run)
check "both ranks report" [ "$(grep -c '^exchange' <<<"$out")" -eq 2 ]
while read -r _ r t; do
  check_close "rank $r: four flows share the sender's link" "$t" "$want" 1e-9
done <<<"$out"
lazy=$(run --cfg=network/optim:Lazy 2>/dev/null | awk '{ print $3 }' | sort -g | head -1)
check "SimGrid's Lazy update is still wrong here (got $lazy, max-min says $want)" \
  awk -v t="$lazy" -v e="$want" 'BEGIN { exit !(t < 0.9 * e) }'
finish
