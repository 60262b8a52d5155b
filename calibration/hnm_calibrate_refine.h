/* hnm-calibrate run --refine MODEL: locate a fitted model's breakpoints to
 * the byte.
 *
 * A fit can only say that a breakpoint lies somewhere between two sampled
 * sizes: at or after the largest size of one segment (the model's upto U),
 * before the next sampled size V. Refinement bisects [U, V): it measures the
 * middle size M (send, recv and ping-pong, --reps times each) and gives M to
 * the side whose segment predicts the measured medians better (the sum over
 * the operations of |median - prediction| / median), until V = U + 1: then
 * the breakpoint is U, exactly (k <= U on the left). When the two segments'
 * predictions at M differ by less than 3 x the measurement's relative noise
 * / sqrt(reps) for every operation, the data cannot tell them apart there:
 * the breakpoint is dropped and the two segments will merge. All midpoints
 * of a round are measured by one run of the benchmark (--size-list), so a
 * model with b breakpoints between sizes V - U apart costs about
 * log2(V - U) runs. The protocol thresholds are left alone (the probe finds
 * them to the byte).
 *
 * Output in DIR: refine.csv (the new measurements, p2p.csv's format) and
 * breakpoints.csv ("breakpoint,status": located or merged), which `fit`
 * reads among its CSVs: the located breakpoints become the only ones. */
#ifndef HNM_CALIBRATE_REFINE_H
#define HNM_CALIBRATE_REFINE_H

#include <stddef.h>

/* Run the benchmark once into dir with these sizes (comma-separated) and
 * reps: 0 (p2p.csv written), or the exit status to return with the one
 * line in err. */
typedef int (*cal_refine_bench_fn)(void *ctx, const char *dir, const char *sizes, long reps, char *err,
                                   size_t errlen);

/* 0, or the exit status to return with the one line in err for the caller
 * to print (include/hnm/hnm_error.h): HNM_EXIT_USAGE (bad input: the model, the
 * CSVs, DIR), HNM_EXIT_FAILURE (a failed write, memory), or the
 * benchmark's status (bench's line). */
int cal_refine_model(const char *model_path, const char *dir, long reps, cal_refine_bench_fn bench, void *ctx, char *err,
                 size_t errlen);

/* Is path a breakpoints.csv of refine? 0 with *is_bp_file 1 and the
 * located breakpoints in out (at most cap, *n of them), or with
 * *is_bp_file 0 (and *n 0) when the file is something else (or cannot be
 * opened: cal_read_csv() says why); -1 with "FILE:LINE: reason" in err
 * (include/hnm/hnm_error.h) on a broken one. */
int cal_refine_read_breakpoints(const char *path, double *out, size_t cap, size_t *n, int *is_bp_file, char *err,
                                size_t errlen);

#endif
