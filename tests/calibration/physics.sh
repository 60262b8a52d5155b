#!/usr/bin/env bash
# hnm-calibrate fit keeps its segments within physics
# (calibration/hnm_fit_physics.h): synthetic, noise-free ping-pongs
# (every message rendez-vous, --protocol none,none; the segments forced at
# 256, 65536 and 131072 B) whose one-way transfer time T(k) is
#   k <= 256:          30 us                 (flat: bandwidth 1e20 B/s before)
#   256 < k <= 65536:  40 us + k / 5e8 B/s   (physical: kept as fitted)
#   65536 < k <= 131072: 150 us + k / 2e10 B/s (20 x the largest messages')
#   k > 131072:        -50 us + k / 1e9 B/s  (latency 0 before)
# Expected, derived here from the rules and the CSV's own rows:
#   L_min = 30 us (the first segment's latency);
#   last segment: latency L_min, slope = median over its rows of
#     (T - L_min) / k = 1e-9 - 80e-6 / k; B_max = 1 / that slope, or the
#     highest k / T of the data if higher (it is: 131073 B in 81 us, 1.6e9);
#   first segment: bandwidth B_max, latency max(median(30 us - k / B_max), L_min) = L_min;
#   second: 40 us and 5e8 B/s as fitted;
#   third: bandwidth B_max, latency median over its rows of 150e-6 + k / 2e10 - k / B_max;
# one note per constrained segment on stderr and in report.txt; no
# bandwidth of 1e20, no zero latency. Then: no positive latency for the
# smallest messages (refused); no per-byte cost for the largest of several
# segments (refitted at the highest rate measured); none in the only
# segment (refused).
source "$(dirname "$0")/lib.sh"

# gen FILE AWK-T: 300 sizes log-uniform in [1, 16 MiB] (seed 5) x 3
# repetitions, send = recv = T, pingpong = 2T (SMPI's rendez-vous).
gen() {
  awk -v seed=5 'BEGIN { srand(seed); print "op,size,start,duration"
    for (s = 0; s < 300; s++) {
      k = int(exp(rand() * log(16777216)) + 0.5)
      for (r = 0; r < 3; r++) {
        t = T(k)
        printf "send,%d,0,%.17g\nrecv,%d,0,%.17g\npingpong,%d,0,%.17g\n", k, t, k, t, k, 2 * t
      }
    } }
  '"$2" >"$1"
}
gen "$WORK/p2p.csv" 'function T(k) { return k <= 256 ? 30e-6 : k <= 65536 ? 40e-6 + k / 5e8 : k <= 131072 ? 150e-6 + k / 2e10 : -50e-6 + k / 1e9 }'
FIT=(--protocol none,none --breakpoints 256,65536,131072 --only-breakpoints --no-plots)
"$HNM_CALIBRATE" fit "$WORK/p2p.csv" "${FIT[@]}" -o "$WORK/m.xml" 2>"$WORK/err.txt"
st=$?
check "fit exits 0 (got $st: $(head -c 300 "$WORK/err.txt"))" [ $st -eq 0 ]

