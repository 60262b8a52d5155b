/* hnm-calibrate: one-sided (MPI RMA) costs from the benchmark's rma.csv
 * (docs/calibration.md, "One-sided costs"). */
#ifndef HNM_CALIBRATE_RMA_H
#define HNM_CALIBRATE_RMA_H

#include <stdio.h>

#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_fitted.h"

/* Fit m->rma from IN's rma rows against m's fitted point-to-point segments
 * and protocol (so call it after fit_model()); sets m->has_rma. No rma
 * rows: nothing (m->has_rma = 0). An epoch without rows gets a cost of 0
 * and a warning in m->warnings. 0, or -1 with err out of memory. */
int cal_fit_rma(const struct cal_inputs *in, struct cal_fitted *m, char *err, size_t errlen);

/* What the fitted model predicts for EPOCH (enum hnm_bench_rma) with K
 * bytes, as the benchmark times it (rank 1 in its part first). */
double cal_rma_predict(const struct cal_fitted *m, int epoch, double k);

/* The report's rma.txt: per epoch and size, the median measured, the
 * prediction and their difference; then the fitted costs. 0, or -1 with
 * err out of memory. */
int cal_write_rma_report(FILE *f, const struct cal_fitted *m, const struct cal_inputs *in, char *err, size_t errlen);

#endif
