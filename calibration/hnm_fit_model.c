/* hnm_fit_model.c -- the fit procedure (hnm_fit_model.h): protocol from the
 * probe, piecewise fits per operation, the model's segments, the LogGPS
 * and fluid comparisons, contention. */
#include "hnm_fit_model.h"

#include "hnm_bench.h"
#include "hnm_error.h"
#include "hnm_fit_bands.h"
#include "hnm_fit_physics.h"
#include "hnm_model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)HNM_FIT_SEND == (int)HNM_BENCH_SEND && (int)HNM_FIT_RECV == (int)HNM_BENCH_RECV &&
                 (int)HNM_FIT_PINGPONG == (int)HNM_BENCH_PINGPONG && (int)HNM_FIT_ISEND == (int)HNM_BENCH_ISEND &&
                 (int)HNM_FIT_IRECV == (int)HNM_BENCH_IRECV && (int)HNM_FIT_OPS == (int)HNM_BENCH_OPS,
               "the fit's operations are the benchmark's");

static const char *const fit__op_names[HNM_FIT_OPS] = HNM_BENCH_OP_NAMES;

/* Append one whole line (ending in '\n') to buf[cap] (what fits of it). */
static void fit__append(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fit__append(char *buf, size_t cap, const char *fmt, ...)
{
  size_t used = strlen(buf);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, cap - used, fmt, ap);
  va_end(ap);
}

/* "FILE:LINE: WHAT" for a message about series s ("WHAT" when it names no
 * file): into buf, returned. */
static const char *fit__place(const hnm_fit_series *s, const char *what, char *buf, size_t len)
{
  if (s->file != NULL)
    snprintf(buf, len, "%s:%ld: %s", s->file, s->line, what);
  else
    snprintf(buf, len, "%s", what);
  return buf;
}

/* Distinct values of k[0..n) in (lo, hi]. */
static size_t fit__count_sizes(const double *k, size_t n, double lo, double hi)
{
  size_t c = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(k[i] > lo && k[i] <= hi))
      continue;
    int first = 1;
    for (size_t j = 0; j < i && first; j++)
      first = k[j] != k[i];
    c += first;
  }
  return c;
}

