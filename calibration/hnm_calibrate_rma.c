/* hnm-calibrate: one-sided (MPI RMA) costs from rma.csv.
 *
 * The benchmark (apps/calibrate.c) times on rank 0 six epochs while rank 1
 * is in its part first. Under a model with <rma> (docs/models.md,
 * "One-sided communication"), SMPI and hnm time them, with d(k) = lat +
 * k/bw the model's one-way time of k bytes and m = d(0):
 *   lock       2K                    (lock and unlock cost K each, nothing flows)
 *   lockflush  2K + X                (X: the flush's cost)
 *   lockput    2K + put-o + k put-per-byte + d(k)   (unlock waits for the data)
 *   lockget    2K + get-o + k get-per-byte + d(k)
 *   fence      2F + 4m if a 0-byte message is eager in the model, else 2F + 5m
 *              (three linear barriers, rank 1's first message already sent)
 *   pscw       2C if eager, else 2C + m (rank 1's post notice)
 * The fit inverts them on the medians per epoch and size: K, X, F, C
 * directly, the put and get overheads by least squares over the sizes. A
 * negative result (a machine faster than the model's point-to-point part
 * says) is clamped to 0, and a value above 1 s (the model files' limit) to
 * 1 s, each with a warning. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_rma.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const epoch_names[HNM_BENCH_RMA_EPOCHS] = HNM_BENCH_RMA_NAMES;

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median of the durations of EPOCH at SIZE (size < 0: any) into *med,
 * NAN if none. 0, or -1 with err out of memory. */
