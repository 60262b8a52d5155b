/* hnm-calibrate: derived-datatype pack costs (see hnm_calibrate_pack.h and
 * docs/calibration.md, "Pack costs"). */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_pack.h"
#include "hnm_calibrate_util.h"
#include "hnm_msg.h"
#include "hnm_csv.h"
#include "hnm_input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const csv_styles[CAL_PACK_CSV_STYLES] = {"interpreted", "manual", "compiled", "contiguous"};
/* The model style of each fitted CSV style. */
static const int model_style[3] = {HNM_PACK_INTERPRETED, HNM_PACK_MANUAL, HNM_PACK_COMPILED};

int cal_pack_csv_is(const char *path)
{
  char why[512];
  FILE *f = hnm_input_open(path, why, sizeof why);
  if (f == NULL)
    return 0;
  char line[256];
  int is = fgets(line, sizeof line, f) != NULL;
  fclose(f);
  if (!is)
    return 0;
  hnm_csv_chomp(line);
  return strcmp(line, HNM_BENCH_PACK_HEADER) == 0 || strcmp(line, HNM_BENCH_PACK_HEADER_V2) == 0 ||
         strcmp(line, HNM_BENCH_PACK_HEADER_V1) == 0;
}

static int lookup(const char *v, const char *const *names, int n)
{
  for (int i = 0; i < n; i++)
    if (strcmp(v, names[i]) == 0)
      return i;
  return -1;
}

/* A finite number >= 0 (whole if WHOLE); 0 if not. */
static int number(const char *v, int whole, double *out)
{
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (*v == '\0' || *end != '\0' || errno != 0 || !isfinite(x) || x < 0 || (whole && x != floor(x)) || x > 9.007e15)
    return 0;
  *out = x;
  return 1;
}

int cal_pack_csv_read(const char *path, struct cal_pack_data *d, char *err, size_t errlen)
{
  static const char *const classes[HNM_PACK_CLASSES] = {"vector", "indexed", "subarray"};
  static const char *const roles[2] = {"fit", "holdout"};
  static const char *const ops[2] = {"pack", "unpack"};
  static const char *const names[HNM_BENCH_PACK_FIELDS] = {"pattern", "class", "role", "n", "count", "blocks",
                                                           "bytes", "style", "op", "reps", "seconds", "jumps",
                                                           "period"};
  hnm_input_lines in;
  if (hnm_input_lines_open(&in, path, err, errlen) != 0)
    return -1;
  long len;
  /* A file of the first format (no jumps column) has jumps 0, one of the
   * first two (no period column) periods 0. */
  int fields = HNM_BENCH_PACK_FIELDS;
  while ((len = hnm_input_lines_next(&in, err, errlen)) >= 0) {
    if (in.ln == 1) {
      /* the header, checked by cal_pack_csv_is() */
      hnm_csv_chomp(in.line);
      if (strcmp(in.line, HNM_BENCH_PACK_HEADER_V1) == 0)
        fields = HNM_BENCH_PACK_FIELDS_V1;
      else if (strcmp(in.line, HNM_BENCH_PACK_HEADER_V2) == 0)
        fields = HNM_BENCH_PACK_FIELDS_V2;
      if (fields != HNM_BENCH_PACK_FIELDS)
        d->before_period = 1;
      continue;
    }
    char *fl[HNM_BENCH_PACK_FIELDS + 1];
    int nf = hnm_csv_split(in.line, fl, HNM_BENCH_PACK_FIELDS + 1);
    if (nf != fields)
      CAL_FAIL("%s:%ld: %d field(s), expected %d", path, in.ln, nf, fields);
    struct cal_pack_row r;
    memset(&r, 0, sizeof r);
    if (strlen(fl[0]) == 0 || strlen(fl[0]) >= sizeof r.pattern)
      CAL_FAIL("%s:%ld: pattern: '%s' is empty or longer than %zu characters", path, in.ln, fl[0],
                sizeof r.pattern - 1);
    strcpy(r.pattern, fl[0]);
    int v;
    if ((r.cls = lookup(fl[1], classes, HNM_PACK_CLASSES)) < 0)
      CAL_FAIL("%s:%ld: class: '%s' is not vector, indexed or subarray", path, in.ln, fl[1]);
    if ((v = lookup(fl[2], roles, 2)) < 0)
      CAL_FAIL("%s:%ld: role: '%s' is not fit or holdout", path, in.ln, fl[2]);
    r.holdout = v;
    if ((r.style = lookup(fl[7], csv_styles, CAL_PACK_CSV_STYLES)) < 0)
      CAL_FAIL("%s:%ld: style: '%s' is not interpreted, manual, compiled or contiguous", path, in.ln, fl[7]);
    if ((r.op = lookup(fl[8], ops, 2)) < 0)
      CAL_FAIL("%s:%ld: op: '%s' is not pack or unpack", path, in.ln, fl[8]);
    double x[HNM_BENCH_PACK_FIELDS] = {0};
    for (int i = 3; i < fields; i++) {
      if (i == 7 || i == 8)
        continue;
      int whole = i != 10 && i != 11; /* seconds, jumps (sums of weights) */
      if (!number(fl[i], whole, &x[i]))
        CAL_FAIL("%s:%ld: %s: '%s' is not a %s", path, in.ln, names[i], fl[i],
                  whole ? "whole number >= 0" : "finite number >= 0");
    }
    if (x[10] > 1.0)
      CAL_FAIL("%s:%ld: seconds: '%s' is above 1 s (not one pack of a message)", path, in.ln, fl[10]);
    if (x[4] < 1 || x[9] < 1)
      CAL_FAIL("%s:%ld: %s: must be >= 1", path, in.ln, x[4] < 1 ? "count" : "reps");
    r.n = (long)x[3];
    r.blocks = x[5];
    r.bytes = x[6];
    r.seconds = x[10];
    r.jumps = x[11];
    r.elements = x[4];
    r.period = x[12];
    if (r.jumps > 0 && r.jumps >= r.blocks)
      CAL_FAIL("%s:%ld: jumps: '%s' is not below blocks (%s): a jump starts a block after the first", path, in.ln,
               fl[11], fl[5]);
    if (d->n == d->cap) {
      size_t nc = d->cap ? 2 * d->cap : 256;
      struct cal_pack_row *nr = realloc(d->rows, nc * sizeof *nr);
      if (nr == NULL)
        CAL_FAIL("out of memory");
      d->rows = nr;
      d->cap = nc;
    }
    d->rows[d->n++] = r;
  }
  if (len == -2)
    goto fail;
  if (in.ln < 2)
    CAL_FAIL("%s:%ld: no measurements after the header", path, in.ln < 1 ? 1 : in.ln);
  hnm_input_lines_close(&in);
  return 0;
fail:
  hnm_input_lines_close(&in);
  return -1;
}

