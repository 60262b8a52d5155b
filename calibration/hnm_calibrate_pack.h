/* hnm-calibrate: derived-datatype pack costs (pack.csv of apps/calibrate
 * --pack, core/hnm_bench.h) -- reading, fitting the model's <pack> element,
 * reporting the fit per pattern. */
#ifndef HNM_CALIBRATE_PACK_H
#define HNM_CALIBRATE_PACK_H

#include "hnm_model.h"

#include <stddef.h>
#include <stdio.h>

/* Measured styles of pack.csv: the model's three, and the contiguous
 * baseline (reported, not fitted). */
enum { CAL_PACK_CSV_INTERPRETED, CAL_PACK_CSV_MANUAL, CAL_PACK_CSV_COMPILED, CAL_PACK_CSV_CONTIGUOUS, CAL_PACK_CSV_STYLES };

struct cal_pack_row {
  char pattern[32];
  int cls;     /* enum hnm_pack_class */
  int holdout; /* 1: never fitted */
  long n;      /* the pattern's size parameter */
  double blocks, bytes;
  double jumps; /* 0 in a file without the column */
  double elements; /* count: elements of the datatype (>= 1) */
  double period; /* runs of one repetition of an irregular layout; 0 in a file without the column */
  int style;   /* PACK_CSV_* */
  int op;      /* enum hnm_pack_op */
  double seconds;
};

struct cal_pack_data {
  struct cal_pack_row *rows;
  size_t n, cap;
  int before_period; /* some file read has no period column (an older format) */
};

/* 1 if PATH starts with pack.csv's header (either format, core/hnm_bench.h),
 * else 0 (unreadable: 0, and the p2p reader reports it). */
int cal_pack_csv_is(const char *path);

/* Append PATH's rows to D. 0, or -1 with "FILE:LINE: field: reason" in
 * err (include/hnm/hnm_error.h); D is freed with cal_pack_data_free() either way. */
int cal_pack_csv_read(const char *path, struct cal_pack_data *d, char *err, size_t errlen);

void cal_pack_data_free(struct cal_pack_data *d);

/* Fit T = c0 + per-block x blocks + per-byte x bytes + per-jump x jumps
 * + per-element x (elements - 1) + per-irregular x blocks x max(0, 1 -
 * history / period) per (style, class, op) on the rows of role "fit" (least
 * squares on relative errors, coefficients >= 0), the history (runs) one per
 * style, the best of CAL_PACK_HISTORIES on the style's fit rows; into P;
 * use = interpreted. Data with a file of an older format (no period
 * column) is fitted on the first four terms only, as before the others
 * existed. A style whose times are all 0 (copy loops under SMPI without
 * simulated computation) is left out. 0, or -1 with err (bad input) when a
 * class has no fit rows. */
int cal_pack_fit(const struct cal_pack_data *d, struct hnm_pack_model *p, char *err, size_t errlen);

/* The per-pattern table: measured and predicted pack and unpack times, the
 * relative error, fit or held out; then the worst held-out error per
 * style. Returns that worst held-out |error| of the interpreted style. */
double cal_pack_report(FILE *f, const struct cal_pack_data *d, const struct hnm_pack_model *p);

#endif
