/* hnm-calibrate compare: median relative error per size decade of
 * simulations against real measurements. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_units.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hnm_calibrate_compare.h"
#include "hnm_opt.h"
#include "hnm_calibrate_util.h"
#include "hnm_msg.h"
#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_noise.h"
#include "hnm_input.h"

/* Resamples of the bootstrap standard errors (Efron & Tibshirani 1993
 * take 25-200 for a standard error), drawn from a fixed seed: the same
 * input prints the same table. */
#define COMPARE_RESAMPLES 200
#define COMPARE_SEED 0x686e6dULL

/* The bootstrap standard error of the median of v[0..n): the standard
 * deviation of the medians of COMPARE_RESAMPLES samples of n drawn with
 * replacement. Unlike 1.2533 x 1.4826 MAD / sqrt(n), which holds for one
 * normal mode, it stays right when the values fall into two modes (TCP
 * round trips over loopback: ~12 and ~15 us, half and half, where a
 * median of 15 jumps between the modes). scratch: n values. */
static double compare__median_se(const double *v, size_t n, double *scratch, uint64_t *state)
{
  if (n < 2)
    return 0;
  double s = 0, s2 = 0;
  for (int b = 0; b < COMPARE_RESAMPLES; b++) {
    for (size_t i = 0; i < n; i++)
      scratch[i] = v[cal_noise_pick(state, n)];
    double m = hnm_fit_median(scratch, n);
    s += m;
    s2 += m * m;
  }
  double mean = s / COMPARE_RESAMPLES, var = s2 / COMPARE_RESAMPLES - mean * mean;
  return var > 0 ? sqrt(var * COMPARE_RESAMPLES / (COMPARE_RESAMPLES - 1)) : 0;
}

static int decade_of(double k) { return k < 1 ? 0 : (int)floor(log10(k) + 1e-12); }

/* The line of PATH's first row "OP,SIZE,..." with SIZE = K (0 if none):
 * for the one message of a size the simulations lack. */
static long row_line(const char *path, const char *op, double k)
{
  char why[256], *line = NULL;
  size_t cap = 0;
  long ln = 0, found = 0, len;
  FILE *f = hnm_input_open(path, why, sizeof why);
  if (f == NULL)
    return 0;
  while (found == 0 && (len = hnm_input_getline(&line, &cap, f, HNM_INPUT_MAX_LINE)) >= 0) {
    ln++;
    size_t ol = strlen(op);
    if (strncmp(line, op, ol) == 0 && line[ol] == ',' && strtod(line + ol + 1, NULL) == k)
      found = ln;
  }
  free(line);
  fclose(f);
  return found;
}

/* Every size of the real measurements must be in each simulation: checked
 * before anything is printed, the refusal one line naming the real row.
 * 0, or -1 with err. */
static int compare__check_sizes(const char *real, const struct cal_inputs *in, char **sims, int ns, char *err,
                                size_t errlen)
{
  for (int op = CAL_OP_SEND; op <= CAL_OP_PINGPONG; op++) {
    const struct cal_series *r = &in[0].op[op];
    for (size_t j = 0; j < r->n; j++) {
      int seen = 0;
      for (size_t q = 0; q < j && !seen; q++)
        seen = r->k[q] == r->k[j];
      for (int i = 0; i < ns && !seen; i++) {
        const struct cal_series *s = &in[i + 1].op[op];
        size_t q = 0;
        while (q < s->n && s->k[q] != r->k[j])
          q++;
        if (q == s->n)
          return hnm_fail(err, errlen,
                          "%s:%ld: %s of %.0f bytes: %s has no such measurement (run both with the same --min --max "
                          "--sizes --seed)",
                          real, row_line(real, cal_op_names[op], r->k[j]), cal_op_names[op], r->k[j], sims[i]);
      }
    }
  }
  return 0;
}

/* The measurements being compared: in[0] the real ones, in[1..ns] the
 * simulations NAME=SIM.csv (names[i], sims[i] point into argv). */
struct compare__data {
  int ns;
  struct cal_inputs *in;
  const char **names;
  char **sims;
};

/* Read REAL.csv and every NAME=SIM.csv of argv[1..argc): 0, or 2 with err
 * (1: memory). */
