#!/usr/bin/env bash
# Under the hybrid model (bundled graphene) on hnm-platform's graphene preset,
# N concurrent bidirectional 4 MiB exchanges between cabinet 1 (ranks 2i on
# node-i) and cabinet 2 (ranks 2i+1 on node-(39+i)), all starting at the
# same simulated instant, saturate at the inter-cabinet limiter.
# Max-min, per flow (graphene: crosstraffic off, node limiter 1.5 x B):
#   node limiter, 1.5 x 125 MB/s, one flow out and one in:   0.75 B = 93.75 MB/s
#   cabinet limiter, 13 Gb/s = 1625 MB/s, N flows out + N in: 812.5/N MB/s
#   cabinet up/down links, 10 Gb/s = 1250 MB/s, N flows:       1250/N MB/s
# so rate = min(93.75, 812.5/N) MB/s (the cabinet limiter binds from N = 9),
# and each exchange ends after 30us x 4.0 + (k + 16) / (0.94 x rate)
# (route latency 10 + 5 + 5 + 10 us; graphene's k > 327680 segment: latency
# x4.0, bandwidth x0.94). The cabinets' aggregate throughput 2 N k / t
# grows with N up to the limiter and stays there.
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK
"$HNM_PLATFORM" cluster --preset graphene -o "$tmp/g.xml" 2>/dev/null
k=4194304
prev=0
for n in 1 2 4 8 9 12 16; do
  : >"$tmp/h"
  for i in $(seq 0 $((n - 1))); do printf 'node-%d\nnode-%d\n' "$i" $((39 + i)) >>"$tmp/h"; done
  read -r _ _ t _ < <(hnm graphene "$tmp/g.xml" "$tmp/h" $((2 * n)) "$SIM_BIN/bidir" "$k" 0.01)
  rate=$(calc "93.75e6 < 812.5e6 / $n ? 93.75e6 : 812.5e6 / $n")
  check_close "$n pairs: exchange time" "$t" "$(calc "30e-6 * 4.0 + ($k + 16) / (0.94 * $rate)")" 1e-9
  agg=$(calc "2 * $n * $k / $t")
  if [ "$n" -ge 9 ]; then
    check_close "$n pairs: aggregate at the cabinet limiter x 0.94" "$agg" "$(calc "0.94 * 1625e6")" 0.01
  else
    check "$n pairs: aggregate still below the limiter and growing" \
      awk -v a="$agg" -v p="$prev" 'BEGIN { exit !(a > p && a < 0.94 * 1625e6) }'
  fi
  prev=$agg
done
finish
