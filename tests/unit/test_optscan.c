/* test_optscan.c -- hnm_opt_scan(), the printing-free parse that the MPI
 * programs use (apps/skel.c, skel_options): exact reasons for every kind of
 * error, --help/-h/--version reported rather than printed, nothing written
 * on stdout or stderr, HNM_OPT_CHOICE, in-order parsing that leaves argv
 * untouched, and a fresh start on every scan (glibc's getopt state, nextchar
 * included, left behind by an earlier scan of another argv -- what another
 * SMPI rank in the same process would leave -- changes nothing). Also the
 * --help text of hnm_opt_help() with a continued help line and a choice.
 * Prints "N passed, M failed"; exits non-zero if anything failed. */
#define _GNU_SOURCE
#include "check.h"
#include "hnm_opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct vals {
  long n;
  int algo, verbose, calls;
  double scale;
};

static int on_call(void *ctx, const char *arg, char *err, size_t errlen)
{
  (void)ctx;
  if (strcmp(arg, "bad") == 0) {
    snprintf(err, errlen, "'%s' is refused", arg);
    return -1;
  }
  if (strcmp(arg, "silent") == 0)
    return -1; /* reported by the callback itself: err left empty */
  ((struct vals *)ctx)->calls++;
  return 0;
}

#define MAXARGS 16

/* Scan ARGS (NULL-terminated, after "prog") into *v with the test table.
 * argv is kept in av (so that a test can look at it afterwards). */
