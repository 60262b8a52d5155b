/* hnm_fit_physics.c -- the fitted segments kept within physics
 * (hnm_fit_physics.h says which rules and why). */
#include "hnm_fit_physics.h"

#include "hnm_error.h"
#include "hnm_fit.h"
#include "hnm_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds no route crosses: a nanosecond of latency (30 cm of light), 10 TB/s
 * (above any memory bus). Beyond them a fitted value says "no latency" or
 * "no per-byte cost", not a measurement. */
#define PHYSICS_MIN_LATENCY 1e-9    /* seconds */
#define PHYSICS_MAX_BANDWIDTH 1e13  /* bytes per second */

/* The points with k in (lo, hi], raw or per-size medians, into ks/ts
 * (capacity n); their number into *c. 0, or -1 (out of memory). */
static int physics__points(const double *k, const double *t, size_t n, double lo, double hi, int raw, int smooth,
                           double *ks, double *ts, size_t *c, char *err, size_t errlen)
{
  *c = 0;
  for (size_t i = 0; i < n; i++)
    if (k[i] > lo && k[i] <= hi) {
      ks[*c] = k[i];
      ts[*c] = t[i];
      (*c)++;
    }
  return raw ? 0 : hnm_fit_medians(ks, ts, c, smooth, err, errlen);
}

static int physics__cmp_k(const void *a, const void *b)
{
  const double *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The highest rate k / T of a size's median T (the raw medians, not
 * smoothed: a rate the route delivered). buf: scratch of n, kt of 2 n. */
static double physics__best_rate(const double *k, const double *t, size_t n, double *buf, double *kt)
{
  double best = 0;
  for (size_t i = 0; i < n; i++)
    kt[2 * i] = k[i], kt[2 * i + 1] = t[i];
  qsort(kt, n, 2 * sizeof *kt, physics__cmp_k);
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && kt[2 * j] == kt[2 * i])
      buf[j - i] = kt[2 * j + 1], j++;
    double med = hnm_fit_median(buf, j - i);
    if (med > 0 && kt[2 * i] / med > best)
      best = kt[2 * i] / med;
    i = j;
  }
  return best;
}

/* The median of t - k b over the points (latency for a fixed slope b). */
static double physics__median_latency(const double *ks, const double *ts, size_t c, double b, double *buf)
{
  for (size_t i = 0; i < c; i++)
    buf[i] = ts[i] - ks[i] * b;
  return hnm_fit_median(buf, c);
}

/* The median of (t - a) / k over the points with k > 0 (slope for a fixed
 * latency a). */
static double physics__median_slope(const double *ks, const double *ts, size_t c, double a, double *buf)
{
  size_t q = 0;
  for (size_t i = 0; i < c; i++)
    if (ks[i] > 0)
      buf[q++] = (ts[i] - a) / ks[i];
  return hnm_fit_median(buf, q);
}

/* Append LINE (ending in '\n') to m->notes whole, or not at all: the
 * warnings are printed line by line. */
static void physics__append(hnm_fit_result *m, const char *line)
{
  size_t used = strlen(m->notes), n = strlen(line);
  if (used + n < sizeof m->notes)
    memcpy(m->notes + used, line, n + 1);
}

static void physics__note(hnm_fit_result *m, const char *fmt, double lo, double hi, double a, double b, double c)
{
  char range[96], what[400], line[512];
  if (isinf(hi))
    snprintf(range, sizeof range, "above %.0f B", lo);
  else
    snprintf(range, sizeof range, "%.0f-%.0f B", lo + 1, hi);
  snprintf(what, sizeof what, fmt, a, b, c);
  snprintf(line, sizeof line, "note: segment %s: %s", range, what);
  physics__append(m, line);
}

