#!/usr/bin/env bash
# Model sets (include/hnm/hnm_model_set.h) in hnm-run and hnm-compare: the band of
# a hand-made set whose members differ by known amounts equals the closed-form
# quantiles, the CSV columns, resuming, the plot's shaded band, and bad sets
# refused whole before anything runs (exit 2, one line naming the file).
#
# The set: flow models (no corrections) on tests/data/platforms/two.xml (route latency
# L = 20 us, B = 125e6 B/s) whose lat-factor is f: member k has f = F[k]
# (1, 2, 4, ..., 64, shuffled), the central model f = 5. sendrecv's receiver
# times one message of K = 1000 bytes: T(f) = f L + (K + 16) / B
# (tests/compare/exact.sh); the simulation ends when the 8-byte reply is in:
# S(f) = 2 f L + (K + 16 + 8 + 16) / B. Both are increasing affine functions
# of f, so their quantiles are T and S of the quantiles of F. The quantile is
# Hyndman and Fan's type 7: h = (N - 1) p, Q = x[floor h] + (h - floor h)
# (x[floor h + 1] - x[floor h]) on sorted x; with N = 7:
#   Q(0.05): h = 0.3, 1 + 0.3 (2 - 1) = 1.3;  Q(0.95): h = 5.7, 32 + 0.7 (64 - 32) = 54.4.
source "$(dirname "$0")/lib.sh"

L=20e-6
F=(8 1 64 2 32 4 16)
# The members' model: fluid factors 1 (the bundled fluid model's may change).
cat >base.xml <<'XML'
<?xml version="1.0"?>
<!DOCTYPE hnm-model SYSTEM "hnm-model.dtd">
<hnm-model name="set-test" version="1">
  <protocol async="none" detached="65535"/>
  <limiter factor="off"/>
  <sharing contention="maxmin" crosstraffic="off"/>
  <segments route="any">
    <segment upto="inf" lat-factor="1" bw-factor="1"/>
  </segments>
</hnm-model>
XML
make_set() { # DIR: the set above
  mkdir -p "$1"
  sed 's/lat-factor="1"/lat-factor="5"/' base.xml >"$1/central.xml"
  for k in "${!F[@]}"; do
    sed "s/lat-factor=\"1\"/lat-factor=\"${F[$k]}\"/" base.xml >"$1/$(printf 'member-%03d.xml' $((k + 1)))"
  done
}
make_set s.set
check "the set has 7 members" [ "$(ls s.set | grep -c '^member-')" -eq 7 ]
T() { calc "$1 * $L + 1016 / $B"; }
S() { calc "2 * $1 * $L + 1040 / $B"; }
B=125e6

# --- hnm-run: each run's simulated time, then the summary -------------------
"$HNM_RUN" --model s.set -platform "$TWO" -hostfile "${TWO%.xml}.hosts" -np 2 "${SIMOPTS[@]}" "$PROG" \
  >out.txt 2>err.txt
st=$?
check "hnm-run: exit 0 ($(tail -n 1 err.txt))" [ $st -eq 0 ]
check "hnm-run: the central run's output once" [ "$(grep -c '^2,1000,' out.txt)" -eq 1 ]
check_close "hnm-run: central program output T(5)" "$(grep '^2,1000,' out.txt | cut -d, -f3)" "$(T 5)" 1e-9
check "hnm-run: one line per run on stderr" [ "$(grep -c '^hnm-run: run [0-9]*/8 ' err.txt)" -eq 8 ]
check "hnm-run: central runs first" grep -q '^hnm-run: run 1/8 (central.xml)' err.txt
sum=$(tail -n 1 out.txt)
check "hnm-run: summary line ($sum)" grep -Eq '^model set s\.set: central [0-9.e+-]+ s, 5-95% \[[0-9.e+-]+, [0-9.e+-]+\] s over 7 members$' <<<"$sum"
# SimGrid prints its clock with %g: 6 significant digits.
got() { sed -E 's/.*central ([^ ]+) s, 5-95% \[([^,]+), ([^]]+)\].*/\1 \2 \3/' <<<"$sum" | cut -d' ' -f"$1"; }
check_close "hnm-run: central S(5)" "$(got 1)" "$(S 5)" 5e-6
check_close "hnm-run: 5% quantile S(1.3)" "$(got 2)" "$(S 1.3)" 5e-6
check_close "hnm-run: 95% quantile S(54.4)" "$(got 3)" "$(S 54.4)" 5e-6
for k in 1 3; do
  line=$(grep "(member-00$k.xml)" err.txt)
  check_close "hnm-run: member $k's time" "$(sed -E 's/.*simulated time ([^ ]+) s$/\1/' <<<"$line")" \
    "$(S "${F[$((k - 1))]}")" 5e-6
