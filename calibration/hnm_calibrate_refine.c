/* hnm_calibrate_refine.c -- see hnm_calibrate_refine.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_refine.h"

#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_util.h"
#include "hnm_fit.h"
#include "hnm_input.h"
#include "hnm_model.h"
#include "hnm_msg.h"
#include "hnm_out.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ROUNDS 64

struct bp {
  double lo, hi;  /* the breakpoint is in [lo, hi): k <= lo left, k >= hi right */
  size_t seg;     /* left segment index */
  int state;      /* 0 active, 1 located, 2 merged */
  int rounds;
  double first;   /* the model's value */
};

/* What SMPI makes of segment s for op at k (docs/calibration.md's table). */
static double predict(const struct hnm_segment *s, int op, double k, double A, double D)
{
  double T = s->latency_s + k / s->bandwidth_Bps;
  double so = s->send_o + k * s->send_O, ro = s->recv_o + k * s->recv_O;
  switch (op) {
    case CAL_OP_SEND:
      return k <= D ? so : T;
    case CAL_OP_RECV:
      return k <= A ? ro : k <= D ? T + ro : T;
    default:
      return k <= D ? 2 * (so + T + ro) : 2 * T;
  }
}

/* Median (NAN without rows) and relative spread (1.4826 MAD / median) of
 * op's rows at size k into *med and *spread. 0, or -1 out of memory. */
static int median_at(const struct cal_series *s, double k, double *med_out, double *spread)
{
  double *v = malloc((s->n + 1) * sizeof *v);
  if (v == NULL)
    return -1;
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->k[i] == k)
      v[n++] = s->y[i];
  double med = hnm_fit_median(v, n);
  for (size_t i = 0; i < n; i++)
    v[i] = fabs(v[i] - med);
  *spread = n > 1 && med > 0 ? 1.4826 * hnm_fit_median(v, n) / med : 0;
  free(v);
  *med_out = n ? med : NAN;
  return 0;
}

/* Append the data rows of src (a p2p.csv) to the growing text *buf.
 * 0, or -1 with err filled. */
