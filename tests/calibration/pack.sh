#!/usr/bin/env bash
# Pack costs in hnm-calibrate fit (docs/calibration.md, "Pack costs"):
#   - a pack.csv whose times follow known coefficients exactly gives those
#     coefficients back (every style, class and operation);
#   - with jumps (core/hnm_bench.h), the per-jump times come back too; a
#     file without the jumps column (the first format) fits as the same
#     file with every jump 0 does, byte for byte;
#   - with elements and periods (core/hnm_bench.h), the per-element and
#     per-irregular times and the history come back; a file without the
#     period column (the second format) still fits to the model it gave;
#   - docs/data/pack-openmpi.csv (this machine's Open MPI) gives the bundled
#     graphene model's <pack> element, to its 3 printed digits;
#   - the report lists every pattern, fitted or held out;
#   - closed loop: the benchmark under hnm-run --model graphene (MPI_Pack and
#     MPI_Unpack charged by the plugin, copy loops free) fits back graphene's
#     interpreted costs, and predicts every held-out pattern exactly: the
#     plugin counts the blocks of every pattern (struct of subarrays, hvector
#     of vectors, resized columns...) as the benchmark does; and under a
#     model with per-jump times for every class, every simulated MPI_Pack and
#     MPI_Unpack takes the formula's time at the benchmark's own count of
#     jumps: the plugin counts them as the benchmark does; and under one with
#     per-element and per-irregular times too, at the benchmark's own count
#     of elements and period;
#   - bad pack.csv rows are refused: exit 2, one line naming file, line, field.
source "$(dirname "$0")/lib.sh"

simulate graphene "$WORK/ok" --sizes 30 --reps 1 --max 1MiB --no-contention
P2P=("$WORK/ok/p2p.csv" "$WORK/ok/probe.csv")
REAL=$SOURCE_DIR/docs/data/pack-openmpi.csv

# The coefficients of the style / class / op of a model's --explain, as
# "c0 per-block per-byte" for each of the 18 (style, class, op), one a line
# (jumped: "per-jump" of each, 0 when the model gives none).
explained() {
  "$HNM_RUN" --model "$1" --explain | awk '$1 ~ /^(interpreted|compiled|manual)$/ && NF > 10 {
    print $1, $2, "pack", $4, $7, $10; print $1, $2, "unpack", $13, $16, $19 }'
}
# term MODEL NAME: "style class op time" per (style, class, op), the time
# per NAME (jump, element or irregular) of MODEL's --explain, 0 when the
# model gives none; for irregular, the history (runs) follows, - for none.
term() {
  "$HNM_RUN" --model "$1" --explain | awk -v t="$2" '$1 ~ /^(interpreted|compiled|manual)$/ && NF > 10 {
    p = 0; u = 0; h = (t == "irregular") ? " -" : ""
    for (i = 20; i <= NF; i++) if ($i == t) { p = $(i + 1); u = $(i + 4); if (t == "irregular") h = " " $(i + 11) }
    print $1, $2, "pack", p h; print $1, $2, "unpack", u h }'
}
jumped() { term "$1" jump; }

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
paste <(jumped "$WORK/real.xml") <(jumped graphene) > "$WORK/jpair"
check "graphene: 18 per-jump times compared" [ "$(wc -l < "$WORK/jpair")" -eq 18 ]
check "graphene: some class has a per-jump time" awk '$4 > 0 { f = 1 } END { exit !f }' "$WORK/jpair"
while read -r s c o a _ _ _ g; do
  check_close "graphene = the fit of docs/data/pack-openmpi.csv: $s $c $o per-jump" "$a" "$g" 5e-3
done < "$WORK/jpair"
paste <(term "$WORK/real.xml" element) <(term graphene element) > "$WORK/epair"
check "graphene: some class has a per-element time" awk '$4 > 0 { f = 1 } END { exit !f }' "$WORK/epair"
while read -r s c o a _ _ _ g; do
  check_close "graphene = the fit of docs/data/pack-openmpi.csv: $s $c $o per-element" "$a" "$g" 5e-3
