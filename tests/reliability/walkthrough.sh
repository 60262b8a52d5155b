#!/usr/bin/env bash
# The calibration walkthrough does not dead-end: on one machine the
# contention probe's messages can be too small for their transfer to stand
# out of the latency (docs/calibration.md), and `hnm-calibrate fit` then
# warns, keeps the platform's limiters (no <limiter> element: "keep") and
# writes a model that loads. Measurements: a small simulated calibration
# run, whose contention durations are then replaced by ones below the
# fitted latency.
source "$(dirname "$0")/lib.sh"
D=$W/data
"$HNM_CALIBRATE" run --simulate --model graphene -platform "$DATA/platforms/two.xml" \
  -hostfile "$DATA/platforms/two.hosts" -d "$D" -- --sizes 40 --reps 1 --max 4MiB --contention-reps 1 2>/dev/null
check "simulated measurements" [ -s "$D/contention.csv" ]
awk -F, -v OFS=, 'NR > 1 { $5 = "1e-9" } { print }' "$D/contention.csv" >"$D/c.tmp" && mv "$D/c.tmp" "$D/contention.csv"
(cd "$W" && "$HNM_CALIBRATE" fit data/*.csv -o my-cluster.xml --no-plots 2>"$W/err")
st=$?
check "fit proceeds (exit 0, got $st: $(head -c 300 "$W/err"))" [ "$st" -eq 0 ]
check "fit warns, naming the file" grep -q "warning: data/contention.csv: contention durations at .* not above the fitted latency .*no limiter fitted" "$W/err"
check "no <limiter>: the platform's limiters are kept" bash -c '! grep -q "<limiter" "$1"' _ "$W/my-cluster.xml"
check "the model loads" grep -q 'limiter' <<<"$("$HNM_RUN" --model "$W/my-cluster.xml" --explain)"
finish
