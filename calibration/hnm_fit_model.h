/* hnm_fit_model.h -- the fit procedure of hnm-calibrate: from the
 * benchmark's measurements to a fitted hybrid model, with the LogGPS and
 * fluid fits beside it (docs/calibration.md says what each step inverts).
 *
 * Errors follow include/hnm/hnm_error.h: err, errlen last; 0 on success, -1 with
 * one line in err ("FILE:LINE: op 'X': reason", or "reason" without a
 * place) on failure, out of memory included; nothing is printed and
 * nothing exits. Warnings and notes about a successful fit come back in
 * the result, as whole lines, for the caller to show.
 *
 * The procedure (hnm_fit_model()):
 *   1. protocol: the eager (async) and detached thresholds, given, or from
 *      the probe: per size, medians; rendez-vous if send >= delay / 2, else
 *      eager if recv < 0.9 (pingpong / 2 - send) (SMPI's detached receive
 *      lasts pingpong / 2 - send, an eager one the transfer less); a probed
 *      range with fewer sampled send sizes than a segment needs is merged
 *      into the next mode (a warning);
 *   2. overheads: send on k <= detached, recv on k <= async, isend on all
 *      sizes, each a segmented robust fit (hnm_fit.h), split at the
 *      thresholds and the forced breakpoints;
 *   3. transfer: T = round trip / 2 minus the fitted overheads (scaled down
 *      when the library overlaps them with the wire, overlap_scale),
 *      fitted the same way, with the half round trip as the residuals'
 *      denominator;
 *   4. segments: every op's breakpoints and the thresholds cut the sizes
 *      into the model's segments, each taking each op's piece there; then
 *      kept within physics (latencies not below the smallest messages',
 *      bandwidths not above the route's; a refitted segment is a note),
 *      then each segment's transfer line set to the one minimising the
 *      per-decade median round-trip error where that is clearly lower,
 *      and notes on decades whose sizes alternate between two bands and
 *      on segments whose parts do not add up to the round trip
 *      (hnm_fit_bands.h);
 *   5. LogGPS and fluid: one segment each, through the same data;
 *   6. contention: the node limiter factor B_s + B_r / B from one
 *      bidirectional pair (a warning when it cannot be fitted).
 * It is deterministic: the same data and options give the same result.
 */
#ifndef HNM_FIT_MODEL_H
#define HNM_FIT_MODEL_H

#include <stddef.h>

#include "hnm_fit.h"
#include "hnm_fit_result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One operation's measurements: n rows (k[i] bytes, y[i] seconds), raw,
 * in any order. file and line (NULL, 0: none) name where the rows were
 * read; a refusal about them starts with "FILE:LINE: ". */
typedef struct hnm_fit_series {
  const double *k, *y;
  size_t n;
  const char *file;
  long line;
} hnm_fit_series;

/* A row of the protocol probe (seconds; delay: the receiver's sleep). */
typedef struct hnm_fit_probe {
  double size, delay, send, recv, pingpong;
} hnm_fit_probe;

/* A row of the contention probe: pairs of ranks, bi 1 for both directions
 * at once, rank 0 or 1 of the first pair, size bytes, duration seconds. */
typedef struct hnm_fit_contention {
  int pairs, bi, rank;
  double size, duration;
} hnm_fit_contention;

/* What is fitted. send, recv and pingpong need rows; isend is optional;
 * the probe is needed unless the options give the protocol; contention is
 * optional. Borrowed: the fit neither keeps nor changes it. */
typedef struct hnm_fit_data {
  hnm_fit_series op[HNM_FIT_OPS];
  const hnm_fit_probe *probe;
  size_t nprobe;
  const char *probe_file;
  const hnm_fit_contention *cont;
  size_t ncont;
  const char *cont_file;
  const char *p2p_file; /* first point-to-point file (NULL: none was read) */
  long p2p_line;
} hnm_fit_data;

/* How. Zero-initialised options are hnm_fit.h's defaults, Huber on raw
 * rows, the protocol from the probe. */
