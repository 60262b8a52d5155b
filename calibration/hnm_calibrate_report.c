/* hnm-calibrate fit: the report directory (report.txt, data and gnuplot plots). */
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
#include <unistd.h>
#include "hnm_calibrate_report.h"
#include "hnm_gnuplot.h"
#include "hnm_msg.h"
#include "hnm_out.h"
#include "hnm_calibrate_util.h"
#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_fitted.h"
#include "hnm_calibrate_rma.h"

/* Median relative error of a predictor over the raw points of op, per size
 * decade [10^d, 10^(d+1)). */
typedef double (*predictor)(const hnm_fit_result *, int, double);

static void decade_errors(const struct cal_series *s, const struct cal_fitted *m, predictor pr, int op, double *err,
                          size_t *cnt, int ndec)
{
  double *buf = malloc((s->n ? s->n : 1) * sizeof *buf), *v = malloc((s->n ? s->n : 1) * sizeof *v);
  for (int d = 0; d < ndec; d++) {
    size_t c = 0, rows = 0;
    for (size_t i = 0; i < s->n; i++) {
      double k = s->k[i];
      int dk = k < 1 ? 0 : (int)floor(log10(k) + 1e-12);
      if (dk != d)
        continue;
      rows++;
      int first = 1;
      for (size_t q = 0; q < i && first; q++)
        first = s->k[q] != k;
      if (!first)
        continue;
      size_t nv = 0;
      for (size_t q = 0; q < s->n; q++)
        if (s->k[q] == k)
          v[nv++] = s->y[q];
      double med = hnm_fit_median(v, nv);
      if (med > 0)
        buf[c++] = fabs(pr(&m->f, op, k) - med) / med;
    }
    cnt[d] = rows;
    err[d] = hnm_fit_median(buf, c);
  }
  free(buf);
  free(v);
}

static void report_piece_table(FILE *f, const char *title, const hnm_fit_piece *p, size_t n, double sigma)
{
  fprintf(f, "\n%s (noise sigma = %.3g relative)\n", title, sigma);
  fprintf(f, "  %-24s %7s %6s %14s %14s %10s\n", "sizes (bytes)", "points", "sizes", "a (s)", "b (s/byte)",
          "med|res|");
  for (size_t i = 0; i < n; i++) {
    char range[64];
    snprintf(range, sizeof range, "(%.0f, %.0f]", p[i].lo < 0 ? 0 : p[i].lo, p[i].hi);
    fprintf(f, "  %-24s %7zu %6zu %14.6g %14.6g %9.2f%%\n", range, p[i].n, p[i].sizes, p[i].a, p[i].b,
            100 * p[i].med_abs_rel);
  }
}

/* Whether operation OP gets a plot. */
static int report__plotted(const struct cal_fitted *m, const struct cal_inputs *in, int op)
{
  return in->op[op].n > 0 && (op != CAL_OP_ISEND || m->f.have[CAL_OP_ISEND]);
}

/* report.txt's opening: the protocol, the contention probe and the notes. */
static int report__head(FILE *f, const struct cal_fitted *m, const struct cal_inputs *in, const char *model_path,
                        char *err, size_t errlen)
{
  fprintf(f, "hnm-calibrate fit report for %s\n\n", model_path);
  fprintf(f, "Protocol: eager (async) up to ");
  cal_write_size(f, m->f.async);
  fprintf(f, " B, detached up to ");
  cal_write_size(f, m->f.detached);
  fprintf(f, " B, rendez-vous above\n");
  if (m->f.limiter > 0)
    fprintf(f, "Contention (1 pair, %.0f B): one-way %.6g B/s, B_s + B_r = %.6g B/s per node -> limiter factor %.6g\n",
            m->f.cont_size, m->f.buni, m->f.bsr, m->f.limiter);
  else
    fprintf(f, "Contention: no probe, limiter left as the platform declares it (keep)\n");
  if (m->f.limiter > 0) {
    /* Every pair count: per rank B_s + B_r (median over the active ranks
     * and repetitions of 2 size / (duration - L)), against one-way B. */
    int maxp = 0;
    for (size_t i = 0; i < in->ncont; i++)
      maxp = in->cont[i].pairs > maxp ? in->cont[i].pairs : maxp;
    double *v = malloc((in->ncont + 1) * sizeof *v);
    if (v == NULL)
      return hnm_fail(err, errlen, "out of memory");
    double L = hnm_fit_segment_at(&m->f, m->f.cont_size)->lat;
    fprintf(f, "  per rank (per node when each rank has a node of its own):\n  %-6s %18s %10s\n", "pairs",
            "B_s + B_r (B/s)", "/ B");
    for (int np = 1; np <= maxp; np++) {
      size_t nv = 0;
      for (size_t i = 0; i < in->ncont; i++)
        if (in->cont[i].pairs == np && in->cont[i].bi && in->cont[i].duration > L)
          v[nv++] = 2 * in->cont[i].size / (in->cont[i].duration - L);
      if (nv > 0) {
        double b = hnm_fit_median(v, nv);
        fprintf(f, "  %-6d %18.6g %10.4g\n", np, b, b / m->f.buni);
      }
    }
    free(v);
  }
  if (m->f.notes[0])
    fprintf(f, "%s", m->f.notes);
  if (m->f.overlap_scale < 1)
    fprintf(f, "Overlap correction: send + late recv exceed the one-way time; both overheads scaled by %.4g\n"
               "(the tables below show the scaled coefficients)\n",
            m->f.overlap_scale);
  return 0;
}

