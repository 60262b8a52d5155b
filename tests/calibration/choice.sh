#!/usr/bin/env bash
# fit --held-out with run --refine's breakpoints file, on this machine's
# measured shared memory (tests/data/calibration-machine): three candidate
# fits (the file's breakpoints alone, with automatic ones besides, automatic
# ones alone); the fewest decades whose held-out round-trip error exceeds
# max(10%, floor + 3 points) chooses, then the held-out error over all sizes
# (docs/calibration.md, "Noise floor, held-out error and bands"). On these
# data the file's breakpoint alone (4353 B, the other merged) leaves one
# line above 4 KB, automatic ones alone have the smaller error over all
# sizes but a decade over its bound, and the file's with automatic ones have
# none: that one is chosen, and its table (read back here, the bound
# recomputed from its floor) has every decade within. Without --held-out:
# the file's breakpoints alone, no candidates.
source "$(dirname "$0")/lib.sh"
D=$DATA/calibration-machine
"$HNM_CALIBRATE" fit "$D"/*.csv -o "$WORK/m.xml" --report "$WORK/r" --held-out --no-plots 2>"$WORK/m.err"
st=$?
check_eq "fit --held-out: exit status" "$st" 0
cand() { sed -n "s/^  $1 breakpoints, *\\([0-9]*\\) decade(s) over bound: *held-out *\\([0-9.]*\\)%.*/\\1 \\2/p" "$WORK/m.err"; }
read -r file_over file_ho <<<"$(cand "the file's")"
read -r both_over both_ho <<<"$(cand "the file's and automatic")"
read -r auto_over auto_ho <<<"$(cand automatic)"
check_eq "3 candidates" "$(grep -c ' decade(s) over bound: ' "$WORK/m.err")" 3
check "the file's alone: decades over ($file_over)" [ "${file_over:-0}" -gt 0 ]
check "automatic alone: decades over ($auto_over)" [ "${auto_over:-0}" -gt 0 ]
check_eq "the file's and automatic: decades over" "$both_over" 0
check "automatic alone has the smaller error over all sizes ($auto_ho% < $both_ho%): the decades decided" \
  awk -v a="$auto_ho" -v b="$both_ho" 'BEGIN { exit !(a < b) }'
check "the choice line" grep -q "^Breakpoints: the file's and automatic ones chosen: 0 decade(s) over max(10%, floor + 3 points) held out, then held-out round-trip error ${both_ho}% over all sizes, the best of 3 candidate fits" "$WORK/m.err"
check "the located breakpoint kept (4353 B; the file's other one is merged)" grep -q 'upto="4353"' "$WORK/m.xml"
# The chosen fit's table: every decade's held-out error within max(10%,
# floor + 3 points), recomputed here.
table=$(sed -n '/^Round trip, the chosen fit/,/^  all sizes/p' "$WORK/m.err" | grep '^  1e')
check_eq "the chosen fit's table: 8 decades" "$(grep -c . <<<"$table")" 8
while read -r dec n fl ins ho; do
  check "$dec: held-out $ho within max(10%, $fl + 3 points)" \
    awk -v f="${fl%\%}" -v h="${ho%\%}" 'BEGIN { b = f + 3; if (b < 10) b = 10; exit !(h <= b + 5e-3) }'
