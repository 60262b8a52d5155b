/* test_quantity.c -- hnm_quantity: speeds parsed as SimGrid parses them, and
 * written quantities that read back as the very same double. Expected
 * spellings are worked out by hand (1.8e9 bytes/s = 14.4 Gb/s = 1.8 GB/s:
 * the shorter wins). Prints "N passed, M failed"; exits non-zero on failure.
 */
#include "hnm_quantity.h"
#include "hnm_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void expect_speed(const char *s, double want, int line)
{
  char err[256] = "";
  double got = -1;
  int rc = hnm_quantity_parse_speed(s, &got, err, sizeof err);

  check_at(rc == 0 && got == want, __FILE__, line, "parse_speed(\"%s\"): rc %d, got %.17g, want %.17g (%s)", s, rc, got,
           want, err);
}

static void expect_speed_error(const char *s, const char *needle, int line)
{
  char err[256] = "";
  double out = 42;
  int rc = hnm_quantity_parse_speed(s, &out, err, sizeof err);

  check_at(rc == -1 && out == 42 && strstr(err, needle) != NULL, __FILE__, line,
           "parse_speed(\"%s\"): rc %d, message \"%s\" (wanted an error with \"%s\")", s, rc, err, needle);
}

typedef int (*format_fn)(double, char *, size_t);

static double parsed_time(const char *s)
{
  double v = -1;

  hnm_parse_time(s, &v, NULL, 0);
  return v;
}

static void expect_format(const char *what, format_fn fn, double v, const char *want, int line)
{
  char buf[64] = "";
  int rc = fn(v, buf, sizeof buf);

  check_at(rc == 0 && strcmp(buf, want) == 0, __FILE__, line, "format_%s(%.17g): rc %d, got \"%s\", want \"%s\"", what,
           v, rc, buf, want);
}

/* format(v) parsed back must be v, bit for bit. */
static void expect_round_trip(format_fn fn, int (*parse)(const char *, double *, char *, size_t), double v)
{
  char buf[64] = "";
  double back = -1;

  check_at(fn(v, buf, sizeof buf) == 0 && parse(buf, &back, NULL, 0) == 0 && back == v, __FILE__, __LINE__,
           "%.17g written \"%s\" reads back as %.17g", v, buf, back);
}

int main(void)
{
  char small[4];

  /* Speeds: SimGrid's "f" with decimal prefixes, and plain "flops". */
  expect_speed("1Gf", 1e9, __LINE__);
  expect_speed("1kf", 1e3, __LINE__);
  expect_speed("1.5Mf", 1.5e6, __LINE__);
  expect_speed("204.8Gf", 204.8 * 1e9, __LINE__);
  expect_speed("100flops", 100, __LINE__);
  expect_speed("3f", 3, __LINE__);
  expect_speed("2Tf", 2e12, __LINE__);
  expect_speed_error("1", "no unit", __LINE__);
  expect_speed_error("", "empty", __LINE__);
  expect_speed_error("1Kif", "not a speed", __LINE__);  /* SimGrid has no binary speed prefixes */
  expect_speed_error("1Gflops", "not a speed", __LINE__); /* SimGrid spells it gigaflops */
  expect_speed_error("abc", "not a speed", __LINE__);
  expect_speed_error("0x10f", "not a speed", __LINE__);
  expect_speed_error("nanf", "not a speed", __LINE__);
  expect_speed_error("inff", "not a speed", __LINE__);
  expect_speed_error("1 Gf", "not a speed", __LINE__);
  expect_speed_error("1GB", "not a speed", __LINE__);

  /* Bandwidths: the shortest spelling, bytes before bits on ties. */
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 1.25e8, "1Gbps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 1.25e9, "10Gbps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 1.625e9, "13Gbps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 1.875e8, "1.5Gbps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 1.8e9, "1.8GBps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 2e9 * 0.9, "1.8GBps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 1e10, "10GBps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 6e9, "6GBps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 1073741824.0, "1GiBps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 625 * 1e10, "50Tbps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 1, "1Bps", __LINE__);
  expect_format("bandwidth", hnm_quantity_format_bandwidth, 1e30, "1e+30Bps", __LINE__); /* beyond every prefix */
  /* Times. SimGrid reads "10us" as 10 x 1e-6, which is not the double
   * nearest to 1e-5: a spelling must give back the value as read. */
  expect_format("time", hnm_quantity_format_time, parsed_time("10us"), "10us", __LINE__);
  expect_format("time", hnm_quantity_format_time, parsed_time("100ns"), "100ns", __LINE__);
  expect_format("time", hnm_quantity_format_time, parsed_time("40ns"), "40ns", __LINE__);
  expect_format("time", hnm_quantity_format_time, parsed_time("1.5us"), "1.5us", __LINE__);
  CHECK(10 * 1e-6 != 1e-5);
  expect_round_trip(hnm_quantity_format_time, hnm_parse_time, 1e-5);
  expect_format("time", hnm_quantity_format_time, 0, "0s", __LINE__);
  expect_format("time", hnm_quantity_format_time, -0.0, "0s", __LINE__);
  expect_format("time", hnm_quantity_format_time, 2, "2s", __LINE__);
  /* Speeds. */
  expect_format("speed", hnm_quantity_format_speed, 1e9, "1Gf", __LINE__);
  expect_format("speed", hnm_quantity_format_speed, 204.8 * 1e9, "204.8Gf", __LINE__);
  expect_format("speed", hnm_quantity_format_speed, 1.5e3, "1.5kf", __LINE__);

  /* Refusals. */
  CHECK_EQ(hnm_quantity_format_bandwidth(-1, small, sizeof small), -1);
  CHECK_EQ(hnm_quantity_format_bandwidth(NAN, small, sizeof small), -1);
  CHECK_EQ(hnm_quantity_format_time(INFINITY, small, sizeof small), -1);
  CHECK_EQ(hnm_quantity_format_bandwidth(1.25e8, small, sizeof small), -1); /* "1Gbps" needs 6 bytes */

  /* Round trips over many magnitudes and awkward mantissas. */
  srand(12345);
  for (int i = 0; i < 2000; i++) {
    double mantissa = (double)rand() / RAND_MAX * 10;
    double v = mantissa * pow(10, (rand() % 30) - 15);
    expect_round_trip(hnm_quantity_format_bandwidth, hnm_parse_bandwidth, v * 1e9);
    expect_round_trip(hnm_quantity_format_time, hnm_parse_time, v * 1e-6);
    expect_round_trip(hnm_quantity_format_speed, hnm_quantity_parse_speed, v * 1e9);
  }
  expect_round_trip(hnm_quantity_format_bandwidth, hnm_parse_bandwidth, 1.5 * 0.9 * 1.25e9);
  expect_round_trip(hnm_quantity_format_time, hnm_parse_time, 1.0 / 3);

  return check_finish();
}
