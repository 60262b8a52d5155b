/* hnm_fit_bands.c -- each segment's transfer line set to minimise the
 * per-decade median round-trip error, and the report lines about bands and
 * parts (hnm_fit_bands.h says what and why). */
#include "hnm_fit_bands.h"

#include "hnm_error.h"
#include "hnm_fit.h"
#include "hnm_fit_model.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BANDS_WIDTH 10     /* neighbours of the noise floor's local median */
#define BANDS_GAIN 0.02    /* per size: the smallest improvement taken */
#define BANDS_ROUNDS 4     /* coordinate-descent rounds */
#define BANDS_MIN_DECADE 30  /* sizes of a decade for its notes */
#define BANDS_MIN_SHARE 0.2
#define BANDS_WINDOW 0.08    /* density window: x the 10-90 percentile spread */
#define BANDS_VALLEY 0.3     /* the valley's density over the smaller peak's */
#define BANDS_VALLEY_STEPS 50
#define BANDS_MIN_SWITCHES 3
#define BANDS_SCATTER_FLOOR 0.05
#define BANDS_SCATTER_MIN 10 /* sizes of a decade for the scatter note */

struct bands__kv {
  double k, v;
};

static int bands__cmp_kv(const void *a, const void *b)
{
  const struct bands__kv *x = a, *y = b;
  return x->k < y->k ? -1 : x->k > y->k ? 1 : x->v < y->v ? -1 : x->v > y->v;
}

static int bands__decade(double k)
{
  int d = k >= 1 ? (int)floor(log10(k) + 1e-9) : 0;
  return d < 0 ? 0 : d > 9 ? 9 : d;
}

/* "LO-HI B" or "LO B and up" for segment s. */
static const char *bands__range(const hnm_fit_result *m, size_t s, char *buf, size_t len)
{
  double lo = s > 0 ? m->seg[s - 1].upto + 1 : 0;
  if (isinf(m->seg[s].upto))
    snprintf(buf, len, "%.0f B and up", lo);
  else
    snprintf(buf, len, "%.0f-%.0f B", lo, m->seg[s].upto);
  return buf;
}

static void bands__append(hnm_fit_result *m, const char *line)
{
  size_t used = strlen(m->notes), n = strlen(line);
  if (used + n < sizeof m->notes)
    memcpy(m->notes + used, line, n + 1);
}

/* The work of one fit: per-size medians and scratch, all of n sizes. */
struct bands {
  size_t n;
  double *k, *med, *ov, *err, *buf, *aux, *pool;
  const struct bands__kv *kv; /* the rows, by size then value */
  size_t *first, *cnt;        /* each size's rows in kv */
};

/* The overheads the model adds to twice the transfer time at k (its
 * round trip minus 2 T). */
static double bands__overheads(const hnm_fit_result *m, double k)
{
  const hnm_fit_segment *s = hnm_fit_segment_at(m, k);
  return hnm_fit_predict_hybrid(m, HNM_FIT_PINGPONG, k) - 2 * (s->lat + k / s->bw);
}

/* The objective over sizes [i0, i1) for the transfer line through (kL, tL)
 * and (kR, tR): sum over decades of n_d x the decade's median error. */
static double bands__objective(struct bands *B, size_t i0, size_t i1, double kL, double tL, double kR, double tR)
{
  double b = (tR - tL) / (kR - kL), total = 0;
  size_t i = i0;
  while (i < i1) {
    int d = bands__decade(B->k[i]);
    size_t c = 0;
    for (; i < i1 && bands__decade(B->k[i]) == d; i++) {
      double p = B->ov[i] + 2 * (tL + b * (B->k[i] - kL));
      B->buf[c++] = fabs(p - B->med[i]) / B->med[i];
    }
    total += (double)c * hnm_fit_median(B->buf, c);
  }
  return total;
}

/* Whether the line is within the physics bounds of hnm_fit_physics.h
 * (lmin: the smallest messages' latency; lmax: for segment 0, the smallest
 * latency of the others; bmin: the largest bandwidth allowed, the route's,
 * or 10 TB/s for the largest messages' segment; bmax: the smallest one
 * allowed, for the largest messages' segment the largest of the others). */
