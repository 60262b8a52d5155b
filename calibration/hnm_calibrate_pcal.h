/* hnm-calibrate fit --platform-calibration: the data of SimGrid's
 * platform-calibration tool (hnm_pcal.h) as hnm-calibrate's inputs. */
#ifndef HNM_CALIBRATE_PCAL_H
#define HNM_CALIBRATE_PCAL_H

#include <stddef.h>

#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_fit.h"
#include "hnm_calibrate_fitted.h"

/* Read a->pcal into in (send, recv, pingpong, isend; the saturation runs as
 * one pair's contention rows), set the protocol from eager_threshold and
 * detached_threshold (unless --protocol), and the breakpoints from the
 * breakpoints file (the only ones, unless --auto-breakpoints) into forced
 * (cap entries); *files: the number of files read. 0, or the status to
 * return with err filled: HNM_EXIT_USAGE (bad input), HNM_EXIT_FAILURE
 * (memory). */
int cal_pcal_inputs(struct cal_fit_args *a, struct cal_inputs *in, double *forced, size_t cap, int *files, char *err,
                    size_t errlen);
/* cal_pcal_inputs()'s one-line summary of what it read ("" before), for hnm_msg_info(). */
const char *cal_pcal_summary(void);

/* Fit again with the other breakpoints (the file's if m used automatic
 * ones, automatic ones otherwise) and print both fits' ping-pong errors per
 * size decade on stderr (and append them to warnings-free report text).
 * 0, or the status to return with err filled (fit's, or memory). */
typedef int (*cal_pcal_fit_fn)(struct cal_inputs *in, const struct cal_fit_args *a, struct cal_fitted *m, char *err,
                               size_t errlen);
int cal_pcal_compare(const struct cal_fit_args *a, struct cal_inputs *in, const struct cal_fitted *m, cal_pcal_fit_fn fit,
                     char *err, size_t errlen);

#endif
