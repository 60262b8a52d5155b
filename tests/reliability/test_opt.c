/* test_opt.c -- the option tables of core/hnm_opt.h: kinds and units,
 * defaults, ranges at their bounds and neighbours, short and long forms,
 * --opt=value, operands, IN_ORDER, LONG_ONLY, errors (each with its exact
 * one-line reason, and nothing printed), and the --help text generated
 * from the table. */
#define _GNU_SOURCE
#include "check.h"
#include "hnm_msg.h"
#include "hnm_opt.h"

#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

struct vals {
  int flag;
  const char *out;
  long np;
  double lat, size, bw, factor;
  int calls;
  const char *last;
};

static int on_call(void *ctx, const char *arg, char *err, size_t errlen)
{
  struct vals *v = ctx;
  if (arg != NULL && strcmp(arg, "bad") == 0) {
    snprintf(err, errlen, "'bad' is refused");
    return -1;
  }
  v->calls++;
  v->last = arg;
  return 0;
}

/* The reason of the last refusal, and what the last parse printed on
 * standard error (an error must print nothing: the tool prints it). */
static char last_err[HNM_ERRLEN];
static char printed[4096];

/* Parse ARGS (NULL-terminated) with the test table; returns hnm_opt_parse()'s result. */
static int parse(struct vals *v, int flags, const char *const *args)
{
  static char *argv[32];
  int argc = 0;
  argv[argc++] = "prog";
  for (; *args != NULL; args++)
    argv[argc++] = (char *)*args;
  argv[argc] = NULL;
  memset(v, 0, sizeof *v);
  const struct hnm_opt opts[] = {
    {.name = "flag", .short_name = 'f', .kind = HNM_OPT_FLAG, .help = "a flag", .value = &v->flag},
    {.name = "output", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "FILE", .help = "write to FILE", .value = &v->out},
    {.name = "np", .kind = HNM_OPT_LONG, .arg = "N", .def = "2", .help = "ranks", .value = &v->np, .min = 1, .max = 1024},
    {.name = "lat", .kind = HNM_OPT_TIME, .arg = "TIME", .def = "1us", .unit = "s", .help = "latency", .value = &v->lat, .max = 1},
    {.name = "size", .kind = HNM_OPT_SIZE, .arg = "SIZE", .def = "64KiB", .unit = "bytes", .help = "size", .value = &v->size},
    {.name = "bw", .kind = HNM_OPT_BANDWIDTH, .arg = "BW", .def = "10Gbps", .unit = "bytes/s", .help = "bandwidth", .value = &v->bw},
    {.name = "factor", .kind = HNM_OPT_NUMBER, .arg = "F", .def = "1.5", .help = "factor", .value = &v->factor},
    {.name = "call", .short_name = 'c', .kind = HNM_OPT_CALL, .arg = "X", .help = "repeatable", .fn = on_call},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {"prog", "[OPTIONS] FILE...", "Test.", "Epilog.\n", NULL, flags, v};
  /* --help and --version go to /dev/null here (the help text is checked
   * below); standard error is kept in a file, which must stay empty. */
  char errpath[] = "/tmp/test_opt.XXXXXX";
  int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY), cap = mkstemp(errpath);
  fflush(stdout);
  dup2(null, 1);
  dup2(cap, 2);
  last_err[0] = '\0';
  int rc = hnm_opt_parse(&cmd, opts, argc, argv, last_err, sizeof last_err);
  fflush(stdout);
  fflush(stderr);
  dup2(out, 1);
  dup2(err, 2);
  ssize_t n = pread(cap, printed, sizeof printed - 1, 0);
  printed[n > 0 ? n : 0] = '\0';
  unlink(errpath);
  close(cap);
  close(out);
  close(err);
  close(null);
  return rc;
}
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})
/* ARGS refused with exactly the reason WHY, and nothing printed. */
#define REFUSED(why, ...)                                                                                              \
  do {                                                                                                                 \
    CHECK_EQ(parse(&v, 0, ARGS(__VA_ARGS__)), HNM_OPT_ERROR);                                                          \
    CHECK_STREQ(last_err, why);                                                                                        \
    CHECK_STREQ(printed, "");                                                                                          \
  } while (0)

