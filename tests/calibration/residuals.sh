#!/usr/bin/env bash
# hnm-calibrate fit writes each segment's round-trip residuals
# (calibration/hnm_calibrate_residuals.c, docs/calibration.md "Residuals"):
# synthetic CSVs from a known hybrid model (hybrid.awk, synthetic.sh's,
# timed as SMPI would), exact sends and receives, and round trips whose 5
# repetitions at every size are the model's times x 0.9, 0.95, 1, 1.05, 1.3.
# The 21 quantiles written per segment (p = 0, 0.05, ..., 1) are recomputed
# here from the data and the model's own predictions (type 7, to 1e-7);
# since each size's median round trip is the model's, they are also the 5
# factors to within the fit's accuracy (1%). Also: the mode stays off, and
# --explain reports the residuals. A round trip 1e7 times the model's (a
# stall) in one segment: that segment gets no residuals, with a warning,
# and the model file loads (the file's factors stop at 1e6).
source "$(dirname "$0")/lib.sh"

hybrid_csvs 7 400 factors

"$HNM_CALIBRATE" fit "$WORK/p2p.csv" "$WORK/probe.csv" -o "$WORK/m.xml" --no-plots 2>"$WORK/fit.err"
st=$?
check_eq "fit: exit status ($(tail -n 1 "$WORK/fit.err"))" "$st" 0
nseg=$(grep -c '<segment ' "$WORK/m.xml")
nres=$(grep -c '<segment .*residuals="' "$WORK/m.xml")
check "every segment has residuals ($nres of $nseg)" [ "$nres" -eq "$nseg" -a "$nseg" -ge 2 ]
check "stochastic mode stays off" [ "$(grep -c 'stochastic=' "$WORK/m.xml")" -eq 0 ]
# Recomputed here from the model written: its prediction of each round trip
# (k <= detached: 2 (o_s + L + k/B + o_r), else 2 (L + k/B), the segment's
# values), R = y / prediction per segment, type-7 quantiles at p = q/20.
awk -F, -v model="$WORK/m.xml" -f "$(dirname "$0")/model_rt.awk" -f /dev/stdin "$WORK/p2p.csv" >"$WORK/want.txt" <<'AWK'
  $1 == "pingpong" { i = seg($2); c[i]++; r[i, c[i]] = $4 / rt($2) }
  END { for (i = 1; i <= n; i++) { m = c[i]
      for (a = 2; a <= m; a++) { t = r[i, a]; for (b = a - 1; b >= 1 && r[i, b] > t; b--) r[i, b + 1] = r[i, b]; r[i, b + 1] = t }
      for (q = 0; q <= 20; q++) { h = (m - 1) * q / 20; j = int(h) + 1
        v = j < m ? r[i, j] + (h - (j - 1)) * (r[i, j + 1] - r[i, j]) : r[i, m]; printf "%s%.9g", q ? " " : "", v }
      printf "\n" } }
AWK
grep -o 'residuals="[^"]*"' "$WORK/m.xml" | sed 's/residuals="//; s/"$//' >"$WORK/got.txt"
check "one line of quantiles per segment" [ "$(wc -l <"$WORK/want.txt")" -eq "$nseg" ]
i=0
while read -r got && read -r want <&3; do
  i=$((i + 1))
  ok=$(awk -v g="$got" -v w="$want" 'BEGIN { a = split(g, x, " "); b = split(w, y, " "); if (a != 21 || b != 21) { print 0; exit }
    for (k = 1; k <= 21; k++) { d = x[k] - y[k]; if (d < 0) d = -d; if (d > 1e-7 * y[k]) { print 0; exit } } print 1 }')
  check "segment $i: residuals $got = $want (1e-7)" [ "$ok" = 1 ]
  # Every size's median round trip is the model's: the fit finds it to
  # within 1%, so the residuals are the 5 factors to 1%: the first, the
  # median and the last quantile.
  read -r q0 _ _ _ _ _ _ _ _ _ q10 _ _ _ _ _ _ _ _ _ q20 <<<"$got"
  check_close "segment $i: lowest residual ~ 0.9" "$q0" 0.9 0.01
  check_close "segment $i: median residual ~ 1" "$q10" 1 0.01
  check_close "segment $i: highest residual ~ 1.3" "$q20" 1.3 0.01
done <"$WORK/got.txt" 3<"$WORK/want.txt"
"$HNM_RUN" --model "$WORK/m.xml:stochastic=on" --explain >"$WORK/explain.txt" 2>&1
check "--explain: stochastic on" grep -q '^  stochastic: on, seed 1' "$WORK/explain.txt"
# (the extreme quantiles are 0.9 and 1.3 within the fit's 1%, as above)
check "--explain: a segment's residuals" grep -Eq 'residuals: 21 quantiles from 0\.89[0-9]* to 1\.(29|28)[0-9]* \(median 0\.99[0-9]*, mean' "$WORK/explain.txt"

# A stall: the first pingpong of the smallest size lasts 1e7 times as long
# (under the 3600 s every duration must stay below).
awk -F, -v OFS=, 'NR == 1 || $1 != "pingpong" { print; next } { n++; rows[n] = $0; k[n] = $2 + 0; if (n == 1 || $2 + 0 < big) big = $2 + 0 }
  END { for (i = 1; i <= n; i++) { if (!done && k[i] == big) { split(rows[i], f, ","); f[4] = f[4] * 1e7; rows[i] = f[1]
          for (j = 2; j in f; j++) rows[i] = rows[i] "," f[j]; done = 1 } print rows[i] } }' "$WORK/p2p.csv" >"$WORK/stall.csv"
check "the stall is in the data" [ "$(cmp -l "$WORK/p2p.csv" "$WORK/stall.csv" 2>/dev/null | wc -l)" -gt 0 ]
"$HNM_CALIBRATE" fit "$WORK/stall.csv" "$WORK/probe.csv" -o "$WORK/stall.xml" --no-plots 2>"$WORK/stall.err"
st=$?
check_eq "stall: fit exit status ($(tail -n 1 "$WORK/stall.err"))" "$st" 0
check "stall: a warning names the segment and the ratio" grep -Eq "warning: segment 1: a round trip is [0-9.e+]+ times the fitted model's" "$WORK/stall.err"
check_eq "stall: the other segments keep their residuals" "$(grep -c '<segment .*residuals="' "$WORK/stall.xml")" $((nseg - 1))
check "stall: the first segment has none" bash -c "grep '<segment ' '$WORK/stall.xml' | head -n 1 | grep -vq residuals="
"$HNM_RUN" --model "$WORK/stall.xml" --explain >"$WORK/stall-explain.txt" 2>&1
check_eq "stall: the model loads (hnm-run --explain: $(head -c 200 "$WORK/stall-explain.txt"))" "$?" 0
finish
