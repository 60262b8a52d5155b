#!/usr/bin/env bash
# Pack costs in hnm-calibrate fit (docs/calibration.md, "Pack costs"):
#   - a pack.csv whose times follow known coefficients exactly gives those
#     coefficients back (every style, class and operation);
#   - docs/data/pack-openmpi.csv (this machine's Open MPI) gives the bundled
#     graphene model's <pack> element, to its 3 printed digits;
#   - the report lists every pattern, fitted or held out;
#   - closed loop: the benchmark under hnm-run --model graphene (MPI_Pack and
#     MPI_Unpack charged by the plugin, copy loops free) fits back graphene's
#     interpreted costs, and predicts every held-out pattern exactly: the
#     plugin counts the blocks of every pattern (struct of subarrays, hvector
#     of vectors, resized columns...) as the benchmark does;
#   - bad pack.csv rows are refused: exit 2, one line naming file, line, field.
source "$(dirname "$0")/lib.sh"

simulate graphene "$WORK/ok" --sizes 30 --reps 1 --max 1MiB --no-contention
P2P=("$WORK/ok/p2p.csv" "$WORK/ok/probe.csv")
REAL=$SOURCE_DIR/docs/data/pack-openmpi.csv

# The coefficients of the style / class / op of a model's --explain, as
# "c0 per-block per-byte" for each of the 18 (style, class, op), one a line.
explained() {
  "$HNM_RUN" --model "$1" --explain | awk '$1 ~ /^(interpreted|compiled|manual)$/ && NF > 10 {
    print $1, $2, "pack", $4, $7, $10; print $1, $2, "unpack", $13, $16, $19 }'
}

# 1. Exact synthetic times: seconds = c0 + cb x blocks + cB x bytes with
# coefficients distinct per style, class and op (blocks and bytes of the
# real patterns).
awk -F, -v OFS=, 'NR == 1 { print; next } $8 != "contiguous" {
    s = ($8 == "interpreted") ? 1 : ($8 == "manual") ? 2 : 3
    c = ($2 == "vector") ? 1 : ($2 == "indexed") ? 2 : 3
    o = ($9 == "pack") ? 1 : 2
    c0 = 1e-7 * (s + c + o); cb = 1e-9 * s * c * o; cB = 1e-12 * (10 * s + c + o)
    $11 = sprintf("%.17g", c0 + cb * $6 + cB * $7) } { print }' "$REAL" > "$WORK/exact.csv"
"$HNM_CALIBRATE" fit "${P2P[@]}" "$WORK/exact.csv" -o "$WORK/exact.xml" --no-plots 2>/dev/null
n=0
while read -r style cls op c0 cb cB; do
  s=$([ "$style" = interpreted ] && echo 1 || ([ "$style" = manual ] && echo 2) || echo 3)
  c=$([ "$cls" = vector ] && echo 1 || ([ "$cls" = indexed ] && echo 2) || echo 3)
  o=$([ "$op" = pack ] && echo 1 || echo 2)
  check_close "exact $style $cls $op: c0" "$c0" "$(calc "1e-7 * ($s + $c + $o)")" 1e-5
  check_close "exact $style $cls $op: per-block" "$cb" "$(calc "1e-9 * $s * $c * $o")" 1e-5
  check_close "exact $style $cls $op: per-byte" "$cB" "$(calc "1e-12 * (10 * $s + $c + $o)")" 1e-5
  n=$((n + 1))
done < <(explained "$WORK/exact.xml")
check "exact: 18 fitted (style, class, op), got $n" [ "$n" -eq 18 ]