static int bands__allowed(double lat, double b, double lmin, double lmax, double bwmin, double bwmax)
{
  if (!(b > 0) || !(1 / b <= bwmax) || !(1 / b >= bwmin))
    return 0;
  return lat >= lmin && lat <= lmax;
}

/* Step 1: the lines. */
static void bands__lines(hnm_fit_result *m, const unsigned char *fixed, struct bands *B)
{
  size_t i0 = 0;
  for (size_t s = 0; s < m->nseg; s++) {
    size_t i1 = i0;
    while (i1 < B->n && (B->k[i1] <= m->seg[s].upto || s + 1 == m->nseg))
      i1++;
    size_t c = i1 - i0;
    if (c < HNM_FIT_BANDS_MIN_SIZES || !(B->k[i1 - 1] > B->k[i0]) || fixed[s]) {
      i0 = i1;
      continue;
    }
    hnm_fit_segment *S = &m->seg[s];
    double kL = B->k[i0], kR = B->k[i1 - 1];
    double tL = S->lat + kL / S->bw, tR = S->lat + kR / S->bw;
    double lmin = s == 0 ? 1e-9 : m->seg[0].lat, lmax = INFINITY;
    for (size_t q = 1; s == 0 && q < m->nseg; q++)
      if (m->seg[q].lat < lmax)
        lmax = m->seg[q].lat;
    /* The largest messages' segment sets the route's bandwidth: no other
     * segment may then be above it. */
    int last = s + 1 == m->nseg;
    double bwmin = 0, bwmax = last ? 1e13 : m->route_bw > 0 ? m->route_bw : 1e13;
    for (size_t q = 0; last && q + 1 < m->nseg; q++)
      if (m->seg[q].bw > bwmin)
        bwmin = m->seg[q].bw;
    double f0 = bands__objective(B, i0, i1, kL, tL, kR, tR), best = f0;
    /* Lines through two measured sizes h ranks apart (h = c/2, c/3, c/4,
     * c/6): where one band holds most sizes, many such pairs lie on it. */
    static const size_t div[4] = {2, 3, 4, 6};
    for (int q = 0; q < 4; q++) {
      size_t h = c / div[q];
      for (size_t i = i0; h > 0 && i + h < i1; i++) {
        size_t j = i + h;
        double ti = (B->med[i] - B->ov[i]) / 2, tj = (B->med[j] - B->ov[j]) / 2;
        double b = (tj - ti) / (B->k[j] - B->k[i]), lat = ti - b * B->k[i];
        if (!bands__allowed(lat, b, lmin, lmax, bwmin, bwmax))
          continue;
        double nl = lat + b * kL, nr = lat + b * kR;
        double f = bands__objective(B, i0, i1, kL, nl, kR, nr);
        if (f < best) {
          best = f;
          tL = nl;
          tR = nr;
        }
      }
    }
    for (int round = 0; round < BANDS_ROUNDS; round++) {
      double was = best;
      for (int end = 0; end < 2; end++)
        for (size_t j = i0; j < i1; j++) {
          /* The line through size j's target and the other end's value. */
          double target = (B->med[j] - B->ov[j]) / 2;
          double nl = tL, nr = tR;
          if (end == 0) {
            if (B->k[j] == kR)
              continue;
            nl = tR + (target - tR) * (kL - kR) / (B->k[j] - kR);
          } else {
            if (B->k[j] == kL)
              continue;
            nr = tL + (target - tL) * (kR - kL) / (B->k[j] - kL);
          }
          double b = (nr - nl) / (kR - kL), lat = nl - b * kL;
          if (!bands__allowed(lat, b, lmin, lmax, bwmin, bwmax))
            continue;
          double f = bands__objective(B, i0, i1, kL, nl, kR, nr);
          if (f < best) {
            best = f;
            tL = nl;
            tR = nr;
          }
        }
      if (!(best < was))
        break;
    }
    if (best < f0 - BANDS_GAIN * (double)c) {
      double b = (tR - tL) / (kR - kL), lat = tL - b * kL;
      char line[400], range[64];
      snprintf(line, sizeof line,
               "note: segment %s: transfer line set to minimise the per-decade median round-trip error "
               "(%.2f%% -> %.2f%% per size): latency %.4g -> %.4g s, bandwidth %.4g -> %.4g B/s\n",
               bands__range(m, s, range, sizeof range), 100 * f0 / (double)c, 100 * best / (double)c, S->lat, lat,
               S->bw, 1 / b);
      bands__append(m, line);
      S->lat = lat;
      S->bw = 1 / b;
      if (last && S->bw > m->route_bw)
        m->route_bw = S->bw;
    }
    i0 = i1;
  }
}

