#!/usr/bin/env bash
# SimGrid 3.32's lazy max-min update (network/optim:Lazy, its default) and
# hnm-run's choice of update (docs/lazy-bug/README.md, docs/models.md).
#
# The scenario (late_flow.c) on flat32 (B = 125e6 B/s node links of 10 us,
# route s -> d: limiter_s, UP_s, DOWN_d, limiter_d, no cross-traffic):
# rank 3 sends BIG bytes to rank 2 from time 0; at T1, rank 0 sends SMALL
# bytes to rank 1 and rank 1 SMALL bytes to rank 2, at the same instant.
# SMPI adds 16 bytes to every message: P = SMALL + 16, P3 = BIG + 16.
# 1 -> 2 shares rank 2's DOWN link with 3 -> 2. Under Lazy, 0 -> 1 is
# enabled first and marks the limiter of node 1, which is the first link of
# 1 -> 2, so 1 -> 2 is solved without its other links and 3 -> 2 is never
# re-solved: 3 -> 2 runs on as if 1 -> 2 did not exist. Part (a) pins that
# defect in plain SimGrid; (b) and (c) check hnm-run's choice of update and
# the plugin's mend (plugin/hnm_lmm_fix.cpp), which runs only on 3.32.
# SimGrid canary (ctest label simgrid-canary): a failure of (a) after a
# SimGrid upgrade means the bug was fixed upstream, not a regression of
# hnm; a failure of (b) or (c) there means the mend is off on the new
# version while the defect remains.
source "$(dirname "$0")/lib.sh"
PLAT=$DATA/platforms/flat32.xml HOSTS=$DATA/platforms/flat32.hosts
B=125000000 BIG=1250000 SMALL=125000 T1=1e-3
P=$((SMALL + 16)) P3=$((BIG + 16))
ARGS=("$SIM_BIN/late_flow" "$BIG" "$SMALL" "$T1")
TMP=$WORK

# t FROM TO OUTPUT: the completion time of the transfer FROM -> TO.
t() { awk -v f="$1" -v d="$2" '$2 == f && $3 == d { print $4 }' <<<"$3"; }

# --- (a) plain SimGrid: SMPI's own model with its correction factors set to
# 1 and no cross-traffic, the limiters as declared (B). Max-min: 0 -> 1 and
# 1 -> 2 share limiter 1 (B/2 each), 1 -> 2 and 3 -> 2 share DOWN_2.
plain_run() {
  plain "$PLAT" "$HOSTS" 4 --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/crosstraffic:0 \
    "$@" "${ARGS[@]}"
}
full=$(plain_run --cfg=network/optim:Full)
check_close "plain Full: 0 -> 1 at B/2" "$(t 0 1 "$full")" "$(calc "$T1 + 20e-6 + 2 * $P / $B")" 1e-9
check_close "plain Full: 1 -> 2 at B/2" "$(t 1 2 "$full")" "$(calc "$T1 + 20e-6 + 2 * $P / $B")" 1e-9
check_close "plain Full: 3 -> 2 gives P bytes' time to 1 -> 2" "$(t 3 2 "$full")" \
  "$(calc "20e-6 + ($P3 + $P) / $B")" 1e-9
lazy=$(plain_run)
# If this check fails with the max-min value, SimGrid's Lazy is fixed
# (docs/lazy-bug): the plugin's mend is then guarded off, and smpi-default
# no longer differs from smpi-fixed.
check_close "plain SimGrid's default (Lazy) still lets 3 -> 2 ignore 1 -> 2" "$(t 3 2 "$lazy")" \
  "$(calc "20e-6 + $P3 / $B")" 1e-9

# --- (b) hnm-run's choice (--dry-run): SimGrid's default (Lazy, mended by
# the plugin) for max-min models, with or without node limiters on the
# platform, for smpi-default (unmended) and for contention-free models;
# Full for LogGPS (port order).
sed 's/contention="maxmin"/contention="none"/; s/name="fluid-textbook"/name="fluid-nc"/' \
  "$FLUID" >"$TMP/nc.xml"
