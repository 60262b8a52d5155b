/* test_units.c -- hnm_units: SimGrid's units, checked against values worked
 * out by hand (1 Gbps = 1e9 bits/s = 1.25e8 bytes/s, 1 KiB = 1024 bytes...).
 * Prints "N passed, M failed"; exits non-zero if anything failed. */
#include "hnm_units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

typedef int (*parse_fn)(const char *, double *, char *, size_t);

/* Relative tolerance for values that go through a decimal scale (1.5 x 1e-6
 * need not be the double nearest to 1.5e-6); exact values use 0. */
#define REL 1e-15

/* One input of a parser and what it must give: the value (within rel
 * relative, 0: exact) when needle is NULL, else a failure whose message
 * holds needle, the output left untouched. */
struct unit_case {
  const char *s;
  double want, rel;
  const char *needle;
};

static void run_cases(const char *fn_name, parse_fn fn, const struct unit_case *c, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    char err[256] = "";
    double got = -12345;
    int rc = fn(c[i].s, &got, err, sizeof err);

    if (c[i].needle == NULL)
      check_at(rc == 0 && (c[i].rel == 0 ? got == c[i].want : fabs(got - c[i].want) <= c[i].rel * fabs(c[i].want)),
               __FILE__, __LINE__, "%s(\"%s\"): rc %d, got %.17g, want %.17g (%s)", fn_name, c[i].s, rc, got,
               c[i].want, err);
    else
      check_at(rc == -1 && got == -12345 && strstr(err, c[i].needle) != NULL, __FILE__, __LINE__,
               "%s(\"%s\"): rc %d, out %g, message \"%s\" (wanted an error containing \"%s\")", fn_name, c[i].s,
               rc, got, err, c[i].needle);
  }
}

#define RUN_CASES(fn, cases) run_cases(#fn, fn, cases, sizeof cases / sizeof *cases)

static void test_time(void)
{
  static const struct unit_case cases[] = {
    {"1.5us", 1.5e-6, REL, NULL},
    {"2e-6s", 2e-6, 0, NULL},
    {"2e-6", 2e-6, 0, NULL}, /* a bare number is seconds */
    {"3ms", 0.003, REL, NULL},
    {"1ns", 1e-9, 0, NULL},
    {"0.25ns", 2.5e-10, REL, NULL},
    {"4ps", 4e-12, REL, NULL},
    {"1s", 1, 0, NULL},
    {"1m", 60, 0, NULL},
    {"1h", 3600, 0, NULL},
    {"1d", 86400, 0, NULL},
    {"1w", 604800, 0, NULL},
    {"0", 0, 0, NULL},
    {"-1us", -1e-6, 0, NULL}, /* negative parses; callers reject it */
    {"+30us", 3e-5, REL, NULL},

    {"", 0, 0, "empty"},
    {"us", 0, 0, "not a number"},
    {"abc", 0, 0, "not a number"},
    {"1.5xs", 0, 0, "unknown unit 'xs'"},
    {"1US", 0, 0, "unknown unit 'US'"},
    {"1 us", 0, 0, "white space"},
    {"1us ", 0, 0, "white space"},
    {"nan", 0, 0, "not a finite number"},
    {"NaNs", 0, 0, "not a finite number"},
    {"inf", 0, 0, "not a finite number"},
    {"-infinity", 0, 0, "not a finite number"},
    {"1e999", 0, 0, "out of range"},
    {"1e308w", 0, 0, "out of range"}, /* overflows once scaled */
    {"1e-400", 0, 0, "out of range"},
  };
  RUN_CASES(hnm_parse_time, cases);
}

