/* hnm_speed.c -- see hnm_speed.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_speed.h"

#include "hnm_input.h"
#include "hnm_units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int run_speed_parse(const char *text, double *flops, char *err, size_t errlen)
{
  static const struct {
    char prefix;
    double scale;
  } prefixes[] = {{'k', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}, {'P', 1e15},
                  {'E', 1e18}, {'Z', 1e21}, {'Y', 1e24}};
  char *end;
  double v = strtod(text, &end);
  if (end == text || *text == ' ' || *text == '\t') {
    hnm_errf(err, errlen, "'%s' is not a speed (a number of flop/s, e.g. 2.5Gf)", text);
    return -1;
  }
  double scale = 1;
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (*end == prefixes[i].prefix && (end[1] == 'f')) {
      scale = prefixes[i].scale;
      end++;
    }
  if (strcmp(end, "f") != 0 && strcmp(end, "flops") != 0 && *end != '\0') {
    hnm_errf(err, errlen, "'%s' is not a speed (a number of flop/s, e.g. 2.5Gf)", text);
    return -1;
  }
  v *= scale;
  if (!(v > 0) || !isfinite(v)) {
    hnm_errf(err, errlen, "'%s': a speed must be positive and finite", text);
    return -1;
  }
  *flops = v;
  return 0;
}

/* Index of NAME in INFO's sorted hosts, or -1. */
static long speed__host(const run_platform_info *info, const char *name, size_t len)
{
  size_t lo = 0, hi = info->nhosts;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strncmp(info->hosts[mid], name, len);
    if (c == 0 && info->hosts[mid][len] != '\0')
      c = 1;
    if (c == 0)
      return (long)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

static void speed__add(run_speed *s, double v)
{
  if (v <= 0)
    return;
  if (s->min == 0 || v < s->min)
    s->min = v;
  if (v > s->max)
    s->max = v;
}

int run_speed_choose_text(const run_platform_info *info, const char *hostfile_text, size_t len, long np,
                          const char *user, run_speed *out, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out);
  /* The hosts that run ranks: the hostfile's first NP places (every one
   * if NP is 0 or beyond them: smpirun starts again from the top). */
  if (hostfile_text == NULL || info->speeds == NULL) {
    for (size_t i = 0; info->speeds != NULL && i < info->nhosts; i++)
      speed__add(out, info->speeds[i]);
  } else {
    long placed = 0;
    for (size_t pos = 0; pos < len && (np <= 0 || placed < np);) {
      const char *s = hostfile_text + pos;
      const char *nl = memchr(s, '\n', len - pos);
      size_t n = nl ? (size_t)(nl - s) : len - pos;
      pos += n + (nl ? 1 : 0);
      if (n == 0)
        continue;
      const char *colon = NULL;
      for (size_t i = 0; i < n; i++)
        if (s[i] == ':')
          colon = s + i;
      size_t hl = colon ? (size_t)(colon - s) : n;
      long count = colon ? strtol(colon + 1, NULL, 10) : 1;
      /* HOST:N split at the last colon, as run_check_hostfile_text(). */
      long h = speed__host(info, s, hl);
      if (h >= 0)
        speed__add(out, info->speeds[h]);
      placed += count > 0 ? count : 1;
    }
  }

  if (user != NULL) {
    out->source = RUN_SPEED_USER;
    char why[256];
    if (run_speed_parse(user, &out->value, why, sizeof why) != 0)
      out->value = 0; /* SimGrid will say what it thinks of it */
    return 0;
  }
  if (info->host_speed[0] != '\0') {
    char why[256];
    if (run_speed_parse(info->host_speed, &out->value, why, sizeof why) != 0) {
      hnm_errf(err, errlen, "platform's <config> smpi/host-speed: %s", why);
      return -1;
    }
    out->source = RUN_SPEED_CONFIG;
    snprintf(out->text, sizeof out->text, "%.17gf", out->value);
    return 0;
  }
  if (out->max > 0) {
    out->source = RUN_SPEED_HOSTS;
    out->value = out->max;
    snprintf(out->text, sizeof out->text, "%.17gf", out->value);
  }
  return 0;
}

int run_speed_choose(const run_platform_info *info, const char *hostfile, long np, const char *user,
                     run_speed *out, char *err, size_t errlen)
{
  if (hostfile == NULL)
    return run_speed_choose_text(info, NULL, 0, np, user, out, err, errlen);
  char why[512];
  FILE *f = hnm_input_open(hostfile, why, sizeof why);
  if (f == NULL) {
    hnm_errf(err, errlen, "hostfile '%s': %s", hostfile, why);
    return -1;
  }
  size_t cap = 65536, n = 0;
  char *text = malloc(cap);
  for (size_t r; text != NULL && (r = fread(text + n, 1, cap - n, f)) > 0;) {
    n += r;
    if (n == cap) {
      char *t = realloc(text, cap * 2);
      if (t == NULL)
        free(text);
      text = t;
      cap *= 2;
    }
  }
  fclose(f);
  if (text == NULL) {
    hnm_errf(err, errlen, "hostfile '%s': out of memory", hostfile);
    return -1;
  }
  int rc = run_speed_choose_text(info, text, n, np, user, out, err, errlen);
  free(text);
  return rc;
}

void run_speed_explain(const run_speed *s, int simulate_computation, FILE *out)
{
  static const char *const from[] = {"SimGrid's default, no host speed known", "--cfg=smpi/host-speed",
                                     "the platform's <config>, a calibrated machine speed",
                                     "the speed of the hosts that run ranks"};
  fprintf(out, "computation: the CPU time of each rank between MPI calls, measured on this machine,\n");
  if (s->source == RUN_SPEED_NONE) {
    fprintf(out, "  times smpi/host-speed (%s) / the host's speed\n", from[s->source]);
  } else if (s->value > 0) {
    fprintf(out, "  times smpi/host-speed %.6g flop/s (%s) / the host's speed\n", s->value, from[s->source]);
    if (s->max > 0 && s->min == s->max)
      fprintf(out, "  hosts of %.6g flop/s: a measured second counts %.6g s (factor %.6g)\n", s->max,
              s->value / s->max, s->value / s->max);
    else if (s->max > 0)
      fprintf(out,
              "  hosts of %.6g to %.6g flop/s: a measured second counts %.6g to %.6g s (factor %.6g to %.6g)\n",
              s->min, s->max, s->value / s->max, s->value / s->min, s->value / s->max, s->value / s->min);
  } else {
    fprintf(out, "  times smpi/host-speed (%s, read by SimGrid) / the host's speed\n", from[s->source]);
  }
  if (!simulate_computation)
    fprintf(out, "  (not simulated here: smpi/simulate-computation:no; only smpi_execute*() calls count)\n");
  else
    fprintf(out, "  runs differ by timing noise; --cfg=smpi/simulate-computation:no for network-only, "
                 "reproducible times\n");
}