/* Step 2: per decade of at least BANDS_MIN_DECADE sizes, the round trips
 * of all its rows, each relative to the decade's lower-envelope line (in
 * log-log, through the 20th percentile of the per-size medians of each
 * half of the decade's sizes), pooled: two bands when the pooled values'
 * density between the two-means groups' densest windows (half-width
 * BANDS_WINDOW x their 10-90 percentile spread) falls to BANDS_VALLEY of
 * the smaller peak, each band holds at least BANDS_MIN_SHARE of the
 * sizes' medians, and the sizes change band at least max(3, 10% of them)
 * times in increasing size. Otherwise, size-to-size scatter when the
 * decade's noise floor is at least BANDS_SCATTER_FLOOR and at least the
 * median 95% interval of the sizes' own medians (order statistics of
 * their repetitions, sizes of 5 or more). */
/* In sorted v[0..n): how many values are below x (or, with equal, at
 * most x). */
static size_t bands__rank(const double *v, size_t n, double x, int equal)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid] < x || (equal && v[mid] == x))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static size_t bands__count(const double *v, size_t n, double c, double h)
{
  return bands__rank(v, n, c + h, 1) - bands__rank(v, n, c - h, 0);
}

/* The lower-envelope point of sizes [i0, i1): median log size, 20th
 * percentile of log median round trip. */
static void bands__envelope(struct bands *B, size_t i0, size_t i1, double *x, double *y)
{
  size_t c = i1 - i0;
  for (size_t j = 0; j < c; j++)
    B->buf[j] = log(B->k[i0 + j]);
  *x = hnm_fit_median(B->buf, c);
  for (size_t j = 0; j < c; j++)
    B->buf[j] = log(B->med[i0 + j]);
  hnm_fit_sort(B->buf, c);
  *y = B->buf[(size_t)(0.2 * (double)(c - 1))];
}

/* 1 and the valley's middle (the cut) of the decade [i0, i1) when its
 * sizes fall into two bands (switches: how often they change band), 0
 * otherwise; B->aux[i0..i1): each size's log median above the envelope,
 * which the cut tells apart. */
