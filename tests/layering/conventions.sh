#!/usr/bin/env bash
# scripts/check-conventions on a small tree made to break each rule once: it
# must exit 1 and name every violation (file, line, function, what), accept
# what the rules allow (an entry point that prints and exits, _exit in a
# forked child, an exit handler, a 120-line function), and pass once the
# violations are removed. Environment: CHECK_CONVENTIONS (the script).
source "$(dirname "$0")/../sim/lib.sh"

T=$WORK
mkdir -p "$T"/{core,tools,calibration,apps}
# body N: N lines of a function, opening and closing braces included.
body() { echo "{"; for ((i = 0; i < $1 - 2; i++)); do echo "  x++;"; done; echo "}"; }
{
  echo 'int main(int argc, char **argv)'
  echo '{'
  echo '  if (argc < 2)'
  echo '    return hnm_msg_error("usage");'
  echo '  fprintf(stderr, "note\n");'
  echo '  exit(2);'
  echo '}'
  echo 'static int tool_cmd_fit(int argc, char **argv)'
  echo '{'
  echo '  return hnm_msg_failure("write error");'
  echo '}'
  echo 'static void tool__child(void)'
  echo '{'
  echo '  _exit(127); /* a forked child that cannot exec */'
  echo '}'
  echo 'static void tool__close_at_exit(void)'
  echo '{'
  echo '  exit(1);'
  echo '}'
  echo 'static int tool__quiet(char *err, size_t errlen)'
  echo '{'
  echo '  /* exit(2) in a comment, "exit(2)" in a string: not calls */'
  echo '  hnm_msg_warn("a warning may come from a helper");'
  echo '  return hnm_fail(err, errlen, "exit(1) is not called");'
  echo '}'
  echo 'static int tool__long(void)'
  body 120
} >"$T/tools/tool.c"
printf 'int core_ok(void)\n{\n  return 0;\n}\n' >"$T/core/core.c"

out=$(bash "$CHECK_CONVENTIONS" "$T")
st=$?
check_eq "a clean tree passes ($out): exit status" "$st" 0
check "a clean tree: 7 functions counted ($out)" grep -q "^conventions: ok (7 functions checked)" <<<"$out"

# One violation of each kind.
{
  echo 'static int cal__read(void)'
  echo '{'
  echo '  if (bad)'
  echo '    exit(2);'
  echo '  hnm_msg_die(1, "no");'
  echo '  return hnm_msg_error("bad row");'
  echo '}'
  echo 'static void cal__write(void)'
  echo '{'
  echo '  fprintf(stderr, "write error\n");'
  echo '  perror("x");'
  echo '}'
  echo 'static int cal__long(void)'
  body 121
} >"$T/calibration/cal.c"
# apps/ (MPI programs) end every rank together from skel_fail: allowed;
# but not functions over 120 lines.
printf 'static void skel__quit(void)\n{\n  exit(3);\n}\nstatic void skel__long(void)\n' >"$T/apps/skel.c"
body 121 >>"$T/apps/skel.c"
out=$(bash "$CHECK_CONVENTIONS" "$T")
status=$?
check "violations: exit 1 (got $status)" [ $status -eq 1 ]
expect() { check "reports: $1" grep -qF -- "$1" <<<"$out"; }
expect "calibration/cal.c:4: function cal__read: exit outside an entry point"
expect "calibration/cal.c:5: function cal__read: exit outside an entry point"
expect "calibration/cal.c:6: function cal__read: prints an error below the entry point"
expect "calibration/cal.c:10: function cal__write: prints an error below the entry point"
expect "calibration/cal.c:11: function cal__write: prints an error below the entry point"
expect "calibration/cal.c:14: function cal__long: 121 lines (at most 120)"
expect "apps/skel.c:6: function skel__long: 121 lines (at most 120)"
check "apps/: an MPI program's collective end is no violation" bash -c '! grep -q "skel__quit" <<<"$1"' _ "$out"
check_eq "exactly 7 violations" "$(grep -c . <<<"$out")" 7
finish