done < "$WORK/epair"
paste <(term "$WORK/real.xml" irregular) <(term graphene irregular) > "$WORK/ipair"
check "graphene: 18 per-irregular times compared" [ "$(wc -l < "$WORK/ipair")" -eq 18 ]
check "graphene: some class has a per-irregular time" awk '$4 > 0 { f = 1 } END { exit !f }' "$WORK/ipair"
while read -r s c o a ah _ _ _ g gh; do
  check_close "graphene = the fit of docs/data/pack-openmpi.csv: $s $c $o per-irregular" "$a" "$g" 5e-3
  check_eq "graphene = the fit of docs/data/pack-openmpi.csv: $s $c $o history" "$ah" "$gh"
done < "$WORK/ipair"

# 2b. A first-format file (no jumps column; the data behind graphene's
# <pack> before per-jump times) still fits to the coefficients it gave then.
"$HNM_CALIBRATE" fit "${P2P[@]}" "$DATA/pack/openmpi-2026-11-26.csv" -o "$WORK/old.xml" --no-plots 2>/dev/null
paste <(explained "$WORK/old.xml") <(explained "$DATA/models/pack-openmpi-2026-11-26.xml") > "$WORK/pair"
check "first format: 18 pack costs compared" [ "$(wc -l < "$WORK/pair")" -eq 18 ]
costs_close "first format = the coefficients fitted before per-jump times:" 5e-3
check "first format: no per-jump time written" [ "$(grep -c 'per-jump' "$WORK/old.xml")" -eq 0 ]

# 2c. A second-format file (jumps, no period column; the data behind
# graphene's <pack> before per-element and per-irregular times) still fits
# to the coefficients it gave then, and to no time per element or irregular
# block.
"$HNM_CALIBRATE" fit "${P2P[@]}" "$DATA/pack/openmpi-2026-11-27.csv" -o "$WORK/old2.xml" --no-plots 2>/dev/null
paste <(explained "$WORK/old2.xml") <(explained "$DATA/models/pack-openmpi-2026-11-27.xml") > "$WORK/pair"
check "second format: 18 pack costs compared" [ "$(wc -l < "$WORK/pair")" -eq 18 ]
costs_close "second format = the coefficients fitted before per-element times:" 5e-3
paste <(jumped "$WORK/old2.xml") <(jumped "$DATA/models/pack-openmpi-2026-11-27.xml") > "$WORK/jpair"
while read -r s c o a _ _ _ g; do
  check_close "second format = before: $s $c $o per-jump" "$a" "$g" 5e-3
done < "$WORK/jpair"
check "second format: no per-element, per-irregular or history written" \
  [ "$(grep -c 'per-element\|per-irregular\|history' "$WORK/old2.xml")" -eq 0 ]
R=$WORK/real-report/pack.txt
check "report written" [ -s "$R" ]
for p in vec1 vec16 vec128 col idx idx16 idxb struct3 subz suby mg_x mg_y lu milc fft unstruct wrf sub2; do
  check "report lists pattern $p" grep -q "^$p " "$R"
done
check "report marks held-out patterns" grep -q "^mg_x .* holdout " "$R"
check "stderr names the held-out error" grep -q "held-out patterns within" "$WORK/real.err"

# 3. Closed loop under SMPI.
# pack_sim MODEL DIR: the benchmark's pack patterns simulated under MODEL,
# one timing each, into DIR/pack.csv.
pack_sim() {
  mkdir -p "$2"
  "$HNM_RUN" --model "$1" -platform "${TWO[0]}" -hostfile "${TWO[1]}" -np 1 --cfg=smpi/simulate-computation:no \
    --cfg=smpi/wtime:0 --log=root.thres:critical "$APPS_BIN/calibrate" --pack-only -d "$2" --pack-reps 1
}
pack_sim graphene "$WORK/sim"
SIM=$WORK/sim/pack.csv
check "the benchmark writes the jumps and period columns" [ "$(head -1 "$SIM")" = \
  "pattern,class,role,n,count,blocks,bytes,style,op,reps,seconds,jumps,period" ]
