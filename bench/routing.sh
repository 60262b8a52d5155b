#!/usr/bin/env bash
# Wall-time cost of hnm's routed dragonfly (docs/platforms.md, "Routing"):
# a 1024-rank ring-4 transposition under SimGrid's own DRAGONFLY zone
# (minimal) and under hnm's platform library with minimal, valiant-group,
# valiant-router, ugal-l and ugal-g routing, same shape (4 groups x 4
# chassis x 4 routers x 16 nodes). Runs alternate between the platforms,
# REPS rounds; prints each platform's median wall time and CPU time (user +
# system, less sensitive to other jobs on a shared machine) and their ratios
# to the first platform of NAMES (default: SimGrid's zone). Not a test; on a
# shared machine compare medians of alternating runs only.
#   bench/routing.sh [BUILD-DIR]     NAMES="minimal ugal-l" REPS=1 bench/routing.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
REPS=${REPS:-3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$BUILD/bin/hnm-platform
S=(--groups 4 --chassis 4 --routers 4 --nodes 16 --blue-links 16 --black-links 1 --green-links 1)
"$P" dragonfly "${S[@]}" -o "$T/simgrid.xml" --hostfile "$T/h" 2>/dev/null
names=(${NAMES:-simgrid minimal valiant-group valiant-router ugal-l ugal-g})
for r in "${names[@]}"; do
  [ "$r" = simgrid ] || "$P" dragonfly "${S[@]}" --routing "$r" -o "$T/$r.txt" 2>/dev/null
done
SIM=(--cfg=smpi/privatization:no --cfg=contexts/stack-size:128 --cfg=smpi/simulate-computation:no
     --cfg=smpi/shared-malloc-blocksize:1073741824 --log=root.thres:critical)
APP=("$BUILD/apps/transpose" --no-payload --nx 1024 --ny 512 --nz 32 --algo ring --k 4)
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for rep in $(seq "$REPS"); do
  for n in "${names[@]}"; do
    f="$T/$n.txt"
    [ "$n" = simgrid ] && f="$T/simgrid.xml"
    /usr/bin/time -f "%e %U %S" -o "$T/time" "$BUILD/bin/hnm-run" --model fluid -platform "$f" -hostfile "$T/h" -np 1024 \
      "${SIM[@]}" "${APP[@]}" >"$T/$n.out"
    echo "$n $(cat "$T/time")" | tee -a "$T/all" >&2
  done
done
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wall() { awk -v n="$1" '$1 == n { print $2 }' "$T/all"; }
cpu() { awk -v n="$1" '$1 == n { print $3 + $4 }' "$T/all"; }
bw=$(wall "${names[0]}" | median)
bc=$(cpu "${names[0]}" | median)
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${names[@]}"; do
  w=$(wall "$n" | median)
  c=$(cpu "$n" | median)
  printf '%-14s wall median %7.2f s (ratio %.2f)  cpu median %7.2f s (ratio %.2f)  wall runs: %s\n' "$n" "$w" \
    "$(awk -v a="$w" -v b="$bw" 'BEGIN { print a / b }')" "$c" "$(awk -v a="$c" -v b="$bc" 'BEGIN { print a / b }')" \
    "$(wall "$n" | tr '\n' ' ')"
done
