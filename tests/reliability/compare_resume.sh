#!/usr/bin/env bash
# hnm-compare run -o appends to its CSV through one path that checks the
# existing file first (tools/hnm_compare_store.c): a 0-byte file gets the
# header; a last row without end of line gets one before the next row; a
# partial last row, a foreign header and an unknown status are refused (exit
# 2, FILE:LINE, the file unchanged); --np 2,,4 is refused like 2,.
# Environment: HNM_COMPARE, HNM_RUN, CMP_BIN, DATA.
source "$(dirname "$0")/../sim/lib.sh"
cd "$WORK"
T=120
PROG=$CMP_BIN/sendrecv
TWO=$DATA/platforms/two.xml
SIMS=()
for o in "${SIMOPTS[@]}"; do SIMS+=("--sim-opt=$o"); done
# run CSV BYTES: one run (fluid, 2 ranks) of the sendrecv program.
run() {
  timeout $T "$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --args "--bytes $2" \
    --log-dir logs -o "$1" -- "$PROG" > /dev/null 2> err.txt
}
# fields CSV: the number of fields of each line, one per line ("13" for a row).
fields() { awk -F, '{ print NF }' "$1" | sort -u | tr '\n' ' '; }
# refused WHAT PATTERN CSV ARGS...: hnm-compare ARGS refused (refuse,
# tests/lib.sh: CSV, in $WORK, unchanged).
refused() {
  local what=$1 pattern=$2
  shift 3
  refuse "$what" "$pattern" "$HNM_COMPARE" "$@"
}
R=(run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --log-dir logs)

# A 0-byte CSV: the header first, then the row; it reads back.
: > empty.csv
run empty.csv 1000
st=$?
check "empty CSV: exit 0 ($(head -c 200 err.txt))" [ $st -eq 0 ]
check "empty CSV: header then one row" [ "$(head -n 1 empty.csv | cut -d, -f1-2)" = index,program ]
check "empty CSV: header then one row" [ "$(wc -l < empty.csv)" -eq 2 ]
check "empty CSV: reads back (nothing left to run)" grep -q ' 0 to run$' \
  <(timeout $T "$HNM_COMPARE" "${R[@]}" --args "--bytes 1000" --dry-run -o empty.csv -- "$PROG")

# A last row without end of line: repaired, then the new row on its own line.
run good.csv 1000
cp good.csv noeol.csv
truncate -s -1 noeol.csv
check "no final newline: prepared" [ "$(tail -c 1 noeol.csv | od -An -c | tr -d ' ')" != '\n' ]
run noeol.csv 100
st=$?
check "no final newline: exit 0 ($(head -c 200 err.txt))" [ $st -eq 0 ]
check "no final newline: 3 lines of 13 fields (got $(fields noeol.csv))" [ "$(wc -l < noeol.csv)" -eq 3 ]
check "no final newline: 3 lines of 13 fields (got $(fields noeol.csv))" [ "$(fields noeol.csv)" = "13 " ]
check "no final newline: the old row kept as it was" cmp -s <(head -n 2 good.csv) <(head -n 2 noeol.csv)
timeout $T "$HNM_COMPARE" merge -o merged.csv noeol.csv 2> err.txt
st=$?
check "no final newline: merge reads it ($(head -c 200 err.txt))" [ $st -eq 0 ]
# The header alone without end of line: completed too.
printf '%s' "$(head -n 1 good.csv)" > header.csv
run header.csv 1000
check "header without newline: header then one row" [ "$(wc -l < header.csv)" -eq 2 ]
check "header without newline: header then one row" [ "$(fields header.csv)" = "13 " ]

# A partial last row (an interrupted write): refused, untouched.
head -c -12 good.csv > partial.csv
refused "partial last row" "partial.csv:2: .*no end of line" partial.csv "${R[@]}" -o partial.csv -- "$PROG"
# A foreign header.
{ echo "a,b,c"; tail -n +2 good.csv; } > foreign.csv
refused "foreign header" "foreign.csv:1: header is not hnm-compare's" foreign.csv "${R[@]}" -o foreign.csv -- "$PROG"
# An unknown status, on resume and in merge.
sed '2s/,ok,/,okk,/' good.csv > okk.csv
check "okk: prepared" grep -q ',okk,' okk.csv
refused "status okk (run)" "okk.csv:2: status: 'okk'" okk.csv "${R[@]}" -o okk.csv -- "$PROG"
refused "status okk (merge)" "okk.csv:2: status: 'okk'" okk.csv merge -o m2.csv okk.csv
check "status okk (merge): no output" [ ! -e m2.csv ]
# Process-count lists with an empty element.
for np in 2,,4 ,2 2,; do
  refused "--np $np" "--np: '$np' is not a comma-separated list" good.csv run --model fluid --np "$np" \
    --platform "$TWO" -o good.csv -- "$PROG"
done
finish
