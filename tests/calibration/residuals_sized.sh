#!/usr/bin/env bash
# hnm-calibrate fit writes, beside each segment's pooled residuals, the
# residual quantiles of every measured size with 10 or more round trips
# (<residuals size=".." quantiles=".."/>, docs/model-format.md "Stochastic
# mode"; calibration/hnm_fit_predict.c). Synthetic CSVs (hybrid.awk, noise
# "sized"): 60 sizes 16 x 1.25^s, 10 round trips each (the last 9), the
# round trips of an even s the model's times x fe = 0.8 0.9 0.95 1 1 1.05
# 1.1 1.2 1.5 2, of an odd s x 1.4 x fo = 0.95 0.97 0.99 1 1 1.01 1.02 1.03
# 1.05 1.1, sends and receives exact.
#   - one table per size but the last (9 round trips, one short of 10),
#     at the measured sizes, in increasing order;
#   - each table's 21 quantiles recomputed here from the data and the
#     written model's prediction at that size (type 7 of y / prediction,
#     to 1e-7: the file has 9 digits);
#   - the shape, independent of the fit: a size's round trips share one
#     prediction, so its quantiles divided by its median are the factors'
#     own type-7 quantiles divided by theirs (hand values below), to 1e-7;
#   - the model loads, and --explain counts the tables;
#   - --residual-sizes 3 pools each size with its measured neighbours in
#     the segment (recomputed the same way), 0 writes no table, an even
#     number or one out of range is refused (exit 2, nothing written).
source "$(dirname "$0")/lib.sh"

hybrid_csvs 3 60 sized
# tables MODEL: its per-size tables, "SIZE q0 ... q20" in file order.
tables() { sed -n 's/.*<residuals size="\([0-9]*\)" quantiles="\([^"]*\)".*/\1 \2/p' "$1"; }

"$HNM_CALIBRATE" fit "$WORK/p2p.csv" "$WORK/probe.csv" -o "$WORK/m.xml" --no-plots 2>"$WORK/fit.err"
st=$?
check_eq "fit: exit status ($(tail -n 1 "$WORK/fit.err"))" "$st" 0
# size quantiles... per table, in file order.
tables "$WORK/m.xml" >"$WORK/got.txt"
check_eq "one table per size measured 10 times (59 of 60)" "$(wc -l <"$WORK/got.txt")" 59
want_sizes=$(awk 'BEGIN { for (s = 0; s < 59; s++) printf "%d ", int(16 * 1.25 ^ s) }')
check_eq "the tables' sizes: the measured ones, increasing" "$(cut -d' ' -f1 "$WORK/got.txt" | tr '\n' ' ')" \
  "$want_sizes"
check "the size measured 9 times has no table" \
  bash -c "! grep -q 'size=\"$(awk 'BEGIN { print int(16 * 1.25 ^ 59) }')\"' '$WORK/m.xml'"

# want WINDOW MODEL: recomputed from the data and MODEL's prediction at each
# size (as residuals.sh does for the segments' pooled quantiles): per size
# of a segment, the round trips of itself and WINDOW/2 sizes on each side
# within the segment, when 10 or more: "SIZE q0 ... q20".
want() {
  awk -F, -v model="$2" -v half="$(($1 / 2))" -f "$(dirname "$0")/model_rt.awk" -f /dev/stdin "$WORK/p2p.csv" <<'AWK'
  $1 == "pingpong" { k = $2; if (!(k in c)) { order[++ns] = k; sg[k] = seg(k) }; c[k]++; r[k, c[k]] = $4 / rt(k) }
  END { for (z = 1; z <= ns; z++) { k = order[z]; m = 0
      for (w = z - half; w <= z + half; w++) if (w >= 1 && w <= ns && sg[order[w]] == sg[k])
        for (a = 1; a <= c[order[w]]; a++) x[++m] = r[order[w], a]
      if (m < 10) continue
      for (a = 2; a <= m; a++) { t = x[a]; for (b = a - 1; b >= 1 && x[b] > t; b--) x[b + 1] = x[b]; x[b + 1] = t }
      printf "%d", k
      for (q = 0; q <= 20; q++) { h = (m - 1) * q / 20; j = int(h) + 1
        v = j < m ? x[j] + (h - (j - 1)) * (x[j + 1] - x[j]) : x[m]; printf " %.9g", v }
      printf "\n" } }
AWK
}
# same GOT WANT: the lines agree (sizes exactly, quantiles to 1e-7); prints the mismatches.
same() {
  paste -d'|' "$1" "$2" | awk -F'|' '{ a = split($1, x, " "); b = split($2, y, " ")
  if (a != 22 || b != 22 || x[1] != y[1]) { print "size " x[1] ": " a - 1 " quantiles, want " b - 1 " at " y[1]; next }
  for (i = 2; i <= 22; i++) { d = x[i] - y[i]; if (d < 0) d = -d
    if (d > 1e-7 * y[i]) { print "size " x[1] ", quantile " i - 2 ": " x[i] " != " y[i]; next } } }'
}
want 1 "$WORK/m.xml" >"$WORK/want.txt"
check_eq "recomputed: one line per table" "$(wc -l <"$WORK/want.txt")" 59
bad=$(same "$WORK/got.txt" "$WORK/want.txt")
check "every table = type-7 quantiles of its round trips / the model's (1e-7)${bad:+: $(head -n 3 <<<"$bad")}" \
  [ -z "$bad" ]