done <<<"$table"
"$HNM_CALIBRATE" fit "$D"/*.csv -o "$WORK/f.xml" --report "$WORK/rf" --no-plots 2>"$WORK/f.err"
check_eq "without --held-out: no candidates" "$(grep -c ' decade(s) over bound: ' "$WORK/f.err")" 0
check_eq "without --held-out: the file's breakpoints alone (4 segments)" "$(grep -c '<segment ' "$WORK/f.xml")" 4
# Hostile breakpoints files under --held-out: nothing located (a header
# alone, or merged breakpoints only): no candidates, the automatic fit; a
# breakpoint that leaves a segment one size (1 B): exit 2, one line naming
# where, no model written.
mkdir -p "$WORK/h"
cp "$D/p2p.csv" "$D/probe.csv" "$D/refine.csv" "$WORK/h/"
for content in 'breakpoint,status\n' 'breakpoint,status\n4353,merged\n'; do
  printf "$content" >"$WORK/h/breakpoints.csv"
  "$HNM_CALIBRATE" fit "$WORK"/h/*.csv -o "$WORK/h.xml" --report "$WORK/rh" --held-out --no-plots 2>"$WORK/h.err"
  st=$?
  check_eq "nothing located ($(head -c 40 "$WORK/h/breakpoints.csv" | tr '\n' ' ')): exit status" "$st" 0
  check_eq "nothing located: no candidates" "$(grep -c ' decade(s) over bound: ' "$WORK/h.err")" 0
  rm -rf "$WORK/h.xml" "$WORK/rh"
done
printf 'breakpoint,status\n1,located\n' >"$WORK/h/breakpoints.csv"
"$HNM_CALIBRATE" fit "$WORK"/h/*.csv -o "$WORK/h.xml" --report "$WORK/rh" --held-out --no-plots 2>"$WORK/h.err"
st=$?
check_eq "a breakpoint at 1 B: exit status" "$st" 2
check_eq "a breakpoint at 1 B: one line" "$(wc -l <"$WORK/h.err")" 1
check "a breakpoint at 1 B: names the file and line" grep -q "refine.csv:[0-9]*: op '[a-z]*': only 1 distinct size(s) in (0, 1]" "$WORK/h.err"
check "a breakpoint at 1 B: no model written" [ ! -e "$WORK/h.xml" ]
# The file as a FIFO (refused in one line, no hang), a symbolic link
# (followed: the three candidates), a breakpoint past 2^53 (beyond every
# size: the fit goes on); the model to /dev/full (exit 1, one line).
rm -f "$WORK/h/breakpoints.csv"
mkfifo "$WORK/h/breakpoints.csv"
timeout 60 "$HNM_CALIBRATE" fit "$WORK"/h/*.csv -o "$WORK/h.xml" --report "$WORK/rh" --held-out --no-plots 2>"$WORK/h.err"
st=$?
check_eq "breakpoints.csv a FIFO: exit status" "$st" 2
check_eq "breakpoints.csv a FIFO: the error" "$(cat "$WORK/h.err")" \
  "hnm-calibrate: $WORK/h/breakpoints.csv: not a regular file (a named pipe)"
rm -f "$WORK/h/breakpoints.csv"
printf 'breakpoint,status\n4353,located\n' >"$WORK/located.csv"
ln -s "$WORK/located.csv" "$WORK/h/breakpoints.csv"
"$HNM_CALIBRATE" fit "$WORK"/h/*.csv -o "$WORK/h.xml" --report "$WORK/rh" --held-out --no-plots 2>"$WORK/h.err"
st=$?
check_eq "breakpoints.csv a symbolic link: exit status" "$st" 0
check_eq "breakpoints.csv a symbolic link: 3 candidates" "$(grep -c ' decade(s) over bound: ' "$WORK/h.err")" 3
check "breakpoints.csv a symbolic link: still a link" [ -L "$WORK/h/breakpoints.csv" ]
"$HNM_CALIBRATE" fit "$WORK"/h/*.csv -o /dev/full --report "$WORK/rf2" --held-out --no-plots 2>"$WORK/h.err"
st=$?
check_eq "-o /dev/full: exit status" "$st" 1
check_eq "-o /dev/full: the error" "$(cat "$WORK/h.err")" \
  "hnm-calibrate: -o: '/dev/full': write error: No space left on device"
rm -rf "$WORK/h/breakpoints.csv" "$WORK/h.xml" "$WORK/rh"
printf 'breakpoint,status\n9007199254740993,located\n' >"$WORK/h/breakpoints.csv"
"$HNM_CALIBRATE" fit "$WORK"/h/*.csv -o "$WORK/h.xml" --report "$WORK/rh" --held-out --no-plots 2>"$WORK/h.err"
st=$?
check_eq "a breakpoint past 2^53: exit status" "$st" 0
check "a breakpoint past 2^53: a model" grep -q '<segment ' "$WORK/h.xml"
rm -rf "$WORK/h.xml" "$WORK/rh"

# A short calibration (hnm-calibrate machine with calibration.machine's
# options: 24 sizes up to 64 KiB, 2 repetitions, one breakpoint located at
# 58 B; tests/data/calibration-machine/short): with a fifth of the sizes
# out, the file's breakpoint and an automatic one at 174 B leave the send
# rows one size between them. The fold's fit refuses its data; that is no
# held-out part for that candidate (as a forced breakpoint left too few
# sizes), not a failed fit: exit 0, the file's candidates "not held out",
# automatic ones chosen. (It failed the whole fit, exit 2, one run in 23
# of calibration.machine's.)
S=$D/short
"$HNM_CALIBRATE" fit "$S"/*.csv -o "$WORK/s.xml" --report "$WORK/rs" --held-out --no-plots 2>"$WORK/s.err"
st=$?
check_eq "short calibration, --held-out: exit status ($(tail -1 "$WORK/s.err"))" "$st" 0
check_eq "short calibration: the file's candidates not held out" "$(grep -c "^  the file's .*not held out: *held-out *-," "$WORK/s.err")" 2
check "short calibration: automatic ones chosen" grep -q "^Breakpoints: automatic ones chosen: " "$WORK/s.err"
check "short calibration: a model written" grep -q '<segment ' "$WORK/s.xml"
finish
