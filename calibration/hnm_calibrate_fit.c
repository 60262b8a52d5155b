/* hnm-calibrate fit: piecewise fits per operation, protocol thresholds from
 * the probe, contention, and the fit command.
 *
 * Over the house's ~800 lines on purpose: one concept, the fit; fit_model()
 * alone is about 300 lines (protocol, per-operation fits, contention, one
 * pass), and the fit command around it is its only caller.
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_units.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hnm_calibrate_fit.h"
#include "hnm_calibrate_pcal.h"
#include "hnm_calibrate_refine.h"
#include "hnm_msg.h"
#include "hnm_out.h"
#include "hnm_opt.h"
#include "hnm_calibrate_util.h"
#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_fitted.h"
#include "hnm_calibrate_rma.h"
#include "hnm_calibrate_physics.h"
#include "hnm_calibrate_report.h"
#include "hnm_calibrate_noise.h"
#include "hnm_calibrate_pack.h"
#include "hnm_calibrate_set.h"

/* Distinct values of k[0..n) in (lo, hi]. */
static size_t count_sizes(const double *k, size_t n, double lo, double hi)
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

static int cmp_kv(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b; /* first member: k */
  return x < y ? -1 : x > y;
}

/* Replace (k, y)[0..*n) by one point per distinct size: the median of its
 * measurements, in increasing k. What hnm-calibrate is judged on is each
 * size's median round trip; on real clusters the raw durations of one size
 * are skewed (warm-up, preemption) and the medians of neighbouring sizes can
 * be bimodal (platform-calibration's plafrim data: 35 or 100 us at 600 B),
 * so a line through the medians with the absolute loss follows the majority
 * of sizes, where Huber on raw points sits between the modes
 * (docs/calibration.md has the figures). */
