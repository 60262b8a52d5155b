#!/usr/bin/env bash
# Predicted times in hnm-compare's CSV are the ones the models imply, derived
# here by hand. On tests/data/platforms/two.xml (route n-0 -> n-1: 20 us of
# latency, B = 125e6 B/s, see the file), sendrecv's receiver times one message
# of K bytes sent at simulated time 0, then returns 8 bytes (a double):
#   fluid, csv:time_s : T = fL 20e-6 + (K + 16) / (fB B) (SMPI counts a 16-byte
#                       envelope, as in tests/sim/limiter.sh)
#   fluid, simclock   : the simulation ends when the reply arrives,
#                       T + fL 20e-6 + (8 + 16) / (fB B), printed by SimGrid with %g
#   (fL, fB: the bundled fluid's latency and bandwidth factors, read from
#   model/models/fluid.xml)
#   loggps (explicit parameters, both sides post at 0, k <= S, k < s):
#                       MPI_Recv = T1 + T2 + T3 = (o + k Os) + (L + k g) + (o + k Or)
#                       (Degomme et al. 2013, Figure 1; tests/sim/loggps_closed_form.sh)
# The loggps spec holds commas: it also checks the CSV quoting round trip.
source "$(dirname "$0")/lib.sh"

B=125e6
FL=$(fluid_factor lat-factor) FB=$(fluid_factor bw-factor)
LOGGPS="loggps:L=30us,o=2us,g=4ns,G=8ns,s=1024,S=64KiB,Os=0.3ns,Or=0.5ns"
"$HNM_COMPARE" run --model fluid --model "$LOGGPS" --np 2 --platform "$TWO" "${SIMS[@]}" \
  --args "--bytes 1000" --args "--bytes 100" --workers 2 -o t.csv -- "$PROG" 2>err.txt
st=$?
check_eq "exit status 0 when every run is ok: exit status" "$st" 0
check "4 rows" [ "$(rows t.csv)" -eq 4 ]
# Grid order: args, then np, then model: 0 fluid/1000, 1 loggps/1000, 2 fluid/100, 3 loggps/100.
check_close "fluid K=1000" "$(field t.csv 0 time_s)" "$(calc "$FL * 20e-6 + 1016 / ($FB * $B)")" 1e-9
check_close "fluid K=100" "$(field t.csv 2 time_s)" "$(calc "$FL * 20e-6 + 116 / ($FB * $B)")" 1e-9
check_close "loggps K=1000" "$(field t.csv 1 time_s)" "$(calc "(2e-6 + 1000 * 0.3e-9) + (30e-6 + 1000 * 4e-9) + (2e-6 + 1000 * 0.5e-9)")" 1e-9
check_close "loggps K=100" "$(field t.csv 3 time_s)" "$(calc "(2e-6 + 100 * 0.3e-9) + (30e-6 + 100 * 4e-9) + (2e-6 + 100 * 0.5e-9)")" 1e-9
check "model spec with commas quoted in the CSV, default metric auto" \
  grep -q "^1,[^,]*,--bytes 1000,\"$LOGGPS\",two,2,auto," t.csv
# The quoted field reads back: resuming finds all 4 runs done, and merge
# writes the same rows back byte for byte, in index order.
check "quoted spec: resume runs nothing" grep -q ' 0 to run$' <("$HNM_COMPARE" run --dry-run --model fluid \
  --model "$LOGGPS" --np 2 --platform "$TWO" "${SIMS[@]}" --args "--bytes 1000" --args "--bytes 100" -o t.csv -- "$PROG")
"$HNM_COMPARE" merge -o tm.csv t.csv 2>/dev/null
check "quoted spec: merge round trip" cmp -s tm.csv <(head -n 1 t.csv; tail -n +2 t.csv | sort -t, -k1,1n)
for i in 0 1 2 3; do
  check "row $i ok" [ "$(field t.csv $i status)" = ok ]
  check "row $i peak memory > 0" [ "$(field t.csv $i maxrss_kib)" -gt 0 ]
done

# The simulated clock at the end (6 significant digits, as SimGrid prints it).
"$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --metric simclock \
  --args "--bytes 1000" --args "--bytes 100000" -o c.csv -- "$PROG" 2>err.txt
for k in 1000 100000; do
  i=$([ $k = 1000 ] && echo 0 || echo 1)
  want=$(awk -v k=$k -v b="$(calc "$FB * $B")" -v l="$(calc "$FL * 20e-6")" 'BEGIN { printf "%g", l + (k + 16) / b + l + 24 / b }')
  got=$(awk -v v="$(field c.csv $i time_s)" 'BEGIN { printf "%g", v }')
  check "simclock K=$k: $got = $want" [ "$got" = "$want" ]
done

# The default metric (auto) on a program that prints no CSV (--quiet 1): the
# simulated clock, as with --metric simclock; with the CSV, its time_s
# (rows 0-3 above).
"$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" \
  --args "--bytes 1000 --quiet 1" --args "--bytes 100000 --quiet 1" -o q.csv -- "$PROG" 2>err.txt
st=$?
check_eq "auto, no CSV: exit status ($(tail -n 2 err.txt))" "$st" 0
for k in 1000 100000; do
  i=$([ $k = 1000 ] && echo 0 || echo 1)
  want=$(awk -v k=$k -v b="$(calc "$FB * $B")" -v l="$(calc "$FL * 20e-6")" 'BEGIN { printf "%g", l + (k + 16) / b + l + 24 / b }')
  got=$(awk -v v="$(field q.csv $i time_s)" 'BEGIN { printf "%g", v }')
  check "auto, no CSV, K=$k: the simulated clock, $got = $want" [ "$got" = "$want" ]
  check "auto, no CSV, K=$k: status ok, metric auto" [ "$(field q.csv $i status),$(field q.csv $i metric)" = ok,auto ]
done

# A filtered csv metric: the sum of time_s over the rows with bytes=1000
# (one row), and a metric the output lacks (status nometric, exit 1).
"$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --metric csv:time_s:bytes=1000 \
  --args "--bytes 1000" -o f.csv -- "$PROG" 2>/dev/null
check_close "filtered metric" "$(field f.csv 0 time_s)" "$(calc "$FL * 20e-6 + 1016 / ($FB * $B)")" 1e-9
"$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --metric csv:time_s:bytes=7 \
  --args "--bytes 1000" -o n.csv -- "$PROG" 2>/dev/null
st=$?
check_eq "no matching row: exit status" "$st" 1
check "no matching row: status nometric" [ "$(field n.csv 0 status)" = nometric ]
finish