done
# The exit status follows the runs': the first that fails stops the rest.
"$HNM_RUN" --model s.set -platform "$TWO" -hostfile "${TWO%.xml}.hosts" -np 2 "${SIMOPTS[@]}" "$PROG" --exit 3 \
  >out.txt 2>err.txt
st=$?
check "hnm-run: a failing run's status (3, got $st)" [ $st -eq 3 ]
check "hnm-run: the failing model named" grep -q '^hnm-run: s.set/central.xml: the run failed with exit status 3' err.txt
check "hnm-run: no member ran after it" [ "$(grep -c 'member-' err.txt)" -eq 0 ]
check "hnm-run: no summary" [ "$(grep -c '^model set' out.txt)" -eq 0 ]
# --dry-run: one command per model, in order.
"$HNM_RUN" --model s.set:limiter=off --dry-run -platform "$TWO" -np 2 "$PROG" >out.txt
check "hnm-run --dry-run: 8 commands" [ "$(wc -l <out.txt)" -eq 8 ]
check "hnm-run --dry-run: overrides on every model" [ "$(grep -c "^HNM_MODEL='s.set/[a-z0-9-]*.xml:limiter=off' smpirun" out.txt)" -eq 8 ]

# --- hnm-compare: rows per run, the band on the central row -----------------
"$HNM_COMPARE" run --model s.set --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --workers 2 -o t.csv \
  -- "$PROG" 2>err.txt
st=$?
check "compare: exit 0 ($(tail -n 1 err.txt))" [ $st -eq 0 ]
check "compare: the wide header" [ "$(head -n 1 t.csv)" = \
  "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code,member,band_lo,band_hi,members" ]
check "compare: 9 rows (central, 7 members, fluid)" [ "$(rows t.csv)" -eq 9 ]
col() { # CSV INDEX COLUMN (counted from the end: member band_lo band_hi members)
  awk -F, -v i="$2" -v c="$3" 'BEGIN { split("time_s wall_s maxrss_kib status exit_code member band_lo band_hi members", n, " ")
      for (k = 1; k <= 9; k++) off[n[k]] = 9 - k }
    NR > 1 && $1 == i { v = $(NF - off[c]) } END { print v }' "$1"
}
check "compare: grid order, central first" [ "$(col t.csv 0 member)" = central ]
check "compare: member 3 is index 3" [ "$(col t.csv 3 member)" = 003 ]
check "compare: a plain model has no member" [ "$(col t.csv 8 member)" = "" ]
check_close "compare: central T(5)" "$(col t.csv 0 time_s)" "$(T 5)" 1e-9
check_close "compare: member 3 T(64)" "$(col t.csv 3 time_s)" "$(T 64)" 1e-9
check_close "compare: band_lo = T(1.3)" "$(col t.csv 0 band_lo)" "$(T 1.3)" 1e-9
check_close "compare: band_hi = T(54.4)" "$(col t.csv 0 band_hi)" "$(T 54.4)" 1e-9
check "compare: members 7" [ "$(col t.csv 0 members)" = 7 ]
check "compare: no band on member rows" [ "$(col t.csv 1 band_lo)" = "" ]
check "compare: no band on plain rows" [ "$(col t.csv 8 band_lo)" = "" ]
check "compare: resume runs nothing" grep -q ' 0 to run$' <("$HNM_COMPARE" run --dry-run --model s.set --model fluid \
  --np 2 --platform "$TWO" "${SIMS[@]}" -o t.csv -- "$PROG")