# The shape: quantile i / median = the factors' (hand-computed: for 10
# sorted values v_1..v_10 the quantile at p = i/20 is v_j + f (v_j+1 - v_j),
# j = 1 + floor(9 i / 20), f its fraction; e.g. fe at p = 0.25: h = 2.25,
# 0.95 + 0.25 x 0.05 = 0.9625; the median (h = 4.5) 1.025 for fe, 1.005 for
# fo).
shape() { # FACTORS: the 21 quantiles / the median
  awk -v f="$1" 'BEGIN { n = split(f, v, " "); med = (v[5] + v[6]) / 2
    for (q = 0; q <= 20; q++) { h = 9 * q / 20; j = int(h) + 1; x = j < n ? v[j] + (h - (j - 1)) * (v[j + 1] - v[j]) : v[n]
      printf "%s%.12g", q ? " " : "", x / med } }'
}
even=$(shape "0.8 0.9 0.95 1 1 1.05 1.1 1.2 1.5 2")
odd=$(shape "0.95 0.97 0.99 1 1 1.01 1.02 1.03 1.05 1.1")
check_close "fe's hand value at p = 0.25: 0.9625 / 1.025" "$(cut -d' ' -f6 <<<"$even")" "$(calc "0.9625 / 1.025")" 1e-10
check_close "fo's hand value at p = 1: 1.1 / 1.005" "$(cut -d' ' -f21 <<<"$odd")" "$(calc "1.1 / 1.005")" 1e-10
bad=$(awk -v even="$even" -v odd="$odd" '{ split(NR % 2 ? even : odd, w, " ")
  for (i = 0; i <= 20; i++) { g = $(i + 2) / $12; d = g - w[i + 1]; if (d < 0) d = -d
    if (d > 1e-7 * w[i + 1]) { print "size " $1 ", quantile " i ": " g " != " w[i + 1]; next } } }' "$WORK/got.txt")
check "every table's shape (quantiles / median) is its size's factors' (1e-7)${bad:+: $(head -n 3 <<<"$bad")}" \
  [ -z "$bad" ]
# --residual-sizes 3: each table pools its size and one measured size on
# each side within the segment; the last size (9 round trips, 19 with its
# neighbour) now has one. --residual-sizes 0: none, the segments' pooled
# quantiles as before. An even number: exit 2, nothing written.
"$HNM_CALIBRATE" fit "$WORK/p2p.csv" "$WORK/probe.csv" -o "$WORK/w3.xml" --residual-sizes 3 --no-plots 2>"$WORK/w3.err"
check_eq "--residual-sizes 3: exit status ($(tail -n 1 "$WORK/w3.err"))" "$?" 0
tables "$WORK/w3.xml" >"$WORK/got3.txt"
want 3 "$WORK/w3.xml" >"$WORK/want3.txt"
check_eq "--residual-sizes 3: a table per size (60)" "$(wc -l <"$WORK/got3.txt")" 60
bad=$(same "$WORK/got3.txt" "$WORK/want3.txt")
check "--residual-sizes 3: every table pools 3 sizes of its segment (1e-7)${bad:+: $(head -n 3 <<<"$bad")}" [ -z "$bad" ]
check "--residual-sizes 3: not the single sizes' tables" [ "$(sed -n 2p "$WORK/got3.txt")" != "$(sed -n 2p "$WORK/got.txt")" ]
"$HNM_CALIBRATE" fit "$WORK/p2p.csv" "$WORK/probe.csv" -o "$WORK/w0.xml" --residual-sizes 0 --no-plots 2>"$WORK/w0.err"
check_eq "--residual-sizes 0: exit status ($(tail -n 1 "$WORK/w0.err"))" "$?" 0
check_eq "--residual-sizes 0: no per-size table" "$(grep -c '<residuals ' "$WORK/w0.xml")" 0
check "--residual-sizes 0: the segments' residuals as with tables" \
  [ "$(grep -o ' residuals="[^"]*"' "$WORK/w0.xml")" = "$(grep -o ' residuals="[^"]*"' "$WORK/m.xml")" ]
for n in 2 -1 100 x; do
  refuse "--residual-sizes $n" "residual-sizes" "$HNM_CALIBRATE" fit "$WORK/p2p.csv" "$WORK/probe.csv" \
    -o "$WORK/bad.xml" --residual-sizes "$n" --no-plots
  check "--residual-sizes $n: no model written" [ ! -e "$WORK/bad.xml" ]
done

"$HNM_RUN" --model "$WORK/m.xml:stochastic=on" --explain >"$WORK/explain.txt" 2>&1
check_eq "the model loads (--explain: $(head -c 200 "$WORK/explain.txt"))" "$?" 0
check_eq "--explain: the segments' tables add up to 59" \
  "$(grep -o '[0-9]* per-size residual table' "$WORK/explain.txt" | awk '{ s += $1 } END { print s + 0 }')" 59
finish