# The benchmark's counts (core/hnm_bench.h's weights, summed by hand from
# apps/calibrate_pack.c's patterns): col n blocks 8 KiB apart: n - 1;
# vec128 (2 KiB apart): (n - 1) / 2; fft n (columns of 16 B every 16 n B):
# n (n - 1) for n = 256, a quarter of it at n = 64 (1 KiB apart); lu n=512
# (20 KiB apart): 511; suby n=160 (rows 200 KiB apart): 159, n=24 (4,608 B): 0.
jumps_of() { awk -F, -v p="$1" -v n="$2" '$1 == p && $4 == n && $8 == "interpreted" && $9 == "pack" { print $12 }' "$SIM"; }
for want in "col 4096 4095" "col 16 15" "vec128 1024 511.5" "fft 256 65280" "fft 64 1008" "lu 512 511" "lu 64 0" \
  "suby 160 159" "suby 24 0" "mg_y 96 95" "vec1 65536 0" "unstruct 20000 0"; do
  read -r p n j <<<"$want"
  check_eq "benchmark's jumps of $p n=$n" "$(jumps_of "$p" "$n")" "$j"
done
# Periods (core/hnm_bench.h, from each pattern's constructor): idx, idx16,
# unstruct (indexed, random lengths): n, one element; struct3 (blocks of 1,
# 1 and 2 doubles, none adjacent): 3; idxb (indexed_block), wrf (a struct of
# 4 alike subarrays) and every vector and subarray: 0.
period_of() { awk -F, -v p="$1" -v n="$2" '$1 == p && $4 == n && $8 == "interpreted" && $9 == "pack" { print $13 }' "$SIM"; }
for want in "idx 8192 8192" "idx16 65536 65536" "unstruct 20000 20000" "unstruct 2000 2000" "struct3 16384 3" \
  "idxb 32768 0" "wrf 96 0" "vec1 65536 0" "fft 256 0" "milc 24 0" "sub2 96 0"; do
  read -r p n j <<<"$want"
  check_eq "benchmark's period of $p n=$n" "$(period_of "$p" "$n")" "$j"
done

# 3a. The plugin's count of jumps is the benchmark's, for every pattern:
# under pack-jump.xml (per-jump times for every class), each MPI_Pack and
# MPI_Unpack takes c0 + per-block x blocks + per-byte x bytes + per-jump x
# jumps with the row's own blocks and jumps (times printed to 9 digits).
pack_sim "$DATA/models/pack-jump.xml" "$WORK/simj"
n=0
while IFS=, read -r p cls role sz count blocks bytes style op reps secs jumps period; do
  case $cls-$op in
    vector-pack) k="1e-6 2e-9 0.5e-9 20e-9" ;; vector-unpack) k="3e-6 4e-9 0.25e-9 40e-9" ;;
    indexed-pack) k="5e-6 6e-9 0.75e-9 60e-9" ;; indexed-unpack) k="7e-6 8e-9 1.5e-9 80e-9" ;;
    subarray-pack) k="9e-6 10e-9 1.25e-9 100e-9" ;; *) k="11e-6 12e-9 1.75e-9 120e-9" ;;
  esac
  read -r c0 cb cB cj <<<"$k"
  check_close "plugin = benchmark: $p n=$sz $op ($blocks blocks, $bytes B, $jumps jumps)" "$secs" \
    "$(calc "$c0 + $cb * $blocks + $cB * $bytes + $cj * $jumps")" 1e-8
  n=$((n + 1))
done < <(awk -F, 'NR > 1 && $8 == "interpreted"' "$WORK/simj/pack.csv")
check "plugin = benchmark: 112 pack and unpack times compared, got $n" [ "$n" -eq 112 ]

