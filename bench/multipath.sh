#!/usr/bin/env bash
# bench/multipath.sh [BUILD_DIR] [PATTERN...] -- cost and results of hnm-route on
# the named BG/Q partitions (512 to 8192 nodes) for the paper's patterns
# (defaults of docs/multipath.md, 8 MiB per pair, k = 16, slack 2). A benchmark,
# not a test. Per run: pairs, candidate paths, throughput of default /
# heuristic / LP in GB/s, LP / default, wall time and peak RSS of the whole run
# (/usr/bin/time -f "%e s %M KB"), and the seconds spent in Yen's k shortest
# paths and in GLPK (hnm-route --progress). Results: docs/multipath.md#scale.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

BUILD=build
PATTERNS=()
for a in "$@"; do
  case $a in
    aggregation|disjoint|overlap|subset1|subset2) PATTERNS+=("$a") ;;
    *) BUILD=$a ;;
  esac
done
[ ${#PATTERNS[@]} -gt 0 ] || PATTERNS=(subset1 subset2 disjoint overlap aggregation)
ROUTE=$BUILD/bin/hnm-route
bench_need "$ROUTE" /usr/bin/time
bench_work

bench_machine "load average $(cut -d' ' -f1 /proc/loadavg)"
echo "| nodes | pattern | pairs | paths | default GB/s | heuristic GB/s | LP GB/s | LP/default | Yen s | LP s | total s | peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for pat in "${PATTERNS[@]}"; do
  for p in 512 1024 2048 4096 8192; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$ROUTE" --shape $p --pattern "$pat" --progress --csv \
      >"$work/csv" 2>"$work/err" || { echo "FAILED: $pat $p" >&2; cat "$work/err" >&2; exit 1; }
    awk -v p=$p -v pat="$pat" -v t="$(cat "$work/time")" '
      FILENAME ~ /err$/ && /default routes:/ { pairs = $4 }
      FILENAME ~ /err$/ && /k shortest paths:/ { paths = $5; yen = $7 }
      FILENAME ~ /err$/ && /LP:/ { lp = $3 }
      FILENAME ~ /csv$/ && $0 ~ /^(default|heuristic|lp),/ { split($0, f, ","); thr[f[1]] = f[3] }
      END {
        split(t, tm, " ")
        printf "| %d | %s | %d | %d | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f | %.0f MB |\n", p, pat, pairs,
          paths, thr["default"] / 1e9, thr["heuristic"] / 1e9, thr["lp"] / 1e9, thr["lp"] / thr["default"],
          yen, lp, tm[1], tm[2] / 1024
      }' "$work/err" "$work/csv"
  done
done