static int median_of(const struct cal_inputs *in, int epoch, double size, double *med_out, char *err, size_t errlen)
{
  size_t n = 0;
  double *v = malloc((in->nrma + 1) * sizeof *v);
  if (v == NULL)
    return hnm_fail(err, errlen, "out of memory");
  for (size_t i = 0; i < in->nrma; i++)
    if (in->rma[i].epoch == epoch && (size < 0 || in->rma[i].size == size))
      v[n++] = in->rma[i].duration;
  double med = NAN;
  if (n > 0) {
    qsort(v, n, sizeof *v, cmp_double);
    med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
  free(v);
  *med_out = med;
  return 0;
}

/* The model's one-way time of k bytes (hnm_fit_predict_hybrid's T). */
static double one_way(const struct cal_fitted *m, double k)
{
  const hnm_fit_segment *s = hnm_fit_segment_at(&m->f, k);
  return s->lat + k / s->bw;
}

static int zero_byte_eager(const struct cal_fitted *m) { return m->f.async >= 0; }

static void warn(struct cal_fitted *m, const char *fmt, const char *what, double v)
{
  size_t l = strlen(m->f.notes);
  snprintf(m->f.notes + l, sizeof m->f.notes - l, fmt, what, v);
}

/* Clamp a fitted cost into a model file's range [0, 1 s]. */
static double in_range(struct cal_fitted *m, const char *what, double v)
{
  if (isnan(v)) {
    warn(m, "warning: rma.csv has no epoch for %s%.0s: its cost is 0\n", what, 0);
    return 0;
  }
  if (v < 0) {
    warn(m, "warning: rma %s fitted below 0 (%g s): the measured epochs are faster than the point-to-point "
            "model says; set to 0\n", what, v);
    return 0;
  }
  if (v > 1) {
    warn(m, "warning: rma %s fitted above 1 s (%g s), a model file's limit; set to 1 s\n", what, v);
    return 1;
  }
  return v;
}

/* The distinct sizes of EPOCH's rows, in the order they first appear (at
 * most RMA__SIZES), into sizes; their number. */
#define RMA__SIZES 256
static size_t rma__sizes(const struct cal_inputs *in, int epoch, double *sizes)
{
  size_t ns = 0;
  for (size_t i = 0; i < in->nrma && ns < RMA__SIZES; i++) {
    if (in->rma[i].epoch != epoch)
      continue;
    size_t j = 0;
    while (j < ns && sizes[j] != in->rma[i].size)
      j++;
    if (j == ns)
      sizes[ns++] = in->rma[i].size;
  }
  return ns;
}

/* Least squares y = a + b k over the sizes of EPOCH, y = median - 2K - d(k),
 * each size weighted by 1 / median^2 (relative residuals, as timings are
 * noisy in proportion: unweighted, the largest sizes' microseconds of
 * point-to-point misfit would decide the intercept). */
static int fit_line(const struct cal_inputs *in, const struct cal_fitted *m, int epoch, double K, double *a, double *b,
                    char *err, size_t errlen)
{
  double sizes[RMA__SIZES];
  size_t ns = rma__sizes(in, epoch, sizes);
  *a = *b = NAN;
  if (ns == 0)
    return 0;
  double sw = 0, sk = 0, sy = 0, skk = 0, sky = 0;
  for (size_t j = 0; j < ns; j++) {
    double k = sizes[j], med;
    if (median_of(in, epoch, k, &med, err, errlen) != 0)
      return -1;
    double y = med - 2 * K - one_way(m, k);
    double w = med > 0 ? 1 / (med * med) : 1;
    sw += w, sk += w * k, sy += w * y, skk += w * k * k, sky += w * k * y;
  }
  double den = sw * skk - sk * sk;
  if (ns < 2 || !(fabs(den) > 0)) {
    *a = sy / sw;
    *b = 0;
    return 0;
  }
  *b = (sw * sky - sk * sy) / den;
  *a = (sy - *b * sk) / sw;
  return 0;
}

int cal_fit_rma(const struct cal_inputs *in, struct cal_fitted *m, char *err, size_t errlen)
{
  m->has_rma = 0;
  if (in->nrma == 0)
    return 0;
  struct hnm_rma *r = &m->rma;
  double mm = one_way(m, 0), lock, flush, fence, pscw;
  if (median_of(in, HNM_BENCH_RMA_LOCK, -1, &lock, err, errlen) != 0 ||
      median_of(in, HNM_BENCH_RMA_LOCKFLUSH, -1, &flush, err, errlen) != 0 ||
      median_of(in, HNM_BENCH_RMA_FENCE, -1, &fence, err, errlen) != 0 ||
      median_of(in, HNM_BENCH_RMA_PSCW, -1, &pscw, err, errlen) != 0)
    return -1;
  r->lock = in_range(m, "lock", lock / 2);
  r->flush = in_range(m, "flush", flush - 2 * r->lock);
  double a, b;
  if (fit_line(in, m, HNM_BENCH_RMA_LOCKPUT, r->lock, &a, &b, err, errlen) != 0)
    return -1;
  r->put_o = in_range(m, "put-o", a);
  r->put_O = isnan(b) ? 0 : in_range(m, "put-per-byte", b);
  if (fit_line(in, m, HNM_BENCH_RMA_LOCKGET, r->lock, &a, &b, err, errlen) != 0)
    return -1;
  r->get_o = in_range(m, "get-o", a);
  r->get_O = isnan(b) ? 0 : in_range(m, "get-per-byte", b);
  int eager = zero_byte_eager(m);
  r->fence = in_range(m, "fence", (fence - (eager ? 4 : 5) * mm) / 2);
  r->pscw = in_range(m, "pscw", (pscw - (eager ? 0 : 1) * mm) / 2);
  m->has_rma = 1;
  return 0;
}

double cal_rma_predict(const struct cal_fitted *m, int epoch, double k)
{
  const struct hnm_rma *r = &m->rma;
  double mm = one_way(m, 0);
  int eager = zero_byte_eager(m);
  switch (epoch) {
    case HNM_BENCH_RMA_LOCK:
      return 2 * r->lock;
    case HNM_BENCH_RMA_LOCKFLUSH:
      return 2 * r->lock + r->flush;
    case HNM_BENCH_RMA_LOCKPUT:
      return 2 * r->lock + r->put_o + k * r->put_O + one_way(m, k);
    case HNM_BENCH_RMA_LOCKGET:
      return 2 * r->lock + r->get_o + k * r->get_O + one_way(m, k);
    case HNM_BENCH_RMA_FENCE:
      return 2 * r->fence + (eager ? 4 : 5) * mm;
    case HNM_BENCH_RMA_PSCW:
      return 2 * r->pscw + (eager ? 0 : 1) * mm;
    default:
      return NAN;
  }
}

int cal_write_rma_report(FILE *f, const struct cal_fitted *m, const struct cal_inputs *in, char *err, size_t errlen)
{
  fprintf(f, "# One-sided epochs (rma.csv): median measured on rank 0 against the fitted model's prediction\n");
  fprintf(f, "%-10s %10s %14s %14s %9s\n", "epoch", "bytes", "measured_s", "model_s", "error_%");
  for (int e = 0; e < HNM_BENCH_RMA_EPOCHS; e++) {
    double sizes[RMA__SIZES];
    size_t ns = rma__sizes(in, e, sizes);
    for (size_t j = 0; j < ns; j++) {
      double k = sizes[j];
      double meas, pred = cal_rma_predict(m, e, k);
      if (median_of(in, e, k, &meas, err, errlen) != 0)
        return -1;
      fprintf(f, "%-10s %10.0f %14.6g %14.6g %9.1f\n", epoch_names[e], k, meas, pred, 100 * (pred - meas) / meas);
    }
  }
  const struct hnm_rma *r = &m->rma;
  fprintf(f, "# fitted: put-o %.6g s, put-per-byte %.6g s/B, get-o %.6g s, get-per-byte %.6g s/B,\n"
             "#         fence %.6g s, pscw %.6g s, lock %.6g s, flush %.6g s per call\n",
          r->put_o, r->put_O, r->get_o, r->get_O, r->fence, r->pscw, r->lock, r->flush);
  return 0;
}
