#!/usr/bin/env bash
# hnm-calibrate compare's statistics against hand computations.
# Real ping-pongs: 10 B takes 10, 10, 10, 12, 12 s (two modes, as TCP round
# trips over loopback fall into); 200 B takes 5 s five times. Simulated:
# 10 B in 11 s, 200 B in 4 s.
#  - abs (|sim - median real| / median real): 10 B |11 - 10| / 10 = 10%;
#    200 B |4 - 5| / 5 = 20%.
#  - bias (median over the real rows of (sim - y) / y): 10 B median of
#    0.1 x 3 and -1/12 x 2 = 10%; 200 B -20%.
#  - se (bootstrap standard error of the size's median / median): a median
#    of 5 draws from {10, 10, 10, 12, 12} is 12 exactly when 3 or more draws
#    are 12, P = sum_{j>=3} C(5,j) 0.4^j 0.6^(5-j) = 0.31744; else 10. Its
#    standard deviation is 2 sqrt(P (1 - P)) = 0.93096, 9.3096% of 10.
#    The old normal-theory estimate, 1.2533 x 1.4826 MAD / sqrt(n), is 0
#    here (MAD 0): it is what made calibration.real fail on two-mode TCP
#    data. 200 B: 0 exactly (every draw 5).
#  - bse (bootstrap standard error of bias): the same two-valued median over
#    {0.1 x 3, -1/12 x 2}: (0.1 + 1/12) sqrt(P (1 - P)) = 8.5338%; 200 B 0.
# A bootstrap of 200 resamples estimates a standard deviation to about
# 1 / sqrt(2 x 200) = 5% relative: se and bse are asserted within 15% of
# the closed form (3 sigma), the rest exactly; the same input twice prints
# the same table (fixed seed).
source "$(dirname "$0")/lib.sh"

{ echo op,size,start,duration
  for y in 10 10 10 12 12; do echo "pingpong,10,0,$y"; done
  for y in 5 5 5 5 5; do echo "pingpong,200,0,$y"; done; } >"$WORK/real.csv"
printf 'op,size,start,duration\npingpong,10,0,11\npingpong,200,0,4\n' >"$WORK/sim.csv"

"$HNM_CALIBRATE" compare "$WORK/real.csv" m="$WORK/sim.csv" >"$WORK/t1.txt"
check "compare exits 0" [ $? -eq 0 ]
"$HNM_CALIBRATE" compare "$WORK/real.csv" m="$WORK/sim.csv" >"$WORK/t2.txt"
check "the same input prints the same table" cmp -s "$WORK/t1.txt" "$WORK/t2.txt"
cat "$WORK/t1.txt"

# col DECADE NAME: the column NAME of the ping-pong row of DECADE, '%' off.
col() {
  awk -v d="$1" -v c="$2" '$1 == "pingpong" { for (i = 1; i <= NF; i++) h[$i] = i - 1; next }
    $1 == d { v = $h[c]; sub(/%$/, "", v); print v }' "$WORK/t1.txt"
}
check_eq "header" "$(head -1 "$WORK/t1.txt" | tr -s ' ')" "pingpong decade points se abs:m bias:m bse:m"
check_eq "1e1-1e2 points" "$(col 1e1-1e2 points)" 5
check_eq "1e2-1e3 points" "$(col 1e2-1e3 points)" 5
check_close "1e1-1e2 abs" "$(col 1e1-1e2 abs:m)" 10 1e-9
check_close "1e2-1e3 abs" "$(col 1e2-1e3 abs:m)" 20 1e-9
check_close "1e1-1e2 bias" "$(col 1e1-1e2 bias:m)" 10 1e-9
check_close "1e2-1e3 bias" "$(col 1e2-1e3 bias:m)" -20 1e-9
check_close "1e1-1e2 se (bootstrap of a two-mode median)" "$(col 1e1-1e2 se)" 9.3096 0.15
check_close "1e2-1e3 se (constant times)" "$(col 1e2-1e3 se)" 0 0
check_close "1e1-1e2 bse" "$(col 1e1-1e2 bse:m)" 8.5338 0.15
check_close "1e2-1e3 bse (constant times)" "$(col 1e2-1e3 bse:m)" 0 0
finish