static int bands__two(struct bands *B, size_t i0, size_t i1, double *cut, size_t *switches)
{
  size_t c = i1 - i0, h = c / 2;
  double x1, y1, x2, y2;
  bands__envelope(B, i0, i0 + h, &x1, &y1);
  bands__envelope(B, i0 + h, i1, &x2, &y2);
  if (!(x2 > x1))
    return 0;
  double slope = (y2 - y1) / (x2 - x1);
  size_t N = 0;
  for (size_t i = i0; i < i1; i++) {
    double base = y1 + slope * (log(B->k[i]) - x1);
    B->aux[i] = log(B->med[i]) - base; /* the size's median, as the rows */
    for (size_t r = 0; r < B->cnt[i]; r++)
      if (B->kv[B->first[i] + r].v > 0)
        B->pool[N++] = log(B->kv[B->first[i] + r].v) - base;
  }
  if (N < 2)
    return 0;
  double *x = B->pool;
  hnm_fit_sort(x, N);
  /* Two groups: the split of the sorted values with the smallest
   * within-group sum of squares (1-D two-means, exact). */
  double tot = 0, tot2 = 0;
  for (size_t j = 0; j < N; j++) {
    tot += x[j];
    tot2 += x[j] * x[j];
  }
  double s1 = 0, s2 = 0, best = INFINITY;
  size_t split = 1;
  for (size_t j = 1; j < N; j++) {
    s1 += x[j - 1];
    s2 += x[j - 1] * x[j - 1];
    double n1 = (double)j, n2 = (double)(N - j);
    double ss = (s2 - s1 * s1 / n1) + ((tot2 - s2) - (tot - s1) * (tot - s1) / n2);
    if (ss < best) {
      best = ss;
      split = j;
    }
  }
  double w = BANDS_WINDOW * (x[(size_t)(0.9 * (double)(N - 1))] - x[(size_t)(0.1 * (double)(N - 1))]);
  if (!(w > 0))
    return 0;
  size_t plo = 0, phi = 0;
  double xlo = x[0], xhi = x[N - 1];
  for (size_t j = 0; j < N; j++) {
    size_t n = bands__count(x, N, x[j], w);
    if (j < split && n > plo) {
      plo = n;
      xlo = x[j];
    } else if (j >= split && n > phi) {
      phi = n;
      xhi = x[j];
    }
  }
  /* The valley: the least dense window between the peaks; the sizes are
   * told apart at its middle (where several windows share the least
   * count, the middle of the first and the last). */
  size_t valley = SIZE_MAX;
  int t0 = 0, t1 = 0;
  for (int t = 0; t <= BANDS_VALLEY_STEPS; t++) {
    size_t n = bands__count(x, N, xlo + (xhi - xlo) * t / BANDS_VALLEY_STEPS, w);
    if (n < valley) {
      valley = n;
      t0 = t1 = t;
    } else if (n == valley) {
      t1 = t;
    }
  }
  *cut = xlo + (xhi - xlo) * (t0 + t1) / (2.0 * BANDS_VALLEY_STEPS);
  size_t peak = plo < phi ? plo : phi;
  size_t up = 0, sw = 0;
  int prev = -1;
  for (size_t i = i0; i < i1; i++) {
    int u = B->aux[i] > *cut;
    up += (size_t)u;
    sw += prev >= 0 && u != prev;
    prev = u;
  }
  *switches = sw;
  double share = (double)(up < c - up ? up : c - up) / (double)c;
  size_t minsw = c / 10 > BANDS_MIN_SWITCHES ? c / 10 : BANDS_MIN_SWITCHES;
  return peak > 0 && (double)valley <= BANDS_VALLEY * (double)peak && share >= BANDS_MIN_SHARE && sw >= minsw;
}

