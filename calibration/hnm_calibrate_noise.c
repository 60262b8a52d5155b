/* hnm_calibrate_noise.c -- see hnm_calibrate_noise.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_noise.h"

#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_msg.h" /* HNM_EXIT_FAILURE */

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Out of memory anywhere below a public function of this module returns
 * from it: each one that allocates sets noise__oom to its own jmp_buf
 * (NOISE__ENTER) and returns HNM_EXIT_FAILURE with "out of memory" when
 * noise__alloc() jumps back. What was allocated until then is lost; the
 * tool ends at once. */
static jmp_buf *noise__oom;

#define NOISE__ENTER(env)                                                                                           \
  do {                                                                                                              \
    if (setjmp(env) != 0) {                                                                                         \
      noise__oom = NULL;                                                                                            \
      hnm_errf(err, errlen, "out of memory");                                                                       \
      return HNM_EXIT_FAILURE;                                                                                      \
    }                                                                                                               \
    noise__oom = &(env);                                                                                            \
  } while (0)

static void *noise__alloc(size_t n, size_t size)
{
  void *p = calloc(n ? n : 1, size);
  if (p == NULL)
    longjmp(*noise__oom, 1);
  return p;
}

static int noise__cmp_kv(const void *a, const void *b)
{
  const double *x = a, *y = b; /* {k, y} pairs, by k */
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int noise__decade(double k)
{
  int d = k < 1 ? 0 : (int)floor(log10(k) + 1e-12);
  return d < 0 ? 0 : d >= CAL_NOISE_DECADES ? CAL_NOISE_DECADES - 1 : d;
}

/* Distinct sizes of s in increasing order and each one's median (O(n log n)). */
static size_t noise__medians(const struct cal_series *s, double *k, double *med)
{
  double *p = noise__alloc(2 * s->n, sizeof *p), *v = noise__alloc(s->n, sizeof *v);
  for (size_t i = 0; i < s->n; i++)
    p[2 * i] = s->k[i], p[2 * i + 1] = s->y[i];
  qsort(p, s->n, 2 * sizeof *p, noise__cmp_kv);
  size_t out = 0;
  for (size_t i = 0; i < s->n;) {
    size_t j = i;
    while (j < s->n && p[2 * j] == p[2 * i])
      v[j - i] = p[2 * j + 1], j++;
    k[out] = p[2 * i];
    med[out++] = hnm_fit_median(v, j - i);
    i = j;
  }
  free(p);
  free(v);
  return out;
}

/* Per decade and overall: the median of v over e's sizes (NAN entries skipped). */
static void noise__summarise(const struct cal_noise_eval *e, const double *v, double *dec, double *all)
{
  double *b = noise__alloc(e->n, sizeof *b);
  size_t nb = 0;
  for (int d = 0; d < CAL_NOISE_DECADES; d++) {
    size_t c = 0;
    for (size_t i = 0; i < e->n; i++)
      if (noise__decade(e->k[i]) == d && !isnan(v[i]))
        b[c++] = v[i];
    dec[d] = c ? hnm_fit_median(b, c) : -1;
  }
  for (size_t i = 0; i < e->n; i++)
    if (!isnan(v[i]))
      b[nb++] = v[i];
  *all = nb ? hnm_fit_median(b, nb) : -1;
  free(b);
}

static int noise__in(const double *sorted, size_t n, double k)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (sorted[mid] < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && sorted[lo] == k;
}

/* in without the sizes out[0..nout) (sorted); probe and contention shared. */
static void noise__without(const struct cal_inputs *in, const double *out, size_t nout, struct cal_inputs *t)
{
  *t = *in;
  for (int op = 0; op < CAL_OP_COUNT; op++) {
    const struct cal_series *s = &in->op[op];
    struct cal_series *d = &t->op[op];
    d->k = noise__alloc(s->n, sizeof *d->k);
    d->y = noise__alloc(s->n, sizeof *d->y);
    d->n = 0;
    for (size_t i = 0; i < s->n; i++)
      if (!noise__in(out, nout, s->k[i])) {
        d->k[d->n] = s->k[i];
        d->y[d->n++] = s->y[i];
      }
    d->cap = d->n;
  }
}

void cal_noise_inputs_free(struct cal_inputs *t)
{
  for (int op = 0; op < CAL_OP_COUNT; op++) {
    free(t->op[op].k);
    free(t->op[op].y);
  }
  memset(t, 0, sizeof *t);
}

/* Distinct sizes of s in (lo, hi]. */
static size_t noise__count(const struct cal_series *s, double lo, double hi)
{
  double *v = noise__alloc(s->n, sizeof *v);
  size_t c = 0, u = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->k[i] > lo && s->k[i] <= hi)
      v[c++] = s->k[i];
  qsort(v, c, sizeof *v, noise__cmp_kv); /* compares the first double */
  for (size_t i = 0; i < c; i++)
    u += i == 0 || v[i] != v[i - 1];
  free(v);
  return u;
}

