/* hnm_calibrate_pcal.c -- see hnm_calibrate_pcal.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_pcal.h"

#include "hnm_out.h"
#include "hnm_msg.h"
#include "hnm_pcal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The series name their file for messages; the names outlive the reader. */
static char names[HNM_PCAL_OPS + 1][4400];

/* 0, or -1 out of memory. */
static int add(struct cal_series *s, const hnm_pcal_series *from, int slot)
{
  s->k = malloc((from->n ? from->n : 1) * sizeof *s->k);
  s->y = malloc((from->n ? from->n : 1) * sizeof *s->y);
  if (s->k == NULL || s->y == NULL)
    return -1;
  memcpy(s->k, from->k, from->n * sizeof *s->k);
  memcpy(s->y, from->y, from->n * sizeof *s->y);
  s->n = s->cap = from->n;
  snprintf(names[slot], sizeof names[slot], "%s", from->file);
  s->file = names[slot];
  s->line = from->line;
  return 0;
}

/* 0, or -1 out of memory. */
static int cont_add(struct cal_inputs *in, int bi, int rank, double size, const double *d, size_t n, const char *file)
{
  for (size_t i = 0; i < n; i++) {
    if (in->ncont == in->capcont) {
      size_t cap = in->capcont ? 2 * in->capcont : 64;
      hnm_fit_contention *grown = realloc(in->cont, cap * sizeof *in->cont);
      if (grown == NULL)
        return -1;
      in->cont = grown;
      in->capcont = cap;
    }
    in->cont[in->ncont++] = (hnm_fit_contention){1, bi, rank, size, d[i]};
  }
  in->cont_file = file;
  in->cont_line = 1;
  return 0;
}

/* What cal_pcal_inputs() read, printed once the fit is written (before, it
 * would precede a refusal's one line). */
static char summary[9000];

const char *cal_pcal_summary(void)
{
  return summary;
}

/* P's series and saturation runs into IN: 0, or -1 out of memory. */
static int pcal__add_all(const hnm_pcal *p, struct cal_inputs *in)
{
  if (add(&in->op[CAL_OP_SEND], &p->op[HNM_PCAL_SEND], 0) != 0 ||
      add(&in->op[CAL_OP_PINGPONG], &p->op[HNM_PCAL_PINGPONG], 1) != 0 ||
      add(&in->op[CAL_OP_RECV], &p->op[HNM_PCAL_RECV], 2) != 0 ||
      (p->op[HNM_PCAL_ISEND].n > 0 && add(&in->op[CAL_OP_ISEND], &p->op[HNM_PCAL_ISEND], 3) != 0))
    return -1;
  in->p2p_file = in->op[CAL_OP_PINGPONG].file;
  in->p2p_line = in->op[CAL_OP_PINGPONG].line;
  if (p->have_sat) {
    snprintf(names[HNM_PCAL_OPS], sizeof names[HNM_PCAL_OPS], "%s", p->sat_file);
    const char *f = names[HNM_PCAL_OPS];
    for (int r = 0; r < 2; r++)
      if (cont_add(in, 0, r, p->sat_size, p->uni[r], p->nuni[r], f) != 0 ||
          cont_add(in, 1, r, p->sat_size, p->bi[r], p->nbi[r], f) != 0)
        return -1;
  }
  return 0;
}

int cal_pcal_inputs(struct cal_fit_args *a, struct cal_inputs *in, double *forced, size_t cap, int *files, char *err,
                    size_t errlen)
{
  hnm_pcal p;
  if (hnm_pcal_load(a->pcal, &p, err, errlen) != 0) {
    hnm_pcal_free(&p);
    return HNM_EXIT_USAGE;
  }
  /* -o must not name a file the configuration names: it would replace the
   * measurements. */
  const char *named[HNM_PCAL_OPS + 2] = {p.bp_file, p.sat_file};
  for (int i = 0; i < HNM_PCAL_OPS; i++)
    named[2 + i] = p.op[i].file;
  for (int i = 0; i < HNM_PCAL_OPS + 2; i++)
    if (named[i][0] != '\0' && hnm_out_same_file(a->out, named[i])) {
      hnm_errf(err, errlen, "-o: '%s' is the input file %s", a->out, named[i]);
      hnm_pcal_free(&p);
      return HNM_EXIT_USAGE;
    }
  *files = 2 + (p.op[HNM_PCAL_ISEND].n > 0) + (p.bp_file[0] != '\0') + 2 * p.have_sat;
  if (pcal__add_all(&p, in) != 0) {
    hnm_pcal_free(&p);
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  }
  /* SMPI's thresholds are strict (eager when k < eager_threshold): hnm's
   * largest eager size is one less; 0 means never. */
  if (a->force_detached <= -2) {
    if (p.eager < 0 || p.detached < 0) {
      hnm_errf(err, errlen, "%s: %s: missing (or give --protocol ASYNC,DETACHED)", a->pcal,
               p.eager < 0 ? "eager_threshold" : "detached_threshold");
      hnm_pcal_free(&p);
      return HNM_EXIT_USAGE;
    }
    a->force_async = p.eager > 0 ? p.eager - 1 : -1;
    a->force_detached = p.detached > 0 ? p.detached - 1 : -1;
  }
  /* The breakpoints file's limits are exclusive (LimitInf <= k < Limit). */
  if (!a->auto_bp && p.nbp > 0 && a->nforced == 0) {
    size_t n = 0;
    for (size_t i = 0; i < p.nbp && n < cap && n < 40; i++)
      forced[n++] = p.bp[i] - 1;
    a->forced = forced;
    a->nforced = n;
    a->forced_only = 1;
  }
  snprintf(summary, sizeof summary,
          "%s: %zu round trips, %zu receives, %zu isends; thresholds eager < %.0f, detached < %.0f; "
          "%zu breakpoint(s) in %s%s%s",
          a->pcal, p.op[HNM_PCAL_PINGPONG].n, p.op[HNM_PCAL_RECV].n, p.op[HNM_PCAL_ISEND].n, p.eager, p.detached,
          p.nbp, p.bp_file[0] ? p.bp_file : "(none)", p.have_sat ? "; saturation runs in " : "",
          p.have_sat ? p.sat_file : "");
  hnm_pcal_free(&p);
  return 0;
}

