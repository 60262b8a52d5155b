/* hnm_fit_predict.c -- what the fitted models predict (hnm_fit_model.h),
 * and the residuals of the hybrid one, per segment, for its stochastic mode (docs/model-format.md, "Stochastic mode").
 *
 * The residual of a measured round trip y of k bytes is R = y / (the round
 * trip the fitted model predicts at k, hnm_fit_predict_hybrid()). In stochastic mode
 * a request and its reply share one draw, so a simulated round trip lasts
 * rho times the modelled one: the quantiles written for rho are R's own,
 * the type-7 quantiles of the segment's residuals at p = 0, 1/20, ..., 1.
 * A segment with fewer than FIT__MIN_RESIDUALS round trips gets none
 * (rho = 1), and so does a segment whose largest residual is beyond the
 * model file's largest factor (FIT__MAX_RHO): a round trip a million times
 * the model's is a measurement the model does not describe (a stall, a
 * timer glitch), and writing it would make a model file the loader
 * refuses. The fit says so in a warning.
 *
 * Pooling a segment's sizes mixes the fit's error at each size (a size
 * whose median round trip sits 40% above the model's) into the spread of
 * all of them, so each measured size of a segment with residuals also
 * gets its own quantiles, from its own FIT__MIN_RESIDUALS or more round
 * trips: a message then draws from the table measured nearest its size
 * (docs/models.md, "Stochastic mode", measures both). */
#include "hnm_fit_model.h"

#include "hnm_error.h"
#include "hnm_model.h" /* HNM_MAX_RESIDUAL_TABLES */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const hnm_fit_segment *hnm_fit_segment_at(const hnm_fit_result *m, double k)
{
  size_t i = 0;
  while (i + 1 < m->nseg && k > m->seg[i].upto)
    i++;
  return &m->seg[i];
}

/* What SMPI makes of the fitted hybrid model (hnm_fit_model.h). */
double hnm_fit_predict_hybrid(const hnm_fit_result *m, int op, double k)
{
  const hnm_fit_segment *s = hnm_fit_segment_at(m, k);
  double T = s->lat + k / s->bw;
  double so = s->so + k * s->sb, ro = s->ro + k * s->rb;
  switch (op) {
    case HNM_FIT_SEND:
      return k <= m->detached ? so : T;
    case HNM_FIT_RECV:
      return k <= m->async ? ro : k <= m->detached ? T + ro : T;
    case HNM_FIT_PINGPONG:
      return k <= m->detached ? 2 * (so + T + ro) : 2 * T;
    case HNM_FIT_ISEND:
      return s->io + k * s->ib;
    default:
      return 0;
  }
}

/* hnm's LogGPS expansion (docs/model-format.md) with g = G, s = 0. */
double hnm_fit_predict_loggps(const hnm_fit_result *m, int op, double k)
{
  double o = m->lg_o, L = m->lg_L, S = m->detached;
  if (k > S) {
    double X = 6 * o + 3 * L + k * (m->lg_G + m->lg_Os + m->lg_Or);
    return op == HNM_FIT_PINGPONG ? 2 * X : op == HNM_FIT_ISEND ? o : op == HNM_FIT_IRECV ? 0 : X;
  }
  switch (op) {
    case HNM_FIT_SEND:
      return o + k * m->lg_Os;
    case HNM_FIT_RECV:
      return o + k * m->lg_Or;
    case HNM_FIT_PINGPONG:
      return 2 * (2 * o + k * (m->lg_Os + m->lg_Or) + L + k * m->lg_G);
    case HNM_FIT_ISEND:
      return o;
    default:
      return 0;
  }
}

/* Fluid: T = L + k/B, no overhead, same protocol thresholds. */
double hnm_fit_predict_fluid(const hnm_fit_result *m, int op, double k)
{
  double T = m->fl_L + k / m->fl_B;
  switch (op) {
    case HNM_FIT_SEND:
      return k <= m->detached ? 0 : T;
    case HNM_FIT_RECV:
      return k <= m->async ? 0 : T;
    case HNM_FIT_PINGPONG:
      return 2 * T;
    default:
      return 0;
  }
}

#define FIT__MIN_RESIDUALS 10
#define FIT__MIN_RHO 1e-6 /* the model file's smallest factor */
#define FIT__MAX_RHO 1e6  /* the model file's largest factor */

/* (size, residual) pairs, sorted by size then residual. */
struct fit__pair {
  double k, r;
};

static int fit__cmp_pair(const void *a, const void *b)
{
  const struct fit__pair *x = a, *y = b;
  if (x->k != y->k)
    return x->k < y->k ? -1 : 1;
  return x->r < y->r ? -1 : x->r > y->r;
}

/* The type-7 quantiles of the N sorted residuals R (their r) at p = q/20,
 * floored at FIT__MIN_RHO, nondecreasing. */
