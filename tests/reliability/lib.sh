# lib.sh -- helpers of the reliability suite (sourced by bash), on top of
# tests/sim/lib.sh and tests/lib.sh (check, refuse, finish).
# Environment (tests/reliability/CMakeLists.txt): HNM_RUN, HNM_COMPARE,
# HNM_CALIBRATE, HNM_ROUTE, DATA, PROG (an executable the refusals never
# reach: osu_style in the full build, /bin/true in the sanitizer build),
# APPS_BIN (optional: the smpicc skeletons).
source "$(dirname "${BASH_SOURCE[0]}")/../sim/lib.sh"

W=$WORK
IN=$W/in     # inputs, made before each case
RUNDIR=$W/cwd  # every command runs here
mkdir -p "$IN" "$RUNDIR"

# Every command runs in $RUNDIR (refuse, tests/lib.sh, runs in the current
# directory and watches $W = $WORK).
cd "$RUNDIR" || exit 1

# accept WHAT REGEX CMD...: exit 0 within 20 s, stdout matches REGEX.
accept() {
  local what=$1 re=$2
  shift 2
  local out st
  out=$(cd "$RUNDIR" && timeout 20 "$@" 2>"$W.err")
  st=$?
  check "$what: exit 0 (got $st: $(head -c 300 "$W.err"))" [ "$st" -eq 0 ]
  check "$what: output /$re/" grep -Eq -- "$re" <<<"$out"
  rm -f "$W.err"
}
