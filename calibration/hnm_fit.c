/* hnm_fit.c -- see hnm_fit.h. */
#include "hnm_fit.h"
#include "hnm_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HUBER_C 1.0
#define SCALE_FLOOR 1e-9 /* seconds: durations below are noise */
#define NOISE_RUN 8      /* distinct sizes per run in hnm_fit_noise */
#define REPLICATE_PAIRS 4 /* partners per measurement in noise estimates */
#define LOCAL_GROUPS 4    /* sizes on each side for the local noise */
#define DP_ITERS 8        /* IRLS steps when scoring candidate segments */

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

void hnm_fit_sort(double *v, size_t n)
{
  qsort(v, n, sizeof *v, cmp_double);
}

double hnm_fit_median(double *v, size_t n)
{
  if (n == 0)
    return 0;
  hnm_fit_sort(v, n);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double hnm_fit_quantile(double *v, size_t n, double p)
{
  if (n == 0)
    return 0;
  hnm_fit_sort(v, n);
  double x = (p < 0 ? 0 : p > 1 ? 1 : p) * (double)(n - 1);
  size_t i = (size_t)floor(x);
  if (i + 1 >= n)
    return v[n - 1];
  return v[i] + (x - (double)i) * (v[i + 1] - v[i]);
}

int hnm_fit_floor(const double *k, const double *m, size_t n, size_t width, double *err)
{
  (void)k; /* the neighbours are by rank: k only orders the medians */
  if (width < 1)
    width = 1;
  if (width > n - (n > 0))
    width = n > 0 ? n - 1 : 0;
  double *nb = malloc((width + 1) * sizeof *nb);
  if (nb == NULL)
    return -1;
  for (size_t i = 0; i < n; i++) {
    if (width == 0 || !(m[i] > 0)) {
      err[i] = 0;
      continue;
    }
    /* Window [lo, lo + width] of width + 1 ranks holding i, centred where
     * the ends allow. */
    size_t lo = i > width / 2 ? i - width / 2 : 0;
    if (lo + width > n - 1)
      lo = n - 1 - width;
    size_t c = 0;
    for (size_t j = lo; j <= lo + width; j++)
      if (j != i)
        nb[c++] = m[j];
    err[i] = fabs(hnm_fit_median(nb, c) - m[i]) / m[i];
  }
  free(nb);
  return 0;
}

/* Weighted least squares of y = a + b k (k centred for accuracy). */
static void wls(const double *k, const double *y, const double *w, size_t n, double *a, double *b)
{
  double sw = 0, sk = 0, sy = 0;
  for (size_t i = 0; i < n; i++) {
    sw += w[i];
    sk += w[i] * k[i];
    sy += w[i] * y[i];
  }
  if (sw <= 0) {
    *a = *b = 0;
    return;
  }
  double kb = sk / sw, yb = sy / sw, skk = 0, sky = 0;
  for (size_t i = 0; i < n; i++) {
    skk += w[i] * (k[i] - kb) * (k[i] - kb);
    sky += w[i] * (k[i] - kb) * (y[i] - yb);
  }
  *b = skk > 0 ? sky / skk : 0;
  *a = yb - *b * kb;
}

/* delta <= 0 stands for the absolute loss |r| (least absolute deviations). */
static double huber(double r, double delta)
{
  double u = fabs(r);
  if (delta <= 0)
    return u;
  return u <= delta ? 0.5 * u * u : delta * (u - 0.5 * delta);
}

/* hnm_fit_line with at most `iters` reweighting steps. The segmentation
 * scores O(sizes^2) candidate segments with DP_ITERS steps each (enough to
 * rank them; exact data converge at once); the chosen segments are refitted
 * to convergence. */
static double fit_line_iters(const double *k, const double *y, const double *d, size_t n, double delta, double *a,
                             double *b, int iters, double *w);

int hnm_fit_line(const double *k, const double *y, const double *d, size_t n, double delta, double *a, double *b,
                 double *loss, char *err, size_t errlen)
{
  double *w = calloc(n ? n : 1, sizeof *w);
  if (w == NULL) {
    *a = *b = 0;
    return hnm_fail(err, errlen, "out of memory");
  }
  double l = fit_line_iters(k, y, d, n, delta, a, b, 50, w);
  free(w);
  if (loss != NULL)
    *loss = l;
  return 0;
}

/* w: n doubles of workspace. */
static double fit_line_iters(const double *k, const double *y, const double *d, size_t n, double delta, double *a,
                             double *b, int iters, double *w)
{
  for (size_t i = 0; i < n; i++)
    w[i] = 1 / (d[i] * d[i]);
  wls(k, y, w, n, a, b);
  /* Iteratively reweighted least squares for Huber's loss. */
  for (int it = 0; it < iters; it++) {
    for (size_t i = 0; i < n; i++) {
      double r = fabs((y[i] - *a - *b * k[i]) / d[i]);
      if (delta <= 0) /* IRLS for |r|: weight 1/|r| (floored) */
        w[i] = 1 / ((r > 1e-6 ? r : 1e-6) * d[i] * d[i]);
      else
        w[i] = (r <= delta ? 1 : delta / r) / (d[i] * d[i]);
    }
    double a2, b2;
    wls(k, y, w, n, &a2, &b2);
    int done = fabs(a2 - *a) <= 1e-12 * (fabs(*a) + 1e-15) && fabs(b2 - *b) <= 1e-12 * (fabs(*b) + 1e-24);
    *a = a2;
    *b = b2;
    if (done)
      break;
  }
  double loss = 0;
  for (size_t i = 0; i < n; i++)
    loss += huber((y[i] - *a - *b * k[i]) / d[i], delta);
  return loss;
}

/* Points sorted by k, grouped by distinct size, with their scales. */
struct data {
  size_t n, ngroups;
  double *k, *y, *d;
  size_t *gstart; /* group g: points [gstart[g], gstart[g+1]) */
};

struct pt {
  double k, y;
  size_t i; /* input order: ties keep it, so replicates stay in run order */
};
static int cmp_pt(const void *a, const void *b)
{
  const struct pt *p = a, *q = b;
  return p->k < q->k ? -1 : p->k > q->k ? 1 : p->i < q->i ? -1 : p->i > q->i;
}

static void data_free(struct data *D)
{
  free(D->k);
  free(D->y);
  free(D->d);
  free(D->gstart);
}

static int data_init(struct data *D, const double *k, const double *y, const double *scale, size_t n)
{
  memset(D, 0, sizeof *D);
  struct pt *p = malloc((n ? n : 1) * sizeof *p);
  D->k = malloc((n ? n : 1) * sizeof *D->k);
  D->y = malloc((n ? n : 1) * sizeof *D->y);
  D->d = malloc((n ? n : 1) * sizeof *D->d);
  D->gstart = malloc((n + 1) * sizeof *D->gstart);
  if (p == NULL || D->k == NULL || D->y == NULL || D->d == NULL || D->gstart == NULL) {
    free(p);
    data_free(D);
    return -1;
  }
  for (size_t i = 0; i < n; i++)
    p[i] = (struct pt){k[i], y[i], i};
  qsort(p, n, sizeof *p, cmp_pt);
  D->n = n;
  for (size_t i = 0; i < n; i++) {
    D->k[i] = p[i].k;
    D->y[i] = p[i].y;
    if (i == 0 || p[i].k != p[i - 1].k)
      D->gstart[D->ngroups++] = i;
  }
  D->gstart[D->ngroups] = n;
  for (size_t g = 0; g < D->ngroups; g++) {
    size_t s = D->gstart[g], e = D->gstart[g + 1];
    double *tmp = malloc((e - s) * sizeof *tmp);
    if (tmp == NULL) {
      free(p);
      data_free(D);
      return -1;
    }
    memcpy(tmp, D->y + s, (e - s) * sizeof *tmp);
    double med = hnm_fit_median(tmp, e - s);
    free(tmp);
    double sc = fabs(med) > SCALE_FLOOR ? fabs(med) : SCALE_FLOOR;
    for (size_t i = s; i < e; i++)
      D->d[i] = scale == NULL ? sc : fabs(scale[p[i].i]) > SCALE_FLOOR ? fabs(scale[p[i].i]) : SCALE_FLOOR;
  }
  free(p);
  return 0;
}

double hnm_fit_noise(const double *k, const double *y, size_t n, double noise_floor)
{
  if (noise_floor <= 0)
    noise_floor = 5e-3;
  struct data D;
  if (n == 0 || data_init(&D, k, y, NULL, n) != 0)
    return noise_floor;
  /* Replicates first: |y_i - y_j| / d over pairs of measurements of one
   * size (at most REPLICATE_PAIRS consecutive partners each, so that the
   * work stays linear); for Gaussian noise of relative sd sigma the median
   * of these is 0.6745 sqrt(2) sigma. */
  size_t cap = n * REPLICATE_PAIRS + 1, nr = 0;
  double *r = malloc(cap * sizeof *r);
  if (r == NULL) {
    data_free(&D);
    return noise_floor;
  }
  for (size_t g = 0; g < D.ngroups; g++)
    for (size_t i = D.gstart[g]; i < D.gstart[g + 1]; i++)
      for (size_t j = i + 1; j < D.gstart[g + 1] && j <= i + REPLICATE_PAIRS; j++)
        r[nr++] = fabs(D.y[i] - D.y[j]) / D.d[i];
  double sigma;
  if (nr >= 10) {
    sigma = hnm_fit_median(r, nr) / (0.6745 * sqrt(2.0));
  } else {
    /* No replicates: residuals of robust lines through runs of NOISE_RUN
     * consecutive distinct sizes (a run straddling a breakpoint spoils a
     * minority of residuals; the median ignores them). */
    nr = 0;
    for (size_t g = 0; g < D.ngroups; g += NOISE_RUN) {
      size_t ge = g + NOISE_RUN < D.ngroups ? g + NOISE_RUN : D.ngroups;
      size_t s = D.gstart[g], e = D.gstart[ge];
      if (ge - g < 3)
        continue; /* a line through 2 sizes leaves no residual worth counting */
      double a, b;
      if (hnm_fit_line(D.k + s, D.y + s, D.d + s, e - s, 0.05, &a, &b, NULL, NULL, 0) != 0) {
        free(r);
        data_free(&D);
        return noise_floor; /* out of memory: the floor, as above */
      }
      for (size_t i = s; i < e; i++)
        r[nr++] = fabs((D.y[i] - a - b * D.k[i]) / D.d[i]);
    }
    sigma = 1.4826 * hnm_fit_median(r, nr);
  }
  free(r);
  data_free(&D);
  return sigma > noise_floor ? sigma : noise_floor;
}

double hnm_fit_eval(const hnm_fit_piece *pieces, size_t npieces, double k)
{
  size_t i = 0;
  while (i + 1 < npieces && k > pieces[i].hi)
    i++;
  return pieces[i].a + pieces[i].b * k;
}

/* One segmentation's working state (hnm_fit_segments): the sorted data,
 * each point's scale times its local noise (dl), and the dynamic
 * programme over units of consecutive distinct sizes. */
struct fit__seg {
  hnm_fit_options o;
  struct data D;
  double sigma;           /* the global noise level */
  double delta;           /* the Huber threshold (0: absolute loss) */
  double *dl, *work;      /* n each */
  size_t nu, *ustart;     /* unit u covers distinct sizes [ustart[u], ustart[u+1]) */
  int *cut;               /* cut[u]: forced break after unit u */
  double *cost;           /* cost[i*nu+j]: units i..j as one segment */
  double *best;           /* best[s*(nu+1)+j]: least cost of units 0..j-1 in s segments */
  size_t *from;
};

/* Largest sampled size of unit u. */
#define FIT__UHI(S, u) ((S)->D.k[(S)->D.gstart[(S)->ustart[(u) + 1]] - 1])

/* Noise is not the same at every size (a 1 us message is far noisier,
 * relatively, than a 1 ms one): each point's residual is divided by its
 * scale d_i and by the local noise sigma_g of its size, estimated from
 * replicates of the LOCAL_GROUPS sizes on each side (the global sigma when
 * they hold fewer than 10 pairs). The Huber threshold and the penalty are
 * then in units of that local noise. 0, or -1 out of memory. */
static int fit__local_scales(struct fit__seg *S, size_t n)
{
  const struct data *D = &S->D;
  S->dl = malloc((n ? n : 1) * sizeof *S->dl);
  S->work = malloc((n ? n : 1) * sizeof *S->work);
  double *pr = malloc((n * REPLICATE_PAIRS + 1) * sizeof *pr);
  if (S->dl == NULL || pr == NULL || S->work == NULL) {
    free(pr);
    return -1;
  }
  for (size_t g = 0; g < D->ngroups; g++) {
    size_t g0 = g > LOCAL_GROUPS ? g - LOCAL_GROUPS : 0;
    size_t g1 = g + LOCAL_GROUPS + 1 < D->ngroups ? g + LOCAL_GROUPS + 1 : D->ngroups;
    size_t np = 0;
    for (size_t h = g0; h < g1; h++)
      for (size_t i = D->gstart[h]; i < D->gstart[h + 1]; i++)
        for (size_t j = i + 1; j < D->gstart[h + 1] && j <= i + REPLICATE_PAIRS; j++)
          pr[np++] = fabs(D->y[i] - D->y[j]) / D->d[i];
    double sg = np >= 10 ? hnm_fit_median(pr, np) / (0.6745 * sqrt(2.0)) : S->sigma;
    if (sg < S->o.noise_floor)
      sg = S->o.noise_floor;
    for (size_t i = D->gstart[g]; i < D->gstart[g + 1]; i++)
      S->dl[i] = D->d[i] * sg;
  }
  free(pr);
  return 0;
}

/* Units of the DP: runs of consecutive distinct sizes ("groups" of
 * distinct sizes merged when there are too many), of `per` consecutive
 * distinct sizes, except that a forced breakpoint always ends a unit: a
 * forced breakpoint falling inside a unit could not be honoured (nor
 * reported: it would vanish). Then each candidate segment's cost. 0, or
 * -1 out of memory. */
static int fit__costs(struct fit__seg *S)
{
  const struct data *D = &S->D;
  const hnm_fit_options *o = &S->o;
  size_t m = D->ngroups, per = (m + HNM_FIT_MAX_GROUPS - 1) / HNM_FIT_MAX_GROUPS;
  S->ustart = malloc((m + 1) * sizeof *S->ustart);
  if (S->ustart == NULL)
    return -1;
  for (size_t g = 0, in_unit = 0; g < m; g++) {
    int forced_here = 0;
    for (size_t f = 0; g > 0 && f < o->nforced && !forced_here; f++)
      forced_here = D->k[D->gstart[g - 1]] <= o->forced[f] && D->k[D->gstart[g]] > o->forced[f];
    if (g == 0 || in_unit == per || forced_here) {
      S->ustart[S->nu++] = g;
      in_unit = 0;
    }
    in_unit++;
  }
  size_t nu = S->nu;
  S->ustart[nu] = m;
  S->cut = calloc(nu, sizeof *S->cut);
  S->cost = malloc(nu * nu * sizeof *S->cost);
  S->best = malloc((size_t)(o->max_segments + 1) * (nu + 1) * sizeof *S->best);
  S->from = malloc((size_t)(o->max_segments + 1) * (nu + 1) * sizeof *S->from);
  if (S->cut == NULL || S->cost == NULL || S->best == NULL || S->from == NULL)
    return -1;
  for (size_t f = 0; f < o->nforced; f++)
    for (size_t u = 0; u + 1 < nu; u++)
      if (FIT__UHI(S, u) <= o->forced[f] && D->k[D->gstart[S->ustart[u + 1]]] > o->forced[f])
        S->cut[u] = 1;
  for (size_t i = 0; i < nu; i++) {
    int crossed = 0;
    for (size_t j = i; j < nu; j++) {
      double c = INFINITY;
      size_t sizes = S->ustart[j + 1] - S->ustart[i];
      if (!crossed && (int)sizes >= o->min_sizes && (!o->forced_only || j + 1 == nu || S->cut[j])) {
        size_t s = D->gstart[S->ustart[i]], e = D->gstart[S->ustart[j + 1]];
        double a, b;
        c = fit_line_iters(D->k + s, D->y + s, S->dl + s, e - s, S->delta, &a, &b, DP_ITERS, S->work);
      }
      S->cost[i * nu + j] = c;
      if (S->cut[j])
        crossed = 1;
    }
  }
  return 0;
}

/* The dynamic programme: the number of segments of least penalised cost,
 * or -1 with err (where a segment cannot be made). */
static int fit__best(struct fit__seg *S, char *err, size_t errlen)
{
  size_t nu = S->nu, W = nu + 1;
  const hnm_fit_options *o = &S->o;
  for (size_t x = 0; x < (size_t)(o->max_segments + 1) * W; x++)
    S->best[x] = INFINITY;
  S->best[0] = 0;
  for (int s = 1; s <= o->max_segments; s++)
    for (size_t j = 1; j <= nu; j++)
      for (size_t i = 0; i < j; i++) {
        double prev = S->best[(size_t)(s - 1) * W + i];
        if (!isfinite(prev) || !isfinite(S->cost[i * nu + j - 1]))
          continue;
        double v = prev + S->cost[i * nu + j - 1];
        if (v < S->best[(size_t)s * W + j]) {
          S->best[(size_t)s * W + j] = v;
          S->from[(size_t)s * W + j] = i;
        }
      }
  int bs = -1;
  double bv = INFINITY;
  for (int s = 1; s <= o->max_segments; s++) {
    double v = S->best[(size_t)s * W + nu] + o->penalty * s;
    if (v < bv) {
      bv = v;
      bs = s;
    }
  }
  if (bs >= 0)
    return bs;
  /* Say where: the first stretch between forced breakpoints with too few sizes. */
  size_t i = 0;
  for (size_t u = 0; u < nu; u++)
    if (S->cut[u] || u + 1 == nu) {
      size_t sizes = S->ustart[u + 1] - S->ustart[i];
      if ((int)sizes < o->min_sizes)
        return hnm_fail(err, errlen, "only %zu distinct size(s) in (%.17g, %.17g], at least %d needed for a segment",
                        sizes, i ? FIT__UHI(S, i - 1) : 0.0, FIT__UHI(S, u), o->min_sizes);
      i = u + 1;
    }
  return hnm_fail(err, errlen, "more than %d segments needed between the forced breakpoints", o->max_segments);
}

/* Backtrack the BS segments, then refit each one to report its
 * coefficients into pieces. */
static void fit__pieces(struct fit__seg *S, int bs, hnm_fit_piece *pieces)
{
  const struct data *D = &S->D;
  size_t ends[64], starts[64], W = S->nu + 1;
  size_t j = S->nu;
  for (int s = bs; s >= 1; s--) {
    size_t i = S->from[(size_t)s * W + j];
    starts[s - 1] = i;
    ends[s - 1] = j - 1;
    j = i;
  }
  for (int s = 0; s < bs; s++) {
    size_t gs = S->ustart[starts[s]], ge = S->ustart[ends[s] + 1];
    size_t ps = D->gstart[gs], pe = D->gstart[ge];
    hnm_fit_piece *p = &pieces[s];
    fit_line_iters(D->k + ps, D->y + ps, S->dl + ps, pe - ps, S->delta, &p->a, &p->b, 50, S->work);
    p->lo = s == 0 ? -1 : pieces[s - 1].hi;
    p->hi = D->k[pe - 1];
    p->n = pe - ps;
    p->sizes = ge - gs;
    double *r = S->work; /* free again after the refit */
    for (size_t i = ps; i < pe; i++)
      r[i - ps] = fabs((D->y[i] - p->a - p->b * D->k[i]) / D->d[i]);
    p->med_abs_rel = hnm_fit_median(r, p->n);
  }
}
#undef FIT__UHI

int hnm_fit_segments(const double *k, const double *y, size_t n, const hnm_fit_options *opt, hnm_fit_piece *pieces,
                     size_t cap, size_t *npieces, double *sigma_out, char *err, size_t errlen)
{
  struct fit__seg S;
  memset(&S, 0, sizeof S);
  hnm_fit_options *o = &S.o;
  *o = *opt;
  if (o->max_segments <= 0)
    o->max_segments = 8;
  if (o->max_segments > 64)
    o->max_segments = 64;
  if (o->min_sizes <= 0)
    o->min_sizes = 2;
  if (o->noise_floor <= 0)
    o->noise_floor = 5e-3;
  if (o->penalty <= 0)
    o->penalty = 3 * log((double)(n > 2 ? n : 2));
  *npieces = 0;
  if (n == 0)
    return hnm_fail(err, errlen, "no measurement to fit");
  if (data_init(&S.D, k, y, o->scale, n) != 0)
    return hnm_fail(err, errlen, "out of memory");
  S.sigma = hnm_fit_noise(k, y, n, o->noise_floor);
  S.delta = o->loss == HNM_FIT_LOSS_ABS ? 0 : HUBER_C;
  int rc = -1, bs = -1;
  if (fit__local_scales(&S, n) != 0 || fit__costs(&S) != 0)
    hnm_errf(err, errlen, "out of memory");
  else if ((bs = fit__best(&S, err, errlen)) >= 0 && (size_t)bs > cap)
    hnm_errf(err, errlen, "%d segments found, room for %zu", bs, cap);
  else if (bs >= 0) {
    fit__pieces(&S, bs, pieces);
    *npieces = (size_t)bs;
    *sigma_out = S.sigma;
    rc = 0;
  }
  free(S.ustart);
  free(S.cut);
  free(S.cost);
  free(S.best);
  free(S.from);
  free(S.dl);
  free(S.work);
  data_free(&S.D);
  return rc;
}

static int fit__cmp_pair(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* What hnm-calibrate is judged on is each size's median round trip; on
 * real clusters the raw durations of one size are skewed (warm-up,
 * preemption) and the medians of neighbouring sizes can be bimodal
 * (platform-calibration's plafrim data: 35 or 100 us at 600 B), so a line
 * through the medians with the absolute loss follows the majority of
 * sizes, where Huber on raw points sits between the modes
 * (docs/calibration.md has the figures). */
int hnm_fit_medians(double *k, double *y, size_t *n, int smooth, char *err, size_t errlen)
{
  size_t m = *n, out = 0;
  double *p = malloc((m ? m : 1) * 2 * sizeof *p); /* {k, y} pairs */
  double *ys = malloc((m ? m : 1) * sizeof *ys), *sm = malloc((m ? m : 1) * sizeof *sm);
  if (p == NULL || ys == NULL || sm == NULL) {
    free(p);
    free(ys);
    free(sm);
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < m; i++)
    p[2 * i] = k[i], p[2 * i + 1] = y[i];
  qsort(p, m, 2 * sizeof *p, fit__cmp_pair); /* by the pair's first member, k */
  for (size_t i = 0; i < m;) {
    size_t j = i;
    while (j < m && p[2 * j] == p[2 * i])
      ys[j - i] = p[2 * j + 1], j++;
    k[out] = p[2 * i];
    y[out] = hnm_fit_median(ys, j - i);
    out++;
    i = j;
  }
  *n = out;
  /* A median filter keeps steps and straight lines as they are, so clean
   * data is unchanged, but where neighbouring sizes fall into two bands
   * (plafrim's 35 or 100 us at 600 B) it follows the locally most frequent
   * one, which is what the per-size median error rewards. Which width
   * (none, 5 or 11 sizes) fits a cluster best is the caller's choice
   * (hnm-calibrate: held-out error). */
  for (size_t i = 0; i < out; i++) {
    size_t h = smooth > 0 ? (size_t)smooth : 0;
    h = i < h ? i : h;
    h = out - 1 - i < h ? out - 1 - i : h;
    for (size_t q = 0; q <= 2 * h; q++)
      ys[q] = y[i - h + q];
    sm[i] = hnm_fit_median(ys, 2 * h + 1);
  }
  memcpy(y, sm, out * sizeof *y);
  free(sm);
  free(p);
  free(ys);
  return 0;
}
