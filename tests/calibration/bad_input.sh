#!/usr/bin/env bash
# hnm-calibrate refuses bad input with ONE line naming the file and line (or
# the option), exit status 2, and writes no model file (nor report).
# The good inputs come from a small simulated run (graphene, two nodes).
source "$(dirname "$0")/lib.sh"

simulate graphene "$WORK/ok" --sizes 40 --reps 1 --max 4MiB --contention-reps 1
cp "$WORK"/ok/*.csv "$WORK/"
P2P=$WORK/p2p.csv PROBE=$WORK/probe.csv


# bad CSV FROM-FILE SED-SCRIPT: a modified copy
bad() { sed "$2" "$1" > "$WORK/bad.csv"; }

: > "$WORK/empty.csv"
fit_refuses "empty file" "^hnm-calibrate: $WORK/empty.csv:1: empty file" fit "$WORK/empty.csv" "$PROBE" -o "$WORK/m.xml"
head -1 "$P2P" > "$WORK/header.csv"
fit_refuses "header only" "header.csv:1: no measurements" fit "$WORK/header.csv" "$PROBE" -o "$WORK/m.xml"
head -c -1 "$P2P" > "$WORK/bad.csv" # last line cut before its end of line
n=$(wc -l < "$P2P")
fit_refuses "truncated" "bad.csv:$n: truncated line" fit "$WORK/bad.csv" "$PROBE" -o "$WORK/m.xml"
bad "$P2P" '5s/,[^,]*$//'
fit_refuses "missing field" "bad.csv:5: 3 field\(s\), expected 4" fit "$WORK/bad.csv" "$PROBE" -o "$WORK/m.xml"
bad "$P2P" '7s/,[^,]*$/,fast/'
fit_refuses "non-numeric" "bad.csv:7: duration: 'fast' is not a non-negative number" \
  fit "$WORK/bad.csv" "$PROBE" -o "$WORK/m.xml"
bad "$P2P" '3s/^[a-z]*,[0-9]*/send,12.5/'
fit_refuses "fractional size" "bad.csv:3: size: '12.5' is not a whole number" fit "$WORK/bad.csv" "$PROBE" -o "$WORK/m.xml"
bad "$P2P" '4s/^[a-z]*,/ping,/'
fit_refuses "unknown op" "bad.csv:4: op: unknown operation 'ping'" fit "$WORK/bad.csv" "$PROBE" -o "$WORK/m.xml"
bad "$P2P" '1s/.*/op,bytes,start,duration/'
fit_refuses "unknown header" "bad.csv:1: unknown header" fit "$WORK/bad.csv" "$PROBE" -o "$WORK/m.xml"
grep -v '^recv,' "$P2P" > "$WORK/bad.csv"
fit_refuses "missing operation" "bad.csv:$(wc -l < "$WORK/bad.csv"): no 'recv' measurements" \
  fit "$WORK/bad.csv" "$PROBE" -o "$WORK/m.xml"
bad "$PROBE" '3s/^\([0-9]*\),[^,]*,/\1,0,/'
fit_refuses "probe delay 0" "bad.csv:3: delay: must be > 0" fit "$P2P" "$WORK/bad.csv" -o "$WORK/m.xml"
fit_refuses "no probe" "no protocol probe" fit "$P2P" -o "$WORK/m.xml"
# Too few sizes for a segment: a forced breakpoint just above the smallest size.
smallest=$(awk -F, 'NR > 1 && $1 == "send" && (m == "" || $2 < m) { m = $2 } END { print m }' "$P2P")
fit_refuses "too few sizes" "p2p.csv:[0-9]+: op 'send': only 1 distinct size\(s\) in \(0, $smallest\]" \
  fit "$P2P" "$PROBE" -o "$WORK/m.xml" --breakpoints "$smallest"
fit_refuses "bad option value" "^hnm-calibrate: --penalty: '-1' is not a number > 0$" fit "$P2P" "$PROBE" -o "$WORK/m.xml" --penalty -1
fit_refuses "protocol order" "--protocol: '10,5': async > detached" fit "$P2P" "$PROBE" -o "$WORK/m.xml" --protocol 10,5
fit_refuses "no output" "-o MODEL.xml is required" fit "$P2P" "$PROBE"
fit_refuses "missing file" "nope.csv: cannot open" fit "$WORK/nope.csv" -o "$WORK/m.xml"
fit_refuses "run: simulate needs a platform" "--simulate: --model, -platform and -hostfile are all required" \
  run --simulate --model graphene -d "$WORK/x"
fit_refuses "run: bad -np" "^hnm-calibrate: -np: '1' is not in 2 \\.\\. 1000000" run -np 1 -d "$WORK/x"
fit_refuses "compare: bad argument" "expected NAME=SIM.csv" compare "$P2P" "$P2P"

# The benchmark's own refusals (through hnm-calibrate run, under SMPI): its
# one line is there, among smpirun's own report of the failure.
st=0
"$HNM_CALIBRATE" run --simulate --model graphene -platform "${TWO[0]}" -hostfile "${TWO[1]}" -d "$WORK/x" \
  -- --max lots 2> "$WORK/err" || st=$?
check "benchmark: bad size: exit 2 (got $st)" [ "$st" -eq 2 ]
check "benchmark: bad size: its message" grep -qx "calibrate: --max: 'lots' is not a size in bytes (e.g. 4096, 64KiB, 1MiB)" "$WORK/err"
check "benchmark: no CSV left" [ ! -e "$WORK/x/p2p.csv" ]

# And the good input is accepted, with every output.
"$HNM_CALIBRATE" fit "$P2P" "$PROBE" "$WORK/contention.csv" -o "$WORK/m.xml" 2> /dev/null
for f in m.xml m-report/report.txt m-report/loggps.xml m-report/fluid.xml m-report/pingpong.png; do
  check "good input: $f written" [ -s "$WORK/$f" ]
done
for c in "" run fit compare; do
  check "--help of '$c'" "$HNM_CALIBRATE" $c --help
done
finish
