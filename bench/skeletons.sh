#!/usr/bin/env bash
# Skeletons at scale under hnm-run --model graphene (hybrid) on platforms made
# by hnm-platform (hierarchical clusters of 32-node cabinets, one host per
# rank). For each skeleton and process count: wall time and peak memory
# (GNU time), each run capped at CAP seconds (default 600). Not a test.
#   bench/skeletons.sh [BUILD-DIR] [PROCS...]      (default: 1024 4096)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
shift || true
PROCS=("$@")
[ $# -eq 0 ] && PROCS=(1024 4096)
CAP=${CAP:-600}
RUN=$BUILD/bin/hnm-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Settings that matter at scale (docs/scale.md): no privatization (the
# skeletons have no global state), small actor stacks, shared no-payload
# buffers, tcmalloc (hnm-run --tcmalloc: safe here, privatization is off),
# network/optim:Full (what docs/scale.md measured).
SIMOPTS=(--tcmalloc --cfg=network/optim:Full
         --cfg=smpi/privatization:no --cfg=contexts/stack-size:128 --cfg=smpi/simulate-computation:no
         --cfg=smpi/shared-malloc-blocksize:1073741824 --log=root.thres:critical)
declare -A ARGS=(
  [transpose]="--nx 1024 --ny 512 --nz 64 --no-payload --algo ring --k 4"
  [halo]="--scale 0.0001 --no-payload --width 3"
  [gcr]="--n 5 --k 2 --report call"
)
printf '%-10s %7s %10s %12s %s\n' skeleton procs wall_s peak_rss_MB result
for p in "${PROCS[@]}"; do
  "$BUILD/bin/hnm-platform" cluster --cabinets $((p / 32)) --nodes 32 -o "$tmp/p.xml" --hostfile "$tmp/h" 2>/dev/null
  for s in transpose halo gcr; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "TIME %e %M" -o "$tmp/time" timeout "$CAP" "$RUN" --model graphene -platform "$tmp/p.xml" \
      -hostfile "$tmp/h" -np "$p" "${SIMOPTS[@]}" "$BUILD/apps/$s" ${ARGS[$s]} >"$tmp/out" 2>"$tmp/err"
    status=$?
    read -r _ wall rss < <(grep '^TIME' "$tmp/time")
    wall=${wall:-?} rss=${rss:-0}
    if [ $status -eq 0 ]; then result="ok: $(grep -v '^program' "$tmp/out" | tail -1 | cut -d, -f8 | head -c 12) s simulated (last line)"
    elif [ $status -eq 124 ]; then result="over ${CAP}s"
    else result="failed ($status): $(grep -v '^\[' "$tmp/err" | tail -1 | head -c 100)"; fi
    printf '%-10s %7d %10s %12d %s\n' "$s" "$p" "$wall" $((rss / 1024)) "$result"
  done
done