static int append_rows(const char *src, char **buf, size_t *len, char *err, size_t errlen)
{
  char why[512];
  FILE *f = hnm_input_open(src, why, sizeof why);
  if (f == NULL) {
    hnm_errf(err, errlen, "%s: %s", src, why);
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  long l;
  long ln = 0;
  while ((l = hnm_input_getline(&line, &cap, f, HNM_INPUT_MAX_LINE)) != -1) {
    if (l == -2 || (size_t)l != strlen(line)) {
      hnm_errf(err, errlen, "%s:%ld: %s", src, ln + 1, l == -2 ? "line longer than 64 KiB" : "NUL byte in the line");
      break;
    }
    if (ln++ == 0)
      continue;
    char *nb = realloc(*buf, *len + (size_t)l + 1);
    if (nb == NULL) {
      hnm_errf(err, errlen, "out of memory");
      break;
    }
    *buf = nb;
    memcpy(*buf + *len, line, (size_t)l + 1);
    *len += (size_t)l;
  }
  free(line);
  fclose(f);
  return l == -1 ? 0 : -1;
}

static int put_text(FILE *f, void *text)
{
  return fputs(text, f) == EOF ? -1 : 0;
}

/* PATH through hnm_out: a temporary renamed over it (symlinks followed).
 * 0, or -1 with err filled. */
static int write_file(const char *path, const char *text, char *err, size_t errlen)
{
  return hnm_out_write(path, path, put_text, (void *)text, err, errlen);
}

/* A refusal of a step of cal_refine_model(): the message into err, the
 * step's status (HNM_EXIT_USAGE: bad input; HNM_EXIT_FAILURE: failed work). */
#define REFINE_FAIL(status, ...)                                                                                    \
  do {                                                                                                              \
    hnm_errf(err, errlen, __VA_ARGS__);                                                                             \
    return (status);                                                                                                \
  } while (0)

/* What a refinement works on, from the model to the files it writes. */
struct refine__state {
  const char *model_path, *dir;
  long reps;
  hnm_model *m;
  const struct hnm_segment *seg;
  size_t nseg;
  double A, D;          /* the model's protocol thresholds (bytes) */
  struct bp *bp;        /* the breakpoints to locate */
  size_t nbp;
  int have_prev;        /* DIR/refine.csv exists */
  char prev[4200];      /* DIR/refine.csv */
  char tdir[4300];      /* the benchmark's directory, DIR/refine.tmp.PID */
  int made_tdir;
  char *rows;           /* every refinement row so far (refine.csv's body) */
  size_t rlen;
  int round;            /* benchmark runs made */
};

/* The model, its breakpoints and the sizes around each one already
 * measured (DIR/p2p.csv and a previous refine.csv). 0, or HNM_EXIT_USAGE
 * / HNM_EXIT_FAILURE with err filled. */
static int refine__load(struct refine__state *r, char *err, size_t errlen)
{
  char why[HNM_ERRLEN];
  r->m = hnm_model_load(r->model_path, why, sizeof why);
  if (r->m == NULL)
    REFINE_FAIL(HNM_EXIT_USAGE, "--refine: %s", why);
  r->seg = hnm_model_segments(r->m, HNM_ROUTE_REMOTE, &r->nseg);
  for (size_t i = 0; i < r->nseg; i++)
    if (!r->seg[i].latency_absolute || !r->seg[i].bandwidth_absolute)
      REFINE_FAIL(HNM_EXIT_USAGE,
                  "--refine: %s: segment %zu has a relative latency or bandwidth: refine a model that `fit` wrote",
                  r->model_path, i + 1);
  r->A = (double)hnm_model_async_max(r->m), r->D = (double)hnm_model_detached_max(r->m);
  struct cal_inputs in;
  memset(&in, 0, sizeof in);
  char p2p[4200];
  snprintf(p2p, sizeof p2p, "%s/p2p.csv", r->dir);
  snprintf(r->prev, sizeof r->prev, "%s/refine.csv", r->dir);
  r->have_prev = access(r->prev, R_OK) == 0;
  if (cal_read_csv(p2p, &in, why, sizeof why) != 0 || (r->have_prev && cal_read_csv(r->prev, &in, why, sizeof why) != 0)) {
    cal_inputs_free(&in);
    REFINE_FAIL(HNM_EXIT_USAGE, "%s", why);
  }
  r->bp = calloc(r->nseg + 1, sizeof *r->bp);
  if (r->bp == NULL) {
    cal_inputs_free(&in);
    REFINE_FAIL(HNM_EXIT_FAILURE, "out of memory");
  }
  for (size_t i = 0; i + 1 < r->nseg; i++) {
    double u = r->seg[i].upto, next = INFINITY;
    if (u == r->A || u == r->D)
      continue; /* protocol thresholds: the probe's, exact */
    for (int op = CAL_OP_SEND; op <= CAL_OP_PINGPONG; op++)
      for (size_t j = 0; j < in.op[op].n; j++)
        if (in.op[op].k[j] > u && in.op[op].k[j] < next)
          next = in.op[op].k[j];
    if (!isfinite(next))
      continue;
    r->bp[r->nbp++] = (struct bp){u, next, i, next == u + 1 ? 1 : 0, 0, u};
  }
  cal_inputs_free(&in);
  return 0;
}

/* Move each active breakpoint of R to the side of its middle size that the
 * round's measurements IN say. 0, or HNM_EXIT_FAILURE out of memory. */
static int refine__judge(struct refine__state *r, const struct cal_inputs *in, char *err, size_t errlen)
{
  for (size_t b = 0; b < r->nbp; b++) {
    struct bp *p = &r->bp[b];
    if (p->state != 0)
      continue;
    double mid = floor(p->lo + (p->hi - p->lo) / 2), score = 0;
    int distinct = 0;
    for (int op = CAL_OP_SEND; op <= CAL_OP_PINGPONG; op++) {
      double spread, y;
      if (median_at(&in->op[op], mid, &y, &spread) != 0)
        REFINE_FAIL(HNM_EXIT_FAILURE, "out of memory");
      if (!(y > 0))
        continue;
      double pl = predict(&r->seg[p->seg], op, mid, r->A, r->D), pr = predict(&r->seg[p->seg + 1], op, mid, r->A, r->D);
      /* Distinguishable: the segments differ by more than 3 standard
       * errors of the measured median (and than rounding). */
      if (fabs(pl - pr) / y > fmax(3 * spread / sqrt((double)r->reps), 1e-9))
        distinct = 1;
      score += (fabs(y - pl) - fabs(y - pr)) / y;
    }
    p->rounds++;
    if (!distinct && p->rounds == 1) {
      p->state = 2;
      continue;
    }
    if (score <= 0)
      p->lo = mid;
    else
      p->hi = mid;
    if (p->hi - p->lo <= 1)
      p->state = 1;
  }
  return 0;
}

/* The bisection: one benchmark run per round, every active breakpoint's
 * middle size in it. 0, the benchmark's status, or a status with err. */
static int refine__rounds(struct refine__state *r, cal_refine_bench_fn bench, void *ctx, char *err, size_t errlen)
{
  char why[HNM_ERRLEN];
  snprintf(r->tdir, sizeof r->tdir, "%s/refine.tmp.%ld", r->dir, (long)getpid());
  if (hnm_out_mkdirs(r->tdir, why, sizeof why) != 0)
    REFINE_FAIL(HNM_EXIT_USAGE, "-d: %s: cannot create: %s", r->tdir, why);
  r->made_tdir = 1;
  if (r->have_prev && append_rows(r->prev, &r->rows, &r->rlen, why, sizeof why) != 0)
    REFINE_FAIL(HNM_EXIT_USAGE, "%s", why);
  for (; r->round < MAX_ROUNDS; r->round++) {
    char list[65536] = "";
    size_t used = 0, active = 0;
    for (size_t b = 0; b < r->nbp; b++)
      if (r->bp[b].state == 0) {
        long mid = (long)floor(r->bp[b].lo + (r->bp[b].hi - r->bp[b].lo) / 2);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%ld", used ? "," : "", mid);
        active++;
      }
    if (active == 0)
      return 0;
    int rc = bench(ctx, r->tdir, list, r->reps, err, errlen);
    if (rc != 0)
      return rc;
    char out[4400];
    snprintf(out, sizeof out, "%s/p2p.csv", r->tdir);
    struct cal_inputs in;
    memset(&in, 0, sizeof in);
    if (cal_read_csv(out, &in, why, sizeof why) != 0 || append_rows(out, &r->rows, &r->rlen, why, sizeof why) != 0) {
      remove(out);
      cal_inputs_free(&in);
      REFINE_FAIL(HNM_EXIT_USAGE, "%s", why);
    }
    remove(out);
    rc = refine__judge(r, &in, err, errlen);
    cal_inputs_free(&in);
    if (rc != 0)
      return rc;
  }
  REFINE_FAIL(HNM_EXIT_USAGE, "--refine: not located after %d rounds", MAX_ROUNDS);
}

/* refine.csv: every refinement measurement so far (none: not written, fit
 * refuses a CSV without rows); breakpoints.csv; what was found on stderr.
 * 0, or HNM_EXIT_FAILURE with err filled. */
static int refine__write(struct refine__state *r, char *err, size_t errlen)
{
  char why[HNM_ERRLEN];
  size_t hlen = strlen("op,size,start,duration\n");
  char *text = malloc(hlen + r->rlen + 1);
  if (text == NULL)
    REFINE_FAIL(HNM_EXIT_FAILURE, "out of memory");
  memcpy(text, "op,size,start,duration\n", hlen);
  memcpy(text + hlen, r->rows ? r->rows : "", r->rlen);
  text[hlen + r->rlen] = '\0';
  int rc = r->rlen > 0 ? write_file(r->prev, text, why, sizeof why) : 0;
  free(text);
  if (rc != 0)
    REFINE_FAIL(HNM_EXIT_FAILURE, "%s", why);
  char bpath[4200], btext[65536];
  snprintf(bpath, sizeof bpath, "%s/breakpoints.csv", r->dir);
  size_t bl = (size_t)snprintf(btext, sizeof btext, "breakpoint,status\n");
  size_t merged = 0;
  for (size_t b = 0; b < r->nbp; b++) {
    const struct bp *p = &r->bp[b];
    bl += (size_t)snprintf(btext + bl, sizeof btext - bl, "%.0f,%s\n", p->state == 2 ? p->first : p->lo,
                           p->state == 2 ? "merged" : "located");
    merged += p->state == 2;
    if (p->state == 2)
      hnm_msg_info("breakpoint after %.0f B: both sides indistinguishable: merged", p->first);
    else
      hnm_msg_info("breakpoint after %.0f B: located at %.0f B (k <= %.0f | k >= %.0f), %d run(s)", p->first, p->lo,
                   p->lo, p->lo + 1, p->rounds);
  }
  if (write_file(bpath, btext, why, sizeof why) != 0)
    REFINE_FAIL(HNM_EXIT_FAILURE, "%s", why);
  hnm_msg_info("%zu segments in %s, %zu after refinement (%zu merged); %d benchmark run(s); wrote %s%s%s", r->nseg,
               r->model_path, r->nseg - merged, merged, r->round, r->rlen > 0 ? r->prev : "", r->rlen > 0 ? " and " : "",
               bpath);
  return 0;
}

int cal_refine_model(const char *model_path, const char *dir, long reps, cal_refine_bench_fn bench, void *ctx, char *err,
                 size_t errlen)
{
  struct refine__state r = {.model_path = model_path, .dir = dir, .reps = reps};
  hnm_errf(err, errlen, "%s", "");
  int rc = refine__load(&r, err, errlen);
  if (rc == 0)
    rc = refine__rounds(&r, bench, ctx, err, errlen);
  if (r.made_tdir)
    rmdir(r.tdir); /* the tool's own directory, removed only when empty */
  if (rc == 0)
    rc = refine__write(&r, err, errlen);
  free(r.rows);
  free(r.bp);
  hnm_model_free(r.m);
  return rc;
}

int cal_refine_read_breakpoints(const char *path, double *out, size_t cap, size_t *n, int *is_bp_file, char *err,
                                size_t errlen)
{
  *is_bp_file = 0;
  *n = 0;
  FILE *f = hnm_input_open(path, NULL, 0); /* never blocks on a pipe */
  if (f == NULL)
    return 0; /* not one: cal_read_csv says why */
  char *line = NULL;
  size_t lcap = 0;
  long len;
  long ln = 0;
  int is_bp = 0;
  *n = 0;
  while ((len = hnm_input_getline(&line, &lcap, f, HNM_INPUT_MAX_LINE)) != -1) {
    ln++;
    if (len == -2 || (size_t)len != strlen(line)) {
      if (ln == 1)
        break;
      hnm_errf(err, errlen, "%s:%ld: %s", path, ln, len == -2 ? "line longer than 64 KiB" : "NUL byte in the line");
      goto fail;
    }
    if (len == 0 || line[len - 1] != '\n') {
      if (ln == 1)
        break;
      hnm_errf(err, errlen, "%s:%ld: truncated line (no end of line)", path, ln);
      goto fail;
    }
    line[--len] = '\0';
    if (ln == 1) {
      if (strcmp(line, "breakpoint,status") != 0)
        break;
      is_bp = 1;
      continue;
    }
    char *c = strchr(line, ',');
    double v;
    if (c == NULL || (*c = '\0', !cal_parse_field(line, &v)) || v != floor(v) ||
        (strcmp(c + 1, "located") != 0 && strcmp(c + 1, "merged") != 0)) {
      hnm_errf(err, errlen, "%s:%ld: expected BYTES,located or BYTES,merged", path, ln);
      goto fail;
    }
    if (strcmp(c + 1, "located") == 0) {
      if (*n == cap) {
        hnm_errf(err, errlen, "%s:%ld: more than %zu breakpoints", path, ln, cap);
        goto fail;
      }
      out[(*n)++] = v;
    }
  }
  free(line);
  fclose(f);
  *is_bp_file = is_bp;
  return 0;
fail:
  free(line);
  fclose(f);
  return -1;
}
