#!/usr/bin/env bash
# hnm-run's run ends as the program does (issue 38): a rank's exit(3)
# gives exit status 3 under every model, as plain smpirun does, and no
# deadlock line of hnm's (the other ranks, left waiting, made SimGrid report
# a deadlock, and the plugin turned it into status 1).
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

finish