static int scan(struct vals *v, char **av, int flags, char *err, size_t errlen, const char *const *args)
{
  int argc = 0;
  av[argc++] = "prog";
  for (; *args != NULL && argc < MAXARGS - 1; args++)
    av[argc++] = (char *)*args;
  av[argc] = NULL;
  memset(v, 0, sizeof *v);
  const struct hnm_opt opts[] = {
    {.name = "n", .kind = HNM_OPT_LONG, .arg = "N", .def = "2", .help = "count", .value = &v->n, .min = 1, .max = 10},
    {.name = "algo", .kind = HNM_OPT_CHOICE, .arg = "NAME", .def = "c", .unit = "a|bb|c", .help = "algorithm", .value = &v->algo},
    {.name = "verbose", .short_name = 'v', .kind = HNM_OPT_FLAG, .help = "talk", .value = &v->verbose},
    {.name = "scale", .kind = HNM_OPT_NUMBER, .arg = "F", .def = "1", .help = "scale", .value = &v->scale, .max = 1},
    {.name = "call", .kind = HNM_OPT_CALL, .arg = "X", .help = "callback", .fn = on_call},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {"prog", "[OPTIONS]", NULL, NULL, NULL, flags, v};
  return hnm_opt_scan(&cmd, opts, argc, av, err, errlen);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* rc and err of one scan, against the expected ones. */
static void expect(int flags, const char *const *args, int want_rc, const char *want_err)
{
  struct vals v;
  char *av[MAXARGS];
  char err[512] = "junk";
  int rc = scan(&v, av, flags, err, sizeof err, args);
  CHECK_EQ(rc, want_rc);
  CHECK(strcmp(err, want_err) == 0);
  if (rc != want_rc || strcmp(err, want_err) != 0)
    fprintf(stderr, "  %s ...: rc %d (want %d), err '%s' (want '%s')\n", args[0], rc, want_rc, err, want_err);
}

int main(void)
{
  struct vals v;
  char *av[MAXARGS];
  char err[512];

  /* Nothing is printed by a scan, whatever its outcome: stdout and stderr
   * go to a file for the error and help cases below, which must stay empty. */
  FILE *sink = tmpfile();
  int out = dup(1), errfd = dup(2);
  fflush(stdout);
  fflush(stderr);
  dup2(fileno(sink), 1);
  dup2(fileno(sink), 2);
  int rcs[6];
  rcs[0] = scan(&v, av, 0, err, sizeof err, ARGS("--n", "x"));
  rcs[1] = scan(&v, av, 0, err, sizeof err, ARGS("--help"));
  rcs[2] = scan(&v, av, 0, err, sizeof err, ARGS("--version"));
  rcs[3] = scan(&v, av, 0, err, sizeof err, ARGS("--bogus"));
  rcs[4] = scan(&v, av, 0, err, sizeof err, ARGS("-h"));
  rcs[5] = scan(&v, av, 0, err, sizeof err, ARGS("--call", "bad"));
  fflush(stdout);
  fflush(stderr);
  dup2(out, 1);
  dup2(errfd, 2);
  close(out);
  close(errfd);
  CHECK_EQ(ftell(sink), 0);
  fclose(sink);
  CHECK(rcs[0] == HNM_OPT_ERROR && rcs[1] == HNM_OPT_HELP && rcs[2] == HNM_OPT_VERSION && rcs[3] == HNM_OPT_ERROR &&
        rcs[4] == HNM_OPT_HELP && rcs[5] == HNM_OPT_ERROR);
  CHECK(hnm_opt_status(HNM_OPT_HELP) == 0 && hnm_opt_status(HNM_OPT_VERSION) == 0 &&
        hnm_opt_status(HNM_OPT_ERROR) == 2);

  /* Values and defaults. */
  CHECK_EQ(scan(&v, av, 0, err, sizeof err, ARGS("--n", "7", "--algo", "bb", "-v")), 6);
  CHECK(v.n == 7 && v.algo == 1 && v.verbose == 1 && v.scale == 1 && err[0] == '\0');
  CHECK_EQ(scan(&v, av, 0, err, sizeof err, ARGS("--n=10", "--algo=a")), 3);
  CHECK(v.n == 10 && v.algo == 0 && v.verbose == 0);
  CHECK_EQ(scan(&v, av, 0, err, sizeof err, ARGS("--scale", "0.5")), 3);
  CHECK(v.n == 2 && v.algo == 2 && v.scale == 0.5); /* the defaults "2" and "c" */

  /* Errors: the exact reason, "--x: 'VAL' reason". */
  expect(0, ARGS("--n", "x"), HNM_OPT_ERROR, "--n: 'x' is not a whole number");
  expect(0, ARGS("--n", "11"), HNM_OPT_ERROR, "--n: '11' is not in 1 .. 10");
  expect(0, ARGS("--n", "0"), HNM_OPT_ERROR, "--n: '0' is not in 1 .. 10");
  expect(0, ARGS("--n", "1"), 3, "");
  expect(0, ARGS("--n", ""), HNM_OPT_ERROR, "--n: '' is not a whole number");
  expect(0, ARGS("--n"), HNM_OPT_ERROR, "--n: needs an argument");
  expect(0, ARGS("--algo", "b"), HNM_OPT_ERROR, "--algo: 'b' is not one of a|bb|c");
  expect(0, ARGS("--algo", "bbb"), HNM_OPT_ERROR, "--algo: 'bbb' is not one of a|bb|c");
  expect(0, ARGS("--algo", ""), HNM_OPT_ERROR, "--algo: '' is not one of a|bb|c");
  expect(0, ARGS("--scale", "1.5"), HNM_OPT_ERROR, "--scale: '1.5' is not in 0 .. 1");
  expect(0, ARGS("--bogus"), HNM_OPT_ERROR, "--bogus: unknown or ambiguous option (see prog --help)");
  expect(0, ARGS("-x"), HNM_OPT_ERROR, "-x: unknown or ambiguous option (see prog --help)");
  expect(0, ARGS("--verbose=1"), HNM_OPT_ERROR, "--verbose: takes no argument");
  expect(0, ARGS("--call", "bad"), HNM_OPT_ERROR, "--call: 'bad' is refused");
  expect(0, ARGS("--call", "silent"), HNM_OPT_ERROR, "");
  expect(0, ARGS("--call", "ok", "--call", "ok"), 5, "");
  /* The first error ends the scan: the later one is not reported. */
  expect(0, ARGS("--n", "x", "--algo", "z"), HNM_OPT_ERROR, "--n: 'x' is not a whole number");
  expect(0, ARGS("-h", "--n", "x"), HNM_OPT_HELP, "");
  expect(0, ARGS("--n", "x", "-h"), HNM_OPT_ERROR, "--n: 'x' is not a whole number");

  /* In order: the first operand ends the options, argv is not permuted. */
  const char *const in_order[] = {"--n", "5", "op", "--n", "7", NULL};
  CHECK_EQ(scan(&v, av, HNM_OPT_IN_ORDER, err, sizeof err, in_order), 3);
  CHECK_EQ(v.n, 5);
  for (int i = 0; i < 5; i++)
    CHECK(av[i + 1] == in_order[i]);
  /* Without it GNU getopt moves operands last (the tools' behaviour). */
  CHECK_EQ(scan(&v, av, 0, err, sizeof err, in_order), 5);
  CHECK(v.n == 7 && av[5] == in_order[2]);

  /* A fresh start every time: a scan that stopped inside a cluster of short
   * options (glibc keeps a pointer into that argv) is followed by a scan of
   * another argv, as another SMPI rank would do; then the same argv again. */
  char cluster[] = "-vx";
  char *a1[] = {"prog", cluster, NULL};
  const struct hnm_opt vopt[] = {{.name = "verbose", .short_name = 'v', .kind = HNM_OPT_FLAG, .help = "talk", .value = &v.verbose},
                                 {.name = NULL}};
  const struct hnm_opt_cmd vcmd = {"prog", NULL, NULL, NULL, NULL, HNM_OPT_IN_ORDER, NULL};
  v.verbose = 0;
  CHECK_EQ(hnm_opt_scan(&vcmd, vopt, 2, a1, err, sizeof err), HNM_OPT_ERROR);
  CHECK(strcmp(err, "-x: unknown or ambiguous option (see prog --help)") == 0);
  CHECK_EQ(v.verbose, 1);
  char *a2[] = {"prog", "-v", "op", NULL};
  v.verbose = 0;
  CHECK_EQ(hnm_opt_scan(&vcmd, vopt, 3, a2, err, sizeof err), 2);
  CHECK(v.verbose == 1 && err[0] == '\0');
  CHECK_EQ(hnm_opt_scan(&vcmd, vopt, 3, a2, err, sizeof err), 2);
  for (int rank = 0; rank < 3; rank++) {
    CHECK_EQ(scan(&v, av, HNM_OPT_IN_ORDER, err, sizeof err, ARGS("--n", "3", "--algo", "a")), 5);
    CHECK(v.n == 3 && v.algo == 0);
  }

  /* --help: one row per option, a continued help line indented, a choice
   * shown with its words and default, then the built-in -h and --version. */
  int flag = 0;
  long n = 0;
  int algo = 0;
  const struct hnm_opt hopts[] = {
    {.name = "alpha", .short_name = 'a', .kind = HNM_OPT_FLAG, .help = "first line\nsecond line", .value = &flag},
    {.name = "n", .kind = HNM_OPT_LONG, .arg = "N", .def = "2", .help = "count", .value = &n},
    {.name = "algo", .kind = HNM_OPT_CHOICE, .arg = "NAME", .def = "b", .unit = "a|b|c", .help = "algorithm", .value = &algo},
    {.name = NULL}};
  const struct hnm_opt_cmd hcmd = {"prog", "[OPTIONS]", "Summary.", "Epilog.\n", NULL, 0, NULL};
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  hnm_opt_help(&hcmd, hopts, mem);
  fclose(mem);
  const char *want = "Usage: prog [OPTIONS]\n"
                     "Summary.\n"
                     "\n"
                     "Options:\n"
                     "  -a, --alpha      first line\n"
                     "                   second line\n"
                     "      --n N        count (default 2)\n"
                     "      --algo NAME  algorithm (a|b|c; default b)\n"
                     "  -h, --help       this help\n"
                     "      --version    print the version\n"
                     "\n"
                     "Epilog.\n";
  CHECK(strcmp(text, want) == 0);

  /* A whole number of 2^63 or more: out of range, not "not a
   * whole number"; the option without a range names a long's. */
  char oerr[256] = "";
  CHECK(hnm_opt_value(&hopts[1], "9223372036854775808", &n, oerr, sizeof oerr) == -1);
  CHECK(strcmp(oerr, "'9223372036854775808' is out of range (-9223372036854775808 .. 9223372036854775807)") == 0);
  CHECK(hnm_opt_value(&hopts[1], "9223372036854775807", &n, oerr, sizeof oerr) == 0 && n == 9223372036854775807L);
  CHECK(hnm_opt_value(&hopts[1], "1e3", &n, oerr, sizeof oerr) == -1);
  CHECK(strcmp(oerr, "'1e3' is not a whole number") == 0);
  if (strcmp(text, want) != 0)
    fprintf(stderr, "--help text:\n%s", text);
  free(text);

  return check_finish();
}
