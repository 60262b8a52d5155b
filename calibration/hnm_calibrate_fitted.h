/* hnm-calibrate: the fitted model (segments, LogGPS and fluid fits), its
 * predictions per operation and its model files. */
#ifndef HNM_CALIBRATE_FITTED_H
#define HNM_CALIBRATE_FITTED_H

#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_out.h"

#include <stdio.h>
#include "hnm_calibrate_util.h"

/* Quantiles of a segment's round-trip residuals (cal_fit_residuals()). */
#define CAL_FIT_RESIDUALS 21

struct cal_segment {
  double upto; /* bytes; INFINITY for the last */
  double lat, bw; /* seconds, bytes/s */
  double so, sb, ro, rb, io, ib; /* send/recv/isend overheads: s, s/byte */
  double res[CAL_FIT_RESIDUALS];     /* residual quantiles at p = 0, 1/20, ..., 1 */
  size_t nres;                   /* 0 (none) or CAL_FIT_RESIDUALS */
};

struct cal_fitted {
  double async, detached; /* bytes, -1 = none */
  double limiter;         /* factor, <= 0 = keep */
  double overlap_scale;   /* applied to the send and recv overheads (1: none) */
  char warnings[16384];   /* shown once the fit succeeded: whole lines */
  int nfiles;             /* CSV files read */
  int member, members;    /* bootstrap member member of members (0: the central fit) */
  struct cal_segment *seg;
  size_t nseg;
  /* per-op pieces, for the report */
  hnm_fit_piece pieces[CAL_OP_COUNT + 1][64]; /* index CAL_OP_COUNT: T = one-way transfer */
  size_t npieces[CAL_OP_COUNT + 1];
  double sigma[CAL_OP_COUNT + 1];
  int have[CAL_OP_COUNT + 1];
  /* single-segment comparisons */
  double lg_L, lg_o, lg_G, lg_Os, lg_Or; /* LogGPS, S = detached */
  double fl_L, fl_B;                     /* fluid */
  double route_bw;                       /* bytes/s: the bound of hnm_calibrate_physics.h, 0 = none */
  /* contention */
  double bsr, buni, cont_size;
  /* one-sided costs (hnm_calibrate_rma.h), written into the hybrid model */
  int has_rma;
  struct hnm_rma rma;
  /* derived-datatype pack costs (pack.csv), written into every model */
  int has_pack;
  struct hnm_pack_model pack;
};

const struct cal_segment *cal_seg_of(const struct cal_fitted *m, double k);
double cal_hybrid_predict(const struct cal_fitted *m, int op, double k);
double cal_loggps_predict(const struct cal_fitted *m, int op, double k);
double cal_fluid_predict(const struct cal_fitted *m, int op, double k);
void cal_write_size(FILE *f, double v);
hnm_model *cal_build_hybrid(const struct cal_fitted *m, const char *name);
struct cal_inputs;
/* Each segment's residual quantiles, from IN's round trips against M's
 * predictions (hnm_calibrate_residuals.c). */
void cal_fit_residuals(const struct cal_inputs *in, struct cal_fitted *m);
hnm_model *cal_build_loggps(const struct cal_fitted *m, const char *name);
hnm_model *cal_build_fluid(const struct cal_fitted *m, const char *name);
/* Write the model into O and flush it (hnm_out_finish()), without
 * committing: a write error ends the tool (exit 1) before anything else is
 * written. */
void cal_write_model_finish(hnm_out *o, const char *path, hnm_model *(*build)(const struct cal_fitted *, const char *),
                        const struct cal_fitted *m, const char *name);
void cal_write_model_out(hnm_out *o, const char *path, hnm_model *(*build)(const struct cal_fitted *, const char *), const struct cal_fitted *m, const char *name);
void cal_write_model(const char *path, hnm_model *(*build)(const struct cal_fitted *, const char *), const struct cal_fitted *m, const char *name);

#endif