static void test_size(void)
{
  static const struct unit_case cases[] = {
    {"1420", 1420, 0, NULL}, /* a bare number is bytes */
    {"1420B", 1420, 0, NULL},
    {"64KiB", 65536, 0, NULL},
    {"1MiB", 1048576, 0, NULL},
    {"2GiB", 2147483648.0, 0, NULL},
    {"1TiB", 1099511627776.0, 0, NULL},
    {"1YiB", 1208925819614629174706176.0, 0, NULL}, /* 2^80 */
    {"1kB", 1000, 0, NULL},
    {"1MB", 1e6, 0, NULL},
    {"1GB", 1e9, 0, NULL},
    {"1.5GB", 1.5e9, 0, NULL},
    {"1TB", 1e12, 0, NULL},
    {"1PB", 1e15, 0, NULL},
    {"1EB", 1e18, 0, NULL},
    {"8kb", 1000, 0, NULL}, /* 8000 bits */
    {"1b", 0.125, 0, NULL},
    {"8Kib", 1024, 0, NULL},
    {"1Mb", 125000, 0, NULL},
    {"0", 0, 0, NULL},

    {"", 0, 0, "empty"},
    {"1KB", 0, 0, "unknown unit 'KB'"}, /* SimGrid: "k" is decimal, "Ki" binary; no "K" */
    {"1kiB", 0, 0, "unknown unit 'kiB'"},
    {"64 KiB", 0, 0, "white space"},
    {"1Bps", 0, 0, "unknown unit 'Bps'"},
    {"1s", 0, 0, "unknown unit 's'"},
    {"KiB", 0, 0, "not a number"},
    {"nanB", 0, 0, "not a finite number"},
    {"1e300YiB", 0, 0, "out of range"},
  };
  RUN_CASES(hnm_parse_size, cases);
}

static void test_bandwidth(void)
{
  static const struct unit_case cases[] = {
    {"10Gbps", 1.25e9, 0, NULL},
    {"1.25GBps", 1.25e9, 0, NULL},
    {"1GiBps", 1073741824.0, 0, NULL},
    {"1Gibps", 134217728.0, 0, NULL},
    {"1Bps", 1, 0, NULL},
    {"8bps", 1, 0, NULL},
    {"1kbps", 125, 0, NULL},
    {"100Mbps", 1.25e7, 0, NULL},
    {"1KiBps", 1024, 0, NULL},
    {"125MBps", 1.25e8, 0, NULL},
    {"1Tbps", 1.25e11, 0, NULL},

    {"125000000", 0, 0, "append Bps"},
    {"125000000", 0, 0, "bps"},
    {"0", 0, 0, "no unit"},
    {"10Gb", 0, 0, "unknown unit 'Gb'"},
    {"10GBs", 0, 0, "unknown unit 'GBs'"},
    {"10gbps", 0, 0, "unknown unit 'gbps'"},
    {"", 0, 0, "empty"},
    {"infGbps", 0, 0, "not a finite number"},
    {"10 Gbps", 0, 0, "white space"},
  };
  RUN_CASES(hnm_parse_bandwidth, cases);
}

static void test_number(void)
{
  static const struct unit_case cases[] = {
    {"1.5", 1.5, 0, NULL},
    {"0.940694", 0.940694, 0, NULL},
    {"1e3", 1000, 0, NULL},
    {"-2", -2, 0, NULL},
    {"+3", 3, 0, NULL},
    {"0x10", 16, 0, NULL}, /* strtod's hexadecimal, as SimGrid */

    {"", 0, 0, "empty"},
    {"1.5x", 0, 0, "not a plain number"},
    {"1us", 0, 0, "not a plain number"},
    {"abc", 0, 0, "not a number"},
    {"nan", 0, 0, "not a finite number"},
    {"inf", 0, 0, "not a finite number"},
    {"1e999", 0, 0, "out of range"},
    {" 1", 0, 0, "white space"},
  };
  RUN_CASES(hnm_parse_number, cases);
}

static void test_error_buffer(void)
{
  char small[8];
  double v = 7;

  /* A short buffer is truncated but NUL-terminated. */
  memset(small, 'x', sizeof small);
  CHECK_EQ(hnm_parse_time("1.5xs", &v, small, sizeof small), -1);
  CHECK(memchr(small, '\0', sizeof small) != NULL);
  CHECK_EQ(v, 7);
  /* No buffer at all is allowed. */
  CHECK(hnm_parse_size("1KB", &v, NULL, 0) == -1);
  CHECK(hnm_parse_size("1KiB", &v, NULL, 0) == 0 && v == 1024);
}

int main(void)
{
  test_time();
  test_size();
  test_bandwidth();
  test_number();
  test_error_buffer();
  return check_finish();
}
