#!/usr/bin/env bash
# network/optim:Lazy vs Full on the skeletons (docs/models.md, "Max-min
# sharing and SimGrid's lazy update"): for each model, skeleton and process
# count, the same run under both updates, back to back. Prints wall and CPU
# (user + system) seconds of each, the ratio Full / Lazy, and the largest
# relative difference between the two runs' simulated times (every number
# of the time_s and stage_times_s columns). Not a test.
#   bench/lazy.sh [BUILD-DIR] [PROCS...]            (default: 1024)
#   MODELS="graphene fluid loggps" SKELETONS="halo gcr" CAP=600
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
shift || true
PROCS=("$@")
[ $# -eq 0 ] && PROCS=(1024)
CAP=${CAP:-600}
read -r -a MODELS <<<"${MODELS:-graphene fluid loggps}"
read -r -a SKELETONS <<<"${SKELETONS:-halo gcr}"
RUN=$BUILD/bin/hnm-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

SIMOPTS=(--cfg=smpi/privatization:no --cfg=contexts/stack-size:128 --cfg=smpi/simulate-computation:no
         --log=root.thres:critical)
declare -A ARGS=(
  [halo]="--scale 0.0001 --width 3 --no-payload"
  [gcr]="--n 2 --k 2 --report call --no-payload"
)

# run TAG MODEL SKELETON P OPTIM: wall and CPU seconds, or "over"/"failed".
run() {
  # shellcheck disable=SC2086
  /usr/bin/time -f "TIME %e %U %S" -o "$tmp/time-$1" timeout "$CAP" "$RUN" --model "$2" -platform "$tmp/p.xml" \
    -hostfile "$tmp/h" -np "$4" "${SIMOPTS[@]}" "--cfg=network/optim:$5" "$BUILD/apps/$3" ${ARGS[$3]} \
    >"$tmp/out-$1" 2>"$tmp/err-$1"
  local status=$?
  if [ $status -eq 0 ]; then awk '/^TIME/ { printf "%s %.2f", $2, $3 + $4 }' "$tmp/time-$1"
  elif [ $status -eq 124 ]; then echo "over${CAP} -"
  else echo "failed -"; fi
}

# The largest relative difference between the simulated times of two outputs.
timediff() {
  paste -d'\n' <(grep -v '^program' "$1") <(grep -v '^program' "$2") | awk -F, '
    NR % 2 == 1 { a = $8 ";" $9; next }
    { b = $8 ";" $9; na = split(a, x, ";"); nb = split(b, y, ";")
      if (na != nb) { bad = 1; next }
      for (i = 1; i <= na; i++) { d = x[i] - y[i]; if (d < 0) d = -d; s = x[i] < 0 ? -x[i] : x[i]
        if (s > 0 && d / s > m) m = d / s } }
    END { if (bad || NR == 0) print "different shapes"; else printf "%.2g\n", m }'
}

printf '%-9s %-5s %5s %9s %8s %9s %8s %11s %s\n' model skel procs full_wall full_cpu lazy_wall lazy_cpu cpu_full/lazy max_rel_diff_sim
for p in "${PROCS[@]}"; do
  "$BUILD/bin/hnm-platform" cluster --cabinets $((p / 32)) --nodes 32 -o "$tmp/p.xml" --hostfile "$tmp/h" 2>/dev/null
  for m in "${MODELS[@]}"; do
    for s in "${SKELETONS[@]}"; do
      read -r fw fc < <(run full "$m" "$s" "$p" Full)
      read -r lw lc < <(run lazy "$m" "$s" "$p" Lazy)
      ratio=$(awk -v f="$fc" -v l="$lc" 'BEGIN { if (f + 0 > 0 && l + 0 > 0) printf "%.2f", f / l; else print "-" }')
      diff=$(timediff "$tmp/out-full" "$tmp/out-lazy")
      printf '%-9s %-5s %5d %9s %8s %9s %8s %11s %s\n' "$m" "$s" "$p" "$fw" "$fc" "$lw" "$lc" "$ratio" "$diff"
    done
  done
done
