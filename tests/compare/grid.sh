#!/usr/bin/env bash
# The grid hnm-compare enumerates, resuming, and runs that fail or time out.
#  - order: platform, then argument set, then np, then model; index =
#    ((platform * nargs + args) * nnp + np) * nmodels + model, computed here;
#  - a second invocation over the same grid runs nothing (the CSV is unchanged
#    and --dry-run lists 0 runs to do); a grown grid runs only the new runs;
#  - a run that exits 3 is recorded failed/3, one that spins past --timeout is
#    recorded timeout, and the other runs of the sweep still complete (exit 1);
#  - SIGINT kills the runs in flight and keeps what was recorded.
source "$(dirname "$0")/lib.sh"

# 1. Enumeration (dry run: nothing executed, nothing written).
plats=("$TWO" "$FLAT") pl=(two flat32) args=("--bytes 1" "--bytes 2") nps=(2 4) models=(fluid loggps)
out=$("$HNM_COMPARE" run --dry-run --platform "$TWO" --platform "$FLAT" --args "--bytes 1" --args "--bytes 2" \
  --np 2,4 --model fluid --model loggps -o g.csv -- "$PROG")
check "dry run: header counts 16 runs" grep -q '^# 16 runs in the grid, 16 in this task, 0 already ok, 16 to run' <<<"$out"
check "dry run writes nothing" [ ! -e g.csv ]
n=0
for p in 0 1; do for a in 0 1; do for k in 0 1; do for m in 0 1; do
  idx=$((((p * 2 + a) * 2 + k) * 2 + m))
  line=$(grep "^$idx: " <<<"$out")
  want="$idx: $HNM_RUN --model ${models[$m]} -platform ${plats[$p]} -hostfile ${plats[$p]%.xml}.hosts -np ${nps[$k]} --cfg=smpi/simulate-computation:no --cfg=smpi/display-timing:yes --log=smpi_utils.thres:info $PROG ${args[$a]}"
  [ "$line" = "$want" ] && n=$((n + 1)) || echo "index $idx: got '$line'"
done; done; done; done
check "16 runs in the documented order (got $n)" [ $n -eq 16 ]

# 2. Resume.
G=(--model fluid --model loggps --np 2,4 --platform "$FLAT" "${SIMS[@]}" --args "--bytes 10")
"$HNM_COMPARE" run "${G[@]}" -o r.csv -- "$PROG" 2>/dev/null
check "first sweep: 4 rows" [ "$(rows r.csv)" -eq 4 ]
cp r.csv r1.csv
"$HNM_COMPARE" run "${G[@]}" -o r.csv -- "$PROG" 2>/dev/null
st=$?
check_eq "second sweep: exit status" "$st" 0
check "second sweep: CSV unchanged" cmp -s r.csv r1.csv
check "second sweep: nothing left to run" grep -q ' 0 to run$' <("$HNM_COMPARE" run --dry-run "${G[@]}" -o r.csv -- "$PROG")
"$HNM_COMPARE" run "${G[@]}" --np 8 -o r.csv -- "$PROG" 2>/dev/null
check "grown grid: 2 more rows (np 8)" [ "$(rows r.csv)" -eq 6 ]
check "grown grid: the new rows are indices 4 and 5 at np 8" \
  [ "$(tail -n 2 r.csv | cut -d, -f1,6 | sort | tr '\n' ' ')" = "4,8 5,8 " ]
check "grown grid: the first four rows untouched" cmp -s <(head -n 5 r.csv) r1.csv
# One CSV resumed with another grid holds two runs numbered 0: legitimate in
# one file (merge and plot keep both), a conflict only between two files.
"$HNM_COMPARE" run --model fluid --np 2 --platform "$FLAT" "${SIMS[@]}" -o two.csv -- "$PROG" 2>/dev/null
"$HNM_COMPARE" run --model fluid --np 4 --platform "$FLAT" "${SIMS[@]}" -o two.csv -- "$PROG" 2>/dev/null
check "two grids in one CSV: both runs have index 0" [ "$(tail -n +2 two.csv | cut -d, -f1 | tr '\n' ' ')" = "0 0 " ]
check "two grids in one CSV: merge keeps both" \
  bash -c "'$HNM_COMPARE' merge -o m2.csv two.csv 2>/dev/null && [ \$(wc -l <m2.csv) -eq 3 ]"
