#!/usr/bin/env bash
# The plugin's remedy for SMPI 3.32's passive-target locks
# (plugin/hnm_win_fix.cpp, docs/scale.md): MPI_Win_unlock and the one-sided
# operations find the caller's entry in the target window's list of lockers
# through an index instead of SMPI's walk of the list, and must change
# nothing else.
# 1. It is on, and it takes every lock entry: win_locks.c makes
#    E P^2 + P^2 + P + (P^2 + P) + P^2 entries at P ranks and E epochs
#    (its header), each released by an unlock; and its one-sided
#    operations inside lock epochs, E + 3 per rank (phases 1, 2, 3 and 6),
#    each find their entry (the puts outside an epoch find none).
# 2. Differential: win_locks at 2, 3, 5 and 8 ranks, Brown et al.'s
#    passive-target halo swap (monc_halo --variant passive) and the other
#    skeletons under every bundled model give the same output and status
#    byte for byte with the remedy on and off (--cfg=hnm/unlock-remedy:no),
#    SMPI's warnings included.
# 3. win_locks' own checks: each rank's put outside an epoch is refused
#    (MPI_ERR_WIN, no entry left behind), phase 3's counter holds P.
# SimGrid canary (ctest label simgrid-canary): the remedy runs only on
# SimGrid 3.32 (Debian 12's build); after a SimGrid upgrade, part 1 failing
# with "remedy on" is news about SimGrid, not a regression of hnm.
source "$(dirname "$0")/lib.sh"
TMP=$WORK
"$BUILD_DIR/bin/hnm-platform" cluster --cabinets 2 --nodes 8 -o "$TMP/p.xml" --hostfile "$TMP/h"

# counts MODEL NP PROGRAM ARGS...: the remedy's counts of lock entries
# taken and of operations that found theirs (the verbose report at the
# simulation's end), "none" for each one missing.
counts() {
  local m=$1 np=$2
  shift 2
  HNM_VERBOSE=1 hnm "$m" "$TMP/p.xml" "$TMP/h" "$np" "$@" 2>&1 >/dev/null |
    awk '/window locks released without walking/ { t = $2 } /one-sided operations found their lock/ { f = $2 }
         END { print (t == "" ? "none" : t) " " (f == "" ? "none" : f) }'
}
taken() { counts "$@" | cut -d' ' -f1; }

check "remedy on (verbose: found without walking)" \
  bash -c 'HNM_VERBOSE=1 "$HNM_RUN" --model graphene -platform "$1" -hostfile "$2" -np 2 "${@:3}" 2>&1 >/dev/null |
           grep -q "window locks found without walking"' _ "$TMP/p.xml" "$TMP/h" "${SIMOPTS[@]}" \
  "$SIM_BIN/win_locks" 1

for np in 2 3 5 8; do
  for e in 0 3; do
    read -r n f < <(counts graphene "$np" "$SIM_BIN/win_locks" "$e")
    check_eq "win_locks $e epochs at $np ranks: every lock entry taken" "$n" \
      $((e * np * np + np * np + np + np * np + np + np * np))
    check_eq "win_locks $e epochs at $np ranks: every operation in an epoch found its entry" "$f" $(((e + 3) * np))
  done
done
n=$(taken graphene 16 "$APPS_BIN/monc_halo" --variant passive --nz 16 --fields 2 --no-payload)
check_eq "monc_halo passive at 16 ranks: MPI_Win_lock_all's 16 x 16 entries" "$n" 256
check_eq "the remedy off: no count" "$(counts graphene 2 --cfg=hnm/unlock-remedy:no "$SIM_BIN/win_locks" 1)" \
  "none none"

# same LABEL MODEL NP PROGRAM ARGS...: stdout, stderr and status with the
# remedy on and off.
same() {
  local label=$1 m=$2 np=$3
  shift 3
  hnm "$m" "$TMP/p.xml" "$TMP/h" "$np" "$@" >"$TMP/on" 2>"$TMP/on.err"
  local s_on=$?
  hnm "$m" "$TMP/p.xml" "$TMP/h" "$np" --cfg=hnm/unlock-remedy:no "$@" >"$TMP/off" 2>"$TMP/off.err"
  local s_off=$?
  check "$label: on and off give the same output (status $s_on, $s_off; $(wc -l <"$TMP/on") lines)" \
    bash -c '[ "$1" = "$2" ] && [ -s "$3" ] && cmp -s "$3" "$4" && cmp -s "$5" "$6"' _ \
    "$s_on" "$s_off" "$TMP/on" "$TMP/off" "$TMP/on.err" "$TMP/off.err"
}
for np in 2 3 5 8; do
  same "win_locks 3 epochs, $np ranks" graphene "$np" "$SIM_BIN/win_locks" 3
  # win_locks' own checks, on the output with the remedy on
  ERR_WIN=$(awk '/stray_put/ { print $NF; exit }' "$TMP/off")
  check "win_locks $np ranks: every put outside an epoch refused alike ($ERR_WIN, not 0)" \
    bash -c '[ "$1" != 0 ] && awk -v e="$1" "(/stray_put/ || /double unlock/) && \$NF != e { bad = 1 }
             END { exit bad }" "$2"' _ "$ERR_WIN" "$TMP/on"
  check_eq "win_locks $np ranks: rank 0's counter after phase 3" \
    "$(awk '$1 == "rank" && $2 == 0 && $4 == 3 { print $8 }' "$TMP/on")" "$np"
done
for m in graphene loggps fluid smpi-default; do
  for v in passive fence pscw; do
    # shellcheck disable=SC2086
    same "monc_halo $v $m" "$m" 16 "$APPS_BIN/monc_halo" --variant $v ${SKELETON_ARGS[monc_halo]}
  done
done
finish