void cal_pack_data_free(struct cal_pack_data *d)
{
  free(d->rows);
  memset(d, 0, sizeof *d);
}

#define TERMS 6 /* c0, per-block, per-byte, per-jump, per-element, per-irregular */
#define OLD_TERMS 4 /* the terms of a file without the period column */

/* Solve the K x K system A x = b (Gaussian elimination, partial pivoting).
 * 0, or -1 if singular. */
static int solve(int k, double a[TERMS][TERMS], double b[TERMS], double x[TERMS])
{
  for (int c = 0; c < k; c++) {
    int p = c;
    for (int r = c + 1; r < k; r++)
      if (fabs(a[r][c]) > fabs(a[p][c]))
        p = r;
    if (!(fabs(a[p][c]) > 1e-300))
      return -1;
    for (int j = 0; j < k; j++) {
      double t = a[c][j];
      a[c][j] = a[p][j];
      a[p][j] = t;
    }
    double t = b[c];
    b[c] = b[p];
    b[p] = t;
    for (int r = c + 1; r < k; r++) {
      double f = a[r][c] / a[c][c];
      for (int j = c; j < k; j++)
        a[r][j] -= f * a[c][j];
      b[r] -= f * b[c];
    }
  }
  for (int r = k - 1; r >= 0; r--) {
    double s = b[r];
    for (int j = r + 1; j < k; j++)
      s -= a[r][j] * x[j];
    x[r] = s / a[r][r];
  }
  return 0;
}

static struct hnm_pack_shape shape_of(const struct cal_pack_row *r)
{
  struct hnm_pack_shape s = {r->blocks, r->bytes, r->jumps, r->elements, r->period};
  return s;
}

static double predict(const struct hnm_pack_cost *c, const struct cal_pack_row *r)
{
  struct hnm_pack_shape s = shape_of(r);
  return hnm_pack_time_of(c, &s);
}

static int fitted_row(const struct cal_pack_row *r, int style, int cls, int op)
{
  return !r->holdout && r->style == style && r->cls == cls && r->op == op && r->seconds > 0;
}

/* Least squares on relative errors, every coefficient >= 0: the best of the
 * fits on each non-empty subset of the terms whose coefficients all come
 * out >= 0 (63 small systems; 15 on the first four terms for data of an
 * older format). A term that is 0 on every row (no jumps, a single
 * element, no irregular period beyond HISTORY) makes every subset with it
 * singular: the fit is then that of the other terms alone, computed as
 * before the term existed (the subsets without the later terms come first,
 * in the same order). *ERR: the sum of squared relative errors. */
