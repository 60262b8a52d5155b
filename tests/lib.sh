# lib.sh -- the one shell library of hnm's tests (sourced by bash, by every
# test script, directly or through its folder's lib.sh).
#
# A script counts checks and ends with `finish`:
#   check WHAT CMD...            CMD exits 0
#   check_eq WHAT GOT WANT       the strings are equal (both printed if not)
#   check_close WHAT GOT WANT REL  |GOT - WANT| <= REL |WANT| (== when WANT is 0)
#   refuse WHAT REGEX CMD...     CMD refuses its input: exit 2, one line on
#                                stderr matching REGEX (the file, line or
#                                option at fault), nothing on stdout, nothing
#                                written or removed under $WORK
#   tool_refuses TOOL PATTERN CMD...  refuse, the line starting
#                                "TOOL: PATTERN"; $WORK/out made first
#   skip REASON                  the test cannot run here (a tool is
#                                missing): exit 77, ctest's SKIP_RETURN_CODE
#   need TOOL...                 skip unless each TOOL is a command on PATH
#                                or (a path) an executable file
#   finish                       "N passed, M failed"; exit 0 only if at
#                                least one check ran and none failed
# No `set -e`: a failing command is a failed check, counted and reported,
# and the script goes on to report the others. A script that ends without
# finish or skip (an `exit`, a bash error) fails with its summary.
# $WORK is a scratch directory, removed at exit with whatever the script
# registered with at_exit.
set -o pipefail

PASSED=0
FAILED=0
LIB__DONE=0
LIB__TMP=$(mktemp -d "${TMPDIR:-/tmp}/hnm-test.XXXXXX") || exit 1
WORK=$LIB__TMP/work
mkdir "$WORK" || exit 1
# Open MPI makes its session directory (ompi.HOST.UID) under $TMPDIR and
# fails ("mkdir /tmp/ompi.vm.0: File exists") when two mpiruns create it at
# the same instant: ctest runs scripts in parallel, and some scripts start
# mpiruns together (tests/apps/lib.sh's mpi gives each its own). Every
# script gets a TMPDIR of its own, removed with $WORK; HNM_TEST_TMPDIR is
# the caller's, for what must outlive the script.
HNM_TEST_TMPDIR=${TMPDIR:-/tmp}
export TMPDIR=$LIB__TMP/tmp
mkdir "$TMPDIR" || exit 1
LIB__AT_EXIT=()

# at_exit CMD: run CMD (a command line, eval'ed) when the script exits,
# before $WORK is removed.
at_exit() { LIB__AT_EXIT+=("$1"); }

lib__exit() {
  local st=$? c
  for c in "${LIB__AT_EXIT[@]}"; do eval "$c"; done
  cd / && rm -rf "$LIB__TMP"
  if [ "$LIB__DONE" = 0 ]; then
    printf '%d passed, %d failed\nFAIL the script ended before finish (exit status %d)\n' "$PASSED" "$FAILED" "$st"
    [ "$st" -ne 0 ] && [ "$st" -ne 77 ] || st=1
  fi
  exit "$st"
}
trap lib__exit EXIT

lib__pass() { PASSED=$((PASSED + 1)); }
lib__fail() { FAILED=$((FAILED + 1)); printf 'FAIL %s\n' "$*"; }

# check WHAT CMD...: CMD exits 0.
check() {
  local what=$1
  shift
  if "$@"; then lib__pass; else lib__fail "$what"; fi
}

# check_eq WHAT GOT WANT: the two strings are equal.
check_eq() {
  if [ "$2" = "$3" ]; then lib__pass; else lib__fail "$1: got '$2', expected '$3'"; fi
}

# check_close WHAT GOT WANT RELTOL: numbers within RELTOL relative (exact
# when WANT is 0); a GOT that is not a number fails.
check_close() {
  if awk -v g="$2" -v e="$3" -v t="$4" 'BEGIN {
        if (g !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) exit 1
        d = g - e; if (d < 0) d = -d; s = e < 0 ? -e : e;
        exit !((s == 0 && d <= t) || (s > 0 && d / s <= t)) }'; then
    lib__pass
  else
    lib__fail "$1: got ${2:-(nothing)}, expected $3 (rel. tol. $4)"
  fi
}

