/* hnm-calibrate fit: the residuals of the fitted model, per segment, for
 * its stochastic mode (docs/model-format.md, "Stochastic mode").
 *
 * The residual of a measured round trip y of k bytes is R = y / (the round
 * trip the fitted model predicts at k, cal_hybrid_predict()). In stochastic mode
 * a request and its reply share one draw, so a simulated round trip lasts
 * rho times the modelled one: the quantiles written for rho are R's own,
 * the type-7 quantiles of the segment's residuals at p = 0, 1/20, ..., 1.
 * A segment with fewer than FIT__MIN_RESIDUALS round trips gets none
 * (rho = 1), and so does a segment whose largest residual is beyond the
 * model file's largest factor (FIT__MAX_RHO): a round trip a million times
 * the model's is a measurement the model does not describe (a stall, a
 * timer glitch), and writing it would make a model file the loader
 * refuses. The fit says so in a warning. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_fitted.h"
#include "hnm_calibrate_csv.h"
#include "hnm_msg.h"

#include <stdlib.h>
#include <string.h>

#define FIT__MIN_RESIDUALS 10
#define FIT__MIN_RHO 1e-6 /* the model file's smallest factor */
#define FIT__MAX_RHO 1e6  /* the model file's largest factor */

static int fit__cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

void cal_fit_residuals(const struct cal_inputs *in, struct cal_fitted *m)
{
  const struct cal_series *pp = &in->op[CAL_OP_PINGPONG];
  double *r = malloc((pp->n + 1) * sizeof *r);
  if (r == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  for (size_t j = 0; j < m->nseg; j++) {
    struct cal_segment *s = &m->seg[j];
    double lo = j > 0 ? m->seg[j - 1].upto : -1;
    size_t n = 0;
    s->nres = 0;
    for (size_t i = 0; i < pp->n; i++) {
      if (!(pp->k[i] > lo && pp->k[i] <= s->upto))
        continue;
      double pred = cal_hybrid_predict(m, CAL_OP_PINGPONG, pp->k[i]);
      if (!(pred > 0) || !(pp->y[i] > 0))
        continue;
      r[n++] = pp->y[i] / pred;
    }
    if (n < FIT__MIN_RESIDUALS)
      continue;
    qsort(r, n, sizeof *r, fit__cmp);
    if (r[n - 1] > FIT__MAX_RHO) {
      size_t used = strlen(m->warnings);
      snprintf(m->warnings + used, sizeof m->warnings - used,
               "warning: segment %zu: a round trip is %g times the fitted model's (at most %g is written): no "
               "residuals for it (stochastic mode leaves it deterministic there)\n",
               j + 1, r[n - 1], FIT__MAX_RHO);
      continue;
    }
    for (size_t q = 0; q < CAL_FIT_RESIDUALS; q++) {
      double h = (double)(n - 1) * (double)q / (CAL_FIT_RESIDUALS - 1);
      size_t i = (size_t)h;
      double v = i + 1 < n ? r[i] + (h - (double)i) * (r[i + 1] - r[i]) : r[n - 1];
      double rho = v > FIT__MIN_RHO ? v : FIT__MIN_RHO;
      s->res[q] = q > 0 && rho < s->res[q - 1] ? s->res[q - 1] : rho;
    }
    s->nres = CAL_FIT_RESIDUALS;
  }
  free(r);
}