# 3b. The plugin's elements and periods are the benchmark's, for every
# pattern: under pack-irregular.xml (pack-jump.xml with per-element and
# per-irregular times; histories 1000, 64 and 64 runs for vector, indexed,
# subarray), each MPI_Pack and MPI_Unpack takes the formula's time with the
# row's own count and period.
pack_sim "$DATA/models/pack-irregular.xml" "$WORK/simi"
n=0
irregular=0
while IFS=, read -r p cls role sz count blocks bytes style op reps secs jumps period; do
  case $cls-$op in
    vector-pack) k="1e-6 2e-9 0.5e-9 20e-9 30e-9 3e-9 1000" ;; vector-unpack) k="3e-6 4e-9 0.25e-9 40e-9 50e-9 5e-9 1000" ;;
    indexed-pack) k="5e-6 6e-9 0.75e-9 60e-9 70e-9 7e-9 64" ;; indexed-unpack) k="7e-6 8e-9 1.5e-9 80e-9 90e-9 9e-9 64" ;;
    subarray-pack) k="9e-6 10e-9 1.25e-9 100e-9 110e-9 11e-9 64" ;; *) k="11e-6 12e-9 1.75e-9 120e-9 130e-9 13e-9 64" ;;
  esac
  read -r c0 cb cB cj ce ci h <<<"$k"
  w=$(calc "$period > $h ? 1 - $h / ($period + ($period == 0)) : 0") # (gawk folds 1 / 0 even where unused)
  [ "$w" != 0 ] && irregular=$((irregular + 1))
  check_close "plugin = benchmark: $p n=$sz $op ($count elements, period $period)" "$secs" \
    "$(calc "$c0 + $cb * $blocks + $cB * $bytes + $cj * $jumps + $ce * ($count - 1) + $ci * $blocks * $w")" 1e-8
  n=$((n + 1))
done < <(awk -F, 'NR > 1 && $8 == "interpreted"' "$WORK/simi/pack.csv")
check "plugin = benchmark with elements and periods: 112 times compared, got $n" [ "$n" -eq 112 ]
# idx n=1024, 8192, 32768, idx16 (all four), unstruct (both): 9 (idx n=64: its period is the history, weight 0)
check "plugin = benchmark: 18 irregular times past their history, got $irregular" [ "$irregular" -eq 18 ]

# 1a. Exact synthetic times with jumps, on the simulated file's blocks,
# bytes and jumps: the per-jump times come back for the classes whose fit
# rows have jumps (vector: col, vec128; subarray: suby); indexed has none
# (its per-jump is left at 0, and nothing is written for it).
awk -F, -v OFS=, 'NR == 1 { print; next } $8 != "contiguous" {
    s = ($8 == "interpreted") ? 1 : ($8 == "manual") ? 2 : 3
    c = ($2 == "vector") ? 1 : ($2 == "indexed") ? 2 : 3
    o = ($9 == "pack") ? 1 : 2
    c0 = 1e-7 * (s + c + o); cb = 1e-9 * s * c * o; cB = 1e-12 * (10 * s + c + o); cj = (c == 2) ? 0 : 1e-9 * (s + 2 * o) * c
    $11 = sprintf("%.17g", c0 + cb * $6 + cB * $7 + cj * $12) } { print }' "$SIM" > "$WORK/exactj.csv"
"$HNM_CALIBRATE" fit "${P2P[@]}" "$WORK/exactj.csv" -o "$WORK/exactj.xml" --no-plots 2>/dev/null
n=0
while read -r style cls op cj; do
  s=$([ "$style" = interpreted ] && echo 1 || ([ "$style" = manual ] && echo 2) || echo 3)
  c=$([ "$cls" = vector ] && echo 1 || ([ "$cls" = indexed ] && echo 2) || echo 3)
  o=$([ "$op" = pack ] && echo 1 || echo 2)
  check_close "exact with jumps $style $cls $op: per-jump" "$cj" \
    "$(calc "$c == 2 ? 0 : 1e-9 * ($s + 2 * $o) * $c")" 1e-5
  n=$((n + 1))
done < <(jumped "$WORK/exactj.xml")
check "exact with jumps: 18 fitted (style, class, op), got $n" [ "$n" -eq 18 ]
while read -r style cls op c0 cb cB; do
  s=$([ "$style" = interpreted ] && echo 1 || ([ "$style" = manual ] && echo 2) || echo 3)
  c=$([ "$cls" = vector ] && echo 1 || ([ "$cls" = indexed ] && echo 2) || echo 3)
  o=$([ "$op" = pack ] && echo 1 || echo 2)
  check_close "exact with jumps $style $cls $op: per-block" "$cb" "$(calc "1e-9 * $s * $c * $o")" 1e-5
