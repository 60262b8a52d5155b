/* hnm_quantity.c -- quantities as hnm-platform writes them (see the header).
 *
 * Formatting never guesses: every candidate spelling is parsed back with the
 * very parser SimGrid's rules are implemented by (hnm_units.c, which mirrors
 * xbt_parse_units.cpp) and kept only if it yields the same double. The base
 * units (Bps, s, f) have a scale of exactly 1, so "%.17g" in them always
 * round-trips: a spelling is always found.
 */
#include "hnm_quantity.h"
#include "hnm_error.h"

#include "hnm_units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef int (*quantity__parse_fn)(const char *, double *, char *, size_t);

/* Candidate units, preferred first among spellings of equal length (bytes
 * before bits: "10GBps" rather than "80Gbps"; "1Gbps" is still shorter than
 * "125MBps"). */
static const char *const quantity__bandwidth_units[] = {
  "TBps", "GBps", "MBps", "kBps", "Bps",
  "Tbps", "Gbps", "Mbps", "kbps", "bps",
  "TiBps", "GiBps", "MiBps", "KiBps",
  "Tibps", "Gibps", "Mibps", "Kibps", NULL};
static const char *const quantity__time_units[] = {"s", "ms", "us", "ns", "ps", NULL};
static const char *const quantity__speed_units[] = {"Ef", "Pf", "Tf", "Gf", "Mf", "kf", "f", NULL};

int hnm_quantity_parse_speed(const char *s, double *flops, char *err, size_t errlen)
{
  char number[64];
  size_t n;
  double v;

  if (s == NULL || *s == '\0') {
    hnm_errf(err, errlen, "empty value");
    return -1;
  }
  n = strlen(s);
  if (n >= sizeof number - 1) {
    hnm_errf(err, errlen, "'%.20s...' is too long for a speed", s);
    return -1;
  }
  /* Only digits, a sign, a decimal point and an exponent before the unit:
   * keeps strtod's hexadecimal and "nan"/"inf" forms out. */
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (strchr("0123456789.eE+-", c) == NULL && strchr("kMGTPEZYflops", c) == NULL) {
      hnm_errf(err, errlen, "'%s' is not a speed (a number and f, kf, Mf, Gf, Tf...; e.g. 1Gf)", s);
      return -1;
    }
  }
  if (n > 5 && strcmp(s + n - 5, "flops") == 0) {
    /* SimGrid spells prefixed flops in full (kiloflops...): only plain "flops" here. */
    memcpy(number, s, n - 5);
    number[n - 5] = '\0';
    if (hnm_parse_number(number, &v, NULL, 0) != 0) {
      hnm_errf(err, errlen, "'%s' is not a speed (a number and f, kf, Mf, Gf, Tf...; e.g. 1Gf)", s);
      return -1;
    }
    *flops = v;
    return 0;
  }
  if (s[n - 1] != 'f') {
    hnm_errf(err, errlen, "'%s' has no unit: append f (flop/s), e.g. 1Gf", s);
    return -1;
  }
  /* "<number>[prefix]f" is read as the size "<number>[prefix]B": the same
   * decimal prefixes, the same scale computation, a base of exactly 1. */
  memcpy(number, s, n - 1);
  number[n - 1] = 'B';
  number[n] = '\0';
  if (hnm_parse_size(number, &v, NULL, 0) != 0) {
    hnm_errf(err, errlen, "'%s' is not a speed (a number and f, kf, Mf, Gf, Tf...; e.g. 1Gf)", s);
    return -1;
  }
  *flops = v;
  return 0;
}

/* Shortest round-tripping spelling of value in one of units into best (64
 * bytes), exponent notation allowed or not; empty if none. */
static void quantity__shortest(double value, const char *const *units, quantity__parse_fn parse, int allow_exp,
                               char *best)
{
  char cand[64];

  best[0] = '\0';
  for (int u = 0; units[u] != NULL; u++) {
    char one[16];
    double scale, back;
    int found = 0;

    snprintf(one, sizeof one, "1%s", units[u]);
    if (parse(one, &scale, NULL, 0) != 0 || scale <= 0)
      continue;
    for (int prec = 1; prec <= 17 && !found; prec++) {
      snprintf(cand, sizeof cand, "%.*g%s", prec, value / scale, units[u]);
      found = (allow_exp || strchr(cand, 'e') == NULL) && parse(cand, &back, NULL, 0) == 0 && back == value;
    }
    if (found && (best[0] == '\0' || strlen(cand) < strlen(best)))
      memcpy(best, cand, strlen(cand) + 1);
  }
}

static int quantity__format(double value, const char *const *units, quantity__parse_fn parse, char *buf,
                            size_t len)
{
  char best[64];

  if (!isfinite(value) || value < 0)
    return -1;
  if (value == 0)
    value = 0.0; /* no "-0s" */
  /* "8e+01Gbps" reads back right but reads badly: a plain spelling wins;
   * only values beyond every unit's plain range get an exponent. */
  quantity__shortest(value, units, parse, 0, best);
  if (best[0] == '\0')
    quantity__shortest(value, units, parse, 1, best);
  if (best[0] == '\0' || strlen(best) >= len)
    return -1;
  memcpy(buf, best, strlen(best) + 1);
  return 0;
}

int hnm_quantity_format_bandwidth(double bytes_per_second, char *buf, size_t len)
{
  return quantity__format(bytes_per_second, quantity__bandwidth_units, hnm_parse_bandwidth, buf, len);
}

int hnm_quantity_format_time(double seconds, char *buf, size_t len)
{
  return quantity__format(seconds, quantity__time_units, hnm_parse_time, buf, len);
}

int hnm_quantity_format_speed(double flops, char *buf, size_t len)
{
  return quantity__format(flops, quantity__speed_units, hnm_quantity_parse_speed, buf, len);
}
