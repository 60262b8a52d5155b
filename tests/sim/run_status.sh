#!/usr/bin/env bash
# hnm-run's run ends as the program does:
# - a rank's exit(3) gives exit status 3 under every model, as plain smpirun
#   does, and no deadlock line of hnm's (the other ranks, left waiting,
#   made SimGrid report a deadlock, and the plugin turned it into status 1);
# - a SIGKILL to hnm-run leaves no process of the run: smpirun dies with
#   hnm-run (it is hnm-run, or a model set's child with PR_SET_PDEATHSIG),
#   and the simulator with smpirun (hnm-run --die-with-parent heads smpirun's
#   -wrapper).
source "$(dirname "$0")/lib.sh"

XPROG=$BUILD_DIR/tests/reliability/exit_prog
[ -x "$XPROG" ] || skip "no $XPROG (built with SimGrid's smpicc)"
TWO=("-platform" "$DATA/platforms/two.xml" "-hostfile" "$DATA/platforms/two.hosts" "-np" "2")

smpirun "${TWO[@]}" "${SIMOPTS[@]}" "$XPROG" exit3 >/dev/null 2>"$WORK/plain.err"
check_eq "plain smpirun: a rank's exit(3) gives 3" "$?" 3
for model in graphene loggps fluid smpi-default smpi-fixed "$FLUID" "$SOURCE_DIR/model/models/graphene.set"; do
  "$HNM_RUN" --model "$model" "${TWO[@]}" "${SIMOPTS[@]}" "$XPROG" exit3 >/dev/null 2>"$WORK/x.err"
  st=$?
  check_eq "$(basename "$model"): a rank's exit(3) gives 3 ($(grep '^hnm' "$WORK/x.err" | head -c 300))" "$st" 3
  check "$(basename "$model"): no deadlock line of hnm's" [ "$(grep -c '^hnm: the simulation ended in a deadlock' "$WORK/x.err")" -eq 0 ]
done
# A real deadlock is still one (status 1, hnm's line), and MPI_Abort's code still wins.
"$HNM_RUN" --model graphene "${TWO[@]}" "${SIMOPTS[@]}" "$XPROG" deadlock >/dev/null 2>"$WORK/d.err"
check_eq "a deadlock gives 1" "$?" 1
check "... with hnm's line" grep -q '^hnm: the simulation ended in a deadlock' "$WORK/d.err"
"$HNM_RUN" --model graphene "${TWO[@]}" "${SIMOPTS[@]}" "$XPROG" abort >/dev/null 2>"$WORK/a.err"
check_eq "MPI_Abort(7) gives 7" "$?" 7

# kill_check WHAT TAG HNM-RUN-OPTIONS...: hnm-run on a run that never ends,
# in the background; TAG, an argument of the program, marks the run's
# processes (/proc/PID/cmdline). SIGKILL to hnm-run: none may remain.
# procs_of TAG: how many processes have TAG in their command line (the
# pattern [h]nm-... does not match grep's own).
procs_of() { grep -lsaE -- "[${1:0:1}]${1:1}" /proc/[0-9]*/cmdline 2>/dev/null | wc -l; }
kill_check() {
  local what=$1 tag=$2 n
  shift 2
  "$HNM_RUN" "$@" "${TWO[@]}" "${SIMOPTS[@]}" "$XPROG" forever "$tag" >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 100); do
    [ "$(procs_of "$tag")" -ge 2 ] && break
    sleep 0.1
  done
  check "$what: the simulator runs ($(procs_of "$tag") processes)" [ "$(procs_of "$tag")" -ge 2 ]
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  for _ in $(seq 50); do
    n=$(procs_of "$tag")
    [ "$n" -eq 0 ] && break
    sleep 0.1
  done
  check_eq "$what: no process of the run 5 s after SIGKILL to hnm-run" "$n" 0
  # Whatever a failure left behind, by its tag (processes this test started).
  for f in $(grep -lsaE -- "[${tag:0:1}]${tag:1}" /proc/[0-9]*/cmdline); do
    p=${f#/proc/}
    kill -KILL "${p%/cmdline}" 2>/dev/null
  done
}
kill_check "one model" "hnm-kill-test-$$-a" --model graphene
kill_check "a model set" "hnm-kill-test-$$-b" --model "$SOURCE_DIR/model/models/graphene.set"
finish
