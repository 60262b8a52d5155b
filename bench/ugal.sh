#!/usr/bin/env bash
# UGAL against minimal and Valiant routing on synthetic dragonfly traffic
# (docs/platforms.md, "Routing"): the completion time of each pattern of
# tests/routing/traffic.c under the fluid model, every message posted at
# once, for minimal, valiant-group, valiant-router, ugal-l and ugal-g; then
# UGAL's ratio to the better of minimal and the better Valiant. Not a test:
# it prints what it measures.
#   bench/ugal.sh [BUILD-DIR]            (SHAPES="s64 s1k" by default)
# UGAL_THRESHOLD=T passes --ugal-threshold T to ugal-l and ugal-g (default:
# hnm-platform's).
# s64: 8 groups x 2 chassis x 2 routers x 2 nodes, one global link between
#      two groups, local links 4x its bandwidth (a balanced dragonfly);
# s1k: 32 groups x 2 x 4 x 4 nodes (1024 hosts), the same links.
# Patterns (128 KiB messages): adversarial (s64: every rank of group g to
# every rank of g+1; s1k: to 4 of them), uniform (16 / 4 random
# permutations), mixed (even groups adversarial, odd groups uniform), and on
# s64 the linear alltoall of 64 KiB.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
SHAPES=${SHAPES:-s64 s1k}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
LINKS=(--blue-links 1 --black-links 4 --green-links 4 --bw 10GBps --lat 100ns)
ROUTINGS=(minimal valiant-group valiant-router ugal-l ugal-g)
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for shape in $SHAPES; do
  case $shape in
    s64) S=(--groups 8 --chassis 2 --routers 2 --nodes 2) gr=8 rounds=16
         cases=("adversarial 131072 8" "uniform 131072 16" "mixed 131072 16" "alltoall 65536 1") ;;
    s1k) S=(--groups 32 --chassis 2 --routers 4 --nodes 4) gr=32 rounds=4
         cases=("adversarial 131072 4" "uniform 131072 4" "mixed 131072 4") ;;
    *) echo "unknown shape $shape" >&2; exit 2 ;;
  esac
  for r in "${ROUTINGS[@]}"; do
    extra=()
    [[ $r == ugal-* && -n ${UGAL_THRESHOLD:-} ]] && extra=(--ugal-threshold "$UGAL_THRESHOLD")
    "$BUILD/bin/hnm-platform" dragonfly "${S[@]}" "${LINKS[@]}" --routing "$r" --routing-seed 7 -o "$T/$shape-$r.txt" \
      --hostfile "$T/$shape.hosts" "${extra[@]}" 2>/dev/null
  done
  np=$(wc -l <"$T/$shape.hosts")
  for c in "${cases[@]}"; do
    read -r pat bytes n <<<"$c"
    line="$shape $pat"
    for r in "${ROUTINGS[@]}"; do
      t=$("$BUILD/bin/hnm-run" --model fluid -platform "$T/$shape-$r.txt" -hostfile "$T/$shape.hosts" -np "$np" \
        --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no --log=root.thres:critical \
        "$BUILD/tests/routing/traffic" "$pat" "$bytes" "$gr" "$n" 7 | awk '{ print $3 }')
      line="$line $t"
    done
    echo "$line" >>"$T/all"
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-12s %10s %10s %10s %10s %10s   %s\n' shape pattern minimal val-group val-router ugal-l ugal-g \
  "ugal-l, ugal-g / best of minimal and Valiant"
awk '{ best = $3; if ($4 < best) best = $4; if ($5 < best) best = $5
       printf "%-5s %-12s %10.4f %10.4f %10.4f %10.4f %10.4f   %.2f %.2f\n", $1, $2, $3 * 1e3, $4 * 1e3, $5 * 1e3,
         $6 * 1e3, $7 * 1e3, $6 / best, $7 / best }' "$T/all"
echo "(times in ms)"
