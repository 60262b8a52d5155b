/* test_fit.c -- unit tests of the fitting maths (calibration/hnm_fit.h).
 *
 * Synthetic data from a known piecewise-linear model (the shape of Degomme et al. 2013
 * Figure 4: jumps between modes), sizes drawn log-uniformly with a fixed
 * seed, each measured REPS times with 5% Gaussian relative noise, plus 2%
 * outliers 3 to 10 times too slow (a preempted process). The fit must find
 * exactly the true number of segments, every breakpoint within one sampled
 * size, and every coefficient within 5%. Exact data must be fitted exactly.
 */
#include "check.h"
#include "hnm_fit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ULL;
static double uniform(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void) { return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform()); }

/* The true model: y = a + b k on (lo, upto]. */
struct truth {
  double upto, a, b;
};
static const struct truth TRUE3[] = {
    {1000, 1e-6, 2e-9},       /* 1 us .. 3 us */
    {30000, 5e-6, 4e-10},     /* jump to 5.4 us .. 17 us */
    {INFINITY, 30e-6, 1e-10}, /* jump to 33 us .. 130 us at 1 MB */
};

static double truth_at(const struct truth *t, size_t n, double k)
{
  size_t i = 0;
  while (i + 1 < n && k > t[i].upto)
    i++;
  return t[i].a + t[i].b * k;
}

static int near(double got, double want, double rel) { return fabs(got - want) <= rel * fabs(want); }

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Index of v in the sorted distinct sizes u[0..m). */
static long index_of(const double *u, size_t m, double v)
{
  for (size_t i = 0; i < m; i++)
    if (u[i] == v)
      return (long)i;
  return -1;
}
/* Index of the largest u <= v. */
static long index_below(const double *u, size_t m, double v)
{
  long r = -1;
  for (size_t i = 0; i < m; i++)
    if (u[i] <= v)
      r = (long)i;
  return r;
}

/* The segments of (k, y)[0..n) with the default options, into p[0..8);
 * their number (a refusal fails a check). */
static size_t fit_default(const double *k, const double *y, size_t n, hnm_fit_piece *p, double *sigma)
{
  hnm_fit_options o = {0};
  size_t np = 0;
  char err[256] = "";
  if (!CHECK_EQ(hnm_fit_segments(k, y, n, &o, p, 8, &np, sigma, err, sizeof err), 0))
    fprintf(stderr, "  refused: %s\n", err);
  return np;
}

static void test_synthetic(void)
{
  enum { SIZES = 250, REPS = 4 };
  size_t n = SIZES * REPS;
  double *k = malloc(n * sizeof *k), *y = malloc(n * sizeof *y), u[SIZES];
  size_t m = 0, outliers = 0;
  for (int s = 0; s < SIZES; s++) {
    double size = round(exp(uniform() * log(1e6)));
    int dup = 0;
    for (size_t i = 0; i < m; i++)
      dup |= u[i] == size;
    if (!dup)
      u[m++] = size;
    for (int r = 0; r < REPS; r++) {
      size_t i = (size_t)s * REPS + (size_t)r;
      k[i] = size;
      y[i] = truth_at(TRUE3, 3, size) * (1 + 0.05 * gauss());
      if (uniform() < 0.02) {
        y[i] *= 3 + 7 * uniform();
        outliers++;
      }
    }
  }
  qsort(u, m, sizeof *u, cmp);
  CHECK(outliers > 5); /* the seed does produce outliers */

  hnm_fit_options o = {0};
  hnm_fit_piece p[16];
  size_t np = 0;
  double sigma = 0;
  char err[256];
  CHECK_EQ(hnm_fit_segments(k, y, n, &o, p, 16, &np, &sigma, err, sizeof err), 0);
  CHECK(near(sigma, 0.05, 0.2)); /* the noise level is recovered from the replicates */
  if (!near(sigma, 0.05, 0.2))
    fprintf(stderr, "sigma %g\n", sigma);
  CHECK_EQ(np, 3);
  if (np == 3) {
    for (int s = 0; s < 2; s++) {
      /* The fitted breakpoint (the last size of the segment) and the true
       * one's last sampled size are at most one sampled size apart. */
      long got = index_of(u, m, p[s].hi), want = index_below(u, m, TRUE3[s].upto);
      CHECK(got >= 0 && labs(got - want) <= 1);
    }
    for (int s = 0; s < 3; s++) {
      CHECK(near(p[s].a, TRUE3[s].a, 0.05));
      CHECK(near(p[s].b, TRUE3[s].b, 0.05));
      if (!near(p[s].a, TRUE3[s].a, 0.05) || !near(p[s].b, TRUE3[s].b, 0.05))
        fprintf(stderr, "segment %d: a %g (true %g), b %g (true %g)\n", s, p[s].a, TRUE3[s].a, p[s].b, TRUE3[s].b);
    }
  }

  /* Forcing the true breakpoints gives the same segments. */
  double forced[2] = {1000, 30000};
  hnm_fit_options of = {0};
  of.forced = forced;
  of.nforced = 2;
  of.forced_only = 1;
  CHECK_EQ(hnm_fit_segments(k, y, n, &of, p, 16, &np, &sigma, err, sizeof err), 0);
  CHECK_EQ(np, 3);
  if (np == 3) {
    CHECK_EQ(p[0].hi, u[index_below(u, m, 1000)]);
    CHECK_EQ(p[1].hi, u[index_below(u, m, 30000)]);
  }
  /* A single forced breakpoint with forced_only: two segments, wrong on purpose. */
  of.nforced = 1;
  CHECK_EQ(hnm_fit_segments(k, y, n, &of, p, 16, &np, &sigma, err, sizeof err), 0);
  CHECK_EQ(np, 2);
  free(k);
  free(y);
}

