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
# The command line and the workload (bench/workload.sh).
source bench/workload.sh
workload_setup "$@"
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
h=$(median "$tmp/0.t")
out="ranks=$RANKS reps=$REPS hybrid_s=$h"
for i in 1 2; do
  m=$(median "$tmp/$i.t")
  out="$out ${MODELS[$i]}_s=$m ratio_to_hybrid=$(awk -v a="$m" -v b="$h" 'BEGIN { printf "%.3f", a / b }')"
done
echo "$out"