/* Whether a's own breakpoints (which must split: fewer sizes than a segment
 * needs between two of them is an error) still hold enough sizes in t
 * wherever they did in in. */
static int noise__fold_ok(const struct cal_inputs *in, const struct cal_inputs *t, const struct cal_fit_args *a)
{
  int min_sizes = a->min_sizes > 0 ? a->min_sizes : 2;
  double *b = noise__alloc(a->nforced + 2, sizeof *b);
  size_t nb = 0;
  b[nb++] = -1;
  for (size_t i = 0; i < a->nforced; i++)
    b[nb++] = a->forced[i];
  b[nb++] = INFINITY;
  qsort(b, nb, sizeof *b, noise__cmp_kv);
  int ok = 1;
  for (int op = 0; op < CAL_OP_COUNT && ok; op++)
    for (size_t i = 0; i + 1 < nb && ok; i++) {
      size_t full = noise__count(&in->op[op], b[i], b[i + 1]), part = noise__count(&t->op[op], b[i], b[i + 1]);
      ok = part == full || (int)part >= min_sizes;
    }
  free(b);
  return ok;
}

int cal_noise_evaluate(struct cal_inputs *in, const struct cal_fit_args *a, const struct cal_fitted *m,
                       cal_noise_fit_fn fit, struct cal_noise_eval *e, char *err, size_t errlen)
{
  jmp_buf env;
  memset(e, 0, sizeof *e);
  NOISE__ENTER(env);
  const struct cal_series *pp = &in->op[CAL_OP_PINGPONG];
  e->k = noise__alloc(pp->n, sizeof *e->k);
  e->med = noise__alloc(pp->n, sizeof *e->med);
  e->n = noise__medians(pp, e->k, e->med);
  e->floor = noise__alloc(e->n, sizeof *e->floor);
  e->resid = noise__alloc(e->n, sizeof *e->resid);
  if (hnm_fit_floor(e->k, e->med, e->n, CAL_NOISE_WIDTH, e->floor) != 0)
    longjmp(env, 1);
  double *in_err = noise__alloc(e->n, sizeof *in_err), *out_err = noise__alloc(e->n, sizeof *out_err);
  for (size_t i = 0; i < e->n; i++) {
    double p = hnm_fit_predict_hybrid(&m->f, CAL_OP_PINGPONG, e->k[i]);
    in_err[i] = e->med[i] > 0 ? fabs(p - e->med[i]) / e->med[i] : NAN;
    e->resid[i] = p > 0 ? e->med[i] / p - 1 : NAN;
    out_err[i] = NAN;
    e->dec_n[noise__decade(e->k[i])]++;
  }
  noise__summarise(e, e->floor, e->dec_floor, &e->all_floor);
  noise__summarise(e, in_err, e->dec_in, &e->all_in);
  e->all_out = -1;
  for (int d = 0; d < CAL_NOISE_DECADES; d++)
    e->dec_out[d] = -1;
  /* Held out: fold f leaves out the sizes of rank f, f + 5, ... (every
   * decade loses a fifth of its sizes, none loses a whole stretch). */
  int ok = fit != NULL && e->n >= 2 * CAL_NOISE_FOLDS;
  double *held = noise__alloc(e->n, sizeof *held), *resid = noise__alloc(e->n, sizeof *resid);
  for (int f = 0; f < CAL_NOISE_FOLDS && ok; f++) {
    size_t nh = 0;
    for (size_t i = (size_t)f; i < e->n; i += CAL_NOISE_FOLDS)
      held[nh++] = e->k[i];
    struct cal_inputs t;
    noise__without(in, held, nh, &t);
    ok = noise__fold_ok(in, &t, a);
    if (ok) {
      struct cal_fitted mf;
      int rc = fit(&t, a, &mf, err, errlen);
      if (rc == HNM_EXIT_FAILURE) {
        cal_noise_inputs_free(&t);
        noise__oom = NULL;
        return rc;
      }
      if (rc != 0) {
        /* The fold's data cannot make this fit (an automatic breakpoint
         * leaving an operation one size once a fifth of them are out): no
         * held-out part, as for a forced breakpoint (noise__fold_ok). */
        err[0] = '\0';
        ok = 0;
        cal_noise_inputs_free(&t);
        break;
      }
      for (size_t i = (size_t)f; i < e->n; i += CAL_NOISE_FOLDS) {
        double p = hnm_fit_predict_hybrid(&mf.f, CAL_OP_PINGPONG, e->k[i]);
        out_err[i] = e->med[i] > 0 ? fabs(p - e->med[i]) / e->med[i] : NAN;
        resid[i] = p > 0 ? e->med[i] / p - 1 : NAN;
      }
      hnm_fit_result_free(&mf.f);
    }
    cal_noise_inputs_free(&t);
  }
  if (ok) {
    memcpy(e->resid, resid, e->n * sizeof *resid);
    e->heldout = 1;
    noise__summarise(e, out_err, e->dec_out, &e->all_out);
  }
  free(held);
  free(resid);
  free(in_err);
  free(out_err);
  noise__oom = NULL;
  return 0;
}

