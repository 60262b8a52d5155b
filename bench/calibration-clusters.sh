#!/usr/bin/env bash
# Leave-one-cluster-out benchmark of `hnm-calibrate fit
# --platform-calibration` with every default: for each cluster of the SimGrid
# team's platform-calibration data (Ezibenroc/platform-calibration, data/),
# fit the cluster alone, simulate one ping-pong at every measured size under
# hnm-run on tests/data/platforms/two.xml and print, per size decade, the
# median over the decade's sizes of |simulated - measured median| / measured
# median (docs/calibration.md, "Noise floor, held-out error and bands"),
# beside the cluster's noise floor (as fit reports it) and the bound
# max(10%, floor + 3 points); over all sizes the bound is max(5%, floor + 2
# points). Nothing is tuned on the cluster being judged: the fit's options
# are the defaults for every cluster. The fit's own report lines about the
# cluster (decades whose sizes alternate between bands, segments whose parts
# do not add up to the round trip) follow each table.
#   bench/calibration-clusters.sh BUILD-DIR CONFIG...
# CONFIG: a platform-calibration configuration XML (calibration/testplatform.xml,
# taurus.xml, ...), or a directory holding calibration/testplatform.xml.
# Output: one markdown table per cluster, then a summary line per cluster
# ("CLUSTER: N decades over their bound"); exit 0 (the benchmark reports,
# it does not judge).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$1
shift
CAL=$BUILD/bin/hnm-calibrate
TWO=(-platform tests/data/platforms/two.xml -hostfile tests/data/platforms/two.hosts)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/hnm-cc.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
summary=()
for c in "$@"; do
  cfg=$c
  [ -d "$c" ] && cfg=$c/calibration/testplatform.xml
  dir=$(dirname "$cfg")
  name=$(basename "$(dirname "$dir")")/$(basename "$dir")
  name=${name%/calibration}
  d=$OUT/$(echo "$name" | tr '/:' '__')
  mkdir -p "$d"
  prefix=$(sed -n 's/.*<prefix value="\([^"]*\)".*/\1/p' "$cfg" | head -1)
  pp=$dir/${prefix}_PingPong.csv
  start=$(date +%s.%N)
  "$CAL" fit --platform-calibration "$cfg" -o "$d/fit.xml" --report "$d/report" --no-plots 2>"$d/fit.err"
  end=$(date +%s.%N)
  awk '/^  1e[0-9]-1e[0-9]/ && NF == 5 && !seen[$1]++ { sub(/%/, "", $3); sub(/%/, "", $4); print substr($1, 3, 1), $3 / 100, $4 / 100 }
       $1 == "all" && $2 == "sizes" && !all++ { sub(/%/, "", $4); sub(/%/, "", $5); print "all", $4 / 100, $5 / 100 }' \
    "$d/fit.err" >"$d/floor"
  sizes=$(cut -d, -f2 "$pp" | sort -un | paste -sd,)
  "$CAL" run --simulate --model "$d/fit.xml" "${TWO[@]}" -d "$d/sim" -- --size-list "$sizes" --reps 1 \
    --ops pingpong --no-probe --no-contention 2>/dev/null
  awk -F, -f tests/calibration/pingpong_errors.awk "$pp" "$d/sim/p2p.csv" |
    awk '{ print $1 == "overall" ? "all" : substr($1, 3), $3 }' >"$d/sim.err"
  echo "== $name: $(tr , '\n' <<<"$sizes" | grep -c .) sizes, $(($(wc -l <"$pp") / 2)) round trips;" \
    "fit in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s;" \
    "$(grep -c '<segment ' "$d/fit.xml") segments ($(grep -o 'automatic ones chosen\|the file.s chosen' \
    "$d/fit.err" | sed 's/ones //' | head -1)); load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| decade | noise floor | bound | fit (closed form) | simulated (hnm-run) | within |"
  echo "|---|---|---|---|---|---|"
  join <(sort "$d/floor") <(sort "$d/sim.err") | sort -k1,1 | awk '
    { lab = $1 == "all" ? "all sizes" : sprintf("1e%d-1e%d", $1, $1 + 1)
      b = $1 == "all" ? $2 + 0.02 : $2 + 0.03; m = $1 == "all" ? 0.05 : 0.10; if (b < m) b = m
      ok = $4 <= b + 5e-5 ? "yes" : "**no**"
      printf "| %s | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %s |\n", lab, 100 * $2, 100 * b, 100 * $3, 100 * $4, ok }' |
    sort -t'|' -k2,2 | tee "$d/table"
  grep -E 'note: (decade|segment) .*(two bands|add up)' "$d/fit.err" | sed 's/^hnm-calibrate: //' | sort -u || true
  summary+=("$name: $(grep -c '\*\*no\*\*' "$d/table" || true) decades over their bound")
done
printf '%s\n' "${summary[@]}"