# The central row lost: only it runs again, and its band comes from the
# members' recorded rows.
grep -v ',central,' t.csv >r.csv
check "resume: 1 to run" grep -q ' 1 to run$' <("$HNM_COMPARE" run --dry-run --model s.set --model fluid \
  --np 2 --platform "$TWO" "${SIMS[@]}" -o r.csv -- "$PROG")
"$HNM_COMPARE" run --model s.set --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" -o r.csv -- "$PROG" 2>err.txt
st=$?
check_eq "resume: exit status" "$st" 0
check_close "resume: band_hi from the recorded members" "$(col r.csv 0 band_hi)" "$(T 54.4)" 1e-9
# A member that fails: the central row is written without a band (and counts
# as not done on resume), the sweep exits 1.
"$HNM_COMPARE" run --model s.set --np 2 --platform "$TWO" "${SIMS[@]}" --args "--exit 3" -o f.csv -- "$PROG" 2>err.txt
st=$?
check "failing runs: exit 1 (got $st)" [ $st -eq 1 ]
check "failing runs: the central row has no band" [ "$(col f.csv 0 band_lo)" = "" -a "$(col f.csv 0 members)" = "" ]
check "failing runs: the member named" grep -q 'model s.set member-002.xml, platform two' err.txt
# Slurm tasks: a set's runs stay in its central run's task.
"$HNM_COMPARE" run --model s.set --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --task 1 --tasks 2 \
  --dry-run -o task1.csv -- "$PROG" >out.txt
# Indices 0-7 are the set's group (central index 0: task 0), fluid is index 8 (task 0).
check "tasks: none in task 1 (got $(head -n 1 out.txt))" grep -q '^# 9 runs in the grid, 0 in this task' out.txt
"$HNM_COMPARE" run --model s.set --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --task 0 --tasks 2 \
  --dry-run -o task0.csv -- "$PROG" >out.txt
check "tasks: all 9 in task 0 (got $(head -n 1 out.txt))" grep -q '^# 9 runs in the grid, 9 in this task' out.txt
# An old CSV (13 columns) stays readable and resumable without sets, and is
# not widened in place for a set.
"$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" -o n.csv -- "$PROG" 2>/dev/null
check "plain grid: the 13-column header" [ "$(head -n 1 n.csv)" = \
  "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code" ]
cp n.csv n0.csv
refuse "narrow CSV + set: says how" "n\.csv' has the columns of a CSV without model sets" \
  "$HNM_COMPARE" run --model s.set --np 2 --platform "$TWO" "${SIMS[@]}" -o n.csv -- "$PROG"
check "narrow CSV + set: unchanged" cmp -s n.csv n0.csv
# A refusal makes no --log-dir (it was made before the refusal).
refuse "narrow CSV + set: no --log-dir made" "n\.csv' has the columns of a CSV without model sets" \
  "$HNM_COMPARE" run --model s.set --np 2 --platform "$TWO" "${SIMS[@]}" --log-dir new-logs/sub -o n.csv -- "$PROG"
"$HNM_COMPARE" merge -o m.csv t.csv n.csv 2>/dev/null
check "merge of wide and narrow: wide" [ "$(head -n 1 m.csv)" = "$(head -n 1 t.csv)" ]
check "merge: the band kept" [ "$(col m.csv 0 band_hi)" = "$(col t.csv 0 band_hi)" ]

