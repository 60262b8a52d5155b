#!/usr/bin/env bash
# The bootstrap's prediction band on real clusters (SimGrid's
# platform-calibration data, as bench/platform-calibration.sh): for each
# cluster directory, every 4th distinct size (ranks 2, 6, 10, ...) is held
# out of the fit; hnm-calibrate fit --platform-calibration --bootstrap 50
# fits the rest; the band of the set (5% and 95% quantiles of the members'
# round trips, tests/calibration/band.awk) is then compared with the
# measured median round trip of each held-out size. Prints, per cluster,
# the fit's CPU time (user + sys) with --bootstrap 50 on the whole data and
# on the training part, the coverage (held-out sizes whose median lies in
# the band) per size decade and overall, and the band's median half-width
# relative to the central prediction.
#   bench/bootstrap.sh [BUILD-DIR] CLUSTER-DIR...
# CLUSTER-DIR holds calibration/testplatform.xml (as in that repository).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$1
shift
CAL=$BUILD/bin/hnm-calibrate
N=${BOOTSTRAP:-50}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/hnm-boot.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
cputime() { # cputime LOG COMMAND...: run, append "user+sys seconds" to LOG
  local log=$1
  shift
  /usr/bin/time -f "%U %S" -o "$log.t" "$@"
  awk '{ printf "%.1f", $1 + $2 }' "$log.t"
}
for c in "$@"; do
  name=$(basename "$c")
  d=$OUT/$name
  mkdir -p "$d/train/calibration"
  cfg=$c/calibration/testplatform.xml
  [ -f "$cfg" ] || cfg=$(ls "$c"/calibration/*.xml | grep -v output | head -1)
  pp=$(ls "$c"/calibration/*_PingPong.csv | head -1)
  # The held-out sizes: rank 2, 6, 10, ... of the sorted distinct sizes.
  cut -d, -f2 "$pp" | sort -un | awk 'NR % 4 == 3' >"$d/held"
  for f in "$c"/calibration/*; do
    case $f in
      *.csv) awk -F, 'FNR == NR { h[$1] = 1; next } !($2 in h)' "$d/held" "$f" >"$d/train/calibration/${f##*/}" ;;
      *.xml | *breakpoints*) cp "$f" "$d/train/calibration/" ;;
    esac
  done
  [ -d "$c/saturation" ] && cp -r "$c/saturation" "$d/train/"
  full=$(cputime "$d/full" "$CAL" fit --platform-calibration "$cfg" -o "$d/full.xml" --no-plots --bootstrap "$N" \
    2>"$d/full.err")
  train=$(cputime "$d/train" "$CAL" fit --platform-calibration "$d/train/calibration/${cfg##*/}" -o "$d/m.xml" \
    --no-plots --bootstrap "$N" 2>"$d/train.err")
  # Measured median round trip (MPI_Send row + MPI_Recv row) of each held-out size.
  awk -F, -f tests/calibration/heldout_medians.awk "$d/held" "$pp" | sort -n >"$d/med"
  awk -f tests/calibration/band.awk "$d/m.set/central.xml" "$d"/m.set/member-*.xml "$d/med" >"$d/band"
  echo "== $name: $(wc -l <"$d/held") of $(cut -d, -f2 "$pp" | sort -un | wc -l) sizes held out;" \
    "--bootstrap $N fit: $full s CPU on all the data, $train s on the rest;" \
    "$(grep -o 'automatic ones chosen\|the file.s chosen' "$d/train.err" | sed 's/ chosen//') breakpoints; load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| decade | held-out sizes | inside the 90% band | band half-width (median) |"
  echo "|---|---|---|---|"
  awk '$1 != "coverage" { d = int(log($1) / log(10) + 1e-9); n[d]++; in_[d] += $6; w[d, n[d]] = ($5 - $4) / 2 / $3 }
       $1 == "coverage" { all = sprintf("| all sizes | %d | %.1f%% | %.1f%% |", $3, 100 * $4, 100 * $5) }
       END { for (d = 0; d < 10; d++) if (n[d]) {
               m = n[d]; for (i = 2; i <= m; i++) { t = w[d, i]; for (j = i - 1; j >= 1 && w[d, j] > t; j--) w[d, j + 1] = w[d, j]; w[d, j + 1] = t }
               h = m % 2 ? w[d, (m + 1) / 2] : (w[d, m / 2] + w[d, m / 2 + 1]) / 2
               printf "| 1e%d-1e%d | %d | %.1f%% | %.1f%% |\n", d, d + 1, n[d], 100 * in_[d] / n[d], 100 * h }
             print all }' "$d/band"
done