optim() {
  "$HNM_RUN" --model "$1" --dry-run -platform "$2" -hostfile "${2%.xml}.hosts" -np 2 "$SIM_BIN/late_flow" |
    grep -o -- '--cfg=network/optim:[A-Za-z]*' || echo default
}
for plat in "$PLAT" "$DATA/platforms/two.xml"; do
  p=$(basename "$plat")
  check "loggps on $p: Full" [ "$(optim loggps "$plat")" = "--cfg=network/optim:Full" ]
  for m in graphene fluid fluid:limiter=1 fluid:limiter=keep "$DATA/models/hybrid-limiter15.xml" smpi-default \
    smpi-fixed "$TMP/nc.xml" "$DATA/models/good-routes.xml"; do
    check "$m on $p: SimGrid's default" [ "$(optim "$m" "$plat")" = default ]
  done
done

# --- (c) under hnm-run's choice and under both updates, the max-min values.
# fluid: limiters lifted, so 0 -> 1 runs at B and 1 -> 2 at B/2.
for optim in default Full Lazy; do
  cfg=()
  [ "$optim" != default ] && cfg=(--cfg=network/optim:$optim)
  out=$(hnm "$FLUID" "$PLAT" "$HOSTS" 4 "${cfg[@]}" "${ARGS[@]}" 2>"$TMP/err")
  check_close "fluid $optim: 0 -> 1 at B" "$(t 0 1 "$out")" "$(calc "$T1 + 20e-6 + $P / $B")" 1e-9
  check_close "fluid $optim: 1 -> 2 at B/2" "$(t 1 2 "$out")" "$(calc "$T1 + 20e-6 + 2 * $P / $B")" 1e-9
  check_close "fluid $optim: 3 -> 2 at B/2 meanwhile" "$(t 3 2 "$out")" "$(calc "20e-6 + ($P3 + $P) / $B")" 1e-9
  check "fluid $optim: nothing on stderr" [ ! -s "$TMP/err" ]
done
# fluid with the limiters kept at B: every link saturable, as plain.
out=$(hnm "$FLUID:limiter=1" "$PLAT" "$HOSTS" 4 "${ARGS[@]}")
check_close "fluid, limiter B: 1 -> 2 at B/2" "$(t 1 2 "$out")" "$(calc "$T1 + 20e-6 + 2 * $P / $B")" 1e-9
check_close "fluid, limiter B: 3 -> 2 at B/2 meanwhile" "$(t 3 2 "$out")" \
  "$(calc "20e-6 + ($P3 + $P) / $B")" 1e-9
# contention-free (Lazy): every flow alone on its route.
out=$(hnm "$TMP/nc.xml" "$PLAT" "$HOSTS" 4 "${ARGS[@]}")
check_close "no contention: 0 -> 1 alone" "$(t 0 1 "$out")" "$(calc "$T1 + 20e-6 + $P / $B")" 1e-9
check_close "no contention: 1 -> 2 alone" "$(t 1 2 "$out")" "$(calc "$T1 + 20e-6 + $P / $B")" 1e-9
check_close "no contention: 3 -> 2 alone" "$(t 3 2 "$out")" "$(calc "20e-6 + $P3 / $B")" 1e-9
out_full=$(hnm "$TMP/nc.xml" "$PLAT" "$HOSTS" 4 --cfg=network/optim:Full "${ARGS[@]}")
check "no contention: Full gives the same digits" [ "$out" = "$out_full" ]
# smpi-default (SimGrid's default update): plain smpirun, digit for digit,
# defect included; smpi-fixed: the same model, mended, gives Full's values.
check "smpi-default is plain smpirun" \
  [ "$(hnm smpi-default "$PLAT" "$HOSTS" 4 "${ARGS[@]}")" = "$(plain "$PLAT" "$HOSTS" 4 "${ARGS[@]}")" ]
fixed=$(hnm smpi-fixed "$PLAT" "$HOSTS" 4 "${ARGS[@]}")
fixed_full=$(plain "$PLAT" "$HOSTS" 4 --cfg=network/optim:Full "${ARGS[@]}")
for pair in "0 1" "1 2" "3 2"; do
  # shellcheck disable=SC2086
  check_close "smpi-fixed: $pair as plain smpirun under Full" "$(t $pair "$fixed")" "$(t $pair "$fixed_full")" 1e-9
done
finish
