/* hnm_fit.h -- robust segmented linear regression of durations against
 * message sizes (the maths of hnm-calibrate; no I/O, no global state).
 *
 * Data: n raw measurements (k_i bytes, y_i seconds), not averages. Within
 * a segment the model is y = a + b k. Residuals are relative: r_i = (y_i -
 * a - b k_i) / d_i with d_i = max(median of y at size k_i, 1 ns), so that
 * sizes from 1 B to 100 MiB weigh alike, and are scored with Huber's loss
 * (quadratic up to delta = 1.345 sigma, linear beyond), so that outliers
 * pull a fit linearly, not quadratically. sigma, the relative noise level,
 * is estimated from the data (hnm_fit_noise).
 *
 * Segmentation: breakpoints lie between consecutive distinct sizes. Among
 * all partitions into at most max_segments segments of at least min_sizes
 * distinct sizes each, that respect the forced breakpoints, the one
 * minimising  sum of losses / sigma^2 + penalty x (number of segments)  is
 * chosen exactly by dynamic programming over the distinct sizes (at most
 * HNM_FIT_MAX_GROUPS of them: more are merged into that many consecutive
 * groups, so breakpoints then fall between groups).
 */
#ifndef HNM_FIT_H
#define HNM_FIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HNM_FIT_MAX_GROUPS 400

/* One fitted segment: lo < k <= hi (bytes). lo is the largest sampled size
 * of the previous segment (-1 for the first), hi the largest sampled size
 * in this one; any breakpoint in [hi, next sampled size) explains the data
 * equally well. */
typedef struct hnm_fit_piece {
  double lo, hi;       /* bytes */
  double a;            /* seconds */
  double b;            /* seconds per byte */
  size_t n;            /* measurements */
  size_t sizes;        /* distinct sizes */
  double med_abs_rel;  /* median |relative residual| */
} hnm_fit_piece;

typedef struct hnm_fit_options {
  double penalty;       /* per segment, in units of the sigma^2-scaled loss; <= 0: 3 ln(n) */
  int max_segments;     /* <= 0: 8 */
  int min_sizes;        /* distinct sizes per segment; <= 0: 2 */
  const double *forced; /* breakpoints (bytes) that must separate k <= f from k > f */
  size_t nforced;
  int forced_only;      /* 1: no breakpoint other than the forced ones */
  double noise_floor;   /* lower bound of sigma; <= 0: 5e-3 */
  int loss;             /* HNM_FIT_LOSS_HUBER (0, default) or HNM_FIT_LOSS_ABS */
  /* Per point (input order), the denominator of its relative residual
   * (seconds, floored at 1 ns); NULL: the median of its size's y. A fit of
   * one part of a sum (the transfer time in a round trip) passes the sum,
   * so that its loss is the sum's relative error. */
  const double *scale;
} hnm_fit_options;

/* Losses on the scaled relative residuals: Huber's (quadratic up to 1 noise
 * unit), or the absolute value (least absolute deviations: a segment's line
 * passes through the median of its points, however far the others lie --
 * the right choice when the data are per-size medians and the judge is the
 * median relative error, hnm-calibrate's case). */
enum { HNM_FIT_LOSS_HUBER = 0, HNM_FIT_LOSS_ABS = 1 };

/* Robust (Huber, relative residuals) fit of y = a + b k over n points with
 * scales d (d_i > 0). delta: Huber threshold on relative residuals.
 * 0 with the loss (sum of Huber terms) in *loss (when not NULL); -1 with
 * "out of memory" in err (a = b = 0). With one distinct k, b = 0. */
int hnm_fit_line(const double *k, const double *y, const double *d, size_t n, double delta, double *a, double *b,
                 double *loss, char *err, size_t errlen);

/* The relative noise level sigma of (k, y), floored at noise_floor: from
 * replicates (the median relative difference between measurements of the
 * same size / (0.6745 sqrt 2)) when there are at least 10 such pairs, else
 * 1.4826 x the median |relative residual| of robust lines fitted to runs of
 * 8 consecutive distinct sizes. */
double hnm_fit_noise(const double *k, const double *y, size_t n, double noise_floor);

/* Segmented fit (see the file comment). Fills pieces[0..*npieces) (cap
 * entries available) in increasing k and *sigma. Returns 0, or -1 with a
 * one-line reason in err (e.g. too few distinct sizes between two forced
 * breakpoints, naming them). */
int hnm_fit_segments(const double *k, const double *y, size_t n, const hnm_fit_options *opt, hnm_fit_piece *pieces,
                     size_t cap, size_t *npieces, double *sigma, char *err, size_t errlen);

/* Value of a piecewise fit at k (the piece with lo < k <= hi; the first
 * piece below, the last above the data). */
double hnm_fit_eval(const hnm_fit_piece *pieces, size_t npieces, double k);

/* v[0..n) in increasing order. */
void hnm_fit_sort(double *v, size_t n);

/* Median of v[0..n) (reorders v). 0 when n == 0. */
double hnm_fit_median(double *v, size_t n);

/* The p-quantile (0 <= p <= 1) of v[0..n), linear between order statistics
 * (reorders v). 0 when n == 0. */
double hnm_fit_quantile(double *v, size_t n, double p);

/* The data's noise floor: how well any smooth function of the size can
 * follow the per-size medians m[0..n) (k[0..n) increasing, distinct sizes).
 * For each size i, err[i] = |median of the medians of its `width` nearest
 * other sizes (by rank: width/2 on each side, shifted inwards at the ends)
 * - m[i]| / m[i]: a leave-one-out local-median smoother, whose error is the
 * size-to-size scatter the best function of size alone cannot explain
 * (plus its small sampling error: with Gaussian scatter of median |e| = f,
 * the estimate is f sqrt(1 + pi / (2 width)), 7.6% above f for width 10).
 * A per-decade floor is the median of err over the decade's sizes. n < 2
 * gives err = 0. Returns 0, or -1 if out of memory. */
int hnm_fit_floor(const double *k, const double *m, size_t n, size_t width, double *err);

/* Replace the points (k[i], y[i]), i < *n, by one per distinct size, in
 * increasing k: its median y, then a running median over `smooth` sizes
 * on each side (0: none; the window shrinks symmetrically at the ends);
 * *n becomes their number. 0, or -1 (out of memory) with the points
 * unchanged. */
int hnm_fit_medians(double *k, double *y, size_t *n, int smooth, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* HNM_FIT_H */
