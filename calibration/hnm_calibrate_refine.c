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

/* Every refusal of cal_refine_model(): the message into err, exit status 2. */
#define REFINE_FAIL(...)                                                                                            \
  do {                                                                                                              \
    hnm_errf(err, errlen, __VA_ARGS__);                                                                             \
    rc = 2;                                                                                                         \
    goto out;                                                                                                       \
  } while (0)

int cal_refine_model(const char *model_path, const char *dir, long reps, cal_refine_bench_fn bench, void *ctx, char *err,
                 size_t errlen)
{
  char why[HNM_ERRLEN];
  int rc = 0, round = 0, made_tdir = 0;
  struct cal_inputs in;
  memset(&in, 0, sizeof in);
  struct bp *bp = NULL;
  char *rows = NULL, *text = NULL;
  char tdir[4300];
  hnm_errf(err, errlen, "%s", "");
  hnm_model *m = hnm_model_load(model_path, why, sizeof why);
  if (m == NULL)
    REFINE_FAIL("--refine: %s", why);
  size_t nseg;
  const struct hnm_segment *seg = hnm_model_segments(m, HNM_ROUTE_REMOTE, &nseg);
  for (size_t i = 0; i < nseg; i++)
    if (!seg[i].latency_absolute || !seg[i].bandwidth_absolute)
      REFINE_FAIL("--refine: %s: segment %zu has a relative latency or bandwidth: refine a model that `fit` wrote",
                  model_path, i + 1);
  double A = (double)hnm_model_async_max(m), D = (double)hnm_model_detached_max(m);

  /* The sizes already measured: DIR/p2p.csv and a previous refine.csv. */
  char p2p[4200], prev[4200];
  snprintf(p2p, sizeof p2p, "%s/p2p.csv", dir);
  snprintf(prev, sizeof prev, "%s/refine.csv", dir);
  if (cal_read_csv(p2p, &in, why, sizeof why) != 0)
    REFINE_FAIL("%s", why);
  int have_prev = access(prev, R_OK) == 0;
  if (have_prev && cal_read_csv(prev, &in, why, sizeof why) != 0)
    REFINE_FAIL("%s", why);

  bp = calloc(nseg + 1, sizeof *bp);
  if (bp == NULL)
    REFINE_FAIL("out of memory");
  size_t nbp = 0;
  for (size_t i = 0; i + 1 < nseg; i++) {
    double u = seg[i].upto, next = INFINITY;
    if (u == A || u == D)
      continue; /* protocol thresholds: the probe's, exact */
    for (int op = CAL_OP_SEND; op <= CAL_OP_PINGPONG; op++)
      for (size_t j = 0; j < in.op[op].n; j++)
        if (in.op[op].k[j] > u && in.op[op].k[j] < next)
          next = in.op[op].k[j];
    if (!isfinite(next))
      continue;
    bp[nbp++] = (struct bp){u, next, i, next == u + 1 ? 1 : 0, 0, u};
  }
  cal_inputs_free(&in);

  snprintf(tdir, sizeof tdir, "%s/refine.tmp.%ld", dir, (long)getpid());
  if (hnm_out_mkdirs(tdir, why, sizeof why) != 0)
    REFINE_FAIL("-d: %s: cannot create: %s", tdir, why);
  made_tdir = 1;
  size_t rlen = 0;
  if (have_prev && append_rows(prev, &rows, &rlen, why, sizeof why) != 0)
    REFINE_FAIL("%s", why);
  for (; round < MAX_ROUNDS; round++) {
    char list[65536] = "";
    size_t used = 0, active = 0;
    for (size_t b = 0; b < nbp; b++)
      if (bp[b].state == 0) {
        long mid = (long)floor(bp[b].lo + (bp[b].hi - bp[b].lo) / 2);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%ld", used ? "," : "", mid);
        active++;
      }
    if (active == 0)
      break;
    rc = bench(ctx, tdir, list, reps);
    if (rc != 0)
      break;
    char out[4400];
    snprintf(out, sizeof out, "%s/p2p.csv", tdir);
    memset(&in, 0, sizeof in);
    if (cal_read_csv(out, &in, why, sizeof why) != 0 || append_rows(out, &rows, &rlen, why, sizeof why) != 0) {
      remove(out);
      REFINE_FAIL("%s", why);
    }
    remove(out);
    for (size_t b = 0; b < nbp; b++) {
      struct bp *p = &bp[b];
      if (p->state != 0)
        continue;
      double mid = floor(p->lo + (p->hi - p->lo) / 2), score = 0;
      int distinct = 0;
      for (int op = CAL_OP_SEND; op <= CAL_OP_PINGPONG; op++) {
        double spread, y;
        if (median_at(&in.op[op], mid, &y, &spread) != 0)
          REFINE_FAIL("out of memory");
        if (!(y > 0))
          continue;
        double pl = predict(&seg[p->seg], op, mid, A, D), pr = predict(&seg[p->seg + 1], op, mid, A, D);
        /* Distinguishable: the segments differ by more than 3 standard
         * errors of the measured median (and than rounding). */
        if (fabs(pl - pr) / y > fmax(3 * spread / sqrt((double)reps), 1e-9))
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
    cal_inputs_free(&in);
  }
  rmdir(tdir);
  made_tdir = 0;
  if (rc != 0)
    goto out; /* the benchmark said why */
  if (round == MAX_ROUNDS)
    REFINE_FAIL("--refine: not located after %d rounds", MAX_ROUNDS);
  /* refine.csv: every refinement measurement so far (none: not written,
   * fit refuses a CSV without rows); breakpoints.csv. */
  size_t hlen = strlen("op,size,start,duration\n");
  text = malloc(hlen + rlen + 1);
  if (text == NULL)
    REFINE_FAIL("out of memory");
  memcpy(text, "op,size,start,duration\n", hlen);
  memcpy(text + hlen, rows ? rows : "", rlen);
  text[hlen + rlen] = '\0';
  if (rlen > 0 && write_file(prev, text, why, sizeof why) != 0)
    REFINE_FAIL("%s", why);
  char bpath[4200], btext[65536];
  snprintf(bpath, sizeof bpath, "%s/breakpoints.csv", dir);
  size_t bl = (size_t)snprintf(btext, sizeof btext, "breakpoint,status\n");
  size_t merged = 0;
  for (size_t b = 0; b < nbp; b++) {
    bl += (size_t)snprintf(btext + bl, sizeof btext - bl, "%.0f,%s\n", bp[b].state == 2 ? bp[b].first : bp[b].lo,
                           bp[b].state == 2 ? "merged" : "located");
    merged += bp[b].state == 2;
    if (bp[b].state == 2)
      hnm_msg_info("breakpoint after %.0f B: both sides indistinguishable: merged", bp[b].first);
    else
      hnm_msg_info("breakpoint after %.0f B: located at %.0f B (k <= %.0f | k >= %.0f), %d run(s)",
              bp[b].first, bp[b].lo, bp[b].lo, bp[b].lo + 1, bp[b].rounds);
  }
  if (write_file(bpath, btext, why, sizeof why) != 0)
    REFINE_FAIL("%s", why);
  hnm_msg_info("%zu segments in %s, %zu after refinement (%zu merged); %d benchmark run(s); wrote %s%s%s",
          nseg, model_path, nseg - merged, merged, round, rlen > 0 ? prev : "", rlen > 0 ? " and " : "", bpath);
out:
  if (made_tdir)
    rmdir(tdir); /* the tool's own directory, removed only when empty */
  cal_inputs_free(&in);
  free(text);
  free(rows);
  free(bp);
  hnm_model_free(m);
  return rc;
}

int cal_refine_read_breakpoints(const char *path, double *out, size_t cap, size_t *n, char *err, size_t errlen)
{
  FILE *f = hnm_input_open(path, NULL, 0); /* never blocks on a pipe */
  if (f == NULL)
    return 0; /* cal_read_csv says why */
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
  return is_bp;
fail:
  free(line);
  fclose(f);
  return -1;
}
