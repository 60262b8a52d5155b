/* hnm-calibrate fit: the report (table, errors per size decade, plots). */
#ifndef HNM_CALIBRATE_REPORT_H
#define HNM_CALIBRATE_REPORT_H

#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_fitted.h"

/* extra (or NULL): text appended to report.txt (the noise floor and held-out errors). */
void write_report(const char *dir, const struct fitted *m, struct inputs *in, const char *model_path, int plots,
                  const char *extra);

#endif
