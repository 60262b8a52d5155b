/* hnm_fit_bands.c -- each segment's transfer line set to minimise the
 * per-decade median round-trip error, and the report lines about bands and
 * parts (hnm_fit_bands.h says what and why). */
#include "hnm_fit_bands.h"

#include "hnm_error.h"
#include "hnm_fit.h"
#include "hnm_fit_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BANDS_WIDTH 10     /* neighbours of the noise floor's local median */
#define BANDS_GAIN 0.02    /* per size: the smallest improvement taken */
#define BANDS_ROUNDS 4     /* coordinate-descent rounds */
#define BANDS_MIN_SHARE 0.2
#define BANDS_MIN_GAP 0.10
#define BANDS_MIN_SEP 4.0
#define BANDS_MIN_SWITCHES 3

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
  double *k, *med, *ov, *err, *buf, *loc;
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

/* Step 2: decades whose sizes alternate between two bands. loc: each
 * size's median relative to the median of its neighbours, minus 1. */
static void bands__alternating(hnm_fit_result *m, struct bands *B)
{
  size_t i0 = 0;
  while (i0 < B->n) {
    int d = bands__decade(B->k[i0]);
    size_t i1 = i0;
    while (i1 < B->n && bands__decade(B->k[i1]) == d)
      i1++;
    size_t c = i1 - i0;
    if (c >= 10) {
      /* Two groups: the split of the sorted values with the smallest
       * within-group sum of squares (1-D 2-means, exact). */
      memcpy(B->buf, B->loc + i0, c * sizeof *B->buf);
      hnm_fit_median(B->buf, c); /* sorts */
      double tot = 0, tot2 = 0;
      for (size_t j = 0; j < c; j++) {
        tot += B->buf[j];
        tot2 += B->buf[j] * B->buf[j];
      }
      double s1 = 0, s2 = 0, bestss = INFINITY;
      size_t split = 0;
      for (size_t j = 1; j < c; j++) {
        s1 += B->buf[j - 1];
        s2 += B->buf[j - 1] * B->buf[j - 1];
        double n1 = (double)j, n2 = (double)(c - j);
        double ss = (s2 - s1 * s1 / n1) + ((tot2 - s2) - (tot - s1) * (tot - s1) / n2);
        if (ss < bestss) {
          bestss = ss;
          split = j;
        }
      }
      double cut = (B->buf[split - 1] + B->buf[split]) / 2;
      size_t nlo = split, nhi = c - split;
      double mlo = 0, mhi = 0, dev = 0;
      for (size_t j = 0; j < c; j++) {
        if (j < split)
          mlo += B->buf[j];
        else
          mhi += B->buf[j];
      }
      mlo /= (double)nlo;
      mhi /= (double)nhi;
      for (size_t j = 0; j < c; j++)
        dev += fabs(B->buf[j] - (j < split ? mlo : mhi));
      dev /= (double)c;
      size_t switches = 0;
      for (size_t j = i0 + 1; j < i1; j++)
        switches += (B->loc[j] > cut) != (B->loc[j - 1] > cut);
      double share = (double)(nlo < nhi ? nlo : nhi) / (double)c;
      if (share >= BANDS_MIN_SHARE && mhi - mlo >= BANDS_MIN_GAP && mhi - mlo >= BANDS_MIN_SEP * dev &&
          switches >= BANDS_MIN_SWITCHES) {
        /* The bands' round trips: the medians of each group's sizes. */
        size_t a = 0, b = 0;
        double *lo = B->buf, *hi = B->buf + c;
        for (size_t j = i0; j < i1; j++) {
          if (B->loc[j] > cut)
            hi[b++] = B->med[j];
          else
            lo[a++] = B->med[j];
        }
        double rlo = hnm_fit_median(lo, a), rhi = hnm_fit_median(hi, b);
        char line[600];
        snprintf(line, sizeof line,
                 "note: decade 1e%d-1e%d: round trips alternate between two bands from size to size (%zu sizes "
                 "about %.3g s, %zu about %.3g s, %zu switches): no function of size follows both; the fit "
                 "minimises the decade's median error, and the bootstrap band (fit --bootstrap) and the "
                 "stochastic mode (residual tables) carry the spread\n",
                 d, d + 1, a, rlo, b, rhi, switches);
        bands__append(m, line);
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
  size_t i0 = 0;
  for (size_t s = 0; s < m->nseg; s++) {
    size_t i1 = i0;
    while (i1 < B->n && (B->k[i1] <= m->seg[s].upto || s + 1 == m->nseg))
      i1++;
    size_t c = 0;
    double *pe = B->buf, *me = B->buf + B->n, *fl = B->loc + B->n;
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
        char line[600], range[64];
        snprintf(line, sizeof line,
                 "note: segment %s: the fitted send, receive and wire parts do not add up to the measured "
                 "round trip (median error %.1f%% against the round trip's %.1f%%, noise floor %.1f%%): the round "
                 "trip wins (overheads scaled by %.3g, the wire time fitted to what the round trips leave)\n",
                 bands__range(m, s, range, sizeof range), 100 * p, 100 * e, 100 * f, sc);
        bands__append(m, line);
      }
    }
    i0 = i1;
  }
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
  B.loc = malloc(2 * n * sizeof *B.loc);
  int rc = -1;
  if (kv == NULL || B.k == NULL || B.med == NULL || B.ov == NULL || B.err == NULL || B.buf == NULL ||
      B.loc == NULL) {
    hnm_errf(err, errlen, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    kv[i].k = k[i];
    kv[i].v = rt[i];
  }
  qsort(kv, n, sizeof *kv, bands__cmp_kv);
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && kv[j].k == kv[i].k) {
      B.buf[j - i] = kv[j].v;
      j++;
    }
    double med = hnm_fit_median(B.buf, j - i);
    if (med > 0) {
      B.k[B.n] = kv[i].k;
      B.med[B.n++] = med;
    }
    i = j;
  }
  if (hnm_fit_floor(B.k, B.med, B.n, BANDS_WIDTH, B.err) != 0) {
    hnm_errf(err, errlen, "out of memory");
    goto out;
  }
  /* Signed: each size against the median of its neighbours (the floor's
   * predictor, as hnm_fit_floor's window). */
  for (size_t i = 0; i < B.n; i++) {
    size_t w = BANDS_WIDTH < B.n - 1 ? BANDS_WIDTH : B.n - 1;
    size_t lo = i > w / 2 ? i - w / 2 : 0, c = 0;
    if (lo + w > B.n - 1)
      lo = B.n - 1 - w;
    for (size_t j = lo; j <= lo + w; j++)
      if (j != i)
        B.buf[c++] = B.med[j];
    double l = c > 0 ? hnm_fit_median(B.buf, c) : B.med[i];
    B.loc[i] = B.med[i] / l - 1;
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
  free(B.loc);
  return rc;
}
