/* hnm-calibrate: reading the benchmark's CSVs (p2p, probe, contention),
 * recognised by their header, every field checked. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_fit.h"
#include "hnm_input.h"
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
#include "hnm_calibrate_csv.h"
#include "hnm_csv.h"
#include "hnm_calibrate_util.h"

static int series_add(struct cal_series *s, double k, double y, const char *file, long line)
{
  if (hnm_fit_push(&s->k, &s->y, &s->n, &s->cap, k, y) != 0)
    return -1;
  s->file = file;
  s->line = line;
  return 0;
}

/* Plausibility of measurements (docs/calibration.md): a message size is a
 * whole number of at most 2^53 bytes (exact in a double, as in model files);
 * one operation takes at most an hour (a larger value is a unit mistake or a
 * corrupted file, and would fit a model no network has). */
#define CSV_MAX_SIZE 9007199254740992.0 /* bytes */
#define CSV_MAX_DURATION 3600.0          /* seconds */

/* A non-negative finite number filling the whole field. */
int cal_parse_field(const char *f, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(f, &end);
  return *f != '\0' && *end == '\0' && errno != ERANGE && isfinite(*v) && *v >= 0;
}

void cal_inputs_free(struct cal_inputs *in)
{
  for (int op = 0; op < CAL_OP_COUNT; op++) {
    free(in->op[op].k);
    free(in->op[op].y);
  }
  free(in->probe);
  free(in->cont);
  free(in->rma);
  memset(in, 0, sizeof *in);
}

void cal_inputs_data(const struct cal_inputs *in, hnm_fit_data *d)
{
  memset(d, 0, sizeof *d);
  for (int op = 0; op < CAL_OP_COUNT; op++)
    d->op[op] = (hnm_fit_series){in->op[op].k, in->op[op].y, in->op[op].n, in->op[op].file, in->op[op].line};
  d->probe = in->probe;
  d->nprobe = in->nprobe;
  d->probe_file = in->probe_file;
  d->cont = in->cont;
  d->ncont = in->ncont;
  d->cont_file = in->cont_file;
  d->p2p_file = in->p2p_file;
  d->p2p_line = in->p2p_line;
}

/* P (an array of n elements of SIZE bytes, room for *cap) with room for
 * one more: P itself, or P grown (doubling from 64); NULL when out of
 * memory, P then unchanged. */
static void *csv__room(void *p, size_t *cap, size_t n, size_t size)
{
  if (n < *cap)
    return p;
  size_t ncap = *cap ? 2 * *cap : 64;
  void *grown = realloc(p, ncap * size);
  if (grown != NULL)
    *cap = ncap;
  return grown;
}

/* A checked row of KIND (0 p2p, 1 probe, 2 contention, 3 rma) with its
 * fields FL and their values V, line LN of PATH, into IN. 0, or -1 with
 * err. */
static int csv__store(struct cal_inputs *in, int kind, char **fl, const double *v, const char *path, long ln,
                      char *err, size_t errlen)
{
  if (kind == 0) {
    int op = 0;
    while (op < CAL_OP_COUNT && strcmp(fl[0], cal_op_names[op]) != 0)
      op++;
    if (op == CAL_OP_COUNT)
      return hnm_fail(err, errlen, "%s:%ld: op: unknown operation '%s' (send, recv, pingpong, isend, irecv)", path, ln, fl[0]);
    if (series_add(&in->op[op], v[1], v[3], path, ln) != 0)
      return hnm_fail(err, errlen, "out of memory");
    if (in->p2p_file == NULL)
      in->p2p_file = path;
    if (in->p2p_file == path)
      in->p2p_line = ln;
  } else if (kind == 1) {
    void *grown = csv__room(in->probe, &in->capprobe, in->nprobe, sizeof *in->probe);
    if (grown == NULL)
      return hnm_fail(err, errlen, "out of memory");
    in->probe = grown;
    if (!(v[1] > 0))
      return hnm_fail(err, errlen, "%s:%ld: delay: must be > 0", path, ln);
    in->probe[in->nprobe++] = (hnm_fit_probe){v[0], v[1], v[2], v[3], v[4]};
    in->probe_file = path;
    in->probe_line = ln;
  } else if (kind == 3) {
    static const char *const epochs[HNM_BENCH_RMA_EPOCHS] = HNM_BENCH_RMA_NAMES;
    int e = 0;
    while (e < HNM_BENCH_RMA_EPOCHS && strcmp(fl[0], epochs[e]) != 0)
      e++;
    if (e == HNM_BENCH_RMA_EPOCHS)
      return hnm_fail(err, errlen, "%s:%ld: epoch: unknown epoch '%s' (lock, lockflush, lockput, lockget, fence, pscw)", path, ln, fl[0]);
    void *grown = csv__room(in->rma, &in->caprma, in->nrma, sizeof *in->rma);
    if (grown == NULL)
      return hnm_fail(err, errlen, "out of memory");
    in->rma = grown;
    in->rma[in->nrma++] = (struct cal_rma_row){e, v[1], v[2]};
    in->rma_file = path;
    in->rma_line = ln;
  } else {
    int bi = strcmp(fl[1], HNM_BENCH_MODE_BI) == 0;
    if (!bi && strcmp(fl[1], HNM_BENCH_MODE_UNI) != 0)
      return hnm_fail(err, errlen, "%s:%ld: mode: '%s' is not uni or bi", path, ln, fl[1]);
    /* pairs and rank become ints: bounded first (a rank of 1e300 is
     * not a rank). */
    if (v[0] < 1 || v[0] != floor(v[0]) || v[3] != floor(v[3]) || v[0] > 1e6 || v[3] > 2e6)
      return hnm_fail(err, errlen, "%s:%ld: fields 'pairs' and 'rank' must be whole, pairs from 1 to 1e6, rank to 2e6", path, ln);
    void *grown = csv__room(in->cont, &in->capcont, in->ncont, sizeof *in->cont);
    if (grown == NULL)
      return hnm_fail(err, errlen, "out of memory");
    in->cont = grown;
    in->cont[in->ncont++] = (hnm_fit_contention){(int)v[0], bi, (int)v[3], v[2], v[4]};
    in->cont_file = path;
    in->cont_line = ln;
  }
  return 0;
}