static void fit__quantiles(const struct fit__pair *r, size_t n, double out[HNM_FIT_RESIDUALS])
{
  for (size_t q = 0; q < HNM_FIT_RESIDUALS; q++) {
    double h = (double)(n - 1) * (double)q / (HNM_FIT_RESIDUALS - 1);
    size_t i = (size_t)h;
    double v = i + 1 < n ? r[i].r + (h - (double)i) * (r[i + 1].r - r[i].r) : r[n - 1].r;
    double rho = v > FIT__MIN_RHO ? v : FIT__MIN_RHO;
    out[q] = q > 0 && rho < out[q - 1] ? out[q - 1] : rho;
  }
}

static int fit__cmp_r(const void *a, const void *b)
{
  const struct fit__pair *x = a, *y = b;
  return x->r < y->r ? -1 : x->r > y->r;
}

int hnm_fit_residuals(const hnm_fit_data *in, hnm_fit_result *m, char *err, size_t errlen)
{
  return hnm_fit_residuals_window(in, m, 1, err, errlen);
}

int hnm_fit_residuals_window(const hnm_fit_data *in, hnm_fit_result *m, size_t window, char *err, size_t errlen)
{
  const hnm_fit_series *pp = &in->op[HNM_FIT_PINGPONG];
  struct fit__pair *r = malloc((pp->n + 1) * sizeof *r);
  struct fit__pair *pool = malloc((pp->n + 1) * sizeof *pool);
  size_t *start = malloc((pp->n + 2) * sizeof *start);
  hnm_fit_sized *sized = NULL;
  size_t nsized = 0, cap = 0, half = window / 2;
  if (r == NULL || pool == NULL || start == NULL)
    goto oom;
  free(m->sized);
  m->sized = NULL;
  m->nsized = 0;
  for (size_t j = 0; j < m->nseg; j++) {
    hnm_fit_segment *s = &m->seg[j];
    double lo = j > 0 ? m->seg[j - 1].upto : -1;
    size_t n = 0;
    s->nres = 0;
    for (size_t i = 0; i < pp->n; i++) {
      if (!(pp->k[i] > lo && pp->k[i] <= s->upto))
        continue;
      double pred = hnm_fit_predict_hybrid(m, HNM_FIT_PINGPONG, pp->k[i]);
      if (!(pred > 0) || !(pp->y[i] > 0))
        continue;
      r[n++] = (struct fit__pair){pp->k[i], pp->y[i] / pred};
    }
    if (n < FIT__MIN_RESIDUALS)
      continue;
    /* Each size's own: sorted by size, then residual. */
    qsort(r, n, sizeof *r, fit__cmp_pair);
    double worst = 0;
    for (size_t i = 0; i < n; i++)
      worst = r[i].r > worst ? r[i].r : worst;
    if (worst > FIT__MAX_RHO) {
      size_t used = strlen(m->notes);
      snprintf(m->notes + used, sizeof m->notes - used,
               "warning: segment %zu: a round trip is %g times the fitted model's (at most %g is written): no "
               "residuals for it (stochastic mode leaves it deterministic there)\n",
               j + 1, worst, FIT__MAX_RHO);
      continue;
    }
    /* The distinct sizes: size g's round trips are r[start[g] .. start[g + 1]). */
    size_t groups = 0;
    for (size_t i = 0; i < n; i++)
      if (i == 0 || r[i].k != r[i - 1].k)
        start[groups++] = i;
    start[groups] = n;
    size_t first = nsized;
    for (size_t g = 0; window > 0 && g < groups; g++) {
      /* The window: size g and up to HALF sizes on each side, in the segment. */
      size_t a = start[g > half ? g - half : 0], b = start[g + half + 1 < groups ? g + half + 1 : groups];
      if (b - a < FIT__MIN_RESIDUALS)
        continue;
      const struct fit__pair *v = r + a;
      if (window > 1) {
        memcpy(pool, r + a, (b - a) * sizeof *pool);
        qsort(pool, b - a, sizeof *pool, fit__cmp_r);
        v = pool;
      }
      if (nsized == cap) {
        size_t nc = cap ? 2 * cap : 64;
        hnm_fit_sized *grown = realloc(sized, nc * sizeof *grown);
        if (grown == NULL)
          goto oom;
        sized = grown;
        cap = nc;
      }
      sized[nsized].k = r[start[g]].k;
      sized[nsized].seg = j;
      fit__quantiles(v, b - a, sized[nsized].res);
      nsized++;
    }
    if (nsized - first > HNM_MAX_RESIDUAL_TABLES) {
      size_t used = strlen(m->notes);
      snprintf(m->notes + used, sizeof m->notes - used,
               "note: segment %zu: %zu per-size residual tables, more than a model file's %d: its messages draw "
               "from the segment's residuals\n",
               j + 1, nsized - first, HNM_MAX_RESIDUAL_TABLES);
      nsized = first;
    }
    /* The segment's, all sizes pooled. */
    qsort(r, n, sizeof *r, fit__cmp_r);
    fit__quantiles(r, n, s->res);
    s->nres = HNM_FIT_RESIDUALS;
  }
  free(r);
  free(pool);
  free(start);
  m->sized = sized;
  m->nsized = nsized;
  return 0;
oom:
  free(r);
  free(pool);
  free(start);
  free(sized);
  hnm_errf(err, errlen, "out of memory");
  return -1;
}
