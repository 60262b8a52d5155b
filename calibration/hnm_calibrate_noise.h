/* hnm-calibrate fit: the data's noise floor, held-out (cross-validated)
 * errors, the choice between breakpoint sets, and the bootstrap's model
 * sets (docs/calibration.md, "Noise floor, held-out error and bands").
 *
 * Everything here judges the round trip (ping-pong), the most robust of the
 * measurements, per size: |prediction - median| / median, summarised per
 * size decade [10^d, 10^(d+1)) by the median over the decade's sizes.
 */
#ifndef HNM_CALIBRATE_NOISE_H
#define HNM_CALIBRATE_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_fit.h"
#include "hnm_calibrate_fitted.h"

#define CAL_NOISE_DECADES 12
#define CAL_NOISE_FOLDS 5   /* held-out error: sizes of rank i mod 5 left out in turn */
#define CAL_NOISE_WIDTH 10  /* the floor's neighbourhood (hnm_fit_floor) */

/* One fit of in with a's options into m: 0, or the exit status to return
 * (HNM_EXIT_USAGE: refused; HNM_EXIT_FAILURE: memory) with err filled. */
typedef int (*cal_noise_fit_fn)(struct cal_inputs *in, const struct cal_fit_args *a, struct cal_fitted *m, char *err,
                                size_t errlen);

/* One fit's round-trip errors against the per-size medians. */
struct cal_noise_eval {
  size_t n;                 /* distinct ping-pong sizes */
  double *k, *med;          /* increasing sizes, their median round trips */
  double *floor;            /* per size: hnm_fit_floor's leave-one-out error */
  double *resid;            /* per size: median / held-out prediction - 1 (NAN: none) */
  int heldout;              /* 1 when resid holds held-out residuals */
  double dec_floor[CAL_NOISE_DECADES], dec_in[CAL_NOISE_DECADES], dec_out[CAL_NOISE_DECADES]; /* -1: no size */
  size_t dec_n[CAL_NOISE_DECADES];
  double all_floor, all_in, all_out; /* over all sizes; all_out -1 without held-out fits */
};

/* Medians, floor and in-sample errors of m over in's ping-pong; then, when
 * fit is not NULL, CAL_NOISE_FOLDS fits of a on in without one fold of sizes
 * each, and the held-out errors. A fold whose fit could not be made (a
 * breakpoint of a left with too few sizes once a fold is out, or fit
 * refusing the fold's data: any status but HNM_EXIT_FAILURE) leaves the
 * held-out part out (heldout = 0, all_out = -1). 0, or the status to
 * return with err filled: HNM_EXIT_FAILURE (out of memory, or fit's). */
int cal_noise_evaluate(struct cal_inputs *in, const struct cal_fit_args *a, const struct cal_fitted *m,
                       cal_noise_fit_fn fit, struct cal_noise_eval *e, char *err, size_t errlen);
void cal_noise_eval_free(struct cal_noise_eval *e);

/* The per-decade table (floor, in-sample, held-out) on f, each line
 * prefixed by indent. */
#include <stdio.h>
void cal_noise_print(FILE *f, const char *indent, const struct cal_noise_eval *e);

/* Deterministic generator of the bootstrap (splitmix64). */
uint64_t cal_noise_rand(uint64_t *state);
/* Uniform in [0, n) from the same generator. */
size_t cal_noise_pick(uint64_t *state, size_t n);

/* A bootstrap replicate of in into out: every series' rows of one size
 * replaced by as many drawn with replacement among them (whole repetitions:
 * series with the same sizes in the same order -- a round trip's send and
 * its round trip -- share the draws); probe and contention rows shared with
 * in (free out with cal_noise_inputs_free, never cal_inputs_free). 0, or
 * HNM_EXIT_FAILURE with err out of memory. */
int cal_noise_resample(const struct cal_inputs *in, struct cal_inputs *out, uint64_t *state, char *err, size_t errlen);
void cal_noise_inputs_free(struct cal_inputs *out);

/* Turn a replicate's fit into member `member` (0-based) of `members` of
 * the prediction band: each of its segments is scaled (times x (1 + r),
 * bandwidth / (1 + r)) by one residual r taken among e's residuals of the
 * sizes the segment covers (at least 5, the nearest by rank), so that a
 * member carries both the fit's sampling error and the size-to-size
 * scatter a new size's median shows (the residual bootstrap's prediction
 * error, Davison and Hinkley 1997); stratified over the members (the .c).
 * 0, or HNM_EXIT_FAILURE with err out of memory. */
int cal_noise_perturb(struct cal_fitted *m, const struct cal_noise_eval *e, size_t member, size_t members, uint64_t seed,
                      char *err, size_t errlen);

#endif
