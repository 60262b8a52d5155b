# lib.sh -- helpers of the reliability suite (sourced by bash), on top of
# tests/sim/lib.sh's check/finish.
# Environment (tests/reliability/CMakeLists.txt): HNM_RUN, HNM_COMPARE,
# HNM_CALIBRATE, HNM_ROUTE, DATA, PROG (an executable the refusals never
# reach: osu_style in the full build, /bin/true in the sanitizer build),
# APPS_BIN (optional: the smpicc skeletons).
source "$(dirname "${BASH_SOURCE[0]}")/../sim/lib.sh"
set +e

W=$(mktemp -d "${TMPDIR:-/tmp}/hnm-reliability.XXXXXX")
trap 'rm -rf "$W"' EXIT
IN=$W/in     # inputs, made before each case
RUNDIR=$W/cwd  # every command runs here
mkdir -p "$IN" "$RUNDIR"

# What is in $W: names, sizes, types (a case must not change it).
snapshot() { (cd "$W" && find . -printf '%p %y %s\n' | LC_ALL=C sort); }

# refuse WHAT REGEX CMD...: under a 20 s timeout, CMD exits 2 with exactly
# one line on stderr matching REGEX, prints nothing on stdout, and creates,
# changes or removes nothing under $W.
refuse() {
  local what=$1 re=$2
  shift 2
  local before after st
  before=$(snapshot)
  (cd "$RUNDIR" && timeout 20 "$@" >"$W.out" 2>"$W.err")
  st=$?
  after=$(snapshot)
  check "$what: exit 2 (got $st)" [ "$st" -eq 2 ]
  check "$what: one line on stderr (got $(wc -l <"$W.err"))" [ "$(wc -l <"$W.err")" -eq 1 ]
  check "$what: message /$re/ (got: $(head -c 300 "$W.err"))" grep -Eq -- "$re" "$W.err"
  check "$what: nothing on stdout" [ ! -s "$W.out" ]
  check "$what: nothing written or removed" [ "$before" = "$after" ]
  rm -f "$W.out" "$W.err"
}

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