int cal_read_csv(const char *path, struct cal_inputs *in, char *err, size_t errlen)
{
  hnm_input_lines r;
  if (hnm_input_lines_open(&r, path, err, errlen) != 0)
    return -1;
  long len;
  int kind = -1; /* 0 p2p, 1 probe, 2 contention, 3 rma */
  long rows = 0;
  while ((len = hnm_input_lines_next(&r, err, errlen)) >= 0) {
    if (r.ln == 1) {
      if (strcmp(r.line, HNM_BENCH_P2P_HEADER) == 0)
        kind = 0;
      else if (strcmp(r.line, HNM_BENCH_PROBE_HEADER) == 0)
        kind = 1;
      else if (strcmp(r.line, HNM_BENCH_CONTENTION_HEADER) == 0)
        kind = 2;
      else if (strcmp(r.line, HNM_BENCH_RMA_HEADER) == 0)
        kind = 3;
      else
        CAL_FAIL("%s:1: unknown header '%s' (expected " HNM_BENCH_P2P_HEADER " or " HNM_BENCH_PROBE_HEADER
                 " or " HNM_BENCH_CONTENTION_HEADER " or " HNM_BENCH_RMA_HEADER ")",
                 path, r.line);
      continue;
    }
    char *fl[6];
    int want = kind == 0   ? HNM_BENCH_P2P_FIELDS
               : kind == 1 ? HNM_BENCH_PROBE_FIELDS
               : kind == 2 ? HNM_BENCH_CONTENTION_FIELDS
                           : HNM_BENCH_RMA_FIELDS;
    int nf = hnm_csv_split(r.line, fl, 6);
    if (nf != want)
      CAL_FAIL("%s:%ld: %d field(s), expected %d", path, r.ln, nf, want);
    static const char *const names[4][5] = {{"op", "size", "start", "duration"},
                                            {"size", "delay", "send", "recv", "pingpong"},
                                            {"pairs", "mode", "size", "rank", "duration"},
                                            {"epoch", "size", "duration"}};
    double v[5] = {0};
    for (int i = 0; i < want; i++) {
      if ((kind == 0 && i == 0) || (kind == 2 && i == 1) || (kind == 3 && i == 0))
        continue;
      if (!cal_parse_field(fl[i], &v[i]))
        CAL_FAIL("%s:%ld: %s: '%s' is not a non-negative number", path, r.ln, names[kind][i], fl[i]);
    }
    int size_field = kind == 0 || kind == 3 ? 1 : kind == 1 ? 0 : 2;
    if (v[size_field] != floor(v[size_field]))
      CAL_FAIL("%s:%ld: size: '%s' is not a whole number of bytes", path, r.ln, fl[size_field]);
    if (v[size_field] > CSV_MAX_SIZE)
      CAL_FAIL("%s:%ld: size: '%s' is above 2^53 bytes (not a message size)", path, r.ln, fl[size_field]);
    /* Every field but the size (and p2p's start, a clock reading) is a
     * duration of one operation. */
    for (int i = 0; i < want; i++) {
      int is_time = kind == 0 ? i == 3 : kind == 1 ? i >= 1 : kind == 2 ? i == 4 : i == 2;
      if (is_time && v[i] > CSV_MAX_DURATION)
        CAL_FAIL("%s:%ld: %s: %s s is above %g s (not the time of one message)", path, r.ln, names[kind][i], fl[i],
                 CSV_MAX_DURATION);
    }
    rows++;
    if (csv__store(in, kind, fl, v, path, r.ln, err, errlen) != 0)
      goto fail;
  }
  if (len == -2)
    goto fail;
  if (r.ln == 0)
    CAL_FAIL("%s:1: empty file (no header)", path);
  if (rows == 0)
    CAL_FAIL("%s:%ld: no measurements after the header", path, r.ln);
  hnm_input_lines_close(&r);
  return 0;
fail:
  hnm_input_lines_close(&r);
  return -1;
}
