#!/usr/bin/env bash
# Closed loop in simulation: the benchmark under hnm-run with the bundled
# graphene model on two nodes (tests/data/platforms/two.xml), fit, then the
# same benchmark with the fitted model. Expected, independently of the fit:
# - protocol: graphene's async 65536 and detached 327680, found by the
#   probe's bisection exactly (SMPI switches mode at these sizes + 1);
# - limiter: SimGrid gives each of a node's two opposite flows
#   bw-factor x (limiter share 0.75 B), a lone flow bw-factor x B, so
#   B_s + B_r = 1.5 x the one-way bandwidth; the fit's ratio is off only by
#   the 16-byte envelope in its latency (16 / 117.5e6 s in 0.045 s): 1e-5;
# - breakpoints: graphene's overheads change at 1420 and 32768 (recv) and
#   1420 (send), so the fitted segments end at the largest sampled sizes
#   <= 1420 and <= 32768 (exact data: no other place fits);
# - overheads of the first segment: graphene's 1.5 us + 0.25 ns/B (send),
#   2 us + 0.3 ns/B (recv), to 1e-6 (the CSV keeps 9 digits);
# - re-simulation: every send, recv and ping-pong time within 2% of the
#   original's (the issue's bound; in practice < 0.5%: SimGrid adds one
#   16-byte envelope time to eager round trips above ~100 B that no
#   segment model expresses), and the contention probe's times within 1e-4.
source "$(dirname "$0")/lib.sh"

ARGS=(--sizes 150 --reps 2 --max 16MiB --seed 3)
check "the benchmark simulated with graphene" simulate graphene "$WORK/g" "${ARGS[@]}"
check "the fit" "$HNM_CALIBRATE" fit "$WORK"/g/*.csv -o "$WORK/fitted.xml" --no-plots 2>/dev/null

attr() { # attr NAME: the first value of attribute NAME in fitted.xml
  grep -o " $1=\"[^\"]*\"" "$WORK/fitted.xml" | head -1 | sed 's/.*="\(.*\)"/\1/'
}
check "protocol async 65536" [ "$(attr async)" = 65536 ]
check "protocol detached 327680" [ "$(attr detached)" = 327680 ]
check_close "limiter factor" "$(attr factor)" 1.5 1e-5
uptos=$(grep -o 'upto="[0-9]*"' "$WORK/fitted.xml" | tr -dc '0-9\n')
for b in 1420 32768; do
  want=$(largest_below "$WORK/g/p2p.csv" $b)
  check "breakpoint at $want (largest sampled size <= $b)" grep -qx "$want" <<<"$uptos"
done
seconds() { awk -v v="$1" 'BEGIN { sub(/s$/, "", v); printf "%.17g", v }'; }
check_close "send-o" "$(seconds "$(attr send-o)")" 1.5e-6 1e-6
check_close "send-per-byte" "$(seconds "$(attr send-per-byte)")" 0.25e-9 1e-6
check_close "recv-o" "$(seconds "$(attr recv-o)")" 2e-6 1e-6
check_close "recv-per-byte" "$(seconds "$(attr recv-per-byte)")" 0.3e-9 1e-6

check "the benchmark simulated with the fitted model" simulate "$WORK/fitted.xml" "$WORK/f" "${ARGS[@]}"
# Same seed and sizes: row i of both runs is the same operation and size.
worst() { # worst OP: largest relative difference over OP's rows
  paste -d, "$WORK/g/p2p.csv" "$WORK/f/p2p.csv" | awk -F, -v op="$1" '
    NR > 1 && $1 == op { if ($1 != $5 || $2 != $6) bad = 1
                         d = ($8 - $4) / $4; if (d < 0) d = -d; if (d > w) w = d; n++ }
    END { if (bad) print "mismatch"; else if (n == 0) print "none"; else printf "%.3g\n", w }'
}
for op in pingpong send recv; do
  w=$(worst $op)
  echo "closed loop: $op worst relative difference $w"
  check "closed loop $op within 2% at every size" awk -v w="$w" 'BEGIN { exit !(w + 0 == w && w <= 0.02) }'
done
# contention.csv: pairs,mode,size,rank,duration; both runs measure the same
# rows, and there must be rows (two empty files compare equal).
check_eq "contention probe: as many rows re-simulated as simulated" \
  "$(wc -l <"$WORK/f/contention.csv")" "$(wc -l <"$WORK/g/contention.csv")"
w=$(paste -d, "$WORK/g/contention.csv" "$WORK/f/contention.csv" | awk -F, '
  NR > 1 { if ($1 != $6 || $2 != $7 || $3 != $8 || $4 != $9) bad = 1
           d = ($10 - $5) / $5; if (d < 0) d = -d; if (d > w) w = d; n++ }
  END { if (bad) print "mismatch"; else if (n == 0) print "none"; else printf "%.3g\n", w }')
echo "closed loop: contention probe worst relative difference $w"
check "closed loop contention within 1e-4 (got $w)" awk -v w="$w" 'BEGIN { exit !(w + 0 == w && w <= 1e-4) }'
finish
