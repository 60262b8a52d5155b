/* hnm-compare: the result CSV (columns, reading, writing, selecting the
 * rows to keep). */
#ifndef HNM_COMPARE_STORE_H
#define HNM_COMPARE_STORE_H

#include <stdio.h>
#include <stddef.h>
#include "hnm_compare_grid.h"

/* Two layouts: the 13 columns of CMP_HEADER, and CMP_HEADER_SETS, the same
 * with 4 more at the end for model sets (member: "central", or a member's
 * number as in its file name, "" for a plain model; band_lo, band_hi: the
 * 5% and 95% quantiles of the members' metric, and members: their number,
 * on a complete central row only). A CSV is written in the wide layout when
 * its grid has a model set, and read in either; a CSV keeps the layout it
 * was created with. */
#define CMP_HEADER \
  "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code"
#define CMP_HEADER_SETS CMP_HEADER ",member,band_lo,band_hi,members"
#define CMP_NCOLS_PLAIN 13
#define CMP_NCOLS 17
enum { CMP_COL_INDEX, CMP_COL_PROGRAM, CMP_COL_ARGS, CMP_COL_MODEL, CMP_COL_PLATFORM, CMP_COL_NP, CMP_COL_METRIC, CMP_COL_OPTIONS, CMP_COL_TIME, CMP_COL_WALL, CMP_COL_RSS, CMP_COL_STATUS, CMP_COL_EXIT,
       CMP_COL_MEMBER, CMP_COL_BAND_LO, CMP_COL_BAND_HI, CMP_COL_MEMBERS };

/* The band written on a model set's central row (NULL elsewhere). */
typedef struct {
  double lo, hi;
  long members;
} cmp_band;

typedef struct {
  char *f[CMP_NCOLS];
  char *buf;
  const char *file;
  int ord; /* the file's position among the inputs */
  long line;
} cmp_row;

typedef struct {
  cmp_row *v;
  long n, cap;
  int wide; /* some file read had the CMP_HEADER_SETS layout */
} cmp_rowvec;

/* Readers: 0, or -1 with one line in err (include/hnm/hnm_error.h). */
int cmp_read_rows_tail(const char *file, int ord, cmp_rowvec *rows, int missing_ok, int *no_eol, char *err,
                       size_t errlen);
int cmp_read_rows(const char *file, int ord, cmp_rowvec *rows, int missing_ok, char *err, size_t errlen);
int cmp_store_read_existing(const char *out, cmp_rowvec *rows, int *no_eol, char *err, size_t errlen);
/* 0 with *CSV; HNM_EXIT_USAGE (cannot open) or HNM_EXIT_FAILURE (write
 * error) with err. */
int cmp_store_open_append(const char *out, int no_eol, int wide, FILE **csv, char *err, size_t errlen);
/* Lock run -o OUT for this process (flock, exclusive, not waiting): with FD
 * < 0, OUT itself if it is a regular file (nothing otherwise); with FD, the
 * stream just opened on it, unless OUT is locked already. The lock lasts
 * until exit and is not inherited by the runs. 0, or -1 with err when
 * another process holds it. */
int cmp_store_lock(const char *out, int fd, char *err, size_t errlen);
char *cmp_row_key(const cmp_row *r);
int cmp_order_str(const void *a, const void *b);
int cmp_write_row(FILE *csv, const cmp_config *c, const cmp_run *r, int have_time, double time_s, double wall, long rss, const char *status, int code, int wide, const cmp_band *band);
void cmp_put_row(FILE *f, const cmp_row *r, int wide);
/* 0, or -1 with err (two rows of one run that conflict, CSVs of two grids). */
int cmp_select_rows(cmp_rowvec *rows, cmp_row ***out, long *nout, long *dups, char *err, size_t errlen);

#endif