int main(void)
{
  struct vals v;
  hnm_msg_init("test_opt");

  /* Defaults, parsed like a user's values. */
  CHECK_EQ(parse(&v, 0, ARGS("file")), 1);
  CHECK(v.np == 2 && v.lat == 1e-6 && v.size == 65536 && v.bw == 1.25e9 && v.factor == 1.5);
  CHECK(v.flag == 0 && v.out == NULL && v.calls == 0);
  /* Short, long, --x=value, clusters. */
  CHECK_EQ(parse(&v, 0, ARGS("-f", "-o", "a.xml", "--np=4", "--lat", "1.5us")), 7);
  CHECK(v.flag == 1 && strcmp(v.out, "a.xml") == 0 && v.np == 4 && v.lat == 1.5e-6);
  CHECK(parse(&v, 0, ARGS("-fo", "b")) == 3 && v.flag == 1 && strcmp(v.out, "b") == 0);
  CHECK(parse(&v, 0, ARGS("--output=c")) == 2 && strcmp(v.out, "c") == 0);
  /* Units. */
  CHECK(parse(&v, 0, ARGS("--size", "1MiB", "--bw", "1GBps")) == 5 && v.size == 1048576 && v.bw == 1e9);
  CHECK(parse(&v, 0, ARGS("--size", "1MB")) == 3 && v.size == 1e6);
  CHECK(parse(&v, 0, ARGS("--bw", "8bps")) == 3 && v.bw == 1);
  /* Ranges: the bounds and their neighbours. */
  CHECK(parse(&v, 0, ARGS("--np", "1")) == 3 && v.np == 1);
  CHECK(parse(&v, 0, ARGS("--np", "1024")) == 3 && v.np == 1024);
  REFUSED("--np: '0' is not in 1 .. 1024", "--np", "0");
  REFUSED("--np: '1025' is not in 1 .. 1024", "--np", "1025");
  CHECK(parse(&v, 0, ARGS("--lat", "1s")) == 3 && v.lat == 1);
  REFUSED("--lat: '1.000001s' is not in 0 .. 1 s", "--lat", "1.000001s");
  CHECK(parse(&v, 0, ARGS("--lat", "0")) == 3 && v.lat == 0);
  REFUSED("--lat: '-1ns' is not in 0 .. 1 s", "--lat", "-1ns");
  /* Not numbers, not units. */
  REFUSED("--np: '2.5' is not a whole number", "--np", "2.5");
  REFUSED("--np: '' is not a whole number", "--np", "");
  /* 2^63 and beyond: whole numbers, out of range. */
  REFUSED("--np: '9223372036854775808' is not in 1 .. 1024", "--np", "9223372036854775808");
  REFUSED("--np: '-9223372036854775809' is not in 1 .. 1024", "--np", "-9223372036854775809");
  REFUSED("--bw: '10' has no unit: append Bps (bytes/s) or bps (bits/s)", "--bw", "10");
  REFUSED("--lat: '1parsec': unknown unit 'parsec' (time units: w, d, h, m, s, ms, us, ns, ps)", "--lat", "1parsec");
  REFUSED("--factor: 'inf' is not a finite number", "--factor", "inf");
  /* Errors: unknown, missing argument, argument to a flag. */
  REFUSED("--nope: unknown or ambiguous option (see prog --help)", "--nope");
  REFUSED("-x: unknown or ambiguous option (see prog --help)", "-x");
  REFUSED("--output: needs an argument", "--output");
  REFUSED("-o: needs an argument", "-o");
  REFUSED("--flag: takes no argument", "--flag=1");
  CHECK(hnm_opt_status(HNM_OPT_ERROR) == 2 && hnm_opt_status(HNM_OPT_DONE) == 0);
  /* Help and version. */
  CHECK_EQ(parse(&v, 0, ARGS("--help")), HNM_OPT_DONE);
  CHECK_EQ(parse(&v, 0, ARGS("-h")), HNM_OPT_DONE);
  CHECK_EQ(parse(&v, 0, ARGS("--version")), HNM_OPT_DONE);
  /* Callbacks: every occurrence, in order; a refusal is an error. */
  CHECK(parse(&v, 0, ARGS("-c", "a", "--call", "b")) == 5 && v.calls == 2 && strcmp(v.last, "b") == 0);
  REFUSED("--call: 'bad' is refused", "--call", "bad");
  /* Operands: permuted to the end by default; IN_ORDER stops at the first. */
  const char *const perm[] = {"x", "-f", "y", NULL};
  CHECK(parse(&v, 0, perm) == 2 && v.flag == 1);
  CHECK(parse(&v, HNM_OPT_IN_ORDER, ARGS("-f", "prog", "-o", "z")) == 2 && v.flag == 1 && v.out == NULL);
  CHECK(parse(&v, HNM_OPT_IN_ORDER, ARGS("--", "-f")) == 2 && v.flag == 0);
  /* LONG_ONLY: -np as --np. */
  CHECK(parse(&v, HNM_OPT_LONG_ONLY, ARGS("-np", "8")) == 3 && v.np == 8);
  /* Several parses in one process start afresh. */
  CHECK(parse(&v, 0, ARGS("--np", "3")) == 3 && v.np == 3);
  CHECK(parse(&v, 0, ARGS("--np", "5")) == 3 && v.np == 5);

  /* The --help text comes from the table. */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  struct vals w;
  const struct hnm_opt opts[] = {
    {.name = "np", .kind = HNM_OPT_LONG, .arg = "N", .def = "2", .help = "MPI ranks", .value = &w.np, .min = 1, .max = 10},
    {.name = "lat", .kind = HNM_OPT_TIME, .arg = "TIME", .def = "1us", .unit = "s", .help = "link latency", .value = &w.lat},
    {.name = "output", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "FILE", .help = "write to FILE", .value = &w.out},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {"prog", "[OPTIONS]", "Summary.", "Epilog.\n", NULL, 0, NULL};
  hnm_opt_help(&cmd, opts, f);
  fclose(f);
  CHECK(strstr(text, "Usage: prog [OPTIONS]\nSummary.\n") == text);
  CHECK(strstr(text, "--np N") != NULL && strstr(text, "MPI ranks (default 2)") != NULL);
  CHECK(strstr(text, "link latency (s; default 1us)") != NULL);
  CHECK(strstr(text, "-o, --output FILE") != NULL);
  CHECK(strstr(text, "-h, --help") != NULL && strstr(text, "--version") != NULL);
  CHECK(strstr(text, "\nEpilog.\n") != NULL);
  free(text);

  return check_finish();
}