static void bands__alternating(hnm_fit_result *m, struct bands *B)
{
  size_t i0 = 0;
  while (i0 < B->n) {
    int d = bands__decade(B->k[i0]);
    size_t i1 = i0;
    while (i1 < B->n && bands__decade(B->k[i1]) == d)
      i1++;
    size_t c = i1 - i0;
    double cut;
    size_t switches;
    char line[800];
    if (c >= BANDS_MIN_DECADE && bands__two(B, i0, i1, &cut, &switches)) {
      /* The bands' round trips: the medians of each group's sizes. */
      size_t a = 0, b = 0;
      double *lo = B->buf, *hi = B->buf + c;
      for (size_t j = i0; j < i1; j++) {
        if (B->aux[j] > cut)
          hi[b++] = B->med[j];
        else
          lo[a++] = B->med[j];
      }
      double rlo = hnm_fit_median(lo, a), rhi = hnm_fit_median(hi, b);
      snprintf(line, sizeof line,
               "note: decade 1e%d-1e%d: round trips alternate between two bands from size to size (%zu sizes "
               "about %.3g s, %zu about %.3g s, %zu switches): no function of size follows both; the fit "
               "minimises the decade's median error, and the bootstrap band (fit --bootstrap) and the "
               "stochastic mode (residual tables) carry the spread\n",
               d, d + 1, a, rlo, b, rhi, switches);
      bands__append(m, line);
    } else if (c >= BANDS_SCATTER_MIN) {
      /* The decade's floor, and its medians' own 95% intervals: ranks
       * r/2 -+ sqrt(r) of each size's sorted repetitions. */
      size_t nf = 0, nc = 0;
      double *fl = B->buf, *ci = B->buf + c;
      for (size_t i = i0; i < i1; i++) {
        fl[nf++] = B->err[i];
        size_t r = B->cnt[i];
        if (r < 5)
          continue;
        size_t h = (size_t)lround(sqrt((double)r));
        size_t a = r / 2 > h ? r / 2 - h : 0, b = (r - 1) / 2 + h < r ? (r - 1) / 2 + h : r - 1;
        const struct bands__kv *v = B->kv + B->first[i];
        ci[nc++] = (v[b].v - v[a].v) / 2 / B->med[i];
      }
      double f = hnm_fit_median(fl, nf);
      if (2 * nc >= c && f >= BANDS_SCATTER_FLOOR) {
        double e = hnm_fit_median(ci, nc);
        if (f >= e) {
          snprintf(line, sizeof line,
                   "note: decade 1e%d-1e%d: round trips scatter from size to size (noise floor %.1f%%) more than "
                   "each size's own median is uncertain (95%% interval %.1f%% over its repetitions): the scatter "
                   "belongs to the sizes, more repetitions will not remove it and no function of size follows it; "
                   "the fit minimises the decade's median error, and the bootstrap band (fit --bootstrap) and the "
                   "stochastic mode (residual tables) carry the spread\n",
                   d, d + 1, 100 * f, 100 * e);
          bands__append(m, line);
        }
      }
    }
    i0 = i1;
  }
}

/* Step 3: segments whose parts do not add up to the round trip. */
static void bands__parts(hnm_fit_result *m, struct bands *B)
{
  if (!m->have[HNM_FIT_SEND] && !m->have[HNM_FIT_RECV])
    return;
  double sc = m->overlap_scale;
  size_t i0 = 0, nbad = 0, first = 0, last = 0;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {0, 0, 0}; /* parts, model, floor */
  for (size_t s = 0; s < m->nseg; s++) {
    size_t i1 = i0;
    while (i1 < B->n && (B->k[i1] <= m->seg[s].upto || s + 1 == m->nseg))
      i1++;
    size_t c = 0;
    double *pe = B->buf, *me = B->buf + B->n, *fl = B->aux + B->n;
    for (size_t j = i0; j < i1; j++) {
      double k = B->k[j];
      if (!(k <= m->detached))
        continue;
      const hnm_fit_segment *S = &m->seg[s];
      double ov = 0;
      if (m->have[HNM_FIT_SEND])
        ov += hnm_fit_eval(m->pieces[HNM_FIT_SEND], m->npieces[HNM_FIT_SEND], k);
      if (m->have[HNM_FIT_RECV] && k <= m->async)
        ov += hnm_fit_eval(m->pieces[HNM_FIT_RECV], m->npieces[HNM_FIT_RECV], k);
      /* The overheads as fitted on their own files (before the scaling);
       * scaled to nothing, they are lost: count them as missing all of the
       * round trip the transfer leaves. */
      double parts = sc > 0 ? 2 * (ov / sc + S->lat + k / S->bw) : 2 * (S->lat + k / S->bw) + B->med[j];
      double model = hnm_fit_predict_hybrid(m, HNM_FIT_PINGPONG, k);
      pe[c] = fabs(parts - B->med[j]) / B->med[j];
      me[c] = fabs(model - B->med[j]) / B->med[j];
      fl[c] = B->err[j];
      c++;
    }
    if (c > 0) {
      double p = hnm_fit_median(pe, c), e = hnm_fit_median(me, c), f = hnm_fit_median(fl, c);
      if (p > e + f) {
        if (nbad == 0)
          first = s;
        last = s;
        nbad++;
        lo[0] = fmin(lo[0], p), hi[0] = fmax(hi[0], p);
        lo[1] = fmin(lo[1], e), hi[1] = fmax(hi[1], e);
        lo[2] = fmin(lo[2], f), hi[2] = fmax(hi[2], f);
      }
    }
    i0 = i1;
  }
  if (nbad == 0)
    return;
  /* One line: the segment, or how many and from where to where. */
  char line[800], r1[64], r2[64], what[200];
  const char *tail = "the round trip wins (overheads scaled by %.3g, the wire time fitted to what the round trips "
                     "leave)\n";
  char t[200];
  snprintf(t, sizeof t, tail, sc);
  if (nbad == 1) {
    snprintf(line, sizeof line,
             "note: segment %s: the fitted send, receive and wire parts do not add up to the measured round trip "
             "(median error %.1f%% against the round trip's %.1f%%, noise floor %.1f%%): %s",
             bands__range(m, first, r1, sizeof r1), 100 * lo[0], 100 * lo[1], 100 * lo[2], t);
  } else {
    bands__range(m, first, r1, sizeof r1);
    bands__range(m, last, r2, sizeof r2);
    snprintf(what, sizeof what, "%zu of %zu segments, from %s to %s", nbad, m->nseg, r1, r2);
    snprintf(line, sizeof line,
             "note: %s: the fitted send, receive and wire parts do not add up to the measured round trip (median "
             "errors %.1f-%.1f%% against the round trip's %.1f-%.1f%%, noise floors %.1f-%.1f%%): %s",
             what, 100 * lo[0], 100 * hi[0], 100 * lo[1], 100 * hi[1], 100 * lo[2], 100 * hi[2], t);
  }
  bands__append(m, line);
}