static int fit_one(const struct cal_pack_data *d, int style, int cls, int op, double history,
                   struct hnm_pack_cost *out, double *err)
{
  double best = INFINITY;
  int found = 0, terms = d->before_period ? OLD_TERMS : TERMS;
  for (int mask = 1; mask < (1 << terms); mask++) {
    int idx[TERMS], k = 0;
    for (int j = 0; j < terms; j++)
      if (mask & (1 << j))
        idx[k++] = j;
    double a[TERMS][TERMS] = {{0}}, b[TERMS] = {0}, x[TERMS] = {0};
    size_t rows = 0;
    for (size_t i = 0; i < d->n; i++) {
      const struct cal_pack_row *r = &d->rows[i];
      if (!fitted_row(r, style, cls, op))
        continue;
      double w = 1.0 / r->seconds;
      double f[TERMS] = {w, r->blocks * w, r->bytes * w, r->jumps * w, (r->elements - 1) * w,
                         r->blocks * hnm_pack_irregular_weight(history, r->period) * w};
      for (int p = 0; p < k; p++) {
        for (int q = 0; q < k; q++)
          a[p][q] += f[idx[p]] * f[idx[q]];
        b[p] += f[idx[p]];
      }
      rows++;
    }
    if (rows < (size_t)k || solve(k, a, b, x) != 0)
      continue;
    struct hnm_pack_cost c = {0, 0, 0, 0, 0, 0, history};
    double *dst[TERMS] = {&c.c0, &c.per_block, &c.per_byte, &c.per_jump, &c.per_element, &c.per_irregular};
    int ok = 1;
    for (int p = 0; p < k; p++) {
      ok = ok && x[p] >= 0 && isfinite(x[p]);
      *dst[idx[p]] = x[p];
    }
    if (!ok)
      continue;
    double e = 0;
    for (size_t i = 0; i < d->n; i++) {
      const struct cal_pack_row *r = &d->rows[i];
      if (!fitted_row(r, style, cls, op))
        continue;
      double rel = (predict(&c, r) - r->seconds) / r->seconds;
      e += rel * rel;
    }
    if (e < best) {
      best = e;
      *out = c;
      found = 1;
    }
  }
  if (found && out->per_irregular == 0)
    out->history = 0; /* no history without the term it belongs to */
  *err = best;
  return found ? 0 : -1;
}

/* Whether STYLE has a measured time > 0 on some fit row: under SMPI
 * without simulated computation, the manual and compiled copy loops take no
 * simulated time at all, and only the interpreted style (MPI_Pack, charged
 * by the model) is measured. */
static int style_measured(const struct cal_pack_data *d, int style)
{
  for (size_t i = 0; i < d->n; i++)
    if (d->rows[i].style == style && !d->rows[i].holdout && d->rows[i].seconds > 0)
      return 1;
  return 0;
}

/* The history capacities the fit chooses from (runs): 1 Ki to 32 Ki in
 * steps of about 1.4x. On this project's machine the slope of a copy loop
 * over random lengths changes between 4 Ki and 16 Ki runs
 * (bench/pack-history.sh). */
static const double histories[] = {1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768};
#define HISTORIES (sizeof histories / sizeof histories[0])

/* Fit every class and op of STYLE at history H into P; the sum of their
 * squared relative errors, or -1 when some class and op has no fit rows. */
static double fit_style(const struct cal_pack_data *d, int s, double h, struct hnm_pack_model *p, int *bad_cls,
                        int *bad_op)
{
  double total = 0;
  for (int c = 0; c < HNM_PACK_CLASSES; c++)
    for (int op = 0; op < HNM_PACK_OPS; op++) {
      double e;
      if (fit_one(d, s, c, op, h, &p->cost[model_style[s]][c][op], &e) != 0) {
        *bad_cls = c;
        *bad_op = op;
        return -1;
      }
      total += e;
    }
  return total;
}

int cal_pack_fit(const struct cal_pack_data *d, struct hnm_pack_model *p, char *err, size_t errlen)
{
  memset(p, 0, sizeof *p);
  for (int s = 0; s < 3; s++) {
    if (s != CAL_PACK_CSV_INTERPRETED && !style_measured(d, s))
      continue; /* left out of the model */
    /* The history of the style: the first of the smallest error (every
     * history gives the same fit when no row is irregular past it). */
    double best = INFINITY, best_h = histories[0];
    size_t nh = d->before_period ? 1 : HISTORIES;
    for (size_t i = 0; i < nh; i++) {
      int bc = 0, bo = 0;
      double e = fit_style(d, s, histories[i], p, &bc, &bo);
      if (e < 0)
        return hnm_fail(err, errlen, "pack.csv: no %s %s rows of role fit to fit class '%s' on (or all their times are 0)",
                        csv_styles[s], bo == 0 ? "pack" : "unpack", hnm_pack_class_name((enum hnm_pack_class)bc));
      if (e < best) {
        best = e;
        best_h = histories[i];
      }
    }
    int bc = 0, bo = 0;
    fit_style(d, s, best_h, p, &bc, &bo);
    p->present[model_style[s]] = 1;
  }
  p->use = HNM_PACK_INTERPRETED;
  return 0;
}