static int compare__read(int argc, char **argv, struct compare__data *c, char *err, size_t errlen)
{
  if (argc < 3)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "compare: need REAL.csv and at least one NAME=SIM.csv");
  c->ns = argc - 2;
  c->in = calloc((size_t)c->ns + 1, sizeof *c->in);
  c->names = calloc((size_t)c->ns, sizeof *c->names);
  c->sims = calloc((size_t)c->ns, sizeof *c->sims);
  if (c->in == NULL || c->names == NULL || c->sims == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  if (cal_read_csv(argv[1], &c->in[0], err, errlen) != 0)
    return HNM_EXIT_USAGE;
  for (int i = 0; i < c->ns; i++) {
    char *eq = strchr(argv[i + 2], '=');
    if (eq == NULL || eq == argv[i + 2])
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "compare: '%s': expected NAME=SIM.csv", argv[i + 2]);
    *eq = '\0';
    c->names[i] = argv[i + 2];
    c->sims[i] = eq + 1;
    if (cal_read_csv(eq + 1, &c->in[i + 1], err, errlen) != 0)
      return HNM_EXIT_USAGE;
  }
  return compare__check_sizes(argv[1], c->in, c->sims, c->ns, err, errlen) != 0 ? HNM_EXIT_USAGE : 0;
}

/* One operation's table: its buffers (per real row j: rmed[j] the median
 * of its size's real values, smed[i n + j] simulation i's), a scratch of
 * the largest series (v) and two of the real rows (buf, scratch). */
struct compare__op {
  const struct cal_series *r;
  double *rmed, *smed, *v, *buf, *scratch;
  uint64_t state;
};

/* The medians per real row; 0, or -1 with err. */
static int compare__medians(const struct compare__data *c, int op, struct compare__op *t, char *err, size_t errlen)
{
  const struct cal_series *r = t->r;
  size_t cap = 0;
  for (int i = -1; i < c->ns; i++) {
    const struct cal_series *s = i < 0 ? r : &c->in[i + 1].op[op];
    cap = s->n + 1 > cap ? s->n + 1 : cap;
  }
  t->rmed = malloc(r->n * sizeof *t->rmed);
  t->smed = malloc((size_t)c->ns * r->n * sizeof *t->smed);
  t->v = malloc(cap * sizeof *t->v);
  t->buf = malloc(r->n * sizeof *t->buf);
  t->scratch = malloc(r->n * sizeof *t->scratch);
  if (t->rmed == NULL || t->smed == NULL || t->v == NULL || t->buf == NULL || t->scratch == NULL)
    return hnm_fail(err, errlen, "out of memory");
  for (size_t j = 0; j < r->n; j++)
    for (int i = -1; i < c->ns; i++) {
      const struct cal_series *s = i < 0 ? r : &c->in[i + 1].op[op];
      size_t m = 0;
      for (size_t q = 0; q < s->n; q++)
        if (s->k[q] == r->k[j])
          t->v[m++] = s->y[q];
      if (m == 0)
        return hnm_fail(err, errlen,
                        "compare: %s has no '%s' measurement of %.0f bytes (run both with the same --min --max "
                        "--sizes --seed)",
                        c->sims[i], cal_op_names[op], r->k[j]);
      double med = hnm_fit_median(t->v, m);
      if (i < 0)
        t->rmed[j] = med;
      else
        t->smed[(size_t)i * r->n + j] = med;
    }
  return 0;
}

/* se: how precisely the real medians of decade D are known, the median
 * over the decade's sizes of the bootstrap standard error of the size's
 * median relative to it. */
static double compare__se(struct compare__op *t, int d)
{
  const struct cal_series *r = t->r;
  size_t c = 0;
  for (size_t j = 0; j < r->n; j++) {
    if (decade_of(r->k[j]) != d)
      continue;
    int first = 1;
    for (size_t q = 0; q < j && first; q++)
      first = r->k[q] != r->k[j];
    if (!first || !(t->rmed[j] > 0))
      continue;
    size_t m = 0;
    for (size_t q = 0; q < r->n; q++)
      if (r->k[q] == r->k[j])
        t->v[m++] = r->y[q];
    t->buf[c++] = compare__median_se(t->v, m, t->scratch, &t->state) / t->rmed[j];
  }
  return hnm_fit_median(t->buf, c);
}