static int fit__cmp_d(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int hnm_fit_push(double **k, double **y, size_t *n, size_t *cap, double kv, double yv)
{
  if (*n == *cap) {
    size_t c = *cap ? 2 * *cap : 256;
    double *nk = realloc(*k, c * sizeof *nk);
    if (nk == NULL)
      return -1;
    *k = nk;
    double *ny = realloc(*y, c * sizeof *ny);
    if (ny == NULL)
      return -1;
    *y = ny;
    *cap = c;
  }
  (*k)[*n] = kv;
  (*y)[*n] = yv;
  ++*n;
  return 0;
}

/* One op's segmented fit into pieces[HNM_FIT_MAX_PIECES], *np, *sigma:
 * the rows of s with k <= kmax (y from yover when not NULL), the residuals'
 * denominators from scale (per row, NULL: none), split at the thresholds
 * forced[0..nforced) where both sides hold enough sizes (else a warning in
 * notes) and at the options' breakpoints. 0, or -1 with the reason. */
static int fit__op(const hnm_fit_series *s, const char *what, double kmax, const double *forced, size_t nforced,
                   const hnm_fit_model_options *a, hnm_fit_piece *pieces, size_t *np, double *sigma,
                   const double *yover, const double *scale, char *notes, size_t notescap, char *err, size_t errlen)
{
  size_t cnt = s->n ? s->n : 1;
  double *k = malloc(cnt * sizeof *k), *y = malloc(cnt * sizeof *y);
  double *ks = malloc(cnt * sizeof *ks), *sc = malloc(cnt * sizeof *sc);
  double *scale_pts = NULL;
  int rc = -1;
  if (k == NULL || y == NULL || ks == NULL || sc == NULL) {
    hnm_errf(err, errlen, "out of memory");
    goto out;
  }
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->k[i] <= kmax) {
      k[n] = ks[n] = s->k[i];
      y[n] = yover ? yover[i] : s->y[i];
      sc[n] = scale ? scale[i] : 0;
      n++;
    }
  size_t nsc = n;
  if (!a->raw && hnm_fit_medians(k, y, &n, a->smooth, err, errlen) != 0)
    goto out;
  /* The residuals' denominators: per size, the (smoothed, with medians)
   * median of scale, whatever y's reduction. */
  if (scale != NULL) {
    if (hnm_fit_medians(ks, sc, &nsc, a->raw ? 0 : a->smooth, err, errlen) != 0)
      goto out;
    scale_pts = malloc((n ? n : 1) * sizeof *scale_pts);
    if (scale_pts == NULL) {
      hnm_errf(err, errlen, "out of memory");
      goto out;
    }
    for (size_t i = 0; i < n; i++) {
      size_t lo = 0, hi = nsc - 1; /* ks increasing, holding every k[i] */
      while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ks[mid] < k[i])
          lo = mid + 1;
        else
          hi = mid;
      }
      scale_pts[i] = sc[lo];
    }
  }
  double f[80];
  size_t nf = 0;
  /* The protocol thresholds split every op, unless a stretch between them
   * holds fewer than min_sizes sampled sizes: then that stretch is fitted
   * with its neighbour (and the notes say so). User breakpoints always
   * split; too few sizes there is an error. */
  int min_sizes = a->min_sizes > 0 ? a->min_sizes : 2;
  for (size_t i = 0; i < nforced && nf < 40; i++) {
    double lo = -1, hi = INFINITY;
    for (size_t j = 0; j < nforced; j++) {
      if (forced[j] < forced[i] && forced[j] > lo)
        lo = forced[j];
      if (forced[j] > forced[i] && forced[j] < hi)
        hi = forced[j];
    }
    if (hi > kmax)
      hi = kmax;
    double below = (double)fit__count_sizes(k, n, lo, forced[i]), above = (double)fit__count_sizes(k, n, forced[i], hi);
    if (below >= min_sizes && above >= min_sizes)
      f[nf++] = forced[i];
    else if (forced[i] < kmax)
      fit__append(notes, notescap,
                  "warning: %s: too few sampled sizes next to the protocol threshold %.0f to split the fit there "
                  "(sample more sizes)\n",
                  what, forced[i]);
  }
  for (size_t i = 0; i < a->nforced && nf < 80; i++)
    f[nf++] = a->forced[i];
  hnm_fit_options o = {a->penalty, a->max_segments, a->min_sizes, f, nf, a->forced_only, a->noise_floor, a->loss,
                       scale_pts};
  /* Only forced breakpoints (the file's, refine's): as many segments as
   * they make, whatever max_segments says for free ones. */
  if (o.forced_only && (int)nf + 1 > (o.max_segments > 0 ? o.max_segments : 8))
    o.max_segments = (int)nf + 1 > HNM_FIT_MAX_PIECES ? HNM_FIT_MAX_PIECES : (int)nf + 1;
  /* A protocol range (k <= async or detached, from the probe) may hold
   * fewer sampled sizes than a segment needs (a probe on noisy timings can
   * find a tiny eager range): then one constant (b = 0), or nothing (0)
   * without data, and a warning; not an error, as the user chose none of it. */
  size_t distinct = fit__count_sizes(k, n, -1, kmax);
  if (isfinite(kmax) && (int)distinct < min_sizes) {
    fit__append(notes, notescap,
                "warning: %s: only %zu sampled size(s) up to the protocol threshold %.0f: %s (sample more sizes)\n",
                what, distinct, kmax, n ? "fitted by a constant" : "overheads 0 there");
    if (n == 0) {
      memset(pieces, 0, sizeof *pieces);
      pieces[0].lo = -1;
      pieces[0].hi = kmax;
      *np = 1;
      *sigma = 0;
      rc = 0;
      goto out;
    }
    o.min_sizes = 1;
    o.max_segments = 1;
    o.nforced = 0;
  }
  char why[512];
  if (hnm_fit_segments(k, y, n, &o, pieces, HNM_FIT_MAX_PIECES, np, sigma, why, sizeof why) != 0) {
    char place[1200];
    hnm_errf(err, errlen, "%s: %s", fit__place(s, what, place, sizeof place), why);
    goto out;
  }
  rc = 0;
out:
  free(k);
  free(y);
  free(ks);
  free(sc);
  free(scale_pts);
  return rc;
}

/* Protocol thresholds from probe rows: per size, medians; rendez-vous if
 * send >= delay/2, else eager if recv < 0.9 (pingpong/2 - send): SMPI's
 * detached receive lasts exactly pingpong/2 - send (T + o_r), an eager one
 * T less (docs/calibration.md).
 * A = largest eager size below the smallest non-eager one, D = largest
 * non-rendez-vous size below the smallest rendez-vous one (-1: none). */
