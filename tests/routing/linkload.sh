#!/usr/bin/env bash
# hnm-run --link-load on hand-made patterns, values derived by hand.
# 1. The UGAL case of ugal.sh (3 groups of one router, 4 flows of S = 1e6
#    bytes from group 0 to group 1, B = 10 GB/s, latency 0, fluid model;
#    SimGrid sends S + 16 bytes; T = (S + 16) / B): flows 2 and 4 go
#    through group 2, flows 1 and 3 share the global link g0 -> g1. Per link:
#      node up 0..3, node down 4..7: S + 16 bytes each, busy 2T, peak B/2;
#      global g0 -> g1, g0 -> g2 and g2 -> g1: 2 (S + 16) bytes, busy 2T,
#        peak 1;
#    and mean utilisation = bytes / (B x end), end = 1 ms + 2T (every byte
#    of usage integrated: the integral equals the bytes routed).
# 2. SimGrid's own torus 4x3 (XML), one message node-0 -> node-5 (S bytes,
#    10GBps, 100ns): dimension order crosses torus_link_from_0_to_1_UP
#    (dimension 0, 0 -> 1) then torus_link_from_1_to_5_UP (dimension 1,
#    1 -> 5), and the node's loopback is untouched: two rows, S + 16 bytes.
# 3. A link named with a comma and quotes: quoted in the file, read back by
#    hnm-linkplot.
# 4. Bad input: --link-load into a missing directory: exit 2, one line.
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK
S=1000000
B=1e10
T=$(calc "($S + 16) / $B")
END=$(calc "1e-3 + 2 * $T")
"$HNM_PLATFORM" dragonfly --groups 3 --chassis 1 --routers 1 --nodes 4 --blue-links 1 --black-links 1 \
  --green-links 1 --bw 10GBps --lat 0 --routing ugal -o "$tmp/u.txt"
for i in 0 1 2 3; do printf 'node-%d\nnode-%d\n' "$i" $((4 + i)); done >"$tmp/h"
"$HNM_RUN" --model "$FLUID" --link-load "$tmp/load.csv" -platform "$tmp/u.txt" -hostfile "$tmp/h" -np 8 "${SIMOPTS[@]}" \
  "$ROUTING_BIN/flows" "$S" >"$tmp/out"
check "link load: header" [ "$(head -1 "$tmp/load.csv")" = "link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util" ]
check "link load: 11 links carried traffic" [ "$(tail -n +2 "$tmp/load.csv" | wc -l)" -eq 11 ]
row() { awk -F, -v l="$1" '$1 == l' "$tmp/load.csv"; }
expect() { # LINK ROLE A B BYTES BUSY PEAK
  local r
  r=$(row "$1")
  check "$1: role $2 ($r)" [ "$(echo "$r" | cut -d, -f2-4)" = "$2,$3,$4" ]
  check_close "$1: bytes" "$(echo "$r" | cut -d, -f7)" "$5" 0
  check_close "$1: busy" "$(echo "$r" | cut -d, -f8)" "$6" 1e-9
  check_close "$1: mean utilisation" "$(echo "$r" | cut -d, -f9)" "$(calc "$5 / ($B * $END)")" 1e-9
  check_close "$1: peak utilisation" "$(echo "$r" | cut -d, -f10)" "$7" 1e-9
}
for i in 0 1 2 3; do
  expect "dragonfly_node_${i}_up" node-up "$i" -1 $((S + 16)) "$(calc "2 * $T")" 0.5
  expect "dragonfly_node_$((4 + i))_down" node-down $((4 + i)) -1 $((S + 16)) "$(calc "2 * $T")" 0.5
done
expect dragonfly_global_g0_r0_to_g1_r0_k0 global 0 1 $((2 * (S + 16))) "$(calc "2 * $T")" 1
expect dragonfly_global_g0_r0_to_g2_r0_k0 global 0 2 $((2 * (S + 16))) "$(calc "2 * $T")" 1
expect dragonfly_global_g2_r0_to_g1_r0_k0 global 2 1 $((2 * (S + 16))) "$(calc "2 * $T")" 1

"$HNM_PLATFORM" torus --dims 4x3 -o "$tmp/t.xml"
printf 'node-0\nnode-5\n' >"$tmp/th"
"$HNM_RUN" --model "$FLUID" --link-load "$tmp/t.csv" -platform "$tmp/t.xml" -hostfile "$tmp/th" -np 2 "${SIMOPTS[@]}" \
  "$ROUTING_BIN/flows" "$S" >/dev/null
check "SimGrid torus: two links carried traffic" [ "$(tail -n +2 "$tmp/t.csv" | wc -l)" -eq 2 ]
got=$(awk -F, '$1 == "torus_link_from_0_to_1_UP" || $1 == "torus_link_from_1_to_5_UP" { print $1, $2, $3, $4, $5, $7 }' "$tmp/t.csv")
want="torus_link_from_0_to_1_UP torus 0 0 1 $((S + 16))
torus_link_from_1_to_5_UP torus 1 1 5 $((S + 16))"
check "SimGrid torus: roles and bytes ($got)" [ "$got" = "$want" ]

# A link whose name holds a comma and quotes: the row stays 10 fields
# (core's CSV dialect, columns of platforms/hnm_linkload_csv.h), and
# hnm-linkplot reads it back.
cat >"$tmp/q.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="h0" speed="1Gf"/>
    <host id="h1" speed="1Gf"/>
    <link id="l,&quot;1&quot;" bandwidth="1GBps" latency="1us"/>
    <route src="h0" dst="h1"><link_ctn id="l,&quot;1&quot;"/></route>
  </zone>
</platform>
XML
printf 'h0\nh1\n' >"$tmp/qh"
"$HNM_RUN" --model "$FLUID" --link-load "$tmp/q.csv" -platform "$tmp/q.xml" -hostfile "$tmp/qh" -np 2 "${SIMOPTS[@]}" \
  "$ROUTING_BIN/flows" 1000 >/dev/null
got=$(tail -n +2 "$tmp/q.csv" | cut -c 1-41)
check "quoted link name: '$got'" [ "$got" = '"l,""1""",other,-1,-1,-1,1000000000,1016,' ]
"$HNM_LINKPLOT" dist -o "$tmp/q" --roles other q="$tmp/q.csv" 2>/dev/null
check "quoted link name: hnm-linkplot reads the row" grep -qx '# q: 1 links' "$tmp/q-cdf.dat"

"$HNM_RUN" --model "$FLUID" --link-load "$tmp/nowhere/x.csv" -platform "$tmp/t.xml" -hostfile "$tmp/th" -np 2 \
  "$ROUTING_BIN/flows" "$S" >/dev/null 2>"$tmp/err"
rc=$?
check "--link-load into a missing directory: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "--link-load into a missing directory: one line ($(cat "$tmp/err"))" [ "$(wc -l <"$tmp/err")" -eq 1 ]
finish
