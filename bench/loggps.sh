#!/usr/bin/env bash
# Cost of LogGPS's ports: wall time of the same 1024-rank workload under
# hnm-run --model graphene (hybrid: max-min sharing, segment lookups) and
# hnm-run --model loggps (single port: the port rule per message), measured
# side by side, alternating, REPS times each; also loggps with ports=multi
# (no port) to isolate the port arithmetic. Prints the medians and the
# ratios to hybrid, with the load average (the machine may be shared).
#   bench/loggps.sh [BUILD-DIR] [RANKS] [REPS]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
RANKS=${2:-1024}
REPS=${3:-5}
PROG=$BUILD/apps/pingpong_alltoall
RUN=$BUILD/bin/hnm-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The workload of bench/overhead.sh: one cluster of RANKS nodes, ping-pongs
# of 1 B to 1 MiB, alltoalls of 16 to 256 B (SMPI's selection: no algorithm
# that posts all P^2 messages at once).
cat >"$tmp/p.xml" <<XML
<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n-" suffix="" radical="0-$((RANKS - 1))" speed="1Gf" bw="1Gbps" lat="10us"
           sharing_policy="SPLITDUPLEX" bb_bw="1000Gbps" bb_lat="1us"/>
</platform>
XML
for i in $(seq 0 $((RANKS - 1))); do echo "n-$i"; done >"$tmp/h"
ARGS=(-platform "$tmp/p.xml" -hostfile "$tmp/h" -np "$RANKS" --cfg=smpi/privatization:no --cfg=network/optim:Full
      --cfg=smpi/simulate-computation:no --log=root.thres:warning
      "$PROG" --pingpong-sizes 1,1024,65536,1048576 --alltoall-sizes 16,64,128,256)
MODELS=(graphene loggps loggps:ports=multi)

now() { date +%s.%N; }
for r in $(seq 1 "$REPS"); do
  line="rep $r/$REPS:"
  for i in "${!MODELS[@]}"; do
    t0=$(now)
    "$RUN" --model "${MODELS[$i]}" "${ARGS[@]}" >"$tmp/$i.out"
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$tmp/$i.t"
    line="$line ${MODELS[$i]} $(tail -1 "$tmp/$i.t") s"
  done
  echo "$line (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
h=$(median "$tmp/0.t")
out="ranks=$RANKS reps=$REPS hybrid_s=$h"
for i in 1 2; do
  m=$(median "$tmp/$i.t")
  out="$out ${MODELS[$i]}_s=$m ratio_to_hybrid=$(awk -v a="$m" -v b="$h" 'BEGIN { printf "%.3f", a / b }')"
done
echo "$out"