static int fit__protocol(const hnm_fit_data *in, double *A, double *D, char *notes, size_t notescap, char *err,
                         size_t errlen)
{
  size_t n = in->nprobe;
  double *sz = malloc(n * sizeof *sz), *tmp = malloc(3 * n * sizeof *tmp);
  double *modes_size = malloc(n * sizeof *modes_size);
  int *modes = malloc(n * sizeof *modes);
  if (sz == NULL || tmp == NULL || modes_size == NULL || modes == NULL) {
    free(sz);
    free(tmp);
    free(modes_size);
    free(modes);
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < n; i++)
    sz[i] = in->probe[i].size;
  qsort(sz, n, sizeof *sz, fit__cmp_d);
  double min_non_eager = INFINITY, min_rdv = INFINITY;
  size_t nm = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && sz[i] == sz[i - 1])
      continue;
    size_t c = 0;
    double *s = tmp, *r = tmp + n, *p = tmp + 2 * n;
    double delay = 0;
    for (size_t j = 0; j < n; j++)
      if (in->probe[j].size == sz[i]) {
        s[c] = in->probe[j].send;
        r[c] = in->probe[j].recv;
        p[c] = in->probe[j].pingpong;
        delay = in->probe[j].delay;
        c++;
      }
    double ms = hnm_fit_median(s, c), mr = hnm_fit_median(r, c), mp = hnm_fit_median(p, c);
    int mode = ms >= delay / 2 ? 2 : mr < 0.9 * (mp / 2 - ms) ? 0 : 1;
    modes_size[nm] = sz[i];
    modes[nm++] = mode;
    if (mode >= 1 && sz[i] < min_non_eager)
      min_non_eager = sz[i];
    if (mode == 2 && sz[i] < min_rdv)
      min_rdv = sz[i];
  }
  *A = *D = -1;
  for (size_t i = 0; i < nm; i++) {
    if (modes[i] == 0 && modes_size[i] < min_non_eager && modes_size[i] > *A)
      *A = modes_size[i];
    if (modes[i] <= 1 && modes_size[i] < min_rdv && modes_size[i] > *D)
      *D = modes_size[i];
  }
  /* The benchmark's probe bisects to the byte; a probe that did not (an
   * older one, or rows removed) leaves each threshold between two sizes. */
  if (*A >= 0 && isfinite(min_non_eager) && min_non_eager > *A + 1)
    fit__append(notes, notescap,
                "%s: note: the eager threshold lies in [%.0f, %.0f) (no size probed between): placed at %.0f\n",
                in->probe_file, *A, min_non_eager, *A);
  if (*D >= 0 && isfinite(min_rdv) && min_rdv > *D + 1)
    fit__append(notes, notescap,
                "%s: note: the detached threshold lies in [%.0f, %.0f) (no size probed between): placed at %.0f\n",
                in->probe_file, *D, min_rdv, *D);
  free(sz);
  free(tmp);
  free(modes_size);
  free(modes);
  return 0;
}

/* A fitted piece ends at its largest sampled size hi; when a known
 * breakpoint (forced, or a protocol threshold) f lies in [hi, next sampled
 * size), the data cannot tell them apart and the model takes f, exact,
 * instead of a boundary somewhere between two sampled sizes. */
static double fit__snap(double hi, const hnm_fit_series *s, const hnm_fit_model_options *a, const double *AD,
                        size_t nAD)
{
  double next = INFINITY;
  for (size_t i = 0; i < s->n; i++)
    if (s->k[i] > hi && s->k[i] < next)
      next = s->k[i];
  double best = hi;
  for (size_t i = 0; i < a->nforced + nAD; i++) {
    double f = i < a->nforced ? a->forced[i] : AD[i - a->nforced];
    if (f >= hi && f < next && (best == hi || f < best))
      best = f;
  }
  return best;
}

/* The piece of op holding k, its boundaries snapped as the model's are. */
static size_t fit__piece(const hnm_fit_result *m, int op, double k, const hnm_fit_data *in,
                         const hnm_fit_model_options *a, const double *AD, size_t nAD)
{
  const hnm_fit_series *s = &in->op[op == HNM_FIT_TRANSFER ? HNM_FIT_PINGPONG : op];
  size_t i = 0;
  while (i + 1 < m->npieces[op] && k > fit__snap(m->pieces[op][i].hi, s, a, AD, nAD))
    i++;
  return i;
}

/* Step 1: the protocol, given or probed (hnm_fit_model.h). */
static int fit__thresholds(const hnm_fit_data *in, const hnm_fit_model_options *a, hnm_fit_result *m, char *err,
                           size_t errlen)
{
  if (a->have_protocol) {
    m->async = a->async;
    m->detached = a->detached;
    return 0;
  }
  if (in->nprobe == 0) {
    hnm_errf(err, errlen,
             "no protocol probe (header size,delay,send,recv,pingpong) among the inputs; give probe.csv or "
             "--protocol ASYNC,DETACHED");
    return -1;
  }
  if (fit__protocol(in, &m->async, &m->detached, m->protocol_notes, sizeof m->protocol_notes, err, errlen) != 0)
    return -1;
  /* A probed range holding fewer sampled sizes than a segment needs
   * (timing noise can make the probe see an eager range of a byte or
   * two) cannot be fitted: it is merged into the next mode, which SMPI
   * times with the same round trip, and the notes say so. */
  int min_sizes = a->min_sizes > 0 ? a->min_sizes : 2;
  const hnm_fit_series *ss = &in->op[HNM_FIT_SEND];
  double *lim[2] = {&m->async, &m->detached};
  const char *mode[2] = {"eager", "detached"};
  for (int i = 1; i >= 0; i--) {
    size_t c = *lim[i] >= 0 ? fit__count_sizes(ss->k, ss->n, i == 1 ? m->async : -1, *lim[i]) : 0;
    if (*lim[i] >= 0 && (int)c < min_sizes) {
      fit__append(m->notes, sizeof m->notes,
                  "warning: probe: the %s range (up to %.0f B) holds %zu sampled size(s), too few to fit: "
                  "merged into the next mode\n",
                  mode[i], *lim[i], c);
      *lim[i] = i == 1 ? m->async : -1;
    }
  }
  return 0;
}