/* Exact data: the fit is exact (Huber IRLS starts from weighted least
 * squares, which already interpolates). */
static void test_exact(void)
{
  double k[40], y[40], d[40];
  for (int i = 0; i < 40; i++) {
    k[i] = 1 + 37.0 * i;
    y[i] = 2.5e-6 + 3e-10 * k[i];
    d[i] = y[i];
  }
  double a, b;
  double loss = -1;
  CHECK(hnm_fit_line(k, y, d, 40, 0.01, &a, &b, &loss, NULL, 0) == 0);
  CHECK(near(a, 2.5e-6, 1e-9));
  CHECK(near(b, 3e-10, 1e-9));
  CHECK(loss < 1e-18);
  /* One distinct size: slope 0, a = the (robust) level. */
  double k1[3] = {8, 8, 8}, y1[3] = {1, 1, 1}, d1[3] = {1, 1, 1};
  CHECK(hnm_fit_line(k1, y1, d1, 3, 0.1, &a, &b, NULL, NULL, 0) == 0);
  CHECK(b == 0 && a == 1);

  /* Two exact segments with a jump: found exactly, at the floor noise. */
  double kk[60], yy[60];
  for (int i = 0; i < 60; i++) {
    kk[i] = 10 + 10 * i;
    yy[i] = kk[i] <= 300 ? 1e-6 + 1e-9 * kk[i] : 4e-6 + 5e-10 * kk[i];
  }
  hnm_fit_piece p[8];
  double sigma;
  size_t np = fit_default(kk, yy, 60, p, &sigma);
  CHECK_EQ(np, 2);
  CHECK_EQ(sigma, 5e-3); /* the default floor */
  if (np == 2) {
    CHECK(p[0].hi == 300 && p[0].lo == -1 && p[1].lo == 300 && p[1].hi == 600);
    CHECK(near(p[0].a, 1e-6, 1e-9) && near(p[0].b, 1e-9, 1e-9));
    CHECK(near(p[1].a, 4e-6, 1e-9) && near(p[1].b, 5e-10, 1e-9));
    CHECK(p[0].n == 30 && p[1].sizes == 30);
    CHECK(near(hnm_fit_eval(p, 2, 300), 1.3e-6, 1e-9));
    CHECK(near(hnm_fit_eval(p, 2, 301), 4e-6 + 5e-10 * 301, 1e-9));
    CHECK(near(hnm_fit_eval(p, 2, 1e9), 4e-6 + 5e-10 * 1e9, 1e-9)); /* extrapolated */
  }
}

/* More distinct sizes than HNM_FIT_MAX_GROUPS: they are merged into runs
 * of ceil(1200 / 400) = 3 consecutive sizes; a breakpoint at a run's end
 * (600 = 3 x 200) is still found exactly. */
static void test_many_sizes(void)
{
  enum { N = 1200 };
  static double k[N], y[N];
  for (int i = 0; i < N; i++) {
    k[i] = i + 1;
    y[i] = k[i] <= 600 ? 1e-6 + 1e-9 * k[i] : 3e-6 + 2e-9 * k[i];
  }
  hnm_fit_piece p[8];
  double sigma;
  size_t np = fit_default(k, y, N, p, &sigma);
  CHECK(np == 2 && p[0].hi == 600 && p[1].sizes == 600);
  CHECK(near(p[1].a, 3e-6, 1e-9) && near(p[1].b, 2e-9, 1e-9));
}