check "two grids in one CSV: plot draws both points" \
  bash -c "'$HNM_COMPARE' plot two.csv -o two >/dev/null 2>&1 && [ \$(grep -c '^[0-9]' two-time.dat) -eq 2 ]"
# The simulation options are part of a run's key (column options): other
# options, other runs.
check "another --sim-opt: the 4 runs to do again" grep -q ' 4 to run$' \
  <("$HNM_COMPARE" run --dry-run "${G[@]}" --sim-opt=--cfg=smpi/alltoall:pair -o r.csv -- "$PROG")
check "options column: the --sim-opt values, blank-separated" \
  [ "$(field r.csv 0 options)" = "${SIMOPTS[*]}" ]

# 3. Failures and timeouts do not stop the sweep.
"$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --args "--exit 3" --args "--hang 1" \
  --args "--bytes 10" --timeout 3 --workers 2 --progress -o f.csv -- "$PROG" 2>err.txt
st=$?
check_eq "a sweep with failures exits 1: exit status" "$st" 1
check "3 rows" [ "$(rows f.csv)" -eq 3 ]
check "exit 3: status failed" [ "$(field f.csv 0 status)" = failed ]
check "exit 3: exit_code 3" [ "$(field f.csv 0 exit_code)" = 3 ]
check "exit 3: no time" [ -z "$(field f.csv 0 time_s)" ]
check "spinning run: status timeout" [ "$(field f.csv 1 status)" = timeout ]
check "spinning run: wall time >= 3 s" awk -v w="$(field f.csv 1 wall_s)" 'BEGIN { exit !(w >= 3) }'
check "the ok run still done" [ "$(field f.csv 2 status)" = ok ]
FL=$(fluid_factor lat-factor) FB=$(fluid_factor bw-factor)  # the bundled fluid's (tests/sim/lib.sh)
check_close "the ok run's time" "$(field f.csv 2 time_s)" "$(calc "$FL * 20e-6 + 26 / ($FB * 125e6)")" 1e-9
check "no simulation left behind" [ -z "$(pgrep -f "$PROG --hang" || true)" ]
check "each failure named on stderr" [ "$(grep -c 'hnm-compare: run [01] ' err.txt)" -eq 2 ]
check "progress lines (--progress, not a terminal): 0..3 of 3" \
  [ "$(grep -c 'runs done' err.txt)" -eq 4 -a "$(grep -c '3/3 runs done (2 not ok)' err.txt)" -eq 1 ]
check "logs kept" grep -q 'did not return 0' f.csv.logs/0.err
# Resuming re-runs the runs that are not ok, appending (last row wins).
"$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --args "--exit 3" --args "--hang 1" \
  --args "--bytes 10" --timeout 1 -o f.csv -- "$PROG" 2>/dev/null
check "resume re-runs only the 2 failed runs" [ "$(rows f.csv)" -eq 5 ]
check "resume appended indices 0 and 1" [ "$(tail -n 2 f.csv | cut -d, -f1 | sort | tr '\n' ' ')" = "0 1 " ]
check "--no-retry: nothing to run" grep -q ' 0 to run$' <("$HNM_COMPARE" run --dry-run --no-retry --model fluid --np 2 \
  --platform "$TWO" "${SIMS[@]}" --args "--exit 3" --args "--hang 1" --args "--bytes 10" -o f.csv -- "$PROG")

# 4. Interrupted (SIGINT) with runs in flight: exit 130, the runs' process
# groups killed, the rows already written kept, resuming runs the rest.
"$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --args "--bytes 1" --args "--hang 1" \
  --args "--hang 2" --workers 2 -o i.csv -- "$PROG" 2>/dev/null &
pid=$!
for _ in $(seq 600); do [ -s i.csv ] && [ "$(rows i.csv)" -ge 1 ] && break; sleep 0.1; done
kill -INT $pid
wait $pid
st=$?
check_eq "interrupted: exit status" "$st" 130
check "interrupted: the finished run kept" [ "$(rows i.csv)" -eq 1 -a "$(field i.csv 0 status)" = ok ]
check "interrupted: no simulation left behind" [ -z "$(pgrep -f "$PROG --hang" || true)" ]
check "interrupted: 2 runs left to do" grep -q ' 2 to run$' <("$HNM_COMPARE" run --dry-run --model fluid --np 2 \
  --platform "$TWO" "${SIMS[@]}" --args "--bytes 1" --args "--hang 1" --args "--hang 2" -o i.csv -- "$PROG")
finish
