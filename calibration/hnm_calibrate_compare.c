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
 * before anything is printed, the refusal one line naming the real row. */
static void check_sizes(const char *real, const struct cal_inputs *in, char **sims, int ns)
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
          hnm_msg_die(HNM_EXIT_USAGE, "%s:%ld: %s of %.0f bytes: %s has no such measurement (run both with the same --min --max --sizes "
              "--seed)",
              real, row_line(real, cal_op_names[op], r->k[j]), cal_op_names[op], r->k[j], sims[i]);
      }
    }
  }
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
  char opt_err[HNM_ERRLEN];
  int first = hnm_opt_parse(&cmd, opts, argc, argv, opt_err, sizeof opt_err);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", opt_err);
  argc -= first - 1; /* argv[1..] are the operands, as before */
  argv += first - 1;
  if (argc < 3)
    hnm_msg_die(HNM_EXIT_USAGE, "compare: need REAL.csv and at least one NAME=SIM.csv");
  int ns = argc - 2;
  /* Static: reachable until exit whatever the path (a refusal below
   * exits), so LeakSanitizer reports nothing. */
  static struct cal_inputs *in;
  static const char **names;
  in = calloc((size_t)ns + 1, sizeof *in);
  names = calloc((size_t)ns, sizeof *names);
  char rerr[HNM_ERRLEN];
  if (cal_read_csv(argv[1], &in[0], rerr, sizeof rerr) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", rerr);
  for (int i = 0; i < ns; i++) {
    char *eq = strchr(argv[i + 2], '=');
    if (eq == NULL || eq == argv[i + 2])
      hnm_msg_die(HNM_EXIT_USAGE, "compare: '%s': expected NAME=SIM.csv", argv[i + 2]);
    *eq = '\0';
    names[i] = argv[i + 2];
    if (cal_read_csv(eq + 1, &in[i + 1], rerr, sizeof rerr) != 0)
      hnm_msg_die(HNM_EXIT_USAGE, "%s", rerr);
  }
  static char **sims;
  sims = calloc((size_t)ns, sizeof *sims);
  for (int i = 0; i < ns; i++)
    sims[i] = argv[i + 2] + strlen(argv[i + 2]) + 1;
  check_sizes(argv[1], in, sims, ns);
  for (int op = CAL_OP_SEND; op <= CAL_OP_PINGPONG; op++) {
    struct cal_series *r = &in[0].op[op];
    if (r->n == 0)
      continue;
    /* Per real row: the median of its size's real and simulated values. */
    double *rmed = malloc(r->n * sizeof *rmed), *smed = malloc((size_t)ns * r->n * sizeof *smed);
    double *v = NULL;
    size_t cap = 0;
    for (size_t j = 0; j < r->n; j++) {
      for (int i = -1; i < ns; i++) {
        struct cal_series *s = i < 0 ? r : &in[i + 1].op[op];
        if (s->n + 1 > cap) {
          cap = s->n + 1;
          v = realloc(v, cap * sizeof *v);
        }
        size_t m = 0;
        for (size_t q = 0; q < s->n; q++)
          if (s->k[q] == r->k[j])
            v[m++] = s->y[q];
        if (m == 0)
          hnm_msg_die(HNM_EXIT_USAGE, "compare: %s has no '%s' measurement of %.0f bytes (run both with the same --min --max --sizes "
              "--seed)",
              argv[i + 2] + strlen(argv[i + 2]) + 1, cal_op_names[op], r->k[j]);
        double med = hnm_fit_median(v, m);
        if (i < 0)
          rmed[j] = med;
        else
          smed[(size_t)i * r->n + j] = med;
      }
    }
    printf("%-9s %-10s %7s %8s", cal_op_names[op], "decade", "points", "se");
    static const char *const stat_names[] = {"abs", "bias", "bse"};
    for (int st = 0; st < 3; st++)
      for (int i = 0; i < ns; i++) {
        char h[64];
        snprintf(h, sizeof h, "%s:%s", stat_names[st], names[i]);
        printf(" %12s", h);
      }
    printf("\n");
    double *buf = malloc(r->n * sizeof *buf), *scratch = malloc(r->n * sizeof *scratch);
    if (buf == NULL || scratch == NULL)
      hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
    uint64_t state = COMPARE_SEED;
    for (int d = 0; d < 12; d++) {
      size_t rows = 0;
      for (size_t j = 0; j < r->n; j++)
        rows += decade_of(r->k[j]) == d;
      if (rows == 0)
        continue;
      printf("%-9s 1e%d-1e%-4d %7zu", "", d, d + 1, rows);
      /* se: how precisely the real medians are known, the median over the
       * decade's sizes of the bootstrap standard error of the size's median
       * relative to it. */
      {
        size_t c = 0;
        for (size_t j = 0; j < r->n; j++) {
          if (decade_of(r->k[j]) != d)
            continue;
          int first = 1;
          for (size_t q = 0; q < j && first; q++)
            first = r->k[q] != r->k[j];
          if (!first || !(rmed[j] > 0))
            continue;
          size_t m = 0;
          for (size_t q = 0; q < r->n; q++)
            if (r->k[q] == r->k[j])
              v[m++] = r->y[q];
          buf[c++] = compare__median_se(v, m, scratch, &state) / rmed[j];
        }
        printf(" %7.2f%%", 100 * hnm_fit_median(buf, c));
      }
      for (int st = 0; st < 3; st++)
        for (int i = 0; i < ns; i++) {
          size_t c = 0;
          for (size_t j = 0; j < r->n; j++) {
            if (decade_of(r->k[j]) != d)
              continue;
            double sim = smed[(size_t)i * r->n + j];
            if (st >= 1) {
              if (r->y[j] > 0)
                buf[c++] = (sim - r->y[j]) / r->y[j];
              continue;
            }
            int first = 1;
            for (size_t q = 0; q < j && first; q++)
              first = r->k[q] != r->k[j];
            if (first && rmed[j] > 0)
              buf[c++] = fabs(sim - rmed[j]) / rmed[j];
          }
          /* bse: the bias' bootstrap standard error, the decade's rows
           * drawn with replacement (buf keeps them: the median below
           * reorders its copy). */
          if (st == 2) {
            memcpy(v, buf, c * sizeof *v);
            printf(" %11.2f%%", 100 * compare__median_se(v, c, scratch, &state));
            continue;
          }
          printf(" %11.2f%%", 100 * hnm_fit_median(buf, c));
        }
      printf("\n");
    }
    free(buf);
    free(scratch);
    free(v);
    free(rmed);
    free(smed);
  }
  for (int i = 0; i <= ns; i++)
    cal_inputs_free(&in[i]);
  free(in);
  free(names);
  return 0;
}