/* Statistic ST (abs, bias, bse) of simulation I over decade D. */
static double compare__stat(struct compare__op *t, int st, int i, int d)
{
  const struct cal_series *r = t->r;
  size_t c = 0;
  for (size_t j = 0; j < r->n; j++) {
    if (decade_of(r->k[j]) != d)
      continue;
    double sim = t->smed[(size_t)i * r->n + j];
    if (st >= 1) {
      if (r->y[j] > 0)
        t->buf[c++] = (sim - r->y[j]) / r->y[j];
      continue;
    }
    int first = 1;
    for (size_t q = 0; q < j && first; q++)
      first = r->k[q] != r->k[j];
    if (first && t->rmed[j] > 0)
      t->buf[c++] = fabs(sim - t->rmed[j]) / t->rmed[j];
  }
  /* bse: the bias' bootstrap standard error, the decade's rows drawn with
   * replacement (buf keeps them: the median below reorders its copy). */
  if (st == 2) {
    memcpy(t->v, t->buf, c * sizeof *t->v);
    return compare__median_se(t->v, c, t->scratch, &t->state);
  }
  return hnm_fit_median(t->buf, c);
}

/* OP's table on standard output. 0, or -1 with err. */
static int compare__table(const struct compare__data *c, int op, char *err, size_t errlen)
{
  struct compare__op t = {.r = &c->in[0].op[op], .state = COMPARE_SEED};
  const struct cal_series *r = t.r;
  int rc = compare__medians(c, op, &t, err, errlen);
  if (rc == 0) {
    printf("%-9s %-10s %7s %8s", cal_op_names[op], "decade", "points", "se");
    static const char *const stat_names[] = {"abs", "bias", "bse"};
    for (int st = 0; st < 3; st++)
      for (int i = 0; i < c->ns; i++) {
        char h[64];
        snprintf(h, sizeof h, "%s:%s", stat_names[st], c->names[i]);
        printf(" %12s", h);
      }
    printf("\n");
    for (int d = 0; d < 12; d++) {
      size_t rows = 0;
      for (size_t j = 0; j < r->n; j++)
        rows += decade_of(r->k[j]) == d;
      if (rows == 0)
        continue;
      printf("%-9s 1e%d-1e%-4d %7zu", "", d, d + 1, rows);
      printf(" %7.2f%%", 100 * compare__se(&t, d));
      for (int st = 0; st < 3; st++)
        for (int i = 0; i < c->ns; i++)
          printf(" %11.2f%%", 100 * compare__stat(&t, st, i, d));
      printf("\n");
    }
  }
  free(t.buf);
  free(t.scratch);
  free(t.v);
  free(t.rmed);
  free(t.smed);
  return rc;
}

int cal_cmd_compare(int argc, char **argv)
{
  const struct hnm_opt opts[] = {{.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate compare", "REAL.csv NAME=SIM.csv...",
    "Errors of each simulation against the real measurements, per op (send, recv, pingpong)\n"
    "and size decade [10^d, 10^(d+1)), two statistics per model:\n"
    "  abs:NAME   median over the decade's distinct sizes k of\n"
    "             |median sim(k) - median real(k)| / median real(k)\n"
    "  bias:NAME  median over the decade's real rows y of (median sim(k) - y) / y (signed)\n"
    "  bse:NAME   how precisely bias:NAME is known: its bootstrap standard error over the\n"
    "             decade's real rows\n"
    "`points` counts real rows; `se` is how precisely the real medians are known (median over\n"
    "the sizes of the bootstrap standard error of the size's median, relative to it).\n"
    "Bootstraps draw 200 resamples from a fixed seed: the same input, the same table.\n"
    "Both runs must use the same sizes (--min --max --sizes --seed).",
    NULL, NULL, HNM_OPT_IN_ORDER, NULL};
  char err[HNM_ERRLEN];
  int first = hnm_opt_parse(&cmd, opts, argc, argv, err, sizeof err);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", err);
  argc -= first - 1; /* argv[1..] are the operands, as before */
  argv += first - 1;
  struct compare__data c = {0};
  int rc = compare__read(argc, argv, &c, err, sizeof err);
  for (int op = CAL_OP_SEND; rc == 0 && op <= CAL_OP_PINGPONG; op++)
    if (c.in[0].op[op].n > 0 && compare__table(&c, op, err, sizeof err) != 0)
      rc = HNM_EXIT_FAILURE;
  for (int i = 0; c.in != NULL && i <= c.ns; i++)
    cal_inputs_free(&c.in[i]);
  free(c.in);
  free(c.names);
  free(c.sims);
  if (rc == HNM_EXIT_USAGE)
    return hnm_msg_error("%s", err);
  return rc != 0 ? hnm_msg_failure("%s", err) : 0;
}
