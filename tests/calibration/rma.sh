#!/usr/bin/env bash
# One-sided (MPI RMA) calibration (apps/calibrate.c rma.csv,
# calibration/hnm_calibrate_rma.c, docs/calibration.md "One-sided costs"):
#   1. closed loop: the benchmark simulated under graphene plus known <rma>
#      costs on two nodes, fitted. Expected, from the fit's inversion of the
#      closed forms: lock, flush and pscw exactly (they involve no transfer:
#      1e-6, the CSV's 9 digits), fence within 1% (it subtracts 4 fitted
#      0-byte times m: the fitted latency's misfit), put-o and get-o within
#      10% (intercepts under the fitted point-to-point one-way times), and
#      every epoch's prediction within 2% of what was simulated;
#   2. a machine where RMA is cheap and one where it is dear (the same
#      point-to-point model, <rma> costs 0.2-0.5 us against 10-40 us),
#      each measured in simulation and fitted: monc_halo on 4 ranks
#      (32 KiB faces) under the fitted models. The cheap fit predicts PSCW
#      faster than P2P, the dear one slower, and every RMA variant cheaper
#      under the cheap fit than under the dear one;
#   3. bad rma.csv rows refused: exit 2, one line naming file, line, field.
source "$(dirname "$0")/lib.sh"

with_rma() { # with_rma NAME ATTRS: graphene plus <rma ATTRS/> into $WORK/NAME.xml
  sed "s|</segments>|</segments>\n  <rma $2/>|; s/name=\"graphene\"/name=\"$1\"/" \
    "$(dirname "$0")/../../model/models/graphene.xml" >"$WORK/$1.xml"
}
ARGS=(--sizes 60 --reps 2 --max 4MiB --seed 3)
attr() { # attr FILE NAME: seconds of attribute NAME of <rma> in FILE
  grep -o "<rma [^>]*" "$1" | grep -o " $2=\"[^\"]*\"" | sed 's/.*="\(.*\)s"/\1/'
}

# 1. Closed loop.
with_rma known 'put-o="1.5us" put-per-byte="0.05ns" get-o="2.5us" get-per-byte="0.1ns" fence="7us" pscw="5us" lock="3us" flush="0.7us"'
simulate "$WORK/known.xml" "$WORK/k" "${ARGS[@]}"
check "rma.csv written" [ -s "$WORK/k/rma.csv" ]
"$HNM_CALIBRATE" fit "$WORK"/k/*.csv -o "$WORK/k-fit.xml" --no-plots 2>/dev/null
check_close "lock" "$(attr "$WORK/k-fit.xml" lock)" 3e-6 1e-6
check_close "flush" "$(attr "$WORK/k-fit.xml" flush)" 0.7e-6 1e-6
check_close "pscw" "$(attr "$WORK/k-fit.xml" pscw)" 5e-6 1e-6
check_close "fence" "$(attr "$WORK/k-fit.xml" fence)" 7e-6 1e-2
check_close "put-o" "$(attr "$WORK/k-fit.xml" put-o)" 1.5e-6 0.1
check_close "get-o" "$(attr "$WORK/k-fit.xml" get-o)" 2.5e-6 0.1
rows=$(sed -n '/^# One-sided epochs/,/^# fitted/p' "$WORK/k-fit-report/report.txt" | awk 'NF == 5 && $1 != "epoch"')
check "report: 16 epoch rows (got $(grep -c . <<<"$rows"))" [ "$(grep -c . <<<"$rows")" -eq 16 ]
worst=$(awk '{ e = $5 < 0 ? -$5 : $5; if (e > w) w = e } END { print w + 0 }' <<<"$rows")
echo "closed loop: worst epoch prediction error $worst%"
check "every epoch predicted within 2% (worst $worst%)" awk -v w="$worst" 'BEGIN { exit !(w <= 2) }'

# 2. Cheap and dear RMA.
with_rma cheap 'put-o="0.3us" put-per-byte="0.01ns" get-o="0.5us" get-per-byte="0.01ns" fence="0.5us" pscw="0.3us" lock="0.2us" flush="0.1us"'
with_rma dear 'put-o="20us" put-per-byte="0.5ns" get-o="25us" get-per-byte="0.5ns" fence="40us" pscw="20us" lock="10us" flush="5us"'
declare -A T
for m in cheap dear; do
  simulate "$WORK/$m.xml" "$WORK/$m" "${ARGS[@]}"
  "$HNM_CALIBRATE" fit "$WORK/$m"/*.csv -o "$WORK/$m-fit.xml" --no-plots 2>/dev/null
  for v in p2p fence pscw passive; do
    T[$m.$v]=$("$HNM_RUN" --model "$WORK/$m-fit.xml" -platform "$DATA/platforms/flat32.xml" \
      -hostfile "$DATA/platforms/flat32.hosts" -np 4 --cfg=smpi/simulate-computation:no --log=root.thres:critical \
      "$APPS_BIN/monc_halo" --variant "$v" --no-payload --fields 2 --nz 64 --iterations 2 2>/dev/null |
      grep '^monc_halo,halo_swap,' | tail -1 | cut -d, -f8)
  done
  echo "fitted $m: p2p ${T[$m.p2p]} s, fence ${T[$m.fence]}, pscw ${T[$m.pscw]}, passive ${T[$m.passive]}"
done
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == a && b + 0 == b && a < b) }'; }
check "cheap fit: pscw (${T[cheap.pscw]}) < p2p (${T[cheap.p2p]})" lt "${T[cheap.pscw]}" "${T[cheap.p2p]}"
check "dear fit: pscw (${T[dear.pscw]}) > p2p (${T[dear.p2p]})" lt "${T[dear.p2p]}" "${T[dear.pscw]}"
for v in fence pscw passive; do
  check "$v: cheap fit (${T[cheap.$v]}) < dear fit (${T[dear.$v]})" lt "${T[cheap.$v]}" "${T[dear.$v]}"
done

# row_refused WHAT PATTERN LINE: a copy of the closed loop's rma.csv with
# LINE appended, refused by the fit (refuse, tests/lib.sh).
row_refused() {
  cp "$WORK/k/rma.csv" "$WORK/bad.csv"
  printf '%s\n' "$3" >>"$WORK/bad.csv"
  refuse "$1" "$2" "$HNM_CALIBRATE" fit "$WORK/k/p2p.csv" "$WORK/bad.csv" -o "$WORK/bad.xml" --no-plots
}
n=$(($(wc -l <"$WORK/k/rma.csv") + 1))
row_refused "unknown epoch" "bad\.csv:$n: epoch: unknown epoch 'flock'" "flock,0,1e-6"
row_refused "fractional size" "bad\.csv:$n: size: '1.5' is not a whole number" "lockput,1.5,1e-6"
row_refused "negative duration" "bad\.csv:$n: duration: '-1e-6' is not a non-negative number" "lock,0,-1e-6"
row_refused "duration above an hour" "bad\.csv:$n: duration: 4000 s is above 3600 s" "fence,0,4000"
row_refused "missing field" "bad\.csv:$n: 2 field\(s\), expected 3" "lock,0"
finish