int hnm_fit__physics(hnm_fit_result *m, const double *k, const double *t, size_t n, int raw, int smooth,
                    const char *place, char *err, size_t errlen)
{
  if (m->nseg == 0 || n == 0)
    return 0;
  double *ks = malloc(n * sizeof *ks), *ts = malloc(n * sizeof *ts), *buf = malloc(n * sizeof *buf);
  double *kt = malloc(2 * n * sizeof *kt);
  size_t c;
  int rc = -1;
  if (ks == NULL || ts == NULL || buf == NULL || kt == NULL) {
    hnm_errf(err, errlen, "out of memory");
    goto out;
  }
  /* The route's bandwidth: the largest messages', or the highest rate the
   * route was seen to deliver end to end, if higher. */
  hnm_fit_segment *last = &m->seg[m->nseg - 1];
  double thr = physics__best_rate(k, t, n, buf, kt);
  /* A few noisy sizes in a narrow largest segment (TCP over loopback: a
   * breakpoint at 890 KB below the largest 1 MiB) can show no per-byte
   * cost although every message of the data took time for its bytes: the
   * segment's bandwidth is then the highest rate the route was seen to
   * deliver, and its latency the median of t - k / that rate over its
   * points. A single segment is left to the refusal below: nothing then
   * tells a per-byte cost from the latency. */
  if (!(last->bw <= PHYSICS_MAX_BANDWIDTH) && m->nseg > 1 && thr > 0 && thr <= PHYSICS_MAX_BANDWIDTH) {
    double lo = m->seg[m->nseg - 2].upto;
    if (physics__points(k, t, n, lo, last->upto, raw, smooth, ks, ts, &c, err, errlen) != 0)
      goto out;
    double a = c > 0 ? physics__median_latency(ks, ts, c, 1 / thr, buf) : last->lat;
    physics__note(m,
                  "fitted bandwidth %.3g B/s shows no per-byte cost: bandwidth refitted to the highest rate "
                  "measured, %.4g B/s, latency to %.3g s\n",
                  lo, last->upto, last->bw, thr, a);
    last->bw = thr;
    last->lat = a;
  }
  double bmax = last->bw;
  if (thr > bmax)
    bmax = thr;
  /* A few noisy sizes in the smallest segment can tilt its line below zero
   * at 0 B (TCP round trips of tens of microseconds over 1-10 B) although
   * every one of its messages took time: its latency is then the median of
   * t - k / B_max over its points, the per-byte cost at the route's
   * bandwidth. Only when that too is below a nanosecond (no message took
   * time beyond its bytes) is there no latency to keep segments above. */
  if (!(m->seg[0].lat >= PHYSICS_MIN_LATENCY) && bmax > 0 && bmax <= PHYSICS_MAX_BANDWIDTH) {
    if (physics__points(k, t, n, 0, m->seg[0].upto, raw, smooth, ks, ts, &c, err, errlen) != 0)
      goto out;
    double a = c > 0 ? physics__median_latency(ks, ts, c, 1 / bmax, buf) : 0;
    if (a >= PHYSICS_MIN_LATENCY) {
      physics__note(m,
                    "fitted latency %.3g s is below a nanosecond: latency refitted to %.3g s at the route's "
                    "bandwidth %.4g B/s\n",
                    0, m->seg[0].upto, m->seg[0].lat, a, bmax);
      m->seg[0].lat = a;
      m->seg[0].bw = bmax;
    }
  }
  const double lmin = m->seg[0].lat;
  if (!(lmin >= PHYSICS_MIN_LATENCY)) {
    hnm_errf(err, errlen,
             "%s: the smallest messages (up to %.0f B) fit a latency of %.3g s: no positive latency for the route, "
             "so no segment can be kept above it (measure smaller sizes, or more repetitions)",
             place, m->seg[0].upto, lmin);
    goto out;
  }
  /* Latency floor. */
  for (size_t i = 0; i < m->nseg; i++) {
    hnm_fit_segment *s = &m->seg[i];
    double lo = i > 0 ? m->seg[i - 1].upto : 0;
    if (!(s->lat < lmin))
      continue;
    if (physics__points(k, t, n, lo, s->upto, raw, smooth, ks, ts, &c, err, errlen) != 0)
      goto out;
    double b = c > 0 ? physics__median_slope(ks, ts, c, lmin, buf) : 1 / s->bw;
    double was = s->lat;
    s->lat = lmin;
    s->bw = b > 1 / HNM_MAX_BANDWIDTH ? 1 / b : HNM_MAX_BANDWIDTH;
    physics__note(m,
                  "fitted latency %.3g s is below the smallest messages' %.3g s: latency fixed there, bandwidth "
                  "refitted to %.4g B/s\n",
                  lo, s->upto, was, lmin, s->bw);
  }
  /* Bandwidth ceiling: B_max above. */
  if (!(bmax <= PHYSICS_MAX_BANDWIDTH)) {
    hnm_errf(err, errlen,
             "%s: the largest messages (above %.0f B) show no per-byte cost (bandwidth %.3g B/s): the route's "
             "bandwidth is unknown, so no segment can be kept below it (measure larger sizes: run --max)",
             place, m->nseg > 1 ? m->seg[m->nseg - 2].upto : 0, bmax);
    goto out;
  }
  m->route_bw = bmax;
  for (size_t i = 0; i < m->nseg; i++) {
    hnm_fit_segment *s = &m->seg[i];
    double lo = i > 0 ? m->seg[i - 1].upto : 0;
    if (!(s->bw > bmax))
      continue;
    if (physics__points(k, t, n, lo, s->upto, raw, smooth, ks, ts, &c, err, errlen) != 0)
      goto out;
    double a = c > 0 ? physics__median_latency(ks, ts, c, 1 / bmax, buf) : s->lat;
    double was = s->bw;
    s->bw = bmax;
    s->lat = a > lmin ? a : lmin;
    physics__note(m,
                  "fitted bandwidth %.4g B/s is above the route's %.4g B/s: bandwidth fixed there, latency "
                  "refitted to %.4g s\n",
                  lo, s->upto, was, bmax, s->lat);
  }
  rc = 0;
out:
  free(ks);
  free(ts);
  free(buf);
  free(kt);
  return rc;
}

