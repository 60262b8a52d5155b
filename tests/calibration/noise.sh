#!/usr/bin/env bash
# The fit against the data's noise floor (docs/calibration.md, "Noise floor,
# held-out error and bands"), on synthetic platform-calibration data from a
# known hybrid model (synth_pcal.sh: 5% size-to-size scatter, 5% per
# repetition, 10 repetitions of ~190 sizes):
# - the report prints, per size decade, the noise floor, the in-sample and
#   the held-out round-trip error, for the file's and for automatic
#   breakpoints, and says which it chose and why;
# - the fitted round trip recovers the true model's within the noise floor
#   in every decade (median over the decade's sizes of |fit - truth| /
#   truth <= the floor printed for that decade; measured 0.2-2.0% against
#   floors of 1.7-6.5%), with a clean receive file and with a noisy one
#   (50% per repetition, 20% of receives 2-10 times too slow): the receive
#   overheads it fits do not drag the round trip;
# - the choice is among 6 candidate fits (the file's or automatic
#   breakpoints, each with no running median or one of 5 or 11 sizes);
#   --file-breakpoints and --auto-breakpoints restrict it to 3 (and exclude
#   each other: exit 2).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/synth_pcal.sh"
B=$HNM_CALIBRATE
for c in clean:0.02 noisy:0.5; do
  name=${c%%:*}
  synth_pcal "$WORK/$name" 5 "${c#*:}"
  "$B" fit --platform-calibration "$WORK/$name/calibration/s.xml" -o "$WORK/$name.xml" --no-plots 2>"$WORK/$name.err"
  check "$name: the report has the floor table" grep -q "noise floor  in-sample   held-out" "$WORK/$name-report/report.txt"
  check "$name: the choice and its reason" grep -Eq "^Breakpoints: (the file's|automatic ones) chosen: held-out round-trip error" "$WORK/$name.err"
  # floor per decade: the first table's third column
  awk '/^  1e[0-9]-1e[0-9]/ && !seen[$1]++ { sub(/%/, "", $3); print $1, $3 / 100 }' "$WORK/$name.err" >"$WORK/$name.floor"
  check "$name: a floor for 6 decades" [ "$(wc -l <"$WORK/$name.floor")" = 6 ]
  awk -f "$(dirname "$0")/band.awk" "$WORK/$name.xml" "$WORK/$name.xml" "$WORK/$name/truth" | awk '
    FNR == NR { floor[$1] = $2; next }
    $1 != "coverage" { d = int(log($1) / log(10) + 1e-9); e = ($3 - $2) / $2; n[d]++; E[d, n[d]] = e < 0 ? -e : e }
    END { for (d = 0; d < 6; d++) { m = n[d]
            for (i = 2; i <= m; i++) { t = E[d, i]; for (j = i - 1; j >= 1 && E[d, j] > t; j--) E[d, j + 1] = E[d, j]; E[d, j + 1] = t }
            printf "1e%d-1e%d %.4f %.4f\n", d, d + 1, m % 2 ? E[d, (m + 1) / 2] : (E[d, m / 2] + E[d, m / 2 + 1]) / 2, floor[sprintf("1e%d-1e%d", d, d + 1)] } }' \
    "$WORK/$name.floor" - >"$WORK/$name.cmp"
  while read -r dec err floor; do
    echo "$name: $dec |fit - truth| / truth $err, noise floor $floor"
    check "$name: $dec: fitted round trip within the floor of the truth ($err <= $floor)" \
      awk -v e="$err" -v f="$floor" 'BEGIN { exit !(f > 0 && e <= f) }'
  done <"$WORK/$name.cmp"
done
"$B" fit --platform-calibration "$WORK/clean/calibration/s.xml" -o "$WORK/f.xml" --no-plots --file-breakpoints 2>/dev/null
check "--file-breakpoints: the file's breakpoints 1023 and 8191" \
  [ "$(grep -o 'upto="[0-9a-z]*"' "$WORK/f.xml" | paste -sd' ')" = 'upto="1023" upto="8191" upto="inf"' ]
"$B" fit --platform-calibration "$WORK/clean/calibration/s.xml" -o "$WORK/a.xml" --no-plots --auto-breakpoints \
  2>"$WORK/a.err"
check "--auto-breakpoints: only automatic candidates (3 smoothings)" \
  bash -c "[ \$(grep -c '^  automatic breakpoints, ' '$WORK/a.err') = 3 ] && ! grep -q \"^  the file's breakpoints, \" '$WORK/a.err'"
check "default: 6 candidate fits" grep -q "the smallest of 6 candidate fits" "$WORK/clean.err"
"$B" fit --platform-calibration "$WORK/clean/calibration/s.xml" -o "$WORK/x.xml" --file-breakpoints \
  --auto-breakpoints 2>"$WORK/x.err"
rc=$?
check "--file-breakpoints --auto-breakpoints: exit 2, one line, no model" \
  bash -c "[ $rc = 2 ] && [ \$(wc -l <'$WORK/x.err') = 1 ] && [ ! -e '$WORK/x.xml' ]"
finish