void cal_noise_eval_free(struct cal_noise_eval *e)
{
  free(e->k);
  free(e->med);
  free(e->floor);
  free(e->resid);
  memset(e, 0, sizeof *e);
}

void cal_noise_print(FILE *f, const char *indent, const struct cal_noise_eval *e)
{
  fprintf(f, "%s%-10s %6s %12s %10s %10s\n", indent, "decade", "sizes", "noise floor", "in-sample", "held-out");
  for (int d = 0; d < CAL_NOISE_DECADES; d++) {
    if (e->dec_n[d] == 0)
      continue;
    char lab[32], out[32];
    snprintf(lab, sizeof lab, "1e%d-1e%d", d, d + 1);
    if (e->dec_out[d] >= 0)
      snprintf(out, sizeof out, "%.2f%%", 100 * e->dec_out[d]);
    else
      snprintf(out, sizeof out, "-");
    fprintf(f, "%s%-10s %6zu %11.2f%% %9.2f%% %10s\n", indent, lab, e->dec_n[d], 100 * e->dec_floor[d],
            100 * e->dec_in[d], out);
  }
  char out[32];
  if (e->all_out >= 0)
    snprintf(out, sizeof out, "%.2f%%", 100 * e->all_out);
  else
    snprintf(out, sizeof out, "-");
  fprintf(f, "%s%-10s %6zu %11.2f%% %9.2f%% %10s\n", indent, "all sizes", e->n, 100 * e->all_floor, 100 * e->all_in,
          out);
}