int hnm_fit__physics_fluid(hnm_fit_result *m, const double *k, const double *t, size_t n, int raw, int smooth,
                          char *err, size_t errlen)
{
  const double bmax = m->route_bw;
  if (m->nseg == 0 || n == 0)
    return 0;
  const double lmin = m->seg[0].lat;
  double *ks = malloc(n * sizeof *ks), *ts = malloc(n * sizeof *ts), *buf = malloc(n * sizeof *buf);
  size_t c;
  int rc = -1;
  if (ks == NULL || ts == NULL || buf == NULL) {
    hnm_errf(err, errlen, "out of memory");
    goto out;
  }
  if (physics__points(k, t, n, -1, INFINITY, raw, smooth, ks, ts, &c, err, errlen) != 0)
    goto out;
  char line[512];
  if (m->fl_L < lmin && c > 0) {
    double b = physics__median_slope(ks, ts, c, lmin, buf);
    snprintf(line, sizeof line,
             "note: fluid fit: latency %.3g s is below the smallest messages' %.3g s: fixed there, bandwidth "
             "refitted\n",
             m->fl_L, lmin);
    m->fl_L = lmin;
    m->fl_B = b > 1 / HNM_MAX_BANDWIDTH ? 1 / b : HNM_MAX_BANDWIDTH;
    physics__append(m, line);
  }
  if (bmax > 0 && m->fl_B > bmax && c > 0) {
    double a = physics__median_latency(ks, ts, c, 1 / bmax, buf);
    snprintf(line, sizeof line,
             "note: fluid fit: bandwidth %.4g B/s is above the route's %.4g B/s: fixed there, latency refitted\n",
             m->fl_B, bmax);
    m->fl_B = bmax;
    m->fl_L = a > lmin ? a : lmin;
    physics__append(m, line);
  }
  rc = 0;
out:
  free(ks);
  free(ts);
  free(buf);
  return rc;
}
