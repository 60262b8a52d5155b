/* hnm_units.c -- parse quantities written the way SimGrid writes them.
 *
 * The unit tables follow SimGrid's src/xbt/xbt_parse_units.cpp: a number read
 * by strtod() immediately followed by a unit name that must match a table
 * entry exactly (case matters: "k" is decimal, "Ki" binary, "b" is a bit and
 * "B" a byte). Prefixed scales are computed the way SimGrid computes them
 * (the base value multiplied by 1000 or 1024 once per prefix step), so that
 * both programs read "3GiBps" as the very same double.
 *
 * Stricter than SimGrid on purpose: white space, NaN, infinities, values out
 * of the double range and unit-less bandwidths are errors, not warnings.
 */
#include "hnm_units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct units__unit {
  const char *name;
  double scale; /* SI base units (s, bytes, bytes/s) per unit */
};

/* SimGrid's time units; a bare number is seconds. */
static const struct units__unit units__time[] = {
  {"w", 7 * 24 * 60 * 60.0},
  {"d", 24 * 60 * 60.0},
  {"h", 60 * 60.0},
  {"m", 60.0},
  {"s", 1.0},
  {"ms", 1e-3},
  {"us", 1e-6},
  {"ns", 1e-9},
  {"ps", 1e-12},
  {NULL, 0.0}
};

/* Prefixes of sizes and bandwidths: decimal steps of 1000, binary of 1024. */
struct units__prefix {
  const char *name;
  double step;
  int power;
};

static const struct units__prefix units__prefixes[] = {
  {"", 1.0, 0},
  {"k", 1000.0, 1}, {"M", 1000.0, 2}, {"G", 1000.0, 3}, {"T", 1000.0, 4},
  {"P", 1000.0, 5}, {"E", 1000.0, 6}, {"Z", 1000.0, 7}, {"Y", 1000.0, 8},
  {"Ki", 1024.0, 1}, {"Mi", 1024.0, 2}, {"Gi", 1024.0, 3}, {"Ti", 1024.0, 4},
  {"Pi", 1024.0, 5}, {"Ei", 1024.0, 6}, {"Zi", 1024.0, 7}, {"Yi", 1024.0, 8},
  {NULL, 0.0, 0}
};

static const struct units__unit units__size_bases[] = {
  {"B", 1.0}, {"b", 0.125}, {NULL, 0.0}
};

static const struct units__unit units__bandwidth_bases[] = {
  {"Bps", 1.0}, {"bps", 0.125}, {NULL, 0.0}
};

/* Read the leading number of s into *value; *unit receives what follows it.
 * Rejects empty strings, white space, non-numbers, NaN, infinities and
 * values strtod() reports out of range. */
static int units__number(const char *s, double *value, const char **unit, char *err, size_t errlen)
{
  const char *p;
  char *end;
  double v;

  if (s == NULL || *s == '\0') {
    hnm_errf(err, errlen, "empty value");
    return -1;
  }
  for (p = s; *p != '\0'; p++) {
    if (isspace((unsigned char)*p)) {
      hnm_errf(err, errlen, "'%s': white space is not allowed", s);
      return -1;
    }
  }
  errno = 0;
  v = strtod(s, &end);
  if (end == s) {
    hnm_errf(err, errlen, "'%s' is not a number", s);
    return -1;
  }
  if (errno == ERANGE) {
    hnm_errf(err, errlen, "'%s' is out of range", s);
    return -1;
  }
  if (isnan(v) || isinf(v)) {
    hnm_errf(err, errlen, "'%s' is not a finite number", s);
    return -1;
  }
  *value = v;
  *unit = end;
  return 0;
}

/* Scale of unit as [prefix]base for one of the bases, or -1 if no match. */
static int units__prefixed_scale(const char *unit, const struct units__unit *bases, double *scale)
{
  const struct units__prefix *p;
  const struct units__unit *b;
  size_t plen;
  double v;
  int i;

  for (p = units__prefixes; p->name != NULL; p++) {
    plen = strlen(p->name);
    if (strncmp(unit, p->name, plen) != 0)
      continue;
    for (b = bases; b->name != NULL; b++) {
      if (strcmp(unit + plen, b->name) != 0)
        continue;
      v = b->scale;
      for (i = 0; i < p->power; i++)
        v *= p->step;
      *scale = v;
      return 0;
    }
  }
  return -1;
}

static int units__finish(const char *s, double v, double scale, double *out, char *err, size_t errlen)
{
  double r = v * scale;

  if (isinf(r)) {
    hnm_errf(err, errlen, "'%s' is out of range", s);
    return -1;
  }
  *out = r;
  return 0;
}

int hnm_parse_time(const char *s, double *seconds, char *err, size_t errlen)
{
  const struct units__unit *u;
  const char *unit;
  double v;

  if (units__number(s, &v, &unit, err, errlen) < 0)
    return -1;
  if (*unit == '\0')
    return units__finish(s, v, 1.0, seconds, err, errlen);
  for (u = units__time; u->name != NULL; u++) {
    if (strcmp(unit, u->name) == 0)
      return units__finish(s, v, u->scale, seconds, err, errlen);
  }
  hnm_errf(err, errlen, "'%s': unknown unit '%s' (time units: w, d, h, m, s, ms, us, ns, ps)", s, unit);
  return -1;
}

int hnm_parse_size(const char *s, double *bytes, char *err, size_t errlen)
{
  const char *unit;
  double v, scale;

  if (units__number(s, &v, &unit, err, errlen) < 0)
    return -1;
  if (*unit == '\0')
    return units__finish(s, v, 1.0, bytes, err, errlen);
  if (units__prefixed_scale(unit, units__size_bases, &scale) == 0)
    return units__finish(s, v, scale, bytes, err, errlen);
  hnm_errf(err, errlen,
              "'%s': unknown unit '%s' (size units: B or b (bits), optionally prefixed by "
              "k, M, G, T, P, E, Z, Y or Ki, Mi, Gi, Ti, Pi, Ei, Zi, Yi)", s, unit);
  return -1;
}

int hnm_parse_bandwidth(const char *s, double *bytes_per_second, char *err, size_t errlen)
{
  const char *unit;
  double v, scale;

  if (units__number(s, &v, &unit, err, errlen) < 0)
    return -1;
  if (*unit == '\0') {
    hnm_errf(err, errlen, "'%s' has no unit: append Bps (bytes/s) or bps (bits/s)", s);
    return -1;
  }
  if (units__prefixed_scale(unit, units__bandwidth_bases, &scale) == 0)
    return units__finish(s, v, scale, bytes_per_second, err, errlen);
  hnm_errf(err, errlen,
              "'%s': unknown unit '%s' (bandwidth units: Bps or bps (bits/s), optionally prefixed by "
              "k, M, G, T, P, E, Z, Y or Ki, Mi, Gi, Ti, Pi, Ei, Zi, Yi)", s, unit);
  return -1;
}

int hnm_parse_number(const char *s, double *value, char *err, size_t errlen)
{
  const char *rest;
  double v;

  if (units__number(s, &v, &rest, err, errlen) < 0)
    return -1;
  if (*rest != '\0') {
    hnm_errf(err, errlen, "'%s' is not a plain number (unexpected '%s')", s, rest);
    return -1;
  }
  *value = v;
  return 0;
}