# 2. The measurement behind the bundled model.
"$HNM_CALIBRATE" fit "${P2P[@]}" "$REAL" -o "$WORK/real.xml" --no-plots 2> "$WORK/real.err"
paste <(explained "$WORK/real.xml") <(explained graphene) > "$WORK/pair"
check "graphene: 18 pack costs compared" [ "$(wc -l < "$WORK/pair")" -eq 18 ]
# costs_close LABEL REL: every fitted cost of $WORK/pair (explained lines of
# the fit, then of graphene, pasted) within REL of graphene's.
costs_close() {
  local s c o a0 ab aB g0 gb gB k what fitted bundled
  while read -r s c o a0 ab aB _ _ _ g0 gb gB; do
    for k in "c0 $a0 $g0" "per-block $ab $gb" "per-byte $aB $gB"; do
      read -r what fitted bundled <<<"$k"
      check_close "$1 $s $c $o $what" "$fitted" "$bundled" "$2"
    done
  done < "$WORK/pair"
}
costs_close "graphene = the fit of docs/data/pack-openmpi.csv:" 5e-3
R=$WORK/real-report/pack.txt
check "report written" [ -s "$R" ]
for p in vec1 vec16 vec128 idx struct3 subz suby mg_x mg_y lu milc fft unstruct wrf sub2; do
  check "report lists pattern $p" grep -q "^$p " "$R"
done
check "report marks held-out patterns" grep -q "^mg_x .* holdout " "$R"
check "stderr names the held-out error" grep -q "held-out patterns within" "$WORK/real.err"

# 3. Closed loop under SMPI.
mkdir -p "$WORK/sim"
"$HNM_RUN" --model graphene -platform "${TWO[0]}" -hostfile "${TWO[1]}" -np 1 --cfg=smpi/simulate-computation:no \
  --cfg=smpi/wtime:0 --log=root.thres:critical "$APPS_BIN/calibrate" --pack-only -d "$WORK/sim" --pack-reps 1
"$HNM_CALIBRATE" fit "${P2P[@]}" "$WORK/sim/pack.csv" -o "$WORK/sim.xml" --no-plots 2> "$WORK/sim.err"
paste <(explained "$WORK/sim.xml") <(explained graphene | grep '^interpreted ') > "$WORK/pair"
check "closed loop: only the interpreted style is fitted (copy loops take no simulated time)" \
  [ "$(wc -l < "$WORK/pair")" -eq 6 ]
costs_close "closed loop" 1e-6
worst=$(sed -n 's/.*held-out patterns within \([0-9.]*\)%.*/\1/p' "$WORK/sim.err")
check "closed loop: every held-out pattern predicted exactly (worst ${worst:-?}%)" [ "${worst:-x}" = "0.0" ]

bad() { sed "$1" "$REAL" > "$WORK/pack.csv"; }
bad '5s/,[^,]*$/,-1e-6/'
fit_refuses "negative time" "pack.csv:5: seconds: '-1e-6' is not a finite number" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
bad '6s/,[^,]*$/,nan/'
fit_refuses "NaN time" "pack.csv:6: seconds: 'nan'" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
bad '7s/,vector,/,cubic,/'
fit_refuses "unknown class" "pack.csv:7: class: 'cubic'" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
bad '8s/,[^,]*$//'
fit_refuses "missing field" "pack.csv:8: 10 field\(s\), expected 11" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
bad '9s/,[^,]*$/,2.5/'
fit_refuses "time out of range" "pack.csv:9: seconds: '2.5' is above 1 s" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
bad '10s/,pack,/,squash,/'
fit_refuses "unknown op" "pack.csv:10: op: 'squash'" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
{ head -3 "$REAL"; printf 'a\0b\n'; } > "$WORK/pack.csv"
fit_refuses "NUL byte" "pack.csv:4: NUL byte in the line" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
grep -v ',subarray,fit,' "$REAL" > "$WORK/pack.csv"
fit_refuses "a class without fit rows" "no interpreted pack rows of role fit to fit class 'subarray'" \
  fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
head -c -1 "$REAL" > "$WORK/pack.csv"
fit_refuses "truncated" "pack.csv:$(wc -l < "$REAL"): truncated line" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
finish