uint64_t cal_noise_rand(uint64_t *state)
{
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

size_t cal_noise_pick(uint64_t *state, size_t n)
{
  return (size_t)((double)(cal_noise_rand(state) >> 11) * 0x1.0p-53 * (double)n);
}

int cal_noise_resample(const struct cal_inputs *in, struct cal_inputs *out, uint64_t *state, char *err, size_t errlen)
{
  jmp_buf env;
  *out = *in;
  for (int op = 0; op < CAL_OP_COUNT; op++)
    out->op[op] = (struct cal_series){0};
  NOISE__ENTER(env);
  size_t *draw[CAL_OP_COUNT] = {NULL};
  for (int op = 0; op < CAL_OP_COUNT; op++) {
    const struct cal_series *s = &in->op[op];
    struct cal_series *d = &out->op[op];
    d->k = noise__alloc(s->n, sizeof *d->k);
    d->y = noise__alloc(s->n, sizeof *d->y);
    d->n = d->cap = s->n;
    if (s->n > 0) /* an operation with no rows has no array (memcpy from NULL is undefined) */
      memcpy(d->k, s->k, s->n * sizeof *d->k);
    /* Rows that share every size in order with an earlier series (a
     * platform-calibration round trip's MPI_Send row and the round trip
     * itself) are whole repetitions: the same draws. */
    int shared = -1;
    for (int q = 0; q < op && shared < 0; q++)
      if (draw[q] != NULL && s->n > 0 && in->op[q].n == s->n && memcmp(in->op[q].k, s->k, s->n * sizeof *s->k) == 0)
        shared = q;
    draw[op] = noise__alloc(s->n, sizeof *draw[op]);
    if (shared >= 0)
      memcpy(draw[op], draw[shared], s->n * sizeof *draw[op]);
    else {
      /* Group the rows by size ((k, row) pairs sorted), then each row takes
       * a row of its size drawn uniformly. */
      double *p = noise__alloc(2 * s->n, sizeof *p);
      for (size_t i = 0; i < s->n; i++)
        p[2 * i] = s->k[i], p[2 * i + 1] = (double)i;
      qsort(p, s->n, 2 * sizeof *p, noise__cmp_kv);
      for (size_t i = 0; i < s->n;) {
        size_t j = i;
        while (j < s->n && p[2 * j] == p[2 * i])
          j++;
        for (size_t q = i; q < j; q++)
          draw[op][(size_t)p[2 * q + 1]] = (size_t)p[2 * (i + cal_noise_pick(state, j - i)) + 1];
        i = j;
      }
      free(p);
    }
    for (size_t i = 0; i < s->n; i++)
      d->y[i] = s->y[draw[op][i]];
  }
  for (int op = 0; op < CAL_OP_COUNT; op++)
    free(draw[op]);
  noise__oom = NULL;
  return 0;
}

int cal_noise_perturb(struct cal_fitted *m, const struct cal_noise_eval *e, size_t member, size_t members, uint64_t seed,
                      char *err, size_t errlen)
{
  if (e->n == 0)
    return 0;
  double *pool = calloc(e->n, sizeof *pool);
  if (pool == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  double lo = -INFINITY;
  for (size_t g = 0; g < m->f.nseg; g++) {
    hnm_fit_segment *s = &m->f.seg[g];
    size_t first = e->n, last = 0, c = 0;
    for (size_t i = 0; i < e->n; i++)
      if (e->k[i] > lo && e->k[i] <= s->upto) {
        first = i < first ? i : first;
        last = i;
      }
    if (first == e->n) { /* no sampled size: the nearest ones */
      first = last = 0;
      while (last + 1 < e->n && e->k[last] <= lo)
        last++;
      first = last;
    }
    while (last - first + 1 < 5 && (first > 0 || last + 1 < e->n)) {
      if (first > 0)
        first--;
      if (last - first + 1 < 5 && last + 1 < e->n)
        last++;
    }
    for (size_t i = first; i <= last; i++)
      if (!isnan(e->resid[i]))
        pool[c++] = e->resid[i];
    /* Stratified: over the members, a segment's residuals are the pool's
     * quantiles at (j + 1/2) / members, j = 0 .. members - 1, each once, in
     * an order rotated by an offset drawn per segment (its first size and
     * the seed): the band then spans the pool's 5-95% however few members
     * there are, where independent draws would leave 50 members' 5% and
     * 95% quantiles short of it (expected coverage 86% instead of 90%). */
    uint64_t h = seed ^ ((uint64_t)first * 0xD1B54A32D192ED03ULL);
    size_t j = (member + (size_t)(cal_noise_rand(&h) % (members ? members : 1))) % (members ? members : 1);
    double r = c ? hnm_fit_quantile(pool, c, ((double)j + 0.5) / (double)(members ? members : 1)) : 0;
    double f = 1 + (r > -0.9 ? r : -0.9);
    double *t[] = {&s->lat, &s->so, &s->sb, &s->ro, &s->rb, &s->io, &s->ib};
    for (size_t j = 0; j < sizeof t / sizeof t[0]; j++)
      *t[j] = fmin(*t[j] * f, 1.0); /* a model file's largest time (docs/model-format.md) */
    s->bw = fmin(s->bw / f, HNM_MAX_BANDWIDTH);
    lo = s->upto;
  }
  free(pool);
  return 0;
}
