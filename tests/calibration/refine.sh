#!/usr/bin/env bash
# Breakpoints to the byte, closed loop on graphene in simulation
# (tests/data/platforms/two.xml): run --simulate (150 sizes log-uniform in
# 1 B - 16 MiB), fit, run --refine, fit again (and run --refine auto, which
# fits first by itself, on a copy: the same breakpoints). Expected, from graphene's own
# file (model/models/graphene.xml): protocol async 65536 and detached
# 327680 (the probe bisects to the byte), segment boundaries exactly 1420,
# 32768, 65536, 327680 (the first fit can only put the two free ones at the
# largest sampled sizes below them, 1215 and 31133 with this seed, and says
# so), and the refined model's ping-pong within 1% of graphene's at 1, 1000,
# 1419, 1420, 1421, 32768, 65535, 65536, 65537, 327680, 327681 B and 1 MiB
# (measured: <= 0.41%: SimGrid's 16-byte envelope time in graphene's eager
# round trips, which no segment model expresses; 20.7% at 1419-1420 before
# refinement).
source "$(dirname "$0")/lib.sh"

simulate graphene "$WORK/g" --sizes 150 --reps 2 --max 16MiB --seed 3
"$HNM_CALIBRATE" fit "$WORK"/g/*.csv -o "$WORK/first.xml" --no-plots 2>"$WORK/first.err"
uptos() { grep -o 'upto="[^"]*"' "$1" | sed 's/upto="\(.*\)"/\1/' | paste -sd' '; }
for k in 65536 65537 327680 327681; do
  check "the probe bisected to the byte: $k probed" grep -q "^$k," "$WORK/g/probe.csv"
done
check "first fit: free breakpoints at sampled sizes" [ "$(uptos "$WORK/first.xml")" = "1215 31133 65536 327680 inf" ]
check "first fit says the breakpoints lie between sampled sizes" grep -q "lies in \[1215, " "$WORK/first.err"
cp -r "$WORK/g" "$WORK/g-auto"
"$HNM_CALIBRATE" run --simulate --model graphene -platform "${TWO[0]}" -hostfile "${TWO[1]}" -d "$WORK/g" \
  --refine "$WORK/first.xml" --refine-reps 1 2>"$WORK/refine.err"
cat "$WORK/refine.err"
check "refine: 1215 located at 1420" grep -q "after 1215 B: located at 1420 B" "$WORK/refine.err"
check "refine: 31133 located at 32768" grep -q "after 31133 B: located at 32768 B" "$WORK/refine.err"
check "refine reports the segment count" grep -q "5 segments in .*, 5 after refinement (0 merged)" "$WORK/refine.err"
"$HNM_CALIBRATE" fit "$WORK"/g/*.csv -o "$WORK/refined.xml" --no-plots 2>/dev/null
check "refined fit: every boundary exact" [ "$(uptos "$WORK/refined.xml")" = "1420 32768 65536 327680 inf" ]
check "refined fit: protocol exact" grep -q 'async="65536" detached="327680"' "$WORK/refined.xml"

# --refine auto: fits the directory's CSVs itself first, same result.
"$HNM_CALIBRATE" run --simulate --model graphene -platform "${TWO[0]}" -hostfile "${TWO[1]}" -d "$WORK/g-auto" \
  --refine auto --refine-reps 1 2>/dev/null
check "--refine auto locates the same breakpoints" cmp "$WORK/g/breakpoints.csv" "$WORK/g-auto/breakpoints.csv"

# fit --held-out with a breakpoints file: three candidates (the file's
# alone, with automatic ones, automatic alone), the fewest decades over
# max(10%, floor + 3 points) held out chooses. With the located file,
# graphene's own boundaries: no decade over, and the file's breakpoints
# stay in the model. With a file that has only the protocol's two
# (65536 and 327680 B; graphene's 1420 and 32768 left out), one line from
# 1 B to 64 KiB: the file's alone leaves decades over, the choice does not
# take it, and the model it takes has none over.
"$HNM_CALIBRATE" fit "$WORK"/g/*.csv -o "$WORK/ho.xml" --held-out --no-plots 2>"$WORK/ho.err"
check_eq "held-out choice: 3 candidates" "$(grep -c ' decade(s) over bound: ' "$WORK/ho.err")" 3
check "held-out choice, located file: 0 decades over" \
  grep -q "^Breakpoints: .* chosen: 0 decade(s) over max(10%, floor + 3 points) held out" "$WORK/ho.err"
check "held-out choice, located file: 1420 and 32768 kept" \
  bash -c "grep -q 'upto=\"1420\"' '$WORK/ho.xml' && grep -q 'upto=\"32768\"' '$WORK/ho.xml'"
mkdir -p "$WORK/p"
cp "$WORK"/g/*.csv "$WORK/p/"
printf 'breakpoint,status\n65536,located\n327680,located\n' >"$WORK/p/breakpoints.csv"
"$HNM_CALIBRATE" fit "$WORK"/p/*.csv -o "$WORK/p.xml" --held-out --no-plots 2>"$WORK/p.err"
file_over=$(sed -n "s/^  the file's breakpoints, *\([0-9]*\) decade(s) over bound:.*/\1/p" "$WORK/p.err")
check "protocol-only file: the file's alone leaves decades over ($file_over)" [ "${file_over:-0}" -gt 0 ]
check "protocol-only file: not the file's alone" bash -c "! grep -q \"^Breakpoints: the file's chosen\" '$WORK/p.err'"
check "protocol-only file: the chosen fit has no decade over" \
  grep -q "^Breakpoints: .* chosen: 0 decade(s) over max(10%, floor + 3 points) held out" "$WORK/p.err"
check "without --held-out: the file's alone, no candidates" \
  bash -c "'$HNM_CALIBRATE' fit '$WORK'/p/*.csv -o '$WORK/p1.xml' --no-plots 2>&1 | grep -c ' decade(s) over bound: ' | grep -qx 0"

PP=1,1000,1419,1420,1421,32768,65535,65536,65537,327680,327681,1048576
SIMOPTS=(--cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no --log=root.thres:warning)
pp() { "$HNM_RUN" --model "$1" -platform "${TWO[0]}" -hostfile "${TWO[1]}" -np 2 "${SIMOPTS[@]}" \
         "$SIM_BIN/pingpong_sizes" "$PP" 8 | grep '^pingpong'; }
ref=$(pp graphene)
got=$(pp "$WORK/refined.xml")
check "12 ping-pong sizes" [ "$(grep -c . <<<"$ref")" = 12 ]
while read -r op k t_ref && read -r op2 k2 t_got <&3; do
  check_close "refined model's ping-pong at $k B within 1% of graphene's" "$t_got" "$t_ref" 0.01
done <<<"$ref" 3<<<"$got"
finish