done < <(explained "$WORK/exactj.xml")

# 1c. Exact synthetic times with every term, on the simulated file's
# shapes: indexed rows (the only class whose fit rows have several
# elements, struct3, and irregular periods, idx and idx16) also cost a time
# per element after the first and per irregular block past a history of
# 8192 runs (one of the fit's choices): those times and the history come
# back; the other classes get none.
awk -F, -v OFS=, 'NR == 1 { print; next } $8 != "contiguous" {
    s = ($8 == "interpreted") ? 1 : ($8 == "manual") ? 2 : 3
    c = ($2 == "vector") ? 1 : ($2 == "indexed") ? 2 : 3
    o = ($9 == "pack") ? 1 : 2
    c0 = 1e-7 * (s + c + o); cb = 1e-9 * s * c * o; cB = 1e-12 * (10 * s + c + o); cj = (c == 2) ? 0 : 1e-9 * (s + 2 * o) * c
    ce = (c == 2) ? 1e-9 * (s + o) : 0; ci = (c == 2) ? 2e-9 * (s + o) : 0
    w = ($13 > 8192) ? 1 - 8192 / $13 : 0
    $11 = sprintf("%.17g", c0 + cb * $6 + cB * $7 + cj * $12 + ce * ($5 - 1) + ci * $6 * w) } { print }' "$SIM" \
  > "$WORK/exacti.csv"
"$HNM_CALIBRATE" fit "${P2P[@]}" "$WORK/exacti.csv" -o "$WORK/exacti.xml" --no-plots 2>/dev/null
n=0
while read -r style cls op ce; do
  s=$([ "$style" = interpreted ] && echo 1 || ([ "$style" = manual ] && echo 2) || echo 3)
  o=$([ "$op" = pack ] && echo 1 || echo 2)
  want=$([ "$cls" = indexed ] && calc "1e-9 * ($s + $o)" || echo 0)
  check_close "exact with every term $style $cls $op: per-element" "$ce" "$want" 1e-5
  n=$((n + 1))
done < <(term "$WORK/exacti.xml" element)
check "exact with every term: 18 per-element times, got $n" [ "$n" -eq 18 ]
n=0
while read -r style cls op ci h; do
  s=$([ "$style" = interpreted ] && echo 1 || ([ "$style" = manual ] && echo 2) || echo 3)
  o=$([ "$op" = pack ] && echo 1 || echo 2)
  if [ "$cls" = indexed ]; then
    check_close "exact with every term $style $cls $op: per-irregular" "$ci" "$(calc "2e-9 * ($s + $o)")" 1e-5
    check_eq "exact with every term $style $cls $op: history" "$h" 8192
  else
    check_eq "exact with every term $style $cls $op: no per-irregular" "$ci $h" "0 -"
  fi
  n=$((n + 1))
done < <(term "$WORK/exacti.xml" irregular)
check "exact with every term: 18 per-irregular times, got $n" [ "$n" -eq 18 ]
while read -r style cls op c0 cb cB; do
  s=$([ "$style" = interpreted ] && echo 1 || ([ "$style" = manual ] && echo 2) || echo 3)
  c=$([ "$cls" = vector ] && echo 1 || ([ "$cls" = indexed ] && echo 2) || echo 3)
  o=$([ "$op" = pack ] && echo 1 || echo 2)
  check_close "exact with every term $style $cls $op: per-block" "$cb" "$(calc "1e-9 * $s * $c * $o")" 1e-5
done < <(explained "$WORK/exacti.xml")

# 1b. The first format (no jumps column) fits as the same rows with every
# jump 0: the same model file, byte for byte (the per-jump subsets of the fit
# are singular and skipped; nothing per jump is written).
awk -F, -v OFS=, 'NR == 1 { print "pattern,class,role,n,count,blocks,bytes,style,op,reps,seconds"; next }
  { NF = 11; print }' "$WORK/exact.csv" > "$WORK/v1.csv"
awk -F, -v OFS=, 'NR == 1 { print "pattern,class,role,n,count,blocks,bytes,style,op,reps,seconds,jumps"; next }
  { NF = 11; $12 = 0; print }' "$WORK/exact.csv" > "$WORK/v1zero.csv"
