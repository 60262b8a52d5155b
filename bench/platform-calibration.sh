#!/usr/bin/env bash
# Real clusters through SimGrid's platform-calibration data: for
# each cluster directory of a checkout of the SimGrid team's
# platform-calibration repository (its data/ subdirectories, e.g.
# data/plafrim_15_06_16 and data/stampede_17_06_01-17:26), fit
#   hybrid  hnm-calibrate fit --platform-calibration (the default: the
#           file's breakpoints or automatic ones, by held-out error)
#   file    the same with --file-breakpoints
#   auto    the same with --auto-breakpoints
#   loggps  the single-segment LogGPS fit of the hybrid fit's report
#   fluid   its fluid fit (latency + bandwidth only)
# simulate each under hnm-run on tests/data/platforms/two.xml, one ping-pong
# at every measured size, and print per size decade the median over the
# decade's sizes of |simulated - measured median| / measured median (the
# measured round trip is the MPI_Send row plus the MPI_Recv row of
# PREFIX_PingPong.csv), and the same over all sizes; beside them the data's
# noise floor (as fit reports it) and the bound max(10%, floor + 3 points)
# per decade, max(5%, floor + 2 points) over all sizes.
#   bench/platform-calibration.sh [BUILD-DIR] CLUSTER-DIR...
# CLUSTER-DIR holds calibration/testplatform.xml (as in that repository).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$1
shift
CAL=$BUILD/bin/hnm-calibrate
TWO=(-platform tests/data/platforms/two.xml -hostfile tests/data/platforms/two.hosts)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/hnm-pc.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
errors() { # MEASURED_PingPong.csv SIM_p2p.csv -> "DECADE ERR" lines and "all ERR"
  awk -F, -f tests/calibration/pingpong_errors.awk "$1" "$2" | awk '{ print $1 == "overall" ? "all" : substr($1, 3), $3 }'
}
for c in "$@"; do
  cfg=$c/calibration/testplatform.xml
  name=$(basename "$c")
  d=$OUT/$name
  mkdir -p "$d"
  start=$(date +%s.%N)
  "$CAL" fit --platform-calibration "$cfg" -o "$d/hybrid.xml" --report "$d/report" --no-plots 2>"$d/fit.err"
  mid=$(date +%s.%N)
  "$CAL" fit --platform-calibration "$cfg" --auto-breakpoints -o "$d/auto.xml" --report "$d/auto-report" \
    --no-plots 2>/dev/null
  "$CAL" fit --platform-calibration "$cfg" --file-breakpoints -o "$d/file.xml" --report "$d/file-report" \
    --no-plots 2>/dev/null
  awk '/^  1e[0-9]-1e[0-9]/ && NF == 5 && !seen[$1]++ { sub(/%/, "", $3); print substr($1, 3, 1), $3 / 100 }
       $1 == "all" && $2 == "sizes" && !all++ { sub(/%/, "", $4); print "all", $4 / 100 }' "$d/fit.err" >"$d/floor"
  pp=$(ls "$c"/calibration/*_PingPong.csv | head -1)
  sizes=$(cut -d, -f2 "$pp" | sort -un | paste -sd,)
  for m in hybrid:"$d/hybrid.xml" file:"$d/file.xml" auto:"$d/auto.xml" loggps:"$d/report/loggps.xml" fluid:"$d/report/fluid.xml"; do
    "$CAL" run --simulate --model "${m#*:}" "${TWO[@]}" -d "$d/${m%%:*}" -- --size-list "$sizes" --reps 1 \
      --ops pingpong --no-probe --no-contention 2>/dev/null
    errors "$pp" "$d/${m%%:*}/p2p.csv" >"$d/${m%%:*}.err"
  done
  echo "== $name: $(grep -c . <<<"${sizes//,/$'\n'}") sizes, $(($(wc -l <"$pp") / 2)) round trips;" \
    "fit in $(awk -v a="$start" -v b="$mid" 'BEGIN { printf "%.1f", b - a }') s;" \
    "segments: hybrid $(grep -c '<segment ' "$d/hybrid.xml") ($(grep -o 'automatic ones chosen\|the file.s chosen' \
    "$d/fit.err" | sed 's/ones //')), file's $(grep -c '<segment ' "$d/file.xml"), auto $(grep -c '<segment ' \
    "$d/auto.xml"); $(grep -o '<limiter factor="[^"]*"' "$d/hybrid.xml" || echo 'no limiter'); load" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| decade | noise floor | bound | hybrid (default) | file's breakpoints | automatic | LogGPS | fluid |"
  echo "|---|---|---|---|---|---|---|---|"
  paste -d' ' "$d/floor" "$d/hybrid.err" "$d/file.err" "$d/auto.err" "$d/loggps.err" "$d/fluid.err" | awk '
    { lab = $1 == "all" ? "all sizes" : sprintf("1e%d-1e%d", $1, $1 + 1)
      b = $1 == "all" ? $2 + 0.02 : $2 + 0.03; m = $1 == "all" ? 0.05 : 0.10; if (b < m) b = m
      printf "| %s | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n", lab, 100 * $2, 100 * b,
        100 * $4, 100 * $6, 100 * $8, 100 * $10, 100 * $12 }'
done
