#!/usr/bin/env bash
# Route classes are told apart from the two end hosts: the same detached
# message (100000 B, receiver 1 ms late) on the bundled platform between
#   same-host:  node-0 -> node-0, route = the node's loopback (1 us, 6 GB/s);
#   same-zone:  node-0 -> node-1 (one cabinet): node up 10 us + 2 limiters (0 s)
#               + node down 10 us = 20 us, B = 125 MB/s;
#   remote:     node-0 -> node-8 (two cabinets): 10 + 5 + 0 + 0 + 5 + 10 = 30 us,
#               narrowest link the 1 Gb/s node link (125 MB/s);
# gets the factors and overheads of its class in tests/data/models/route-classes.xml:
#   MPI_Send = send-o + k x send-per-byte,
#   MPI_Recv = latency x lat-factor + (k + 16) / (bandwidth x bw-factor) + recv-o + k x recv-per-byte.
source "$(dirname "$0")/lib.sh"

k=100000
tmp=$WORK
# class hosts route-latency route-bandwidth lat-factor bw-factor send-o send-O recv-o recv-O
while read -r class a b lat bw lf bf so sO ro rO; do
  printf '%s\n%s\n' "$a" "$b" >"$tmp/hosts"
  out=$(hnm "$DATA/models/route-classes.xml" "$DATA/../../platforms/default.xml" "$tmp/hosts" 2 \
    "$SIM_BIN/p2p_timing" "$k:0:0.001")
  read -r _ _ ts te < <(grep '^send' <<<"$out")
  read -r _ _ tr re < <(grep '^recv' <<<"$out")
  check_close "$class: MPI_Send" "$(calc "$te - $ts")" "$(calc "$so + $k * $sO")" 1e-9
  check_close "$class: MPI_Recv" "$(calc "$re - $tr")" \
    "$(calc "$lat * $lf + ($k + 16) / ($bw * $bf) + $ro + $k * $rO")" 1e-9
done <<'TABLE'
same-host node-0 node-0 1e-6  6e9   5 0.5 1e-6 0.1e-9 2e-6 0.2e-9
same-zone node-0 node-1 20e-6 1.25e8 2 0.8 3e-6 0.3e-9 2e-6 0.2e-9
remote    node-0 node-8 30e-6 1.25e8 3 0.7 5e-6 0.5e-9 2e-6 0.2e-9
TABLE
finish