/* Median over the decade's sizes of |hybrid rtt - median rtt| / median.
 * 0, or -1 out of memory. */
static int decades(const struct cal_series *s, const struct cal_fitted *m, double *err, int ndec)
{
  double *v = malloc((s->n + 1) * sizeof *v), *e = malloc((s->n + 1) * sizeof *e);
  if (v == NULL || e == NULL) {
    free(v);
    free(e);
    return -1;
  }
  for (int d = 0; d < ndec; d++) {
    size_t ne = 0;
    for (size_t i = 0; i < s->n; i++) {
      int dk = s->k[i] < 1 ? 0 : (int)floor(log10(s->k[i]) + 1e-12);
      if (dk != d)
        continue;
      int first = 1;
      for (size_t q = 0; q < i && first; q++)
        first = s->k[q] != s->k[i];
      if (!first)
        continue;
      size_t nv = 0;
      for (size_t q = i; q < s->n; q++)
        if (s->k[q] == s->k[i])
          v[nv++] = s->y[q];
      double med = hnm_fit_median(v, nv);
      if (med > 0)
        e[ne++] = fabs(hnm_fit_predict_hybrid(&m->f, CAL_OP_PINGPONG, s->k[i]) - med) / med;
    }
    err[d] = ne ? hnm_fit_median(e, ne) : -1;
  }
  free(v);
  free(e);
  return 0;
}

/* Fit IN again with B, and print the ping-pong error per size decade of M
 * (column NAME_M) beside that of the other fit (NAME_O), with both segment
 * counts. */
static int print_other_fit(struct cal_inputs *in, const struct cal_fitted *m, const struct cal_fit_args *b,
                           cal_pcal_fit_fn fit, const char *name_m, const char *name_o, char *err, size_t errlen)
{
  struct cal_fitted o;
  int rc = fit(in, b, &o, err, errlen);
  if (rc != 0)
    return rc;
  double e1[10], e2[10];
  if (decades(&in->op[CAL_OP_PINGPONG], m, e1, 10) != 0 || decades(&in->op[CAL_OP_PINGPONG], &o, e2, 10) != 0) {
    hnm_fit_result_free(&o.f);
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  }
  /* One message whose lines after the first are the table's. */
  char table[2048];
  size_t used = (size_t)snprintf(table, sizeof table, "  %-10s %14s %14s", "decade", name_m, name_o);
  for (int d = 0; d < 10; d++)
    if (e1[d] >= 0 && used < sizeof table)
      used += (size_t)snprintf(table + used, sizeof table - used, "\n  1e%d-1e%-4d %13.2f%% %13.2f%%", d, d + 1,
                               100 * e1[d], 100 * e2[d]);
  if (used < sizeof table)
    snprintf(table + used, sizeof table - used, "\n  %-10s %14zu %14zu", "segments", m->f.nseg, o.f.nseg);
  hnm_msg_info("ping-pong median relative error per size decade (in-sample):\n%s", table);
  hnm_fit_result_free(&o.f);
  return 0;
}

int cal_pcal_compare(const struct cal_fit_args *a, struct cal_inputs *in, const struct cal_fitted *m, cal_pcal_fit_fn fit,
                     char *err, size_t errlen)
{
  struct cal_fit_args b = *a;
  if (a->auto_bp || a->nforced == 0) {
    /* The other fit would need the file's breakpoints: only when it has some. */
    hnm_pcal p;
    int ok = hnm_pcal_load(a->pcal, &p, NULL, 0) == 0 && p.nbp > 0;
    double forced[40];
    size_t n = 0;
    for (size_t i = 0; ok && i < p.nbp && n < 40; i++)
      forced[n++] = p.bp[i] - 1;
    hnm_pcal_free(&p);
    if (!ok || a->nforced > 0)
      return 0;
    b.forced = forced;
    b.nforced = n;
    b.forced_only = 1;
    b.auto_bp = 0;
    return print_other_fit(in, m, &b, fit, "automatic", "file's", err, errlen);
  }
  b.forced = NULL;
  b.nforced = 0;
  b.forced_only = 0;
  b.auto_bp = 1;
  return print_other_fit(in, m, &b, fit, "file's", "automatic", err, errlen);
}