/* report.txt's tables: the pieces, the segments, the comparison models
 * and the errors per size decade. */
static void report__tables(FILE *f, const struct cal_fitted *m, const struct cal_inputs *in)
{
  if (m->f.have[CAL_OP_SEND])
    report_piece_table(f, "send (o_s + k O_s), k <= detached", m->f.pieces[CAL_OP_SEND], m->f.npieces[CAL_OP_SEND],
                       m->f.sigma[CAL_OP_SEND]);
  if (m->f.have[CAL_OP_RECV])
    report_piece_table(f, "recv (o_r + k O_r), k <= async", m->f.pieces[CAL_OP_RECV], m->f.npieces[CAL_OP_RECV],
                       m->f.sigma[CAL_OP_RECV]);
  report_piece_table(f, "transfer T = L + k/B (ping-pong / 2 minus overheads)", m->f.pieces[CAL_OP_COUNT],
                     m->f.npieces[CAL_OP_COUNT], m->f.sigma[CAL_OP_COUNT]);
  if (m->f.have[CAL_OP_ISEND])
    report_piece_table(f, "isend (o + k O)", m->f.pieces[CAL_OP_ISEND], m->f.npieces[CAL_OP_ISEND], m->f.sigma[CAL_OP_ISEND]);

  fprintf(f, "\nModel segments\n  %-12s %12s %14s %11s %11s %11s %11s\n", "upto (B)", "latency (s)",
          "bandwidth (B/s)", "send-o", "send/B", "recv-o", "recv/B");
  for (size_t i = 0; i < m->f.nseg; i++) {
    const hnm_fit_segment *s = &m->f.seg[i];
    char up[32];
    if (isinf(s->upto))
      snprintf(up, sizeof up, "inf");
    else
      snprintf(up, sizeof up, "%.0f", s->upto);
    fprintf(f, "  %-12s %12.5g %14.6g %11.4g %11.4g %11.4g %11.4g\n", up, s->lat, s->bw, s->so, s->sb, s->ro,
            s->rb);
  }
  fprintf(f, "\nComparison models: LogGPS L=%.5gs o=%.5gs G=%.5gs/B Os=%.5gs/B Or=%.5gs/B S=%.0f; fluid L=%.5gs "
             "B=%.6gB/s\n",
          m->f.lg_L, m->f.lg_o, m->f.lg_G, m->f.lg_Os, m->f.lg_Or, m->f.detached, m->f.fl_L, m->f.fl_B);
  fprintf(f, "\nMedian relative error of each model's closed form (what SMPI computes) against the\n"
             "measurements (per size: |model - median| / median; median over the decade's sizes), in-sample:\n");
  static const predictor prs[3] = {hnm_fit_predict_hybrid, hnm_fit_predict_loggps, hnm_fit_predict_fluid};
  for (int op = CAL_OP_SEND; op <= CAL_OP_PINGPONG; op++) {
    double e[3][12];
    size_t c[3][12];
    for (int p = 0; p < 3; p++)
      decade_errors(&in->op[op], m, prs[p], op, e[p], c[p], 12);
    fprintf(f, "  %-9s %-10s %7s %9s %9s %9s\n", cal_op_names[op], "decade", "points", "hybrid", "loggps", "fluid");
    for (int d = 0; d < 12; d++)
      if (c[0][d] > 0)
        fprintf(f, "  %-9s 1e%d-1e%-4d %7zu %8.2f%% %8.2f%% %8.2f%%\n", "", d, d + 1, c[0][d], 100 * e[0][d],
                100 * e[1][d], 100 * e[2][d]);
  }
}

/* OP's plot data into D: index 2i the points of segment i, index 2i+1 its
 * model line. */
static void report__plot_data(FILE *d, const struct cal_fitted *m, const struct cal_series *s, int op)
{
  double lo = 0;
  double kmax = 1;
  for (size_t i = 0; i < s->n; i++)
    kmax = s->k[i] > kmax ? s->k[i] : kmax;
  for (size_t g = 0; g < m->f.nseg; g++) {
    double hi = isinf(m->f.seg[g].upto) || m->f.seg[g].upto > kmax ? kmax : m->f.seg[g].upto;
    if (lo >= kmax) { /* beyond the data: empty blocks keep the indexes */
      fprintf(d, "# segment %zu points\nnan nan\n\n\n# segment %zu model\nnan nan\n\n\n", g, g);
      continue;
    }
    fprintf(d, "# segment %zu points\n", g);
    int any = 0;
    for (size_t i = 0; i < s->n; i++)
      if (s->k[i] > lo && s->k[i] <= hi && s->y[i] > 0) {
        fprintf(d, "%.17g %.17g\n", s->k[i], s->y[i]);
        any = 1;
      }
    if (!any)
      fprintf(d, "nan nan\n");
    fprintf(d, "\n\n# segment %zu model\n", g);
    double a = lo < 1 ? 1 : lo + 1;
    for (int j = 0; j <= 40; j++) {
      double k = a * pow(hi / a, j / 40.0);
      if (hi < a)
        k = a;
      double v = hnm_fit_predict_hybrid(&m->f, op, k);
      fprintf(d, "%.17g %.17g\n", k, v > 0 ? v : NAN);
    }
    fprintf(d, "\n\n");
    lo = hi;
  }
}