/* Step 3's overlap: a real library may overlap its overheads with the
 * wire, so that send + late receive exceed the one-way time, which SMPI
 * (overheads, then transfer, then overheads) cannot reproduce: then both
 * overheads are scaled by s = 0.8 x the 10th percentile over sizes of
 * (median round trip / 2) / (o_s + o_r), keeping the round trip exact and
 * leaving the transfer at least ~20% of it. Under SMPI itself the ratio is
 * > 1.25 whenever the route latency is > 1/4 of the overheads, and s = 1. */
static int fit__overlap(const hnm_fit_series *pp, hnm_fit_result *m, char *err, size_t errlen)
{
  m->overlap_scale = 1;
  double *ratio = malloc((pp->n + 1) * sizeof *ratio), *v = malloc((pp->n + 1) * sizeof *v);
  if (ratio == NULL || v == NULL) {
    free(ratio);
    free(v);
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  size_t nr = 0;
  for (size_t i = 0; i < pp->n; i++) {
    double k = pp->k[i];
    int first = 1;
    for (size_t q = 0; q < i && first; q++)
      first = pp->k[q] != k;
    if (!first || !(k <= m->detached))
      continue;
    size_t nv = 0;
    for (size_t q = 0; q < pp->n; q++)
      if (pp->k[q] == k)
        v[nv++] = pp->y[q];
    double ov = 0;
    if (m->have[HNM_FIT_SEND])
      ov += hnm_fit_eval(m->pieces[HNM_FIT_SEND], m->npieces[HNM_FIT_SEND], k);
    if (m->have[HNM_FIT_RECV] && k <= m->async)
      ov += hnm_fit_eval(m->pieces[HNM_FIT_RECV], m->npieces[HNM_FIT_RECV], k);
    if (ov > 0)
      ratio[nr++] = hnm_fit_median(v, nv) / 2 / ov;
  }
  if (nr > 0) {
    qsort(ratio, nr, sizeof *ratio, fit__cmp_d);
    double r10 = ratio[(size_t)floor(0.1 * (double)(nr - 1))];
    if (0.8 * r10 < 1)
      m->overlap_scale = 0.8 * r10 > 0 ? 0.8 * r10 : 0;
  }
  free(ratio);
  free(v);
  for (int op = HNM_FIT_SEND; op <= HNM_FIT_RECV; op++)
    for (size_t i = 0; m->have[op] && i < m->npieces[op]; i++) {
      m->pieces[op][i].a *= m->overlap_scale;
      m->pieces[op][i].b *= m->overlap_scale;
    }
  return 0;
}

/* Step 4: the model's segments, every op's breakpoints plus the
 * thresholds ADf[0..nAD), each taking each op's piece there. */
static int fit__segments(const hnm_fit_data *in, const hnm_fit_model_options *a, hnm_fit_result *m,
                         const double *ADf, size_t nAD, char *err, size_t errlen)
{
  const hnm_fit_series *pp = &in->op[HNM_FIT_PINGPONG];
  double *b = malloc(((HNM_FIT_OPS + 1) * HNM_FIT_MAX_PIECES + 3) * sizeof *b);
  if (b == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  size_t nb = 0;
  for (int op = 0; op <= HNM_FIT_TRANSFER; op++)
    for (size_t i = 0; m->have[op] && i + 1 < m->npieces[op]; i++)
      b[nb++] = fit__snap(m->pieces[op][i].hi, &in->op[op == HNM_FIT_TRANSFER ? HNM_FIT_PINGPONG : op], a, ADf, nAD);
  for (size_t i = 0; i < nAD; i++)
    b[nb++] = ADf[i];
  qsort(b, nb, sizeof *b, fit__cmp_d);
  size_t u = 0;
  for (size_t i = 0; i < nb; i++)
    if (u == 0 || b[i] != b[u - 1])
      b[u++] = b[i];
  /* A boundary that is neither known (forced, a threshold) nor next to
   * the following sampled size is only known to lie in [b, next): say so. */
  for (size_t i = 0; i < u; i++) {
    int known = 0;
    for (size_t j = 0; j < a->nforced + nAD && !known; j++)
      known = b[i] == (j < a->nforced ? a->forced[j] : ADf[j - a->nforced]);
    double next = INFINITY;
    for (size_t j = 0; j < pp->n; j++)
      if (pp->k[j] > b[i] && pp->k[j] < next)
        next = pp->k[j];
    if (!known && isfinite(next) && next > b[i] + 1)
      fit__append(m->notes, sizeof m->notes,
                  "note: the breakpoint after %.0f B lies in [%.0f, %.0f) (no size sampled between): "
                  "`hnm-calibrate run --refine MODEL` locates it to the byte\n",
                  b[i], b[i], next);
  }
  b[u++] = INFINITY;
  m->seg = calloc(u, sizeof *m->seg);
  if (m->seg == NULL) {
    free(b);
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  m->nseg = u;
  for (size_t i = 0; i < u; i++) {
    hnm_fit_segment *s = &m->seg[i];
    s->upto = b[i];
    /* A point inside the segment, to pick each op's piece. */
    double k = isinf(b[i]) ? (u > 1 ? b[u - 2] + 1 : 1) : b[i];
    const hnm_fit_piece *p = &m->pieces[HNM_FIT_TRANSFER][fit__piece(m, HNM_FIT_TRANSFER, k, in, a, ADf, nAD)];
    /* As fitted: hnm_fit_physics.h keeps them within bounds. */
    s->lat = p->a;
    s->bw = p->b > 1 / HNM_MAX_BANDWIDTH ? 1 / p->b : HNM_MAX_BANDWIDTH;
    if (m->have[HNM_FIT_SEND] && k <= m->detached) {
      p = &m->pieces[HNM_FIT_SEND][fit__piece(m, HNM_FIT_SEND, k, in, a, ADf, nAD)];
      s->so = p->a > 0 ? p->a : 0;
      s->sb = p->b > 0 ? p->b : 0;
    }
    if (m->have[HNM_FIT_RECV] && k <= m->async) {
      p = &m->pieces[HNM_FIT_RECV][fit__piece(m, HNM_FIT_RECV, k, in, a, ADf, nAD)];
      s->ro = p->a > 0 ? p->a : 0;
      s->rb = p->b > 0 ? p->b : 0;
    }
    if (m->have[HNM_FIT_ISEND]) {
      p = &m->pieces[HNM_FIT_ISEND][fit__piece(m, HNM_FIT_ISEND, k, in, a, ADf, nAD)];
      s->io = p->a > 0 ? p->a : 0;
      s->ib = p->b > 0 ? p->b : 0;
    }
  }
  free(b);
  return 0;
}

/* Step 5: single-segment comparisons. Fluid: one line L + k/B through all
 * of rtt/2. LogGPS: o_s + k O_s on send and o_r + k O_r on recv (k <= S =
 * D), o their mean intercept; the per-byte total G + O_s + O_r is the
 * fluid slope (so that large messages keep the right rate), O_s and O_r
 * scaled down if they exceed it, L = fluid intercept - 2 o, g = G. */
static int fit__single(const hnm_fit_data *in, const hnm_fit_model_options *a, hnm_fit_result *m, char *err,
                       size_t errlen)
{
  hnm_fit_options one = {0, 1, 1, NULL, 0, 1, a->noise_floor, HNM_FIT_LOSS_HUBER, NULL};
  hnm_fit_piece pc;
  size_t np;
  double sg;
  char why[256];
  double S = m->detached;
  const hnm_fit_series *pp = &in->op[HNM_FIT_PINGPONG], *ss = &in->op[HNM_FIT_SEND], *rr = &in->op[HNM_FIT_RECV];
  size_t cap = pp->n > ss->n ? pp->n : ss->n;
  cap = cap > rr->n ? cap : rr->n;
  double *k = malloc(cap * sizeof *k), *y = malloc(cap * sizeof *y);
  if (k == NULL || y == NULL) {
    free(k);
    free(y);
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < pp->n; i++)
    k[i] = pp->k[i], y[i] = pp->y[i] / 2;
  double P = 0;
  m->fl_L = 0;
  m->fl_B = HNM_MAX_BANDWIDTH;
  if (hnm_fit_segments(k, y, pp->n, &one, &pc, 1, &np, &sg, why, sizeof why) == 0) {
    m->fl_L = pc.a;
    m->fl_B = pc.b > 1 / HNM_MAX_BANDWIDTH ? 1 / pc.b : HNM_MAX_BANDWIDTH;
    if (hnm_fit__physics_fluid(m, k, y, pp->n, a->raw, a->smooth, err, errlen) != 0) {
      free(k);
      free(y);
      return -1;
    }
    P = m->fl_B < HNM_MAX_BANDWIDTH ? 1 / m->fl_B : 0;
  }
  double os = 0, Os = 0, orr = 0, Or = 0;
  size_t n = 0;
  for (size_t i = 0; i < ss->n; i++)
    if (ss->k[i] <= S)
      k[n] = ss->k[i], y[n++] = ss->y[i];
  if (n > 0 && hnm_fit_segments(k, y, n, &one, &pc, 1, &np, &sg, why, sizeof why) == 0)
    os = fmax(0, pc.a), Os = fmax(0, pc.b);
  n = 0;
  for (size_t i = 0; i < rr->n; i++)
    if (rr->k[i] <= S)
      k[n] = rr->k[i], y[n++] = rr->y[i];
  if (n > 0 && hnm_fit_segments(k, y, n, &one, &pc, 1, &np, &sg, why, sizeof why) == 0)
    orr = fmax(0, pc.a), Or = fmax(0, pc.b);
  if (Os + Or > P && Os + Or > 0) {
    double f = P / (Os + Or);
    Os *= f;
    Or *= f;
  }
  m->lg_o = 0.5 * (os + orr);
  m->lg_Os = Os;
  m->lg_Or = Or;
  m->lg_G = fmax(0, P - Os - Or);
  m->lg_L = fmax(0, m->fl_L - 2 * m->lg_o);
  free(k);
  free(y);
  return 0;
}

/* Step 6: the limiter, per-node B_s + B_r with one bidirectional pair,
 * against the one-way bandwidth B. SimGrid scales a flow's max-min share
 * by its bandwidth factor (bw-factor = B / B_link for the fitted absolute
 * bandwidth), so a limiter of f x B_link gives B_s + B_r = f x B: the
 * factor is the measured ratio, whatever the platform's B_link. */
static int fit__contention(const hnm_fit_data *in, hnm_fit_result *m, char *err, size_t errlen)
{
  m->limiter = -1;
  if (in->ncont == 0)
    return 0;
  /* Per rank (0 and 1 of the first pair), the median over repetitions;
   * then the smaller of the two: a rank that left the barrier first also
   * counts the wait for its peer. */
  double *v = malloc(in->ncont * sizeof *v), med[2][2] = {{0, 0}, {0, 0}};
  if (v == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  double M = 0;
  for (int bi = 0; bi < 2; bi++)
    for (int r = 0; r < 2; r++) {
      size_t nv = 0;
      for (size_t i = 0; i < in->ncont; i++) {
        const hnm_fit_contention *c = &in->cont[i];
        if (c->pairs == 1 && c->bi == bi && c->rank == r) {
          v[nv++] = c->duration;
          M = c->size;
        }
      }
      if (nv == 0) { /* a row that is missing has no line: the file and the fields */
        free(v);
        hnm_errf(err, errlen,
                 "%s: no row with pairs 1, mode %s, rank %d (the contention probe needs both ranks of one pair in "
                 "both modes)",
                 in->cont_file, bi ? "bi" : "uni", r);
        return -1;
      }
      med[bi][r] = hnm_fit_median(v, nv);
    }
  free(v);
  const hnm_fit_segment *s = hnm_fit_segment_at(m, M);
  double tu = fmin(med[0][0], med[0][1]) - s->lat, tb = fmin(med[1][0], med[1][1]) - s->lat;
  if (!(tu > 0 && tb > 0)) {
    /* The probe's messages were too small for their transfer time to
     * stand out of the latency noise (typical on one machine, where the
     * copies go through memory). Without a measured B_s + B_r nothing
     * supports a factor: keep the limiters the platform declares. */
    fit__append(m->notes, sizeof m->notes,
                "warning: %s: contention durations at %.0f B not above the fitted latency (%.3g s): no "
                "limiter fitted, the platform's limiters kept as declared (rerun the probe with larger "
                "messages to fit one)\n",
                in->cont_file, M, s->lat);
    return 0;
  }
  m->cont_size = M;
  m->buni = M / tu;
  m->bsr = 2 * M / tb;
  m->limiter = m->bsr / m->buni;
  /* The limiter is shared by a node's in and out flows: below 1 it would
   * also slow a one-way transfer under the fitted B (which the model's own
   * one-way fit contradicts); above 2 it never binds. Kept in [1, 2]. */
  if (m->limiter < 1 || m->limiter > 2) {
    double f = m->limiter < 1 ? 1 : 2;
    fit__append(m->notes, sizeof m->notes,
                "warning: contention: B_s + B_r = %.3g x the one-way bandwidth, outside [1, 2] where a node "
                "limiter can express it; limiter factor set to %g\n",
                m->limiter, f);
    m->limiter = f;
  }
  return 0;
}

/* Steps 2 to 6, after the thresholds; T and half are scratch of the
 * round trip's size. */
static int fit__steps(const hnm_fit_data *in, const hnm_fit_model_options *a, hnm_fit_result *m, double *t,
                      double *half, char *err, size_t errlen)
{
  double ADf[2];
  size_t nAD = 0;
  if (m->async >= 0)
    ADf[nAD++] = m->async;
  if (m->detached >= 0)
    ADf[nAD++] = m->detached;
  const hnm_fit_series *pp = &in->op[HNM_FIT_PINGPONG];
  /* send, k <= D; recv, k <= A */
  if (m->detached >= 0) {
    if (fit__op(&in->op[HNM_FIT_SEND], "op 'send'", m->detached, ADf, nAD, a, m->pieces[HNM_FIT_SEND],
                &m->npieces[HNM_FIT_SEND], &m->sigma[HNM_FIT_SEND], NULL, NULL, m->notes, sizeof m->notes, err,
                errlen) != 0)
      return -1;
    m->have[HNM_FIT_SEND] = 1;
  }
  if (m->async >= 0) {
    if (fit__op(&in->op[HNM_FIT_RECV], "op 'recv'", m->async, ADf, nAD, a, m->pieces[HNM_FIT_RECV],
                &m->npieces[HNM_FIT_RECV], &m->sigma[HNM_FIT_RECV], NULL, NULL, m->notes, sizeof m->notes, err,
                errlen) != 0)
      return -1;
    m->have[HNM_FIT_RECV] = 1;
  }
  /* T = round trip / 2 minus the overheads SMPI adds in each mode. */
  if (fit__overlap(pp, m, err, errlen) != 0)
    return -1;
  for (size_t i = 0; i < pp->n; i++) {
    double k = pp->k[i];
    t[i] = pp->y[i] / 2;
    if (m->have[HNM_FIT_SEND] && k <= m->detached)
      t[i] -= hnm_fit_eval(m->pieces[HNM_FIT_SEND], m->npieces[HNM_FIT_SEND], k);
    if (m->have[HNM_FIT_RECV] && k <= m->async)
      t[i] -= hnm_fit_eval(m->pieces[HNM_FIT_RECV], m->npieces[HNM_FIT_RECV], k);
  }
  /* T's residuals relative to the half round trip: T's loss is then the
   * round trip's relative error, the quantity the model is judged on (with
   * T's own median as the denominator, sizes where the overheads take most
   * of the round trip would weigh more than the round trip warrants). */
  for (size_t i = 0; i < pp->n; i++)
    half[i] = pp->y[i] / 2;
  if (fit__op(pp, "op 'pingpong' (transfer time)", INFINITY, ADf, nAD, a, m->pieces[HNM_FIT_TRANSFER],
              &m->npieces[HNM_FIT_TRANSFER], &m->sigma[HNM_FIT_TRANSFER], t, half, m->notes, sizeof m->notes, err,
              errlen) != 0)
    return -1;
  m->have[HNM_FIT_TRANSFER] = 1;
  if (in->op[HNM_FIT_ISEND].n > 0) {
    if (fit__op(&in->op[HNM_FIT_ISEND], "op 'isend'", INFINITY, ADf, nAD, a, m->pieces[HNM_FIT_ISEND],
                &m->npieces[HNM_FIT_ISEND], &m->sigma[HNM_FIT_ISEND], NULL, NULL, m->notes, sizeof m->notes, err,
                errlen) != 0)
      return -1;
    m->have[HNM_FIT_ISEND] = 1;
  }
  if (fit__segments(in, a, m, ADf, nAD, err, errlen) != 0)
    return -1;
  char place[1200];
  fit__place(pp, "op 'pingpong'", place, sizeof place);
  /* The smallest and largest messages' segments, where physics refits
   * them, keep its values: they set the route's latency and bandwidth
   * (hnm_fit_physics.h). Others move within those bounds. */
  double *was = malloc(2 * m->nseg * sizeof *was);
  unsigned char *fixed = malloc(m->nseg);
  if (was == NULL || fixed == NULL) {
    free(was);
    free(fixed);
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < m->nseg; i++) {
    was[2 * i] = m->seg[i].lat;
    was[2 * i + 1] = m->seg[i].bw;
  }
  int rc = hnm_fit__physics(m, pp->k, t, pp->n, a->raw, a->smooth, place, err, errlen);
  for (size_t i = 0; rc == 0 && i < m->nseg; i++)
    fixed[i] = (i == 0 || i + 1 == m->nseg) && (m->seg[i].lat != was[2 * i] || m->seg[i].bw != was[2 * i + 1]);
  /* Judged as the report judges: per-decade median round-trip error. */
  if (rc == 0)
    rc = hnm_fit__bands(m, fixed, pp->k, pp->y, pp->n, err, errlen);
  free(was);
  free(fixed);
  if (rc != 0)
    return -1;
  if (fit__single(in, a, m, err, errlen) != 0)
    return -1;
  return fit__contention(in, m, err, errlen);
}

int hnm_fit_model(const hnm_fit_data *in, const hnm_fit_model_options *a, hnm_fit_result *m, char *err,
                  size_t errlen)
{
  memset(m, 0, sizeof *m);
  for (int op = HNM_FIT_SEND; op <= HNM_FIT_PINGPONG; op++)
    if (in->op[op].n == 0) {
      if (in->p2p_file == NULL)
        hnm_errf(err, errlen, "no point-to-point CSV (header op,size,start,duration) among the inputs");
      else
        hnm_errf(err, errlen, "%s:%ld: no '%s' measurements in the point-to-point CSV(s)", in->p2p_file,
                 in->p2p_line, fit__op_names[op]);
      return -1;
    }
  /* The readers refuse what is not a number; data given otherwise is
   * checked here, before anything is fitted. */
  for (int op = 0; op < HNM_FIT_OPS; op++)
    for (size_t i = 0; i < in->op[op].n; i++)
      if (!isfinite(in->op[op].k[i]) || !isfinite(in->op[op].y[i])) {
        char what[64], place[1200];
        snprintf(what, sizeof what, "op '%s'", fit__op_names[op]);
        hnm_errf(err, errlen, "%s: measurement %zu (%g B, %g s) is not a finite number",
                 fit__place(&in->op[op], what, place, sizeof place), i + 1, in->op[op].k[i], in->op[op].y[i]);
        return -1;
      }
  if (fit__thresholds(in, a, m, err, errlen) != 0)
    return -1;
  const hnm_fit_series *pp = &in->op[HNM_FIT_PINGPONG];
  double *t = malloc(pp->n * sizeof *t), *half = malloc(pp->n * sizeof *half);
  int rc = -1;
  if (t == NULL || half == NULL)
    hnm_errf(err, errlen, "out of memory");
  else
    rc = fit__steps(in, a, m, t, half, err, errlen);
  free(t);
  free(half);
  if (rc != 0)
    hnm_fit_result_free(m);
  return rc;
}

void hnm_fit_result_free(hnm_fit_result *r)
{
  free(r->seg);
  r->seg = NULL;
  r->nseg = 0;
  free(r->sized);
  r->sized = NULL;
  r->nsized = 0;
}

/* The fitted values within the ranges a model file accepts
 * (docs/model-format.md): otherwise the measurements are not of a network. */
#define FIT__MAX_TIME 1.0 /* seconds, or seconds per byte */

/* " for sizes up to N B", or "" for the last segment. */
static const char *fit__upto(double upto, char *buf, size_t len)
{
  if (isinf(upto))
    return "";
  snprintf(buf, len, " for sizes up to %.0f B", upto);
  return buf;
}

static int fit__check_time(const char *what, double v, double upto, char *err, size_t errlen)
{
  char where[64];
  if (v >= 0 && v <= FIT__MAX_TIME)
    return 0;
  hnm_errf(err, errlen,
           "the measurements fit a %s of %.3g s%s, outside [0, %g s]: not a network's (check the CSV files)", what, v,
           fit__upto(upto, where, sizeof where), FIT__MAX_TIME);
  return -1;
}

int hnm_fit_check(const hnm_fit_result *m, char *err, size_t errlen)
{
  for (size_t i = 0; i < m->nseg; i++) {
    const hnm_fit_segment *g = &m->seg[i];
    char where[64];
    if (!(g->bw > 0 && g->bw <= HNM_MAX_BANDWIDTH)) {
      hnm_errf(err, errlen,
               "the measurements fit a bandwidth of %.3g B/s%s, outside (0, %g B/s]: not a network's (check the CSV "
               "files)",
               g->bw, fit__upto(g->upto, where, sizeof where), HNM_MAX_BANDWIDTH);
      return -1;
    }
    if (fit__check_time("latency", g->lat, g->upto, err, errlen) != 0)
      return -1;
    const double o[] = {g->so, g->sb, g->ro, g->rb, g->io, g->ib};
    for (size_t j = 0; j < sizeof o / sizeof o[0]; j++)
      if (fit__check_time("software overhead", o[j], g->upto, err, errlen) != 0)
        return -1;
  }
  const double t[] = {m->lg_L, m->lg_o, m->lg_G, m->lg_Os, m->lg_Or, m->fl_L};
  for (size_t j = 0; j < sizeof t / sizeof t[0]; j++)
    if (fit__check_time("LogGPS or fluid time", t[j], INFINITY, err, errlen) != 0)
      return -1;
  if (!(m->fl_B > 0 && m->fl_B <= HNM_MAX_BANDWIDTH)) {
    hnm_errf(err, errlen,
             "the measurements fit a fluid bandwidth of %.3g B/s, outside (0, %g B/s]: not a network's (check the "
             "CSV files)",
             m->fl_B, HNM_MAX_BANDWIDTH);
    return -1;
  }
  return 0;
}
