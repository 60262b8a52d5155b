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

static void expect_value(const char *fn_name, parse_fn fn, const char *s, double want, double rel, int line)
{
  char err[256] = "";
  double got = -12345;
  int rc = fn(s, &got, err, sizeof err);
  int ok = rc == 0 && (rel == 0 ? got == want : fabs(got - want) <= rel * fabs(want));

  check_at(ok, __FILE__, line, "%s(\"%s\"): rc %d, got %.17g, want %.17g (%s)", fn_name, s, rc, got, want, err);
}

/* Expect a failure whose message contains needle; *out must stay untouched. */
static void expect_error(const char *fn_name, parse_fn fn, const char *s, const char *needle, int line)
{
  char err[256] = "";
  double out = 42;
  int rc = fn(s, &out, err, sizeof err);
  int ok = rc == -1 && out == 42 && strstr(err, needle) != NULL;

  check_at(ok, __FILE__, line, "%s(\"%s\"): rc %d, out %g, message \"%s\" (wanted an error containing \"%s\")", fn_name,
           s, rc, out, err, needle);
}

#define TIME(s, v, rel) expect_value("hnm_parse_time", hnm_parse_time, s, v, rel, __LINE__)
#define SIZE(s, v, rel) expect_value("hnm_parse_size", hnm_parse_size, s, v, rel, __LINE__)
#define BW(s, v, rel) expect_value("hnm_parse_bandwidth", hnm_parse_bandwidth, s, v, rel, __LINE__)
#define NUM(s, v, rel) expect_value("hnm_parse_number", hnm_parse_number, s, v, rel, __LINE__)
#define TIME_ERR(s, n) expect_error("hnm_parse_time", hnm_parse_time, s, n, __LINE__)
#define SIZE_ERR(s, n) expect_error("hnm_parse_size", hnm_parse_size, s, n, __LINE__)
#define BW_ERR(s, n) expect_error("hnm_parse_bandwidth", hnm_parse_bandwidth, s, n, __LINE__)
#define NUM_ERR(s, n) expect_error("hnm_parse_number", hnm_parse_number, s, n, __LINE__)

static void test_time(void)
{
  TIME("1.5us", 1.5e-6, REL);
  TIME("2e-6s", 2e-6, 0);
  TIME("2e-6", 2e-6, 0); /* a bare number is seconds */
  TIME("3ms", 0.003, REL);
  TIME("1ns", 1e-9, 0);
  TIME("0.25ns", 2.5e-10, REL);
  TIME("4ps", 4e-12, REL);
  TIME("1s", 1, 0);
  TIME("1m", 60, 0);
  TIME("1h", 3600, 0);
  TIME("1d", 86400, 0);
  TIME("1w", 604800, 0);
  TIME("0", 0, 0);
  TIME("-1us", -1e-6, 0); /* negative parses; callers reject it */
  TIME("+30us", 3e-5, REL);

  TIME_ERR("", "empty");
  TIME_ERR("us", "not a number");
  TIME_ERR("abc", "not a number");
  TIME_ERR("1.5xs", "unknown unit 'xs'");
  TIME_ERR("1US", "unknown unit 'US'");
  TIME_ERR("1 us", "white space");
  TIME_ERR("1us ", "white space");
  TIME_ERR("nan", "not a finite number");
  TIME_ERR("NaNs", "not a finite number");
  TIME_ERR("inf", "not a finite number");
  TIME_ERR("-infinity", "not a finite number");
  TIME_ERR("1e999", "out of range");
  TIME_ERR("1e308w", "out of range"); /* overflows once scaled */
  TIME_ERR("1e-400", "out of range");
}

static void test_size(void)
{
  SIZE("1420", 1420, 0); /* a bare number is bytes */
  SIZE("1420B", 1420, 0);
  SIZE("64KiB", 65536, 0);
  SIZE("1MiB", 1048576, 0);
  SIZE("2GiB", 2147483648.0, 0);
  SIZE("1TiB", 1099511627776.0, 0);
  SIZE("1YiB", 1208925819614629174706176.0, 0); /* 2^80 */
  SIZE("1kB", 1000, 0);
  SIZE("1MB", 1e6, 0);
  SIZE("1GB", 1e9, 0);
  SIZE("1.5GB", 1.5e9, 0);
  SIZE("1TB", 1e12, 0);
  SIZE("1PB", 1e15, 0);
  SIZE("1EB", 1e18, 0);
  SIZE("8kb", 1000, 0); /* 8000 bits */
  SIZE("1b", 0.125, 0);
  SIZE("8Kib", 1024, 0);
  SIZE("1Mb", 125000, 0);
  SIZE("0", 0, 0);

  SIZE_ERR("", "empty");
  SIZE_ERR("1KB", "unknown unit 'KB'"); /* SimGrid: "k" is decimal, "Ki" binary; no "K" */
  SIZE_ERR("1kiB", "unknown unit 'kiB'");
  SIZE_ERR("64 KiB", "white space");
  SIZE_ERR("1Bps", "unknown unit 'Bps'");
  SIZE_ERR("1s", "unknown unit 's'");
  SIZE_ERR("KiB", "not a number");
  SIZE_ERR("nanB", "not a finite number");
  SIZE_ERR("1e300YiB", "out of range");
}

static void test_bandwidth(void)
{
  BW("10Gbps", 1.25e9, 0);
  BW("1.25GBps", 1.25e9, 0);
  BW("1GiBps", 1073741824.0, 0);
  BW("1Gibps", 134217728.0, 0);
  BW("1Bps", 1, 0);
  BW("8bps", 1, 0);
  BW("1kbps", 125, 0);
  BW("100Mbps", 1.25e7, 0);
  BW("1KiBps", 1024, 0);
  BW("125MBps", 1.25e8, 0);
  BW("1Tbps", 1.25e11, 0);

  BW_ERR("125000000", "append Bps");
  BW_ERR("125000000", "bps");
  BW_ERR("0", "no unit");
  BW_ERR("10Gb", "unknown unit 'Gb'");
  BW_ERR("10GBs", "unknown unit 'GBs'");
  BW_ERR("10gbps", "unknown unit 'gbps'");
  BW_ERR("", "empty");
  BW_ERR("infGbps", "not a finite number");
  BW_ERR("10 Gbps", "white space");
}

static void test_number(void)
{
  NUM("1.5", 1.5, 0);
  NUM("0.940694", 0.940694, 0);
  NUM("1e3", 1000, 0);
  NUM("-2", -2, 0);
  NUM("+3", 3, 0);
  NUM("0x10", 16, 0); /* strtod's hexadecimal, as SimGrid */

  NUM_ERR("", "empty");
  NUM_ERR("1.5x", "not a plain number");
  NUM_ERR("1us", "not a plain number");
  NUM_ERR("abc", "not a number");
  NUM_ERR("nan", "not a finite number");
  NUM_ERR("inf", "not a finite number");
  NUM_ERR("1e999", "out of range");
  NUM_ERR(" 1", "white space");
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