void cal_per_size_medians(double *k, double *y, size_t *n, int smooth)
{
  size_t m = *n, out = 0;
  struct kv {
    double k, y;
  } *p = malloc((m ? m : 1) * sizeof *p);
  double *ys = malloc((m ? m : 1) * sizeof *ys);
  if (p == NULL || ys == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  for (size_t i = 0; i < m; i++)
    p[i].k = k[i], p[i].y = y[i];
  qsort(p, m, sizeof *p, cmp_kv);
  for (size_t i = 0; i < m;) {
    size_t j = i;
    while (j < m && p[j].k == p[i].k)
      ys[j - i] = p[j].y, j++;
    k[out] = p[i].k;
    y[out] = hnm_fit_median(ys, j - i);
    out++;
    i = j;
  }
  *n = out;
  /* Then a running median over `smooth` sizes on each side (the window
   * shrinks symmetrically at the ends). A median filter keeps steps and
   * straight lines as they are, so clean data is unchanged, but where
   * neighbouring sizes fall into two bands (plafrim's 35 or 100 us at
   * 600 B) it follows the locally most frequent one, which is what the
   * per-size median error rewards. Which width (none, 5 or 11 sizes) fits
   * a cluster best is chosen by held-out error (cal_cmd_fit). */
  double *sm = malloc((out ? out : 1) * sizeof *sm);
  if (sm == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
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
}

static void fit_op(const struct cal_series *s, const char *what, double kmax, const double *forced, size_t nforced,
                   const struct cal_fit_args *a, hnm_fit_piece *pieces, size_t *np, double *sigma,
                   const double *yover, const double *scale, char *warn, size_t warncap)
{
  double *k = malloc((s->n ? s->n : 1) * sizeof *k), *y = malloc((s->n ? s->n : 1) * sizeof *y);
  double *ks = malloc((s->n ? s->n : 1) * sizeof *ks), *sc = malloc((s->n ? s->n : 1) * sizeof *sc);
  if (k == NULL || y == NULL || ks == NULL || sc == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->k[i] <= kmax) {
      k[n] = ks[n] = s->k[i];
      y[n] = yover ? yover[i] : s->y[i];
      sc[n] = scale ? scale[i] : 0;
      n++;
    }
  size_t nsc = n;
  if (!a->raw)
    cal_per_size_medians(k, y, &n, a->smooth);
  /* The residuals' denominators: per size, the (smoothed, with medians)
   * median of scale, whatever y's reduction. */
  double *scale_pts = NULL;
  if (scale != NULL) {
    cal_per_size_medians(ks, sc, &nsc, a->raw ? 0 : a->smooth);
    scale_pts = malloc((n ? n : 1) * sizeof *scale_pts);
    if (scale_pts == NULL)
      hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
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
   * with its neighbour (and the report says so). User breakpoints always
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
    double below = (double)count_sizes(k, n, lo, forced[i]), above = (double)count_sizes(k, n, forced[i], hi);
    if (below >= min_sizes && above >= min_sizes)
      f[nf++] = forced[i];
    else if (forced[i] < kmax) {
      size_t used = strlen(warn);
      snprintf(warn + used, warncap - used,
               "warning: %s: too few sampled sizes next to the protocol threshold %.0f to split the fit there "
               "(sample more sizes)\n",
               what, forced[i]);
    }
  }
  for (size_t i = 0; i < a->nforced && nf < 80; i++)
    f[nf++] = a->forced[i];
  hnm_fit_options o = {a->penalty, a->max_segments, a->min_sizes, f, nf, a->forced_only, a->noise_floor, a->loss,
                       scale_pts};
  /* Only forced breakpoints (the file's, refine's): as many segments as
   * they make, whatever --max-segments says for free ones. */
  if (o.forced_only && (int)nf + 1 > (o.max_segments > 0 ? o.max_segments : 8))
    o.max_segments = (int)nf + 1 > 64 ? 64 : (int)nf + 1;
  char err[512];
  /* A protocol range (k <= async or detached, from the probe) may hold
   * fewer sampled sizes than a segment needs (a probe on noisy timings can
   * find a tiny eager range): then one constant (b = 0), or nothing (0)
   * without data, and a warning; not an error, as the user chose none of it. */
  size_t distinct = count_sizes(k, n, -1, kmax);
  if (isfinite(kmax) && (int)distinct < min_sizes) {
    size_t used = strlen(warn);
    snprintf(warn + used, warncap - used,
             "warning: %s: only %zu sampled size(s) up to the protocol threshold %.0f: %s (sample more sizes)\n",
             what, distinct, kmax, n ? "fitted by a constant" : "overheads 0 there");
    if (n == 0) {
      memset(pieces, 0, sizeof *pieces);
      pieces[0].lo = -1;
      pieces[0].hi = kmax;
      *np = 1;
      *sigma = 0;
      free(k);
      free(y);
      free(ks);
      free(sc);
      free(scale_pts);
      return;
    }
    o.min_sizes = 1;
    o.max_segments = 1;
    o.nforced = 0;
  }
  if (hnm_fit_segments(k, y, n, &o, pieces, 64, np, sigma, err, sizeof err) != 0) {
    free(k);
    free(y);
    free(ks);
    free(sc);
    free(scale_pts);
    hnm_msg_die(HNM_EXIT_USAGE, "%s:%ld: %s: %s", s->file, s->line, what, err);
  }
  free(k);
  free(y);
  free(ks);
  free(sc);
  free(scale_pts);
}


static int cmp_d(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Protocol thresholds from probe rows: per size, medians; rendez-vous if
 * send >= delay/2, else eager if recv < 0.9 (pingpong/2 - send): SMPI's
 * detached receive lasts exactly pingpong/2 - send (T + o_r), an eager one
 * T less (docs/calibration.md).
 * A = largest eager size below the smallest non-eager one, D = largest
 * non-rendez-vous size below the smallest rendez-vous one (-1: none). */
static void protocol_from_probe(const struct cal_inputs *in, double *A, double *D)
{
  size_t n = in->nprobe;
  double *sz = malloc(n * sizeof *sz), *tmp = malloc(3 * n * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    sz[i] = in->probe[i].size;
  qsort(sz, n, sizeof *sz, cmp_d);
  double min_non_eager = INFINITY, min_rdv = INFINITY;
  double *modes_size = malloc(n * sizeof *modes_size);
  int *modes = malloc(n * sizeof *modes);
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
    hnm_msg_info("%s: note: the eager threshold lies in [%.0f, %.0f) (no size probed between): placed at "
                    "%.0f",  in->probe_file,  *A,  min_non_eager,  *A);
  if (*D >= 0 && isfinite(min_rdv) && min_rdv > *D + 1)
    hnm_msg_info("%s: note: the detached threshold lies in [%.0f, %.0f) (no size probed between): placed "
                    "at %.0f",  in->probe_file,  *D,  min_rdv,  *D);
  free(sz);
  free(tmp);
  free(modes_size);
  free(modes);
}

/* A fitted piece ends at its largest sampled size hi; when a known
 * breakpoint (forced, or a protocol threshold) f lies in [hi, next sampled
 * size), the data cannot tell them apart and the model takes f, exact,
 * instead of a boundary somewhere between two sampled sizes. */
static double snap_to_forced(double hi, const struct cal_series *s, const struct cal_fit_args *a, const double *AD, size_t nAD)
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
static size_t piece_snapped(const struct cal_fitted *m, int op, double k, const struct cal_inputs *in, const struct cal_fit_args *a,
                            const double *AD, size_t nAD)
{
  const struct cal_series *s = &in->op[op == CAL_OP_COUNT ? CAL_OP_PINGPONG : op];
  size_t i = 0;
  while (i + 1 < m->npieces[op] && k > snap_to_forced(m->pieces[op][i].hi, s, a, AD, nAD))
    i++;
  return i;
}

static void fit_model(struct cal_inputs *in, const struct cal_fit_args *a, struct cal_fitted *m)
{
  memset(m, 0, sizeof *m);
  for (int op = CAL_OP_SEND; op <= CAL_OP_PINGPONG; op++)
    if (in->op[op].n == 0) {
      if (in->p2p_file == NULL)
        hnm_msg_die(HNM_EXIT_USAGE, "no point-to-point CSV (header op,size,start,duration) among the inputs");
      hnm_msg_die(HNM_EXIT_USAGE, "%s:%ld: no '%s' measurements in the point-to-point CSV(s)",  in->p2p_file, 
              in->p2p_line,  cal_op_names[op]);
    }
  if (a->force_detached > -2) {
    m->async = a->force_async;
    m->detached = a->force_detached;
  } else if (in->nprobe > 0) {
    protocol_from_probe(in, &m->async, &m->detached);
    /* A probed range holding fewer sampled sizes than a segment needs
     * (timing noise can make the probe see an eager range of a byte or
     * two) cannot be fitted: it is merged into the next mode, which SMPI
     * times with the same round trip, and the report says so. */
    int min_sizes = a->min_sizes > 0 ? a->min_sizes : 2;
    const struct cal_series *ss = &in->op[CAL_OP_SEND];
    double *lim[2] = {&m->async, &m->detached};
    const char *mode[2] = {"eager", "detached"};
    for (int i = 1; i >= 0; i--) {
      size_t c = *lim[i] >= 0 ? count_sizes(ss->k, ss->n, i == 1 ? m->async : -1, *lim[i]) : 0;
      if (*lim[i] >= 0 && (int)c < min_sizes) {
        size_t used = strlen(m->warnings);
        snprintf(m->warnings + used, sizeof m->warnings - used,
                 "warning: probe: the %s range (up to %.0f B) holds %zu sampled size(s), too few to fit: "
                 "merged into the next mode\n",
                 mode[i], *lim[i], c);
        *lim[i] = i == 1 ? m->async : -1;
      }
    }
  } else
    hnm_msg_die(HNM_EXIT_USAGE, "no protocol probe (header size,delay,send,recv,pingpong) among the inputs; give probe.csv or "
        "--protocol ASYNC,DETACHED");

  double AD[2] = {m->async, m->detached};
  size_t nAD = 0;
  double ADf[2];
  for (int i = 0; i < 2; i++)
    if (AD[i] >= 0)
      ADf[nAD++] = AD[i];

  /* send, k <= D */
  if (m->detached >= 0) {
    fit_op(&in->op[CAL_OP_SEND], "op 'send'", m->detached, ADf, nAD, a, m->pieces[CAL_OP_SEND], &m->npieces[CAL_OP_SEND],
           &m->sigma[CAL_OP_SEND], NULL, NULL, m->warnings, sizeof m->warnings);
    m->have[CAL_OP_SEND] = 1;
  }
  if (m->async >= 0) {
    fit_op(&in->op[CAL_OP_RECV], "op 'recv'", m->async, ADf, nAD, a, m->pieces[CAL_OP_RECV], &m->npieces[CAL_OP_RECV],
           &m->sigma[CAL_OP_RECV], NULL, NULL, m->warnings, sizeof m->warnings);
    m->have[CAL_OP_RECV] = 1;
  }
  /* T = round trip / 2 minus the overheads SMPI adds in each mode. A real
   * library may overlap its overheads with the wire, so that send + late
   * receive exceed the one-way time, which SMPI (overheads, then transfer,
   * then overheads) cannot reproduce: then both overheads are scaled by
   * s = 0.8 x the 10th percentile over sizes of (median round trip / 2) /
   * (o_s + o_r), keeping the round trip exact and leaving the transfer at
   * least ~20% of it. Under SMPI itself the ratio is > 1.25 whenever the
   * route latency is > 1/4 of the overheads, and s = 1. */
  struct cal_series *pp = &in->op[CAL_OP_PINGPONG];
  m->overlap_scale = 1;
  {
    double *ratio = malloc((pp->n + 1) * sizeof *ratio), *v = malloc((pp->n + 1) * sizeof *v);
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
      if (m->have[CAL_OP_SEND])
        ov += hnm_fit_eval(m->pieces[CAL_OP_SEND], m->npieces[CAL_OP_SEND], k);
      if (m->have[CAL_OP_RECV] && k <= m->async)
        ov += hnm_fit_eval(m->pieces[CAL_OP_RECV], m->npieces[CAL_OP_RECV], k);
      if (ov > 0)
        ratio[nr++] = hnm_fit_median(v, nv) / 2 / ov;
    }
    if (nr > 0) {
      qsort(ratio, nr, sizeof *ratio, cmp_d);
      double r10 = ratio[(size_t)floor(0.1 * (double)(nr - 1))];
      if (0.8 * r10 < 1)
        m->overlap_scale = 0.8 * r10 > 0 ? 0.8 * r10 : 0;
    }
    free(ratio);
    free(v);
  }
  for (int op = CAL_OP_SEND; op <= CAL_OP_RECV; op++)
    for (size_t i = 0; m->have[op] && i < m->npieces[op]; i++) {
      m->pieces[op][i].a *= m->overlap_scale;
      m->pieces[op][i].b *= m->overlap_scale;
    }
  double *t = malloc(pp->n * sizeof *t);
  for (size_t i = 0; i < pp->n; i++) {
    double k = pp->k[i];
    t[i] = pp->y[i] / 2;
    if (m->have[CAL_OP_SEND] && k <= m->detached)
      t[i] -= hnm_fit_eval(m->pieces[CAL_OP_SEND], m->npieces[CAL_OP_SEND], k);
    if (m->have[CAL_OP_RECV] && k <= m->async)
      t[i] -= hnm_fit_eval(m->pieces[CAL_OP_RECV], m->npieces[CAL_OP_RECV], k);
  }
  /* T's residuals relative to the half round trip: T's loss is then the
   * round trip's relative error, the quantity the model is judged on (with
   * T's own median as the denominator, sizes where the overheads take most
   * of the round trip would weigh more than the round trip warrants). */
  double *half = malloc((pp->n ? pp->n : 1) * sizeof *half);
  if (half == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  for (size_t i = 0; i < pp->n; i++)
    half[i] = pp->y[i] / 2;
  fit_op(pp, "op 'pingpong' (transfer time)", INFINITY, ADf, nAD, a, m->pieces[CAL_OP_COUNT], &m->npieces[CAL_OP_COUNT],
         &m->sigma[CAL_OP_COUNT], t, half, m->warnings, sizeof m->warnings);
  free(half);
  m->have[CAL_OP_COUNT] = 1;
  if (in->op[CAL_OP_ISEND].n > 0) {
    fit_op(&in->op[CAL_OP_ISEND], "op 'isend'", INFINITY, ADf, nAD, a, m->pieces[CAL_OP_ISEND], &m->npieces[CAL_OP_ISEND],
           &m->sigma[CAL_OP_ISEND], NULL, NULL, m->warnings, sizeof m->warnings);
    m->have[CAL_OP_ISEND] = 1;
  }

  /* The model's segments: every op's breakpoints, plus A and D. */
  double *b = malloc((5 * 64 + 3) * sizeof *b);
  size_t nb = 0;
  for (int op = 0; op <= CAL_OP_COUNT; op++)
    for (size_t i = 0; m->have[op] && i + 1 < m->npieces[op]; i++)
      b[nb++] = snap_to_forced(m->pieces[op][i].hi, &in->op[op == CAL_OP_COUNT ? CAL_OP_PINGPONG : op], a, ADf, nAD);
  for (size_t i = 0; i < nAD; i++)
    b[nb++] = ADf[i];
  qsort(b, nb, sizeof *b, cmp_d);
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
    if (!known && isfinite(next) && next > b[i] + 1) {
      size_t used = strlen(m->warnings);
      snprintf(m->warnings + used, sizeof m->warnings - used,
               "note: the breakpoint after %.0f B lies in [%.0f, %.0f) (no size sampled between): "
               "`hnm-calibrate run --refine MODEL` locates it to the byte\n",
               b[i], b[i], next);
    }
  }
  b[u++] = INFINITY;
  m->seg = calloc(u, sizeof *m->seg);
  m->nseg = u;
  for (size_t i = 0; i < u; i++) {
    struct cal_segment *s = &m->seg[i];
    s->upto = b[i];
    /* A point inside the segment, to pick each op's piece. */
    double k = isinf(b[i]) ? (u > 1 ? b[u - 2] + 1 : 1) : b[i];
    const hnm_fit_piece *p = &m->pieces[CAL_OP_COUNT][piece_snapped(m, CAL_OP_COUNT, k, in, a, ADf, nAD)];
    /* As fitted: hnm_calibrate_physics.h keeps them within bounds. */
    s->lat = p->a;
    s->bw = p->b > 1 / HNM_MAX_BANDWIDTH ? 1 / p->b : HNM_MAX_BANDWIDTH;
    if (m->have[CAL_OP_SEND] && k <= m->detached) {
      p = &m->pieces[CAL_OP_SEND][piece_snapped(m, CAL_OP_SEND, k, in, a, ADf, nAD)];
      s->so = p->a > 0 ? p->a : 0;
      s->sb = p->b > 0 ? p->b : 0;
    }
    if (m->have[CAL_OP_RECV] && k <= m->async) {
      p = &m->pieces[CAL_OP_RECV][piece_snapped(m, CAL_OP_RECV, k, in, a, ADf, nAD)];
      s->ro = p->a > 0 ? p->a : 0;
      s->rb = p->b > 0 ? p->b : 0;
    }
    if (m->have[CAL_OP_ISEND]) {
      p = &m->pieces[CAL_OP_ISEND][piece_snapped(m, CAL_OP_ISEND, k, in, a, ADf, nAD)];
      s->io = p->a > 0 ? p->a : 0;
      s->ib = p->b > 0 ? p->b : 0;
    }
  }
  free(b);
  char why[512];
  if (cal_physics_constrain(m, pp->k, t, pp->n, a->raw, a->smooth, why, sizeof why) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s:%ld: op 'pingpong': %s", pp->file, pp->line, why);

  /* Single-segment comparisons. Fluid: one line L + k/B through all of
   * rtt/2. LogGPS: o_s + k O_s on send and o_r + k O_r on recv (k <= S =
   * D), o their mean intercept; the per-byte total G + O_s + O_r is the
   * fluid slope (so that large messages keep the right rate), O_s and O_r
   * scaled down if they exceed it, L = fluid intercept - 2 o, g = G. */
  {
    hnm_fit_options one = {0, 1, 1, NULL, 0, 1, a->noise_floor, HNM_FIT_LOSS_HUBER, NULL};
    hnm_fit_piece pc;
    size_t np;
    double sg;
    char err[256];
    double S = m->detached;
    struct cal_series *ss = &in->op[CAL_OP_SEND], *rr = &in->op[CAL_OP_RECV];
    size_t cap = pp->n > ss->n ? pp->n : ss->n;
    cap = cap > rr->n ? cap : rr->n;
    double *k = malloc(cap * sizeof *k), *y = malloc(cap * sizeof *y);
    for (size_t i = 0; i < pp->n; i++)
      k[i] = pp->k[i], y[i] = pp->y[i] / 2;
    double P = 0;
    m->fl_L = 0;
    m->fl_B = HNM_MAX_BANDWIDTH;
    if (hnm_fit_segments(k, y, pp->n, &one, &pc, 1, &np, &sg, err, sizeof err) == 0) {
      m->fl_L = pc.a;
      m->fl_B = pc.b > 1 / HNM_MAX_BANDWIDTH ? 1 / pc.b : HNM_MAX_BANDWIDTH;
      cal_physics_constrain_fluid(m, k, y, pp->n, a->raw, a->smooth);
      P = m->fl_B < HNM_MAX_BANDWIDTH ? 1 / m->fl_B : 0;
    }
    double os = 0, Os = 0, orr = 0, Or = 0;
    size_t n = 0;
    for (size_t i = 0; i < ss->n; i++)
      if (ss->k[i] <= S)
        k[n] = ss->k[i], y[n++] = ss->y[i];
    if (n > 0 && hnm_fit_segments(k, y, n, &one, &pc, 1, &np, &sg, err, sizeof err) == 0)
      os = fmax(0, pc.a), Os = fmax(0, pc.b);
    n = 0;
    for (size_t i = 0; i < rr->n; i++)
      if (rr->k[i] <= S)
        k[n] = rr->k[i], y[n++] = rr->y[i];
    if (n > 0 && hnm_fit_segments(k, y, n, &one, &pc, 1, &np, &sg, err, sizeof err) == 0)
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
  }
  free(t);

  /* Limiter: per-node B_s + B_r with one bidirectional pair, against the
   * one-way bandwidth B. SimGrid scales a flow's max-min share by its
   * bandwidth factor (bw-factor = B / B_link for the fitted absolute
   * bandwidth), so a limiter of f x B_link gives B_s + B_r = f x B: the
   * factor is the measured ratio, whatever the platform's B_link. */
  m->limiter = -1;
  if (in->ncont > 0) {
    /* Per rank (0 and 1 of the first pair), the median over repetitions;
     * then the smaller of the two: a rank that left the barrier first
     * also counts the wait for its peer. */
    double *v = malloc(in->ncont * sizeof *v), med[2][2] = {{0, 0}, {0, 0}};
    double M = 0;
    for (int bi = 0; bi < 2; bi++)
      for (int r = 0; r < 2; r++) {
        size_t nv = 0;
        for (size_t i = 0; i < in->ncont; i++) {
          const struct cal_cont_row *c = &in->cont[i];
          if (c->pairs == 1 && c->bi == bi && c->rank == r) {
            v[nv++] = c->duration;
            M = c->size;
          }
        }
        if (nv == 0) { /* a row that is missing has no line: the file and the fields */
          free(v);
          hnm_msg_die(HNM_EXIT_USAGE, "%s: no row with pairs 1, mode %s, rank %d (the contention probe needs both ranks of one pair in "
              "both modes)", in->cont_file, bi ? "bi" : "uni", r);
        }
        med[bi][r] = hnm_fit_median(v, nv);
      }
    free(v);
    const struct cal_segment *s = cal_seg_of(m, M);
    double tu = fmin(med[0][0], med[0][1]) - s->lat, tb = fmin(med[1][0], med[1][1]) - s->lat;
    if (!(tu > 0 && tb > 0)) {
      /* The probe's messages were too small for their transfer time to
       * stand out of the latency noise (typical on one machine, where the
       * copies go through memory). Without a measured B_s + B_r nothing
       * supports a factor: keep the limiters the platform declares. */
      size_t used = strlen(m->warnings);
      snprintf(m->warnings + used, sizeof m->warnings - used,
               "warning: %s: contention durations at %.0f B not above the fitted latency (%.3g s): no "
               "limiter fitted, the platform's limiters kept as declared (rerun the probe with larger "
               "messages to fit one)\n",
               in->cont_file, M, s->lat);
      return;
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
      size_t used = strlen(m->warnings);
      snprintf(m->warnings + used, sizeof m->warnings - used,
               "warning: contention: B_s + B_r = %.3g x the one-way bandwidth, outside [1, 2] where a node "
               "limiter can express it; limiter factor set to %g\n",
               m->limiter, f);
      m->limiter = f;
    }
  }
}

/* A size option's value: bytes (units allowed), or "none" (-1). */
static int size_value(const char *v, double *out, char *err, size_t errlen)
{
  char why[256];
  double b;
  if (strcmp(v, "none") == 0) {
    *out = -1;
    return 0;
  }
  if (hnm_parse_size(v, &b, why, sizeof why) != 0 && !(cal_parse_field(v, &b))) {
    snprintf(err, errlen, "'%s': not a size (%s)", v, why);
    return -1;
  }
  if (b != floor(b) || b < 0) {
    snprintf(err, errlen, "'%s': not a whole number of bytes", v);
    return -1;
  }
  *out = b;
  return 0;
}

static int fit__loss(void *ctx, const char *v, char *err, size_t errlen);

struct fit_ctx {
  struct cal_fit_args *a;
  double *forced; /* [40] */
};

static int fit__breakpoints(void *ctx, const char *v, char *err, size_t errlen)
{
  struct fit_ctx *fc = ctx;
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", v);
  fc->a->nforced = 0;
  for (char *sv, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
    double b;
    if (fc->a->nforced == 40) {
      snprintf(err, errlen, "at most 40");
      return -1;
    }
    if (size_value(t, &b, err, errlen) != 0)
      return -1;
    if (b < 0) {
      snprintf(err, errlen, "'none' is not a breakpoint");
      return -1;
    }
    fc->forced[fc->a->nforced++] = b;
  }
  fc->a->forced = fc->forced;
  return 0;
}

static int fit__loss(void *ctx, const char *v, char *err, size_t errlen)
{
  struct cal_fit_args *a = ((struct fit_ctx *)ctx)->a;
  if (strcmp(v, "abs") != 0 && strcmp(v, "huber") != 0) {
    snprintf(err, errlen, "'%s': expected abs or huber", v);
    return -1;
  }
  a->loss = v[0] == 'a' ? HNM_FIT_LOSS_ABS : HNM_FIT_LOSS_HUBER;
  return 0;
}

static int fit__protocol(void *ctx, const char *v, char *err, size_t errlen)
{
  struct cal_fit_args *a = ((struct fit_ctx *)ctx)->a;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", v);
  char *c = strchr(buf, ',');
  if (c == NULL) {
    snprintf(err, errlen, "'%s': expected ASYNC,DETACHED", v);
    return -1;
  }
  *c = '\0';
  if (size_value(buf, &a->force_async, err, errlen) != 0 || size_value(c + 1, &a->force_detached, err, errlen) != 0)
    return -1;
  if (a->force_async >= 0 && (a->force_detached < 0 || a->force_async > a->force_detached)) {
    snprintf(err, errlen, "'%s': async > detached", v);
    return -1;
  }
  return 0;
}

/* The fitted values within the ranges a model file accepts
 * (docs/model-format.md): otherwise the measurements are not of a network,
 * and nothing is written. */
#define FIT_MAX_TIME 1.0                        /* seconds, or seconds per byte */
#define FIT_MAX_BANDWIDTH HNM_MAX_BANDWIDTH     /* bytes per second: "no limit" */

/* " for sizes up to N B", or "" for the last segment. */
static const char *sizes_upto(double upto, char *buf, size_t len)
{
  if (isinf(upto))
    return "";
  snprintf(buf, len, " for sizes up to %.0f B", upto);
  return buf;
}

static void check_time(const char *what, double v, double upto)
{
  char where[64];
  if (!(v >= 0 && v <= FIT_MAX_TIME))
    hnm_msg_die(HNM_EXIT_USAGE, "the measurements fit a %s of %.3g s%s, outside [0, %g s]: not a network's (check the CSV files)", what, v,
        sizes_upto(upto, where, sizeof where), FIT_MAX_TIME);
}

static void check_fitted(const struct cal_fitted *m)
{
  for (size_t i = 0; i < m->nseg; i++) {
    const struct cal_segment *g = &m->seg[i];
    char where[64];
    if (!(g->bw > 0 && g->bw <= FIT_MAX_BANDWIDTH))
      hnm_msg_die(HNM_EXIT_USAGE, "the measurements fit a bandwidth of %.3g B/s%s, outside (0, %g B/s]: not a network's (check the CSV "
          "files)",
          g->bw, sizes_upto(g->upto, where, sizeof where), FIT_MAX_BANDWIDTH);
    check_time("latency", g->lat, g->upto);
    const double o[] = {g->so, g->sb, g->ro, g->rb, g->io, g->ib};
    for (size_t j = 0; j < sizeof o / sizeof o[0]; j++)
      check_time("software overhead", o[j], g->upto);
  }
  const double t[] = {m->lg_L, m->lg_o, m->lg_G, m->lg_Os, m->lg_Or, m->fl_L};
  for (size_t j = 0; j < sizeof t / sizeof t[0]; j++)
    check_time("LogGPS or fluid time", t[j], INFINITY);
  if (!(m->fl_B > 0 && m->fl_B <= FIT_MAX_BANDWIDTH))
    hnm_msg_die(HNM_EXIT_USAGE, "the measurements fit a fluid bandwidth of %.3g B/s, outside (0, %g B/s]: not a network's (check the "
        "CSV files)",
        m->fl_B, FIT_MAX_BANDWIDTH);
}

/* DIR/pack.txt: the pack fit per pattern (hnm_calibrate_pack.h); its
 * summary line on stderr. */
static double write_pack_report(const char *dir, const struct cal_pack_data *d, const struct hnm_pack_model *p)
{
  char path[4300], oerr[1024];
  snprintf(path, sizeof path, "%s/pack.txt", dir);
  hnm_out *o = hnm_out_open(path, "--report", oerr, sizeof oerr);
  if (o == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  double worst = cal_pack_report(hnm_out_file(o), d, p);
  if (hnm_out_commit(o, oerr, sizeof oerr) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  return worst;
}

int cal_cmd_fit(int argc, char **argv)
{
  struct cal_fit_args a = {0};
  a.name = "calibrated";
  a.force_async = a.force_detached = -2;
  double forced[40];
  long max_segments = 0, min_sizes = 0;
  int no_plots = 0, raw = 0, medians = 0;
  a.loss = -1; /* resolved below */
  a.seed = 1;
  a.smooth = 2;
  struct fit_ctx fc = {&a, forced};
  a.penalty = a.noise_floor = NAN; /* not given: the fit's defaults (0 below) */
  const struct hnm_opt opts[] = {
    {.name = "output", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "FILE", .help = "model to write (required)", .value = &a.out},
    {.name = "report", .kind = HNM_OPT_STRING, .arg = "DIR", .help = "report directory (default: MODEL without .xml, plus -report; see below)", .value = &a.report},
    {.name = "name", .kind = HNM_OPT_STRING, .arg = "NAME", .def = "calibrated", .help = "model name", .value = &a.name},
    {.name = "breakpoints", .kind = HNM_OPT_CALL, .arg = "LIST", .unit = "bytes", .help = "force breakpoints (comma-separated sizes: k <= b and k > b split)", .fn = fit__breakpoints},
    {.name = "only-breakpoints", .kind = HNM_OPT_FLAG, .help = "no breakpoint other than the forced ones and the protocol thresholds", .value = &a.forced_only},
    {.name = "protocol", .kind = HNM_OPT_CALL, .arg = "A,D", .unit = "bytes", .help = "force the async and detached thresholds (sizes or none)", .fn = fit__protocol},
    {.name = "penalty", .kind = HNM_OPT_NUMBER, .arg = "X", .help = "per-segment penalty in noise units (default 3 ln n)", .value = &a.penalty},
    {.name = "max-segments", .kind = HNM_OPT_LONG, .arg = "N", .help = "segments per operation (default 8)", .value = &max_segments, .min = 1, .max = 64},
    {.name = "min-sizes", .kind = HNM_OPT_LONG, .arg = "N", .help = "distinct sizes per segment (default 2)", .value = &min_sizes, .min = 1, .max = 64},
    {.name = "noise-floor", .kind = HNM_OPT_NUMBER, .arg = "X", .help = "lowest relative noise assumed (default 5e-3)", .value = &a.noise_floor},
    {.name = "no-plots", .kind = HNM_OPT_FLAG, .help = "skip gnuplot", .value = &no_plots},
    {.name = "loss", .kind = HNM_OPT_CALL, .arg = "abs|huber", .help = "robust loss of each segment's line (default: huber on raw measurements, abs on medians)", .fn = fit__loss},
    {.name = "raw", .kind = HNM_OPT_FLAG, .help = "fit the raw measurements (the default, except with --platform-calibration)", .value = &raw},
    {.name = "medians", .kind = HNM_OPT_FLAG, .help = "fit each size's median (the default with --platform-calibration)", .value = &medians},
    {.name = "platform-calibration", .kind = HNM_OPT_STRING, .arg = "CONFIG.xml", .help = "fit the data of SimGrid's platform-calibration tool (the CSVs, breakpoints file, thresholds and saturation runs CONFIG names); no CSV operands", .value = &a.pcal},
    {.name = "auto-breakpoints", .kind = HNM_OPT_FLAG, .help = "with --platform-calibration: find breakpoints instead of using the file's", .value = &a.auto_bp},
    {.name = "file-breakpoints", .kind = HNM_OPT_FLAG, .help = "with --platform-calibration: the file's breakpoints (default: the file's or automatic ones, whichever predicts held-out round trips better)", .value = &a.file_bp},
    {.name = "bootstrap", .kind = HNM_OPT_LONG, .arg = "N", .help = "also write N bootstrap members beside the model, as the model set MODEL.set/ (docs/model-format.md)", .value = &a.bootstrap, .min = 1, .max = CAL_SET_MAX_MEMBERS},
    {.name = "seed", .kind = HNM_OPT_LONG, .arg = "N", .def = "1", .help = "the bootstrap's random seed", .value = &a.seed, .max = 1L << 40},
    {.name = "held-out", .kind = HNM_OPT_FLAG, .help = "report the held-out error (5 more fits; the default with --platform-calibration or --bootstrap)", .value = &a.held_out},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate fit", "[OPTIONS] FILE.csv... -o MODEL.xml",
    "Reads the CSVs of `hnm-calibrate run` (p2p.csv, probe.csv, contention.csv, pack.csv; recognised by header)\n"
    "and writes a hybrid model file (docs/model-format.md) and a report directory.",
    "The report directory holds report.txt, PNG plots per operation, loggps.xml and fluid.xml fits (and pack.txt\n"
    "with a pack.csv).\n",
    NULL, 0, &fc};
  int first = hnm_opt_parse(&cmd, opts, argc, argv);
  if (first < 0)
    return hnm_opt_status(first);
  const char **files = (const char **)argv + first;
  int nfiles = argc - first;
  a.plots = !no_plots;
  a.max_segments = (int)max_segments;
  a.min_sizes = (int)min_sizes;
  if (*a.name == '\0' || strpbrk(a.name, "<>&\"'") != NULL)
    return hnm_opt_fail("--name", "'%s' is empty or has XML special characters", a.name);
  if (!isnan(a.penalty) && !(a.penalty > 0))
    return hnm_opt_fail("--penalty", "'%g' is not a number > 0", a.penalty);
  if (!isnan(a.noise_floor) && !(a.noise_floor > 0))
    return hnm_opt_fail("--noise-floor", "'%g' is not a number > 0", a.noise_floor);
  if (isnan(a.penalty))
    a.penalty = 0;
  if (isnan(a.noise_floor))
    a.noise_floor = 0;
  if (a.out == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: -o MODEL.xml is required");
  if (a.report != NULL && *a.report == '\0')
    return hnm_opt_fail("--report", "empty directory name");
  /* An output that names an input would destroy the measurements. */
  for (int i = 0; i < nfiles; i++)
    if (hnm_out_same_file(a.out, files[i]) || (a.report != NULL && hnm_out_same_file(a.report, files[i])))
      hnm_msg_die(HNM_EXIT_USAGE, "%s: '%s' is the input file %s", hnm_out_same_file(a.out, files[i]) ? "-o" : "--report",
          hnm_out_same_file(a.out, files[i]) ? a.out : a.report, files[i]);
  if (a.pcal != NULL && hnm_out_same_file(a.out, a.pcal))
    hnm_msg_die(HNM_EXIT_USAGE, "-o: '%s' is the input file %s", a.out, a.pcal);
  if (nfiles == 0 && a.pcal == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: no CSV file given (nor --platform-calibration CONFIG.xml)");
  if (nfiles > 0 && a.pcal != NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --platform-calibration reads its own CSVs: give no CSV file");
  if (a.auto_bp && a.pcal == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --auto-breakpoints needs --platform-calibration (without it, breakpoints are always found)");
  if (a.file_bp && a.pcal == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --file-breakpoints needs --platform-calibration (the breakpoints file is its)");
  if (a.file_bp && a.auto_bp)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --file-breakpoints and --auto-breakpoints exclude each other");
  /* The model set's place, refused before any fitting. */
  char setdir[4200] = "";
  if (a.bootstrap > 0) {
    char serr[4600];
    if (strcmp(a.out, "-") == 0 || strncmp(a.out, "/dev/", 5) == 0 || strncmp(a.out, "/proc/", 6) == 0)
      hnm_msg_die(HNM_EXIT_USAGE, "fit: --bootstrap: -o '%s' is not a file: the model set goes beside the model file (MODEL.set/)", a.out);
    if (cal_set_path(a.out, setdir, sizeof setdir) != 0)
      hnm_msg_die(HNM_EXIT_USAGE, "fit: --bootstrap: -o '%s': path too long", a.out);
    if (cal_set_check(setdir, serr, sizeof serr) != 0)
      hnm_msg_die(HNM_EXIT_USAGE, "fit: %s", serr);
    size_t l = strlen(setdir);
    if (a.report != NULL && strncmp(a.report, setdir, l) == 0 && (a.report[l] == '\0' || a.report[l] == '/'))
      hnm_msg_die(HNM_EXIT_USAGE, "fit: --report '%s' is (inside) the model set directory '%s'", a.report, setdir);
  }
  if (raw && medians)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --raw and --medians exclude each other");
  /* hnm's benchmark: raw measurements and Huber (validated on this
   * machine's Open MPI, tests/calibration/real.sh); platform-calibration's
   * 33,000 rows per operation: per-size medians and the absolute loss
   * (30 times faster, as accurate on its clusters: docs/calibration.md). */
  a.raw = raw ? 1 : medians ? 0 : a.pcal == NULL;
  if (a.loss < 0)
    a.loss = a.raw ? HNM_FIT_LOSS_HUBER : HNM_FIT_LOSS_ABS;
  char report[4200], oerr[1024];
  hnm_out *out = NULL;
  /* The same measurements twice would count double in every median. */
  struct stat *seen = calloc((size_t)nfiles + 1, sizeof *seen);
  if (seen == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  for (int i = 0; i < nfiles; i++) {
    if (stat(files[i], &seen[i]) != 0)
      hnm_msg_die(HNM_EXIT_USAGE, "%s: cannot open: %s", files[i], strerror(errno));
    for (int j = 0; j < i; j++)
      if (seen[j].st_dev == seen[i].st_dev && seen[j].st_ino == seen[i].st_ino)
        hnm_msg_die(HNM_EXIT_USAGE, "%s: the same file as %s, given twice", files[i], files[j]);
  }
  free(seen);
  /* -o is opened before anything is read, written or printed (the summary
   * and the decade table of --platform-calibration): a place it cannot be
   * written to is bad input, reported alone. Its temporary goes away on
   * any later refusal (hnm_out.h). */
  out = hnm_out_open(a.out, "-o", oerr, sizeof oerr);
  if (out == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  if (a.report == NULL && hnm_out_is_through(out)) {
    /* -o is a device or standard output: the report goes beside us. */
    snprintf(report, sizeof report, "%s-report", a.name);
    a.report = report;
  }
  if (a.report == NULL) {
    size_t l = strlen(a.out);
    if (l > 4 && strcmp(a.out + l - 4, ".xml") == 0)
      l -= 4;
    snprintf(report, sizeof report, "%.*s-report", (int)l, a.out);
    a.report = report;
  }
  /* The report directory is written whole or not at all: into a temporary
   * beside it, moved into place at the end; a refusal or a failed write
   * anywhere below leaves nothing of it (core/hnm_out.h). */
  hnm_out_dir *rdir = hnm_out_dir_open(a.report, "--report", oerr, sizeof oerr);
  if (rdir == NULL) {
    hnm_out_abort(out);
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  }
  struct cal_inputs in;
  memset(&in, 0, sizeof in);
  /* refine's breakpoints.csv: its located breakpoints are the only ones
   * (unless --breakpoints says otherwise). */
  double located[64];
  size_t nlocated = 0;
  int refined = 0;
  struct cal_pack_data pack = {NULL, 0, 0};
  for (int i = 0; i < nfiles; i++) {
    size_t nl;
    char rerr[HNM_ERRLEN];
    int rc;
    if (cal_pack_csv_is(files[i]))
      rc = cal_pack_csv_read(files[i], &pack, rerr, sizeof rerr);
    else if ((rc = cal_refine_read_breakpoints(files[i], located + nlocated, 40 - nlocated, &nl, rerr, sizeof rerr)) > 0)
      nlocated += nl, refined = 1, rc = 0;
    else if (rc == 0)
      rc = cal_read_csv(files[i], &in, rerr, sizeof rerr);
    if (rc != 0)
      hnm_msg_die(HNM_EXIT_USAGE, "%s", rerr); /* the entry point: one line, exit 2 */
  }
  if (a.nforced == 0 && refined) {
    a.forced = located;
    a.nforced = nlocated;
    a.forced_only = 1;
  }
  double pcal_forced[64];
  if (a.pcal != NULL)
    nfiles = cal_pcal_inputs(&a, &in, pcal_forced, 64);
  struct cal_fitted m;
  fit_model(&in, &a, &m);
  cal_fit_rma(&in, &m);
  cal_fit_residuals(&in, &m);
  m.nfiles = nfiles;
  /* The round trip against the data's noise floor, in-sample and held out;
   * with the file's breakpoints by default, the automatic ones too, and the
   * one whose held-out round trips are closer is the model. */
  char *extra = NULL;
  size_t extralen = 0;
  FILE *xf = open_memstream(&extra, &extralen);
  if (xf == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  struct cal_noise_eval ev;
  /* The held-out fits cost 5 fits: made where they choose the breakpoints
   * or give the bootstrap its residuals, or when asked. */
  int held_out = a.pcal != NULL || a.bootstrap > 0 || a.held_out;
  cal_noise_evaluate(&in, &a, &m, held_out ? fit_model : NULL, &ev);
  /* With platform-calibration's data, candidate fits: the file's
   * breakpoints and automatic ones (unless forced), each with a running
   * median over none, 5 or 11 sizes; the smallest held-out round-trip
   * error over all sizes is the model (ties: the earlier candidate). The
   * clusters disagree on the best smoothing (plafrim and miriel: none or
   * 5 sizes, taurus: 11; docs/calibration.md), and the held-out error
   * is what tells. */
  int have_file = a.pcal != NULL && a.forced == pcal_forced && a.nforced > 0;
  int choose = a.pcal != NULL && !a.raw && held_out;
  int forced_choice = a.file_bp || a.auto_bp;
  if (choose) {
    static const int smooths[3] = {2, 0, 5};
    struct cal_fit_args cand[6];
    size_t nc = 0;
    for (int bp = 0; bp < 2; bp++) {
      if ((bp == 0 && (!have_file || a.auto_bp)) || (bp == 1 && a.file_bp))
        continue;
      for (int j = 0; j < 3; j++) {
        cand[nc] = a;
        cand[nc].smooth = smooths[j];
        if (bp == 1) {
          cand[nc].forced = NULL;
          cand[nc].nforced = 0;
          cand[nc].forced_only = 0;
          cand[nc].auto_bp = 1;
        }
        nc++;
      }
    }
    size_t best = 0;
    struct cal_fitted bm = m;
    struct cal_noise_eval be = ev;
    fprintf(xf, "Candidate fits (round-trip error over all sizes):\n");
    for (size_t c = 0; c < nc; c++) {
      struct cal_fitted mc;
      struct cal_noise_eval ec;
      if (c == 0 && cand[0].smooth == a.smooth && cand[0].auto_bp == a.auto_bp && cand[0].forced == a.forced) {
        mc = m; /* the fit made above */
        ec = ev;
      } else {
        fit_model(&in, &cand[c], &mc);
        mc.nfiles = nfiles;
        cal_noise_evaluate(&in, &cand[c], &mc, fit_model, &ec);
      }
      char ho[32] = "-";
      if (ec.all_out >= 0)
        snprintf(ho, sizeof ho, "%.2f%%", 100 * ec.all_out);
      char sm[48] = "no running median:";
      if (cand[c].smooth > 0)
        snprintf(sm, sizeof sm, "running median of %d sizes:", 2 * cand[c].smooth + 1);
      fprintf(xf, "  %-23s %-28s held-out %7s, in-sample %6.2f%%, %zu segments\n",
              cand[c].auto_bp ? "automatic breakpoints," : "the file's breakpoints,", sm, ho, 100 * ec.all_in,
              mc.nseg);
      int better = c > 0 && ec.all_out >= 0 && (be.all_out < 0 || ec.all_out < be.all_out);
      if (c == 0 || better) {
        if (c > 0) {
          free(bm.seg);
          cal_noise_eval_free(&be);
        }
        bm = mc;
        be = ec;
        best = c;
      } else {
        free(mc.seg);
        cal_noise_eval_free(&ec);
      }
    }
    m = bm;
    ev = be;
    a = cand[best];
    fprintf(xf, "Round trip, the chosen fit (%zu segments): median |model - median| / median\n", m.nseg);
    cal_noise_print(xf, "  ", &ev);
    if (ev.all_out < 0)
      fprintf(xf, "Breakpoints: %s (no held-out comparison: a fold of sizes left a breakpoint too few sizes)\n",
              a.auto_bp ? "automatic ones" : "the file's");
    else
      fprintf(xf, "Breakpoints: %s chosen: held-out round-trip error %.2f%% over all sizes, the smallest of %zu "
                  "candidate fits (running median of %d size(s); --file-breakpoints or --auto-breakpoints to "
                  "choose the breakpoints)\n",
              a.auto_bp ? "automatic ones" : "the file's", 100 * ev.all_out, nc, 2 * a.smooth + 1);
  } else {
    fprintf(xf, "Round trip (%zu segments): median |model - median| / median\n", m.nseg);
    cal_noise_print(xf, "  ", &ev);
  }
  fprintf(xf, "(per size decade, the median over its sizes; noise floor: the error of the median of the %d nearest "
              "sizes' medians, the best a function of size alone does; held-out: %s)\n",
          CAL_NOISE_WIDTH, !held_out ? "not computed, --held-out does" : ev.heldout ? "5 fits, each without every 5th size"
                                                                          : "not computed, a fold of sizes left a breakpoint too few sizes");
  if (fclose(xf) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  check_fitted(&m);
  if (pack.n > 0) {
    cal_pack_fit(&pack, &m.pack);
    m.has_pack = 1;
  }
  /* Bootstrap: each member fitted to a replicate of the measurements, then
   * given the size-to-size scatter of held-out sizes (cal_noise_perturb). */
  hnm_model **members = NULL;
  if (a.bootstrap > 0) {
    members = calloc((size_t)a.bootstrap, sizeof *members);
    if (members == NULL)
      hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
    uint64_t state = (uint64_t)a.seed * 0x9E3779B97F4A7C15ULL + 1;
    for (long i = 0; i < a.bootstrap; i++) {
      struct cal_inputs t;
      struct cal_fitted mi;
      cal_noise_resample(&in, &t, &state);
      fit_model(&t, &a, &mi);
      cal_noise_perturb(&mi, &ev, (size_t)i, (size_t)a.bootstrap, (uint64_t)a.seed);
      mi.nfiles = nfiles;
      /* The pack costs are fitted once, outside the bootstrap: every member
       * carries the central model's. */
      mi.pack = m.pack;
      mi.has_pack = m.has_pack;
      mi.member = (int)i + 1;
      mi.members = (int)a.bootstrap;
      check_fitted(&mi);
      char name[600];
      snprintf(name, sizeof name, "%s-member-%03ld", a.name, i + 1);
      members[i] = cal_build_hybrid(&mi, name);
      free(mi.seg);
      cal_noise_inputs_free(&t);
    }
  }
  /* The model first, flushed (a full disk, /dev/full) before the report
   * is written; renamed into place after it. */
  cal_write_model_finish(out, a.out, cal_build_hybrid, &m, a.name);
  const char *rtmp = hnm_out_dir_path(rdir);
  char p[4300];
  snprintf(p, sizeof p, "%s/loggps.xml", rtmp);
  cal_write_model(p, cal_build_loggps, &m, a.name);
  snprintf(p, sizeof p, "%s/fluid.xml", rtmp);
  cal_write_model(p, cal_build_fluid, &m, a.name);
  cal_write_report(rtmp, a.report, &m, &in, a.out, a.plots, extra);
  double pack_worst = m.has_pack ? write_pack_report(rtmp, &pack, &m.pack) : 0;
  if (a.bootstrap > 0) {
    char serr[4600];
    hnm_model *central = cal_build_hybrid(&m, a.name);
    int rc = cal_set_write(setdir, central, members, (size_t)a.bootstrap, serr, sizeof serr);
    hnm_model_free(central);
    for (long i = 0; i < a.bootstrap; i++)
      hnm_model_free(members[i]);
    free(members);
    if (rc != 0) {
      hnm_out_abort(out);
      hnm_msg_die(HNM_EXIT_USAGE, "%s", serr);
    }
  }
  if (hnm_out_dir_commit(rdir, oerr, sizeof oerr) != 0) {
    hnm_out_abort(out);
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  }
  if (hnm_out_commit(out, oerr, sizeof oerr) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  /* Everything is in place: now what stderr has to say (an error above
   * stays one line), and the plots. */
  cal_report_plots(a.report, &m, &in, a.plots);
  if (a.pcal != NULL && (forced_choice || !choose))
    cal_pcal_compare(&a, &in, &m, fit_model);
  if (m.has_pack)
    hnm_msg_info("pack costs fitted; held-out patterns within %.1f%% (interpreted), see %s/pack.txt", 
            100 * pack_worst,  a.report);
  if (a.pcal != NULL)
    hnm_msg_info("%s", cal_pcal_summary());
  for (char *w = m.warnings, *e; *w; w = e + 1) {
    e = strchr(w, '\n');
    if (e == NULL) { /* a last line cut by the buffer's end */
      hnm_msg_info("%s", w);
      break;
    }
    hnm_msg_info("%.*s", (int)(e - w), w);
  }
  /* The table once everything is written: an error above stays one line. */
  size_t xl = strlen(extra); /* a table of whole lines: one message */
  if (xl > 0)
    hnm_msg_info("%.*s", (int)(extra[xl - 1] == '\n' ? xl - 1 : xl), extra);
  if (a.bootstrap > 0)
    hnm_msg_info("wrote %s (%zu segments), %s/ (the central model and %ld members) and %s/",  a.out, 
            m.nseg,  setdir,  a.bootstrap,  a.report);
  else
    hnm_msg_info("wrote %s (%zu segments) and %s/", a.out, m.nseg, a.report);
  cal_noise_eval_free(&ev);
  free(extra);
  cal_inputs_free(&in);
  cal_pack_data_free(&pack);
  free(m.seg);
  return 0;
}