# What is under $WORK: names and types, sizes and modification times of
# what is not a directory.
lib__snapshot() { (cd "$WORK" && find . \( -type d -printf '%p d\n' \) -o -printf '%p %y %s %T@\n' | LC_ALL=C sort); }

# refuse WHAT REGEX CMD...: CMD, run in the current directory under a 60 s
# timeout, exits 2 with exactly one line on stderr matching the extended
# REGEX, prints nothing on stdout, and creates, changes or removes nothing
# under $WORK. The one refusal helper of the suite: a tool's bad input gets
# one message naming the file (line, field) or option, and no output.
refuse() {
  local what=$1 re=$2 before after st
  shift 2
  before=$(lib__snapshot)
  timeout 60 "$@" >"$LIB__TMP/refuse.out" 2>"$LIB__TMP/refuse.err"
  st=$?
  after=$(lib__snapshot)
  check_eq "$what: exit status" "$st" 2
  check_eq "$what: lines on stderr ($(head -c 300 "$LIB__TMP/refuse.err"))" "$(wc -l <"$LIB__TMP/refuse.err")" 1
  check "$what: message /$re/ (got: $(head -c 300 "$LIB__TMP/refuse.err"))" grep -Eq -- "$re" "$LIB__TMP/refuse.err"
  check "$what: nothing on stdout (got: $(head -c 200 "$LIB__TMP/refuse.out"))" [ ! -s "$LIB__TMP/refuse.out" ]
  check "$what: nothing written or removed under \$WORK ($(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -3 | tr '\n' ' '))" \
    [ "$before" = "$after" ]
}

# tool_refuses TOOL PATTERN CMD...: refuse (above), named "TOOL" and CMD's
# arguments, the one line starting "TOOL: PATTERN". $WORK/out is made first:
# the directory where callers point the tool's outputs, which must stay
# empty.
tool_refuses() {
  local tool=$1 pattern=$2
  shift 2
  mkdir -p "$WORK/out"
  refuse "$tool ${*:2}" "^$tool: $pattern" "$@"
}

# ere_quote TEXT: TEXT as an extended regular expression matching itself.
ere_quote() { sed 's/[][\\.*^$(){}?+|/]/\\&/g' <<<"$1"; }

# skip REASON: the test cannot run on this machine (exit 77: ctest reports
# it Skipped, never Passed). Checks that already failed still fail it.
skip() {
  LIB__DONE=1
  if [ "$FAILED" -gt 0 ]; then
    printf '%d passed, %d failed (then skipped: %s)\n' "$PASSED" "$FAILED" "$*"
    exit 1
  fi
  printf 'SKIP %s\n' "$*"
  exit 77
}

# need TOOL...: skip the test unless each TOOL is a command on PATH, or,
# when it holds a '/', an executable file (a program the build makes only
# when a compiler is there: the NAME-mpi programs need mpicc).
need() {
  local t
  for t in "$@"; do
    if [[ $t == */* ]]; then
      [ -x "$t" ] || skip "$t was not built (no mpicc or clang?)"
    else
      command -v "$t" >/dev/null || skip "$t is not installed (scripts/install-deps installs it)"
    fi
  done
}

# finish: the summary line; exit 0 only if some check ran and none failed.
finish() {
  LIB__DONE=1
  printf '%d passed, %d failed\n' "$PASSED" "$FAILED"
  if [ $((PASSED + FAILED)) -eq 0 ]; then
    printf 'FAIL no check ran: a test that checks nothing fails\n'
    exit 1
  fi
  [ "$FAILED" -eq 0 ] && exit 0
  exit 1
}

# calc EXPR: evaluate an awk arithmetic expression at full double precision.
calc() { awk "BEGIN { printf \"%.17g\", ($1) }"; }