typedef struct hnm_fit_model_options {
  double penalty;       /* per segment (hnm_fit_options); <= 0: 3 ln(n) */
  double noise_floor;   /* <= 0: 5e-3 */
  int max_segments;     /* per op; <= 0: 8 */
  int min_sizes;        /* distinct sizes per segment; <= 0: 2 */
  const double *forced; /* breakpoints (bytes) every op is split at; */
  size_t nforced;       /* too few sizes beside one is an error */
  int forced_only;      /* 1: no breakpoint but the forced ones and thresholds */
  int loss;             /* HNM_FIT_LOSS_HUBER or HNM_FIT_LOSS_ABS */
  int raw;              /* 1: fit every row; 0: each size's median */
  int smooth;           /* medians: running median over 2 smooth + 1 sizes */
  int have_protocol;    /* 1: async and detached below, not the probe */
  double async, detached; /* bytes, -1: none (async <= detached) */
} hnm_fit_model_options;


/* Fit DATA with OPT into *R (overwritten whole). 0, or -1 with the reason
 * in err and *R holding nothing to free. Refused: send, recv or pingpong
 * without rows; no probe and no given protocol; too few sizes between two
 * forced breakpoints; no latency or no per-byte cost to bound the
 * segments with; a contention probe without both ranks of one pair in
 * both modes. */
int hnm_fit_model(const hnm_fit_data *data, const hnm_fit_model_options *opt, hnm_fit_result *r, char *err,
                  size_t errlen);

/* Each segment's residual quantiles, from DATA's round trips against R's
 * predictions (docs/model-format.md, "Stochastic mode"): R = measured /
 * predicted round trip, type-7 quantiles at p = 0, 1/20, ..., 1, floored
 * at 1e-6 and made non-decreasing; none for a segment with fewer than 10
 * round trips, or one beyond 1e6 (a warning in r->notes). Also, in
 * r->sized, the same quantiles of each measured size of a segment that has
 * residuals, from that size's own round trips, for every size with 10 or
 * more. 0, or -1 (out of memory) with R unchanged but its residuals. */
int hnm_fit_residuals(const hnm_fit_data *data, hnm_fit_result *r, char *err, size_t errlen);
/* The same, with each size's table made of the round trips of WINDOW
 * sizes of its segment: itself and up to WINDOW / 2 measured sizes on each
 * side (fewer at the segment's ends), written when they hold 10 or more;
 * WINDOW 1 is hnm_fit_residuals(), WINDOW 0 writes no per-size table. */
int hnm_fit_residuals_window(const hnm_fit_data *data, hnm_fit_result *r, size_t window, char *err,
                             size_t errlen);

/* Every fitted value within what a model file accepts (docs/model-format.md):
 * times in [0, 1] s, bandwidths in (0, HNM_MAX_BANDWIDTH]; otherwise the
 * measurements are not of a network. 0, or -1 with the reason. */
int hnm_fit_check(const hnm_fit_result *r, char *err, size_t errlen);

/* Free what hnm_fit_model() allocated in R (R may be zeroed: nothing). */
void hnm_fit_result_free(hnm_fit_result *r);

/* The segment holding k bytes (the last one above every upto). */
const hnm_fit_segment *hnm_fit_segment_at(const hnm_fit_result *r, double k);

/* What SMPI makes of each fitted model: op (HNM_FIT_SEND .. ISEND) of k
 * bytes, in seconds (0 for an op a model does not time). Hybrid: T =
 * lat + k / bw; send is so + k sb up to detached, else T; recv ro + k rb
 * up to async, T + ro + k rb up to detached, else T; round trip 2 (send +
 * T + recv overheads) up to detached, else 2 T; isend io + k ib. LogGPS:
 * hnm's expansion (docs/model-format.md) with g = G, s = 0. Fluid: T = L +
 * k / B, no overhead, the same thresholds. */
double hnm_fit_predict_hybrid(const hnm_fit_result *r, int op, double k);
double hnm_fit_predict_loggps(const hnm_fit_result *r, int op, double k);
double hnm_fit_predict_fluid(const hnm_fit_result *r, int op, double k);

/* Append (kv bytes, yv seconds) to the growing arrays *k and *y of *n
 * points, room for *cap (both grown together, doubling): how a reader
 * builds a series. 0, or -1 (out of memory) with the arrays unchanged. */
int hnm_fit_push(double **k, double **y, size_t *n, size_t *cap, double kv, double yv);


#ifdef __cplusplus
}
#endif

#endif /* HNM_FIT_MODEL_H */