int hnm_fit__bands(hnm_fit_result *m, const unsigned char *fixed, const double *k, const double *rt, size_t n,
                   char *err, size_t errlen)
{
  if (m->nseg == 0 || n == 0)
    return 0;
  struct bands B = {0};
  struct bands__kv *kv = malloc(n * sizeof *kv);
  B.k = malloc(n * sizeof *B.k);
  B.med = malloc(n * sizeof *B.med);
  B.ov = malloc(n * sizeof *B.ov);
  B.err = malloc(n * sizeof *B.err);
  B.buf = malloc(2 * n * sizeof *B.buf);
  B.aux = malloc(2 * n * sizeof *B.aux);
  B.pool = malloc(n * sizeof *B.pool);
  B.first = malloc(n * sizeof *B.first);
  B.cnt = malloc(n * sizeof *B.cnt);
  int rc = -1;
  if (kv == NULL || B.k == NULL || B.med == NULL || B.ov == NULL || B.err == NULL || B.buf == NULL ||
      B.aux == NULL || B.pool == NULL || B.first == NULL || B.cnt == NULL) {
    hnm_errf(err, errlen, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    kv[i].k = k[i];
    kv[i].v = rt[i];
  }
  qsort(kv, n, sizeof *kv, bands__cmp_kv);
  B.kv = kv;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && kv[j].k == kv[i].k) {
      B.buf[j - i] = kv[j].v;
      j++;
    }
    double med = hnm_fit_median(B.buf, j - i);
    if (med > 0) {
      B.k[B.n] = kv[i].k;
      B.first[B.n] = i;
      B.cnt[B.n] = j - i;
      B.med[B.n++] = med;
    }
    i = j;
  }
  if (hnm_fit_floor(B.k, B.med, B.n, BANDS_WIDTH, B.err) != 0) {
    hnm_errf(err, errlen, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < B.n; i++)
    B.ov[i] = bands__overheads(m, B.k[i]);
  bands__lines(m, fixed, &B);
  bands__alternating(m, &B);
  bands__parts(m, &B);
  rc = 0;
out:
  free(kv);
  free(B.k);
  free(B.med);
  free(B.ov);
  free(B.err);
  free(B.buf);
  free(B.aux);
  free(B.pool);
  free(B.first);
  free(B.cnt);
  return rc;
}
