#!/usr/bin/env bash
# hnm-route's results checked without its code nor GLPK.
#  1. Every generated pattern (aggregation, disjoint, overlap, subset1,
#     subset2 with their defaults, 8 MiB per pair) on 512 and 2048 nodes is
#     re-generated here with awk from docs/route.md's formulas; hnm-route
#     --pattern NAME and --pattern-file (the awk file) must print the same
#     CSV, and route_check re-reads the path file: walks, demands, CSV,
#     capacity, LP's Z vs its time, LP >= heuristic >= default.
#  2. The paper's headline (seed 004, VI-D-1): subset 1:8 (the first p/16
#     nodes, 8 destinations each among the last p/2, 8 MiB per pair): LP
#     throughput >= 2 x default on 512 and 2048 nodes.
#  3. A hand-computed LP: one pair of E neighbours (0 -> 1) on 4x4x4x4x2.
#     Paths of at most 3 hops: E+ and E- directly (the two links of the ring
#     of 2), and d, E+/-, -d for the 8 other directions d (16 paths): 18 in
#     all. The 10 links leaving node 0 each start a disjoint route, so the
#     optimum is B / (10 c); the default is B / c; the heuristic takes the 2
#     direct paths and one per d (the second through d shares d's first link,
#     then loaded to maxload 1): 10 paths, B / 10 each, also B / (10 c). With
#     the hop limit at the distance (slack 0) only the 2 direct links: B / (2 c).
# Environment: HNM_ROUTE, ROUTE_CHECK.
set -euo pipefail
source "$(dirname "$0")/../sim/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
B=8388608
C=1800000000

# gen PATTERN P: the pattern's pairs, by docs/route.md's formulas.
gen() {
  awk -v pat="$1" -v p="$2" -v B=$B '
    function block(m, n, first,   r, i, j) {   # source i -> r = n/m consecutive destinations
      r = int(n / m)
      for (i = 0; i < m; i++) for (j = 0; j < r; j++) if (i != first + i * r + j) print i, first + i * r + j, B
    }
    BEGIN {
      if (pat == "subset1") block(p / 16, p / 2, p - p / 2)
      if (pat == "disjoint") block(p / 4, p / 4, p - p / 4)
      if (pat == "overlap") block(p / 4, p / 4, p / 4 - p / 8)
      if (pat == "subset2") {                # destination k = k*s + s/2, s = p / n
        m = p / 16; n = p / 2; s = int(p / n); r = int(n / m)
        for (i = 0; i < m; i++) for (j = 0; j < r; j++) print i, (i * r + j) * s + int(s / 2), B
      }
      if (pat == "aggregation")              # groups of 16, aggregator in the middle
        for (i = 0; i < p; i++) { a = int(i / 16) * 16 + 8; if (a != i) print i, a, B }
    }'
}

for shape in 4x4x4x4x2 4x4x4x16x2; do
  p=$(echo "$shape" | awk -Fx '{ print $1 * $2 * $3 * $4 * $5 }')
  for pat in aggregation disjoint overlap subset1 subset2; do
    gen $pat "$p" >"$tmp/$pat.txt"
    "$HNM_ROUTE" --shape "$shape" --pattern $pat --csv --paths "$tmp/$pat.paths" >"$tmp/$pat.csv"
    "$HNM_ROUTE" --shape "$shape" --pattern-file "$tmp/$pat.txt" --csv >"$tmp/$pat.file.csv"
    check "$shape $pat: --pattern = awk's pattern file" cmp -s "$tmp/$pat.csv" "$tmp/$pat.file.csv"
    if "$ROUTE_CHECK" "$shape" $C "$tmp/$pat.txt" "$tmp/$pat.paths" "$tmp/$pat.csv" >"$tmp/check.out" 2>&1; then
      PASSED=$((PASSED + 1))
    else
      FAILED=$((FAILED + 1))
      echo "FAIL $shape $pat: route_check"
      cat "$tmp/check.out"
    fi
    if [ $pat = subset1 ]; then
      ratio=$(awk -F, '$1 == "default" { d = $3 } $1 == "lp" { l = $3 } END { printf "%.6f", l / d }' "$tmp/$pat.csv")
      echo "$shape subset 1:8, 8 MiB per pair: LP / default throughput = $ratio"
      check "$shape subset: LP >= 2 x default ($ratio)" awk -v r="$ratio" 'BEGIN { exit !(r >= 2) }'
    fi
  done
done

# 3. Hand-computed LP.
echo "0 1 8MiB" >"$tmp/e.txt"
"$HNM_ROUTE" --shape 4x4x4x4x2 --pattern-file "$tmp/e.txt" --k 18 --slack 2 --csv --paths "$tmp/e.paths" >"$tmp/e.csv"
get() { awk -F, -v m="$1" '$1 == m { print $2 }' "$2"; }
check_close "E neighbours: default time B/c" "$(get default "$tmp/e.csv")" "$(calc "$B / $C")" 1e-12
check_close "E neighbours: LP time B/(10c)" "$(get lp "$tmp/e.csv")" "$(calc "$B / (10 * $C)")" 1e-9
check_close "E neighbours: heuristic time B/(10c)" "$(get heuristic "$tmp/e.csv")" "$(calc "$B / (10 * $C)")" 1e-12
check "E neighbours: 18 candidate paths" [ "$("$HNM_ROUTE" --shape 4x4x4x4x2 --pattern-file "$tmp/e.txt" --k 100 --slack 2 --ksp --paths "$tmp/e2.paths" >/dev/null; grep -c '^ksp ' "$tmp/e2.paths")" -eq 18 ]
check "E neighbours: heuristic takes 10 paths" [ "$(grep -c '^heuristic ' "$tmp/e.paths")" -eq 10 ]
"$HNM_ROUTE" --shape 4x4x4x4x2 --pattern-file "$tmp/e.txt" --k 18 --slack 0 --csv >"$tmp/e0.csv"
check_close "E neighbours, slack 0: LP time B/(2c)" "$(get lp "$tmp/e0.csv")" "$(calc "$B / (2 * $C)")" 1e-9
finish
