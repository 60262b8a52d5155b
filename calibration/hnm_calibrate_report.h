/* hnm-calibrate fit: the report (table, errors per size decade, plots). */
#ifndef HNM_CALIBRATE_REPORT_H
#define HNM_CALIBRATE_REPORT_H

#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_fitted.h"

/* Written into DIR (the report's temporary, hnm_out_dir_path()); the plot
 * scripts name their files in SHOWN, the report's final place. extra (or
 * NULL): text appended to report.txt (the noise floor and held-out errors).
 * 0, or -1 with err filled (a failed write, memory: failed work). */
int cal_write_report(const char *dir, const char *shown, const struct cal_fitted *m, struct cal_inputs *in,
                     const char *model_path, int plots, const char *extra, char *err, size_t errlen);

/* The PNG plots: gnuplot on DIR/OP.gp (the report in its final place); a
 * failure is a warning. */
void cal_report_plots(const char *dir, const struct cal_fitted *m, const struct cal_inputs *in, int plots);

#endif