segments "$WORK/m.xml"
# median LO HI EXPR: the median over the pingpong rows with LO < k <= HI of
# EXPR (an awk expression of k), one value per row.
median() {
  awk -F, -v lo="$1" -v hi="$2" 'NR > 1 && $1 == "pingpong" && $2 > lo && $2 <= hi { k = $2; print '"$3"' }' \
    "$WORK/p2p.csv" | sort -g | awk '{ v[NR] = $1 } END { printf "%.17g", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
check "4 segments (got $(wc -l <"$WORK/segs.txt"))" [ "$(wc -l <"$WORK/segs.txt")" -eq 4 ]
slope4=$(median 131072 1e300 "1e-9 - 80e-6 / k")
thr=$(awk -F, 'NR > 1 && $1 == "pingpong" { r = $2 / ($4 / 2); if (r > m) m = r } END { printf "%.17g", m }' "$WORK/p2p.csv")
bmax=$(calc "1 / $slope4 > $thr ? 1 / $slope4 : $thr")
slope=$(calc "1 / $bmax")
echo "last segment: $(calc "1 / $slope4") B/s; highest k/T: $thr B/s; B_max = $bmax B/s"
check_close "last segment: latency fixed at L_min" "$(at 1000000 latency)" 30e-6 1e-6
check_close "last segment: bandwidth refitted" "$(at 1000000 bandwidth)" "$(calc "1 / $slope4")" 1e-6
check_close "first segment: latency" "$(at 100 latency)" 30e-6 1e-6
check_close "first segment: bandwidth capped at B_max (was 1e20)" "$(at 100 bandwidth)" "$bmax" 1e-6
check_close "second segment: latency as fitted" "$(at 10000 latency)" 40e-6 1e-6
check_close "second segment: bandwidth as fitted" "$(at 10000 bandwidth)" 5e8 1e-6
check_close "third segment: bandwidth capped at B_max (was 2e10)" "$(at 100000 bandwidth)" "$bmax" 1e-6
check_close "third segment: latency refitted" "$(at 100000 latency)" "$(median 65536 131072 "150e-6 + k / 2e10 - k * $slope")" 1e-6
check "no bandwidth of 1e20 in the model" bash -c "! grep -q 'e+20' '$WORK/m.xml'"
check "no zero latency in the model" bash -c "! grep -Eq 'latency=\"0(s|\")' '$WORK/m.xml'"
for what in "above 131072 B: fitted latency -5e-05 s is below the smallest messages' 3e-05 s" \
            "1-256 B: fitted bandwidth " \
            "65537-131072 B: fitted bandwidth 2e+10 B/s is above the route's"; do
  check "stderr notes: segment $what ($(grep -c note "$WORK/err.txt") notes)" grep -qF "note: segment $what" "$WORK/err.txt"
  check "report.txt notes: segment $what" grep -qF "note: segment $what" "$WORK/m-report/report.txt"
done
# The fluid fit (one line through every half round trip) within the same bounds.
fl_bw=$(grep -o 'bandwidth="[^"]*"' "$WORK/m-report/fluid.xml" | tr -dc '0-9.e+-')
fl_lat=$(grep -o 'latency="[^"]*"' "$WORK/m-report/fluid.xml" | sed 's/latency="//; s/s"//')
check "fluid bandwidth $fl_bw <= B_max $bmax" awk -v a="$fl_bw" -v b="$bmax" 'BEGIN { exit !(a > 0 && a <= b * (1 + 1e-9)) }'
check "fluid latency $fl_lat >= 30 us" awk -v a="$fl_lat" 'BEGIN { exit !(a >= 30e-6 * (1 - 1e-9)) }'

# The smallest segment's line tilted below zero at 0 B (T(1) = 1 us, T(0)
# would be -1 us), as noisy TCP round trips of 1-10 B do: not refused, its
# latency refitted at the route's bandwidth, the median of T - k / B_max over
# its points (between the extremes of that expression), its bandwidth B_max.
gen "$WORK/tilt.csv" 'function T(k) { return k <= 256 ? -1e-6 + 2e-6 * k : k <= 65536 ? 40e-6 + k / 5e8 : k <= 131072 ? 150e-6 + k / 2e10 : -50e-6 + k / 1e9 }'
"$HNM_CALIBRATE" fit "$WORK/tilt.csv" "${FIT[@]}" -o "$WORK/tilt.xml" 2>"$WORK/tilt.err"
st=$?
check "tilted smallest segment: fit exits 0 (got $st: $(head -c 300 "$WORK/tilt.err"))" [ $st -eq 0 ]
check "tilted smallest segment: noted ($(grep -c note "$WORK/tilt.err") notes)" \
  grep -q "note: segment 1-256 B: fitted latency .* is below a nanosecond: latency refitted to" "$WORK/tilt.err"
tilt_lat=$(grep -o '<segment [^>]*upto="256[^>]*>' "$WORK/tilt.xml" | grep -o 'latency="[^"]*"' | sed 's/latency="//; s/s\{0,1\}"//')
tilt_bw=$(grep -o '<segment [^>]*upto="256[^>]*>' "$WORK/tilt.xml" | grep -o 'bandwidth="[^"]*"' | tr -dc '0-9.e+-')
tthr=$(awk -F, 'NR > 1 && $1 == "pingpong" { r = $2 / ($4 / 2); if (r > m) m = r } END { printf "%.17g", m }' "$WORK/tilt.csv")
tbmax=$(calc "1 / $slope4 > $tthr ? 1 / $slope4 : $tthr")
range=$(awk -F, -v b="$tbmax" 'NR > 1 && $1 == "pingpong" && $2 <= 256 { v = $4 / 2 - $2 / b
          if (lo == "" || v < lo) lo = v; if (v > hi) hi = v } END { printf "%.17g %.17g", lo, hi }' "$WORK/tilt.csv")
check "tilted smallest segment: latency $tilt_lat s within [$range] s, the span of T - k / B_max" \
  awk -v a="$tilt_lat" -v r="$range" 'BEGIN { split(r, x, " "); exit !(a > 0 && a >= x[1] * (1 - 1e-6) && a <= x[2] * (1 + 1e-6)) }'
check_close "tilted smallest segment: bandwidth B_max" "$tilt_bw" "$tbmax" 1e-6

# refused WHAT REGEX AWK-T: the data of AWK-T refused by the fit (refuse,
# tests/lib.sh: no model, no report).
refused() {
  gen "$WORK/bad.csv" "$3"
  refuse "$1" "$2" "$HNM_CALIBRATE" fit "$WORK/bad.csv" "${FIT[@]}" -o "$WORK/bad.xml"
}
refused "zero latency everywhere" "bad.csv:[0-9]+: op 'pingpong': the smallest messages \(up to 256 B\) fit a latency of .*no positive latency" \
  'function T(k) { return k / 1e9 }'
# No per-byte cost in the largest of several segments: refitted at the
# highest rate measured (the largest k / T of the round trips), latency the
# median of T - k / that rate over the segment's rows, with a note.
gen "$WORK/flat.csv" 'function T(k) { return k <= 131072 ? 30e-6 + k / 1e9 : 500e-6 }'
"$HNM_CALIBRATE" fit "$WORK/flat.csv" "${FIT[@]}" -o "$WORK/flat.xml" 2>"$WORK/flat.err"
check_eq "flat largest segment: fit exit status ($(tail -n 1 "$WORK/flat.err"))" "$?" 0
check "flat largest segment: a note" grep -q "note: segment above 131072 B: fitted bandwidth 1e+20 B/s shows no per-byte cost: bandwidth refitted to the highest rate measured" "$WORK/flat.err"
fthr=$(awk -F, 'NR > 1 && $1 == "pingpong" { r = $2 / ($4 / 2); if (r > m) m = r } END { printf "%.17g", m }' "$WORK/flat.csv")
fbw=$(grep '<segment ' "$WORK/flat.xml" | tail -n 1 | grep -o 'bandwidth="[^"]*"' | sed 's/bandwidth="//; s/Bps"//; s/"//')
check_close "flat largest segment: bandwidth = the highest rate measured" "$fbw" "$fthr" 1e-6
# A single segment with no per-byte cost: nothing tells bytes from latency.
gen "$WORK/bad.csv" 'function T(k) { return 500e-6 }'
refuse "no per-byte cost in the only segment" "bad.csv:[0-9]+: op 'pingpong': the largest messages \(above 0 B\) show no per-byte cost" \
  "$HNM_CALIBRATE" fit "$WORK/bad.csv" --protocol none,none --breakpoints 16777216 --only-breakpoints --no-plots -o "$WORK/bad.xml"
finish