static void test_errors(void)
{
  double k[6] = {1, 2, 3, 100, 200, 300}, y[6] = {1, 1, 1, 2, 2, 2};
  double f = 1.5; /* leaves 1 distinct size below */
  hnm_fit_options o = {0};
  o.forced = &f;
  o.nforced = 1;
  hnm_fit_piece p[8];
  size_t np;
  double sigma;
  char err[256] = "";
  CHECK_EQ(hnm_fit_segments(k, y, 6, &o, p, 8, &np, &sigma, err, sizeof err), -1);
  CHECK(strstr(err, "only 1 distinct size(s) in (0, 1]") != NULL);
  if (strstr(err, "only 1") == NULL)
    fprintf(stderr, "message: %s\n", err);
  CHECK_EQ(hnm_fit_segments(k, y, 0, &o, p, 8, &np, &sigma, err, sizeof err), -1);
  double v[5] = {5, 1, 4, 2, 3};
  CHECK_EQ(hnm_fit_median(v, 5), 3);
  CHECK_EQ(hnm_fit_median(v, 4), 2.5);
  CHECK_EQ(hnm_fit_median(v, 0), 0);
}

/* The noise floor (hnm_fit_floor) and quantiles, by hand and on data
 * with known scatter. */
static void test_floor(void)
{
  /* Hand: 12 medians of 1 but one 2 in the middle, width 10: the outlier's
   * neighbours are all 1 (|1 - 2| / 2 = 0.5); every other size has the 2
   * among its 10 neighbours at most once (median of nine 1s and a 2 = 1):
   * error 0. At the ends the window shifts inwards: size 0 sees ranks 1-10. */
  double k[12], m[12], e[12];
  for (int i = 0; i < 12; i++)
    k[i] = i + 1, m[i] = 1;
  m[6] = 2;
  CHECK_EQ(hnm_fit_floor(k, m, 12, 10, e), 0);
  CHECK_NEAR(e[6], 0.5, 1e-15);
  for (int i = 0; i < 12; i++)
    if (i != 6)
      CHECK_NEAR(e[i], 0, 1e-15);
  /* A straight line is followed exactly by the median of a symmetric
   * window (size 5 of 12: ranks 0-10 without 5, median (4 + 6) / 2 = 5,
   * here m = 10 + k) but not at the ends, where the window is one-sided:
   * size 0 (m = 11) sees ranks 1-10 (m 12..21, median 16.5). */
  for (int i = 0; i < 12; i++)
    m[i] = 10 + k[i];
  CHECK_EQ(hnm_fit_floor(k, m, 12, 10, e), 0);
  CHECK_NEAR(e[5], 0, 1e-15);
  CHECK_NEAR(e[0], 5.5 / 11, 2e-15);
  /* Known scatter: 4000 sizes (log-spaced, 1 B to 1 MB) of a smooth curve
   * times (1 + 0.1 g), g standard normal: the median |error| of the truth
   * itself is 0.6745 x 0.1; the local median of 10 neighbours adds its own
   * sampling error (variance pi / (2 x 10) of the scatter's), so the
   * estimate is 0.06745 x sqrt(1 + pi / 20) = 0.07256. Fixed seed;
   * sampling error of a median over 4000 sizes: about 2%. */
  enum { N = 4000 };
  static double kk[N], mm[N], ee[N];
  for (int i = 0; i < N; i++) {
    kk[i] = pow(1e6, (double)i / (N - 1));
    mm[i] = (20e-6 + kk[i] / 1e9) * (1 + 0.1 * gauss());
  }
  CHECK_EQ(hnm_fit_floor(kk, mm, N, 10, ee), 0);
  double f = hnm_fit_median(ee, N), want = 0.1 * 0.674489750 * sqrt(1 + 3.141592653589793 / 20);
  printf("floor of 10%% Gaussian scatter: %.5f (expected %.5f)\n", f, want);
  CHECK_NEAR(f, want, 0.05);
  /* Quantiles, linear between order statistics. */
  double q[4] = {4, 1, 3, 2};
  CHECK_NEAR(hnm_fit_quantile(q, 4, 0.5), 2.5, 1e-15);
  CHECK_NEAR(hnm_fit_quantile(q, 4, 0.05), 1.15, 1e-15);
  CHECK_NEAR(hnm_fit_quantile(q, 4, 0.95), 3.85, 1e-15);
  CHECK_NEAR(hnm_fit_quantile(q, 4, 1), 4, 1e-15);
  CHECK_EQ(hnm_fit_quantile(q, 0, 0.5), 0);
}

int main(void)
{
  test_floor();
  test_exact();
  test_errors();
  test_many_sizes();
  test_synthetic();
  return check_finish();
}
