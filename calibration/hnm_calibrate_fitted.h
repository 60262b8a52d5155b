/* hnm-calibrate: the fitted model (segments, LogGPS and fluid fits), its
 * predictions per operation and its model files. */
#ifndef HNM_CALIBRATE_FITTED_H
#define HNM_CALIBRATE_FITTED_H

#include "hnm_fit_model.h"
#include "hnm_model.h"
#include "hnm_out.h"

#include <stdio.h>
#include "hnm_calibrate_util.h"

/* The fitted model (hnm_fit_model.h) and what the tool adds to it: the
 * model file's description, and the costs fitted beside it. */
struct cal_fitted {
  hnm_fit_result f;
  int nfiles;             /* CSV files read */
  int member, members;    /* bootstrap member member of members (0: the central fit) */
  /* one-sided costs (hnm_calibrate_rma.h), written into the hybrid model */
  int has_rma;
  struct hnm_rma rma;
  /* derived-datatype pack costs (pack.csv), written into every model */
  int has_pack;
  struct hnm_pack_model pack;
};

void cal_write_size(FILE *f, double v);
/* The fitted models as hnm models (checked by hnm_model_new(): what the
 * loader would refuse is never made): NULL with err on failure (memory, or
 * an internal error). */
hnm_model *cal_build_hybrid(const struct cal_fitted *m, const char *name, char *err, size_t errlen);
hnm_model *cal_build_loggps(const struct cal_fitted *m, const char *name, char *err, size_t errlen);
hnm_model *cal_build_fluid(const struct cal_fitted *m, const char *name, char *err, size_t errlen);
typedef hnm_model *(*cal_build_fn)(const struct cal_fitted *m, const char *name, char *err, size_t errlen);
/* Write the model into O and flush it (hnm_out_finish()), without
 * committing: 0, or -1 with err (O aborted): a write error is failed work
 * (exit 1), reported before anything else is written. */
int cal_write_model_finish(hnm_out *o, const char *path, cal_build_fn build, const struct cal_fitted *m,
                           const char *name, char *err, size_t errlen);
/* The same, then committed. */
int cal_write_model_out(hnm_out *o, const char *path, cal_build_fn build, const struct cal_fitted *m, const char *name,
                        char *err, size_t errlen);
/* Opened on PATH (a file of the report), written and committed. */
int cal_write_model(const char *path, cal_build_fn build, const struct cal_fitted *m, const char *name, char *err,
                    size_t errlen);

#endif