# --- plot: the band as a shaded area ----------------------------------------
"$HNM_COMPARE" run --model s.set --model fluid --np 2,4 --platform "$FLAT" "${SIMS[@]}" --workers 2 -o p.csv \
  -- "$PROG" 2>/dev/null
st=$?
check_eq "plot data: exit status" "$st" 0
"$HNM_COMPARE" plot p.csv -o fig --reference fluid >table.txt 2>err.txt
st=$?
if command -v gnuplot >/dev/null; then
  check "plot: exit 0 ($(tail -n 1 err.txt))" [ $st -eq 0 ]
  check "plot: the figure" [ -s fig-time.png ]
fi
check "plot: a filledcurves band for the set" [ "$(grep -c 'using 1:3:4 with filledcurves' fig.gp)" -eq 2 ]
check "plot: member rows are not series" [ "$(grep -c '^# ' fig-time.dat)" -eq 2 ]
lo=$(awk '/^# s.set/ { on = 1; next } on && NF == 4 { print $3; exit }' fig-time.dat)
check_close "plot: the band's low edge in the data" "$lo" "$(col p.csv 0 band_lo)" 1e-12
check "plot: the band in the table" grep -q '^s.set .*\[' table.txt

# refuse_set WHAT PATTERN SET: hnm-run and hnm-compare refuse the model set
# (refuse, tests/lib.sh).
refuse_set() {
  refuse "hnm-run $1" "$2" "$HNM_RUN" --model "$3" -platform "$TWO" -np 2 "$PROG"
  refuse "compare $1" "$2" "$HNM_COMPARE" run --model "$3" --np 2 --platform "$TWO" -o bad.csv -- "$PROG"
}
mkdir empty.set
refuse_set "N = 0" "model set 'empty.set': no member" empty.set
make_set gap.set && rm gap.set/member-004.xml
refuse_set "a gap" "gap.set/member-004.xml: missing" gap.set
make_set junk.set && echo 'not a model' >junk.set/member-006.xml
refuse_set "a file that is not a model" "junk.set/member-006.xml:1" junk.set
make_set broken.set && sed -i 's/bw-factor="1"/bw-factor="-1"/' broken.set/member-002.xml
refuse_set "a member with a bad value" "broken.set/member-002.xml:.*bw-factor" broken.set
make_set nocentral.set && rm nocentral.set/central.xml
refuse_set "no central model" "nocentral.set/central.xml" nocentral.set
make_set dup.set && cp dup.set/member-001.xml dup.set/member-0001.xml
refuse_set "a member twice" "dup.set/member-0+1.xml: member 1 given twice" dup.set
make_set short.set && mv short.set/member-007.xml short.set/member-07.xml
refuse_set "a badly numbered member" "short.set/member-07.xml: not a member's name" short.set
refuse_set "a missing set" "model set 'missing.set': No such file" missing.set
# The set is checked with its overrides.
refuse_set "a bad override" "s.set/central.xml.*limiter" s.set:limiter=-1
# Other files in the set are ignored.
make_set other.set && echo notes >other.set/README && mkdir other.set/report
"$HNM_RUN" --model other.set --dry-run -platform "$TWO" -np 2 "$PROG" >out.txt 2>err.txt
st=$?
check_eq "other files ignored: exit status ($(head -c 200 err.txt))" "$st" 0
# The bundled set, by its bare name.
"$HNM_RUN" --model graphene.set --explain >out.txt 2>&1
check "graphene.set: the bundled set ($(tail -n 1 out.txt))" grep -q "^model set .*graphene.set: the central model above and [0-9]* members" out.txt
# A single model is not a set, and a set is not a single model.
"$HNM_RUN" --model s.set/central.xml --explain >out.txt 2>err.txt
st=$?
check_eq "a member alone is a model: exit status" "$st" 0
"$HNM_RUN" --model s.set --explain >out.txt 2>err.txt
check "--explain a set: the central model and the count" grep -q "model set s.set: the central model above and 7 members" out.txt
finish