"$HNM_CALIBRATE" fit "${P2P[@]}" "$WORK/v1.csv" -o "$WORK/v1.xml" --no-plots 2>/dev/null
"$HNM_CALIBRATE" fit "${P2P[@]}" "$WORK/v1zero.csv" -o "$WORK/v1zero.xml" --no-plots 2>/dev/null
check "first format: fitted" [ -s "$WORK/v1.xml" ]
check "first format = every jump 0, byte for byte" cmp -s "$WORK/v1.xml" "$WORK/v1zero.xml"
check "first format: no per-jump time written" [ "$(grep -c 'per-jump' "$WORK/v1.xml")" -eq 0 ]
"$HNM_CALIBRATE" fit "${P2P[@]}" "$WORK/sim/pack.csv" -o "$WORK/sim.xml" --no-plots 2> "$WORK/sim.err"
paste <(explained "$WORK/sim.xml") <(explained graphene | grep '^interpreted ') > "$WORK/pair"
check "closed loop: only the interpreted style is fitted (copy loops take no simulated time)" \
  [ "$(wc -l < "$WORK/pair")" -eq 6 ]
costs_close "closed loop" 1e-6
worst=$(sed -n 's/.*held-out patterns within \([0-9.]*\)%.*/\1/p' "$WORK/sim.err")
check "closed loop: every held-out pattern predicted exactly (worst ${worst:-?}%)" [ "${worst:-x}" = "0.0" ]

bad() { sed "$1" "$REAL" > "$WORK/pack.csv"; }
# setf FILE LINE FIELD VALUE: FILE with field FIELD of line LINE replaced.
setf() { awk -F, -v OFS=, -v l="$2" -v f="$3" -v v="$4" 'NR == l { $f = v } { print }' "$1" > "$WORK/pack.csv"; }
FIELDS=$(head -1 "$REAL" | awk -F, '{ print NF }')
setf "$SIM" 5 12 -1
fit_refuses "negative jumps" "pack.csv:5: jumps: '-1' is not a finite number" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$SIM" 6 12 nan
fit_refuses "NaN jumps" "pack.csv:6: jumps: 'nan'" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$SIM" 7 12 inf
fit_refuses "infinite jumps" "pack.csv:7: jumps: 'inf'" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$SIM" 3 12 64
fit_refuses "as many jumps as blocks" "pack.csv:3: jumps: '64' is not below blocks \\(64\\)" \
  fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
awk -F, -v OFS=, 'NR == 8 { NF = 11 } { print }' "$SIM" > "$WORK/pack.csv"
fit_refuses "no jumps field under the jumps header" "pack.csv:8: 11 field\\(s\\), expected 13" \
  fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$SIM" 4 13 -1
fit_refuses "negative period" "pack.csv:4: period: '-1' is not a whole number >= 0" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$SIM" 5 13 2.5
fit_refuses "fractional period" "pack.csv:5: period: '2.5' is not a whole number >= 0" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$SIM" 6 13 nan
fit_refuses "NaN period" "pack.csv:6: period: 'nan'" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$SIM" 7 13 1e300
fit_refuses "period out of range" "pack.csv:7: period: '1e300'" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
awk -F, -v OFS=, 'NR == 9 { NF = 12 } { print }' "$SIM" > "$WORK/pack.csv"
fit_refuses "no period field under the period header" "pack.csv:9: 12 field\\(s\\), expected 13" \
  fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$REAL" 5 11 -1e-6
fit_refuses "negative time" "pack.csv:5: seconds: '-1e-6' is not a finite number" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$REAL" 6 11 nan
fit_refuses "NaN time" "pack.csv:6: seconds: 'nan'" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
bad '7s/,vector,/,cubic,/'
fit_refuses "unknown class" "pack.csv:7: class: 'cubic'" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
bad '8s/,[^,]*$//'
fit_refuses "missing field" "pack.csv:8: $((FIELDS - 1)) field\(s\), expected $FIELDS" fit "${P2P[@]}" "$WORK/pack.csv" -o "$WORK/m.xml"
setf "$REAL" 9 11 2.5
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
