#!/usr/bin/env bash
# --models-of MODEL.xml: the three models of one calibration
# (`hnm-calibrate fit -o MODEL.xml` writes MODEL.xml and MODEL-report/ with
# loggps.xml and fluid.xml) as one group: three --model entries, in that
# order, each named by its path; refused, naming the missing file, when the
# report directory is not there.
source "$(dirname "$0")/lib.sh"

MODELS=$DATA/../../model/models
mkdir -p cal-report
cp "$MODELS/graphene.xml" cal.xml
cp "$MODELS/loggps.xml" cal-report/loggps.xml
cp "$MODELS/fluid.xml" cal-report/fluid.xml
cp "$MODELS"/hnm-model.dtd . && cp "$MODELS"/hnm-model.dtd cal-report/

out=$("$HNM_COMPARE" run --dry-run --models-of cal.xml --np 2 --platform "$TWO" -o m.csv -- "$PROG" 2>err.txt)
st=$?
check_eq "dry run: exit status ($(cat err.txt))" "$st" 0
check "dry run: 3 runs" grep -q '^# 3 runs in the grid' <<<"$out"
for i in 0 1 2; do
  m=$(sed -n "$((i + 1))p" <<<"cal.xml
cal-report/loggps.xml
cal-report/fluid.xml")
  check "run $i: --model $m" grep -q "^$i: .* --model $m -platform " <<<"$out"
done
out=$("$HNM_COMPARE" run --dry-run --model fluid --models-of cal.xml --np 2 --platform "$TWO" -o m.csv -- "$PROG")
check "with --model before: 4 runs, fluid first" grep -q "^0: .* --model fluid -platform " <<<"$out"
check "with --model before: the group after it" grep -q "^3: .* --model cal-report/fluid.xml -platform " <<<"$out"

# The sweep runs them: three ok rows, one per model.
"$HNM_COMPARE" run --models-of cal.xml --np 2 --platform "$TWO" "${SIMS[@]}" --args "--bytes 1000" -o m.csv \
  -- "$PROG" 2>err.txt
st=$?
check_eq "sweep: exit status ($(tail -n 2 err.txt))" "$st" 0
for i in 0 1 2; do check "sweep: row $i ok" [ "$(field m.csv $i status)" = ok ]; done
check "sweep: the loggps row is named by its path" grep -q '^1,[^,]*,--bytes 1000,cal-report/loggps.xml,two,2,' m.csv

# Refusals: one line naming the missing file, exit 2, no CSV.
rm cal-report/fluid.xml
refuse "no fluid.xml" "$(ere_quote "--models-of: 'cal.xml': no cal-report/fluid.xml")" \
  "$HNM_COMPARE" run --models-of cal.xml --np 2 --platform "$TWO" -o new.csv -- "$PROG"
check "no fluid.xml: no CSV" [ ! -e new.csv ]
refuse "not a .xml" "$(ere_quote "'cal.txt' is not the model file of hnm-calibrate fit -o MODEL.xml")" \
  "$HNM_COMPARE" run --models-of cal.txt --np 2 --platform "$TWO" -o new.csv -- "$PROG"
finish
