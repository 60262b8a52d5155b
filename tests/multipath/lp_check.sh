#!/usr/bin/env bash
# hnm-route's results checked without its code nor GLPK.
#  1. Every generated pattern (aggregation, disjoint, overlap, subset1,
#     subset2 with their defaults, 8 MiB per pair) on 512 and 2048 nodes is
#     re-generated here with awk from docs/multipath.md's formulas; hnm-route
#     --pattern NAME and --pattern-file (the awk file) must print the same
#     CSV, and route_check re-reads the path file: walks, demands, CSV,
#     capacity, LP's Z vs its time, LP >= heuristic >= default. Six patterns
#     with non-default parameters are compared with awk's the same way.
#  2. The paper's headline (Bui et al. 2015, VI-D-1): subset 1:8 (the first p/16
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
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK
B=8388608
C=1800000000

# gen PATTERN P [M N O G]: the pattern's pairs, by docs/multipath.md's formulas
# (M sources, N destinations, O overlap, G group; empty: the defaults).
gen() {
  awk -v pat="$1" -v p="$2" -v M="${3:-}" -v N="${4:-}" -v O="${5:-}" -v G="${6:-}" -v B=$B '
    function dest(k) { return spread ? k * s + int(s / 2) : first + k }
    function pairs(m, n,   r, i, j, k) {     # the m-to-n block mapping
      if (n >= m) {
        r = int(n / m)
        for (i = 0; i < m; i++) for (j = 0; j < r; j++) if (i != dest(i * r + j)) print i, dest(i * r + j), B
      } else {
        r = int(m / n)
        for (k = 0; k < n; k++) for (j = 0; j < r; j++) if (k * r + j != dest(k)) print k * r + j, dest(k), B
      }
    }
    BEGIN {
      small = pat ~ /^subset/
      m = M != "" ? M : (small ? p / 16 : p / 4)
      n = N != "" ? N : (small ? p / 2 : p / 4)
      if (pat == "subset1" || pat == "disjoint") { first = p - n; pairs(m, n) }
      if (pat == "overlap") { o = O != "" ? O : int(m / 2); first = m - o; pairs(m, n) }
      if (pat == "subset2") { spread = 1; s = int(p / n); pairs(m, n) }
      if (pat == "aggregation") {            # groups of g, aggregator in the middle of its (last: partial) group
        g = G != "" ? G : 16
        for (i = 0; i < p; i++) {
          start = int(i / g) * g; size = start + g <= p ? g : p - start; a = start + int(size / 2)
          if (a != i) print i, a, B
        }
      }
    }'
}

# Non-default parameters: m > n (several sources per destination), an
# explicit overlap, a group that does not divide the partition (the last
# group is partial), a self pair of subset2 with destinations everywhere
# (0 -> 0, left out).
while read -r pat opts m n o g; do
  gen "$pat" 512 "${m/-/}" "${n/-/}" "${o/-/}" "${g/-/}" >"$tmp/x.txt"
  # shellcheck disable=SC2086
  "$HNM_ROUTE" --shape 512 --pattern "$pat" ${opts//[=,]/ } --k 2 --csv >"$tmp/x.csv"
  "$HNM_ROUTE" --shape 512 --pattern-file "$tmp/x.txt" --k 2 --csv >"$tmp/x.file.csv"
  check "512 $pat $opts: --pattern = awk's pattern file ($(wc -l <"$tmp/x.txt") pairs)" cmp -s "$tmp/x.csv" "$tmp/x.file.csv"
done <<'LIST'
subset1 --sources=64,--dests=8 64 8 - -
subset2 --sources=40,--dests=100 40 100 - -
disjoint --sources=100,--dests=30 100 30 - -
overlap --sources=96,--dests=200,--overlap=10 96 200 10 -
aggregation --group=24 - - - 24
subset2 --sources=256,--dests=512 256 512 - -
LIST

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