double cal_pack_report(FILE *f, const struct cal_pack_data *d, const struct hnm_pack_model *p)
{
  double worst[3] = {0, 0, 0};
  if (d->before_period)
    fprintf(f, "Pack costs: T = c0 + per-block x blocks + per-byte x bytes + per-jump x jumps (fitted on role 'fit' "
               "only)\n");
  else
    fprintf(f, "Pack costs: T = c0 + per-block x blocks + per-byte x bytes + per-jump x jumps + per-element x "
               "(elements - 1) + per-irregular x blocks x max(0, 1 - history / period) (fitted on role 'fit' only)\n");
  for (int s = 0; s < 3; s++)
    for (int c = 0; c < HNM_PACK_CLASSES; c++)
      for (int op = 0; op < HNM_PACK_OPS && p->present[model_style[s]]; op++) {
        const struct hnm_pack_cost *k = &p->cost[model_style[s]][c][op];
        fprintf(f, "  %-11s %-8s %-6s c0 = %.4g s, per-block = %.4g s, per-byte = %.4g s, per-jump = %.4g s",
                csv_styles[s], hnm_pack_class_name((enum hnm_pack_class)c), op == 0 ? "pack" : "unpack", k->c0,
                k->per_block, k->per_byte, k->per_jump);
        if (!d->before_period)
          fprintf(f, ", per-element = %.4g s, per-irregular = %.4g s (history %.0f runs)", k->per_element,
                  k->per_irregular, k->history);
        fputc('\n', f);
      }
  fputc('\n', f);
  fprintf(f, "%-9s %-8s %-7s %6s %8s %8s %9s %-11s %11s %11s %7s %11s %11s %7s\n", "pattern", "class", "role", "n",
          "blocks", "jumps", "bytes", "style", "pack [s]", "predicted", "error", "unpack [s]", "predicted", "error");
  for (size_t i = 0; i < d->n; i++) {
    const struct cal_pack_row *r = &d->rows[i];
    if (r->op != HNM_PACK_OP_PACK)
      continue;
    const struct cal_pack_row *u = NULL;
    for (size_t j = 0; j < d->n && u == NULL; j++)
      if (d->rows[j].op == HNM_PACK_OP_UNPACK && d->rows[j].style == r->style && d->rows[j].n == r->n &&
          strcmp(d->rows[j].pattern, r->pattern) == 0)
        u = &d->rows[j];
    fprintf(f, "%-9s %-8s %-7s %6ld %8.0f %8.0f %9.0f %-11s %11.4g", r->pattern,
            hnm_pack_class_name((enum hnm_pack_class)r->cls), r->holdout ? "holdout" : "fit", r->n, r->blocks, r->jumps,
            r->bytes, csv_styles[r->style], r->seconds);
    if (r->style == CAL_PACK_CSV_CONTIGUOUS) {
      fprintf(f, " %11s %7s %11.4g\n", "(baseline)", "", u != NULL ? u->seconds : NAN);
      continue;
    }
    int s = r->style;
    if (!p->present[model_style[s]]) {
      fprintf(f, " %11s\n", "(not fitted: no time measured)");
      continue;
    }
    const struct cal_pack_row *both[2] = {r, u};
    for (int op = 0; op < 2; op++) {
      if (both[op] == NULL) {
        fprintf(f, " %11s %11s %7s", "-", "-", "-");
        continue;
      }
      double pred = predict(&p->cost[model_style[s]][r->cls][op], both[op]);
      double err = both[op]->seconds > 0 ? (pred - both[op]->seconds) / both[op]->seconds : NAN;
      if (op == 1)
        fprintf(f, " %11.4g", both[op]->seconds);
      fprintf(f, " %11.4g %+6.1f%%", pred, 100 * err);
      if (r->holdout && fabs(err) > worst[s])
        worst[s] = fabs(err);
    }
    fputc('\n', f);
  }
  fprintf(f, "\nHeld-out patterns, worst |error|: interpreted %.1f%%, manual %.1f%%, compiled %.1f%%\n",
          100 * worst[0], 100 * worst[1], 100 * worst[2]);
  return worst[0];
}