/* OP's gnuplot script into G, plotting DAT_SHOWN into PNG. */
static void report__plot_script(FILE *g, const struct cal_fitted *m, int op, const char *dat_shown, const char *png)
{
  fprintf(g, "set terminal png size 1000,650\nset output '%s'\nset logscale xy\nset key left top\n"
             "set xlabel 'message size (bytes)'\nset ylabel '%s duration (s)'\nset title '%s: raw measurements and "
             "fitted hybrid model'\nplot ",
          png, cal_op_names[op], cal_op_names[op]);
  for (size_t k = 0; k < m->f.nseg; k++) {
    char title[96];
    double from = k ? m->f.seg[k - 1].upto : 0;
    if (isinf(m->f.seg[k].upto))
      snprintf(title, sizeof title, "k > %.0f", from);
    else
      snprintf(title, sizeof title, "%.0f < k <= %.0f", from, m->f.seg[k].upto);
    fprintf(g, "%s'%s' index %zu with points pt 7 ps 0.5 lc %zu title '%s', '%s' index %zu with lines lw 2 "
               "lc %zu notitle",
            k ? ", " : "", dat_shown, 2 * k, k + 1, title, dat_shown, 2 * k + 1, k + 1);
  }
  fprintf(g, "\n");
}

/* Plots: raw measurements coloured by model segment, the model's line per
 * segment, log-log (Degomme et al. 2013, Figure 4): DIR/OP.dat and
 * DIR/OP.gp, naming the files in SHOWN (where they will be). */
static int report__plot_files(const char *dir, const char *shown, const struct cal_fitted *m,
                              const struct cal_inputs *in, int op, char *err, size_t errlen)
{
  char dat[4200], gp[4200], png[4200], dat_shown[4200];
  snprintf(dat, sizeof dat, "%s/%s.dat", dir, cal_op_names[op]);
  snprintf(dat_shown, sizeof dat_shown, "%s/%s.dat", shown, cal_op_names[op]);
  snprintf(gp, sizeof gp, "%s/%s.gp", dir, cal_op_names[op]);
  snprintf(png, sizeof png, "%s/%s.png", shown, cal_op_names[op]);
  hnm_out *od = hnm_out_open(dat, "--report", err, errlen);
  if (od == NULL)
    return -1;
  report__plot_data(hnm_out_file(od), m, &in->op[op], op);
  if (hnm_out_commit(od, err, errlen) != 0)
    return -1;
  hnm_out *og = hnm_out_open(gp, "--report", err, errlen);
  if (og == NULL)
    return -1;
  report__plot_script(hnm_out_file(og), m, op, dat_shown, png);
  return hnm_out_commit(og, err, errlen);
}

int cal_write_report(const char *dir, const char *shown, const struct cal_fitted *m, struct cal_inputs *in,
                     const char *model_path, int plots, const char *extra, char *err, size_t errlen)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/report.txt", dir);
  hnm_out *out = hnm_out_open(path, "--report", err, errlen);
  if (out == NULL)
    return -1;
  FILE *f = hnm_out_file(out);
  if (report__head(f, m, in, model_path, err, errlen) != 0) {
    hnm_out_abort(out);
    return -1;
  }
  report__tables(f, m, in);
  if (m->has_rma) {
    fputc('\n', f);
    if (cal_write_rma_report(f, m, in, err, errlen) != 0) {
      hnm_out_abort(out);
      return -1;
    }
  }
  if (extra != NULL)
    fprintf(f, "\n%s", extra);
  if (hnm_out_commit(out, err, errlen) != 0)
    return -1;
  for (int op = CAL_OP_SEND; plots && op <= CAL_OP_ISEND; op++)
    if (report__plotted(m, in, op) && report__plot_files(dir, shown, m, in, op, err, errlen) != 0)
      return -1;
  return 0;
}

void cal_report_plots(const char *dir, const struct cal_fitted *m, const struct cal_inputs *in, int plots)
{
  for (int op = CAL_OP_SEND; plots && op <= CAL_OP_ISEND; op++) {
    if (!report__plotted(m, in, op))
      continue;
    char gp[4200], gerr[4400];
    snprintf(gp, sizeof gp, "%s/%s.gp", dir, cal_op_names[op]);
    /* The plots are beside the report: a failure is a warning, and gnuplot's
     * own messages are not shown. */
    if (hnm_gnuplot_run(gp, HNM_GNUPLOT_QUIET, gerr, sizeof gerr) != 0)
      hnm_msg_warn("gnuplot failed on %s (plots skipped)", gp);
  }
}
