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
 * refuses. The fit says so in a warning. */
#include "hnm_fit_model.h"

#include "hnm_error.h"

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

static int fit__cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int hnm_fit_residuals(const hnm_fit_data *in, hnm_fit_result *m, char *err, size_t errlen)
{
  const hnm_fit_series *pp = &in->op[HNM_FIT_PINGPONG];
  double *r = malloc((pp->n + 1) * sizeof *r);
  if (r == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
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
      r[n++] = pp->y[i] / pred;
    }
    if (n < FIT__MIN_RESIDUALS)
      continue;
    qsort(r, n, sizeof *r, fit__cmp);
    if (r[n - 1] > FIT__MAX_RHO) {
      size_t used = strlen(m->notes);
      snprintf(m->notes + used, sizeof m->notes - used,
               "warning: segment %zu: a round trip is %g times the fitted model's (at most %g is written): no "
               "residuals for it (stochastic mode leaves it deterministic there)\n",
               j + 1, r[n - 1], FIT__MAX_RHO);
      continue;
    }
    for (size_t q = 0; q < HNM_FIT_RESIDUALS; q++) {
      double h = (double)(n - 1) * (double)q / (HNM_FIT_RESIDUALS - 1);
      size_t i = (size_t)h;
      double v = i + 1 < n ? r[i] + (h - (double)i) * (r[i + 1] - r[i]) : r[n - 1];
      double rho = v > FIT__MIN_RHO ? v : FIT__MIN_RHO;
      s->res[q] = q > 0 && rho < s->res[q - 1] ? s->res[q - 1] : rho;
    }
    s->nres = HNM_FIT_RESIDUALS;
  }
  free(r);
  return 0;
}
