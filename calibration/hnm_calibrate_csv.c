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

static void series_add(struct series *s, double k, double y, const char *file, long line)
{
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    s->k = realloc(s->k, s->cap * sizeof *s->k);
    s->y = realloc(s->y, s->cap * sizeof *s->y);
    if (s->k == NULL || s->y == NULL)
      die("out of memory");
  }
  s->k[s->n] = k;
  s->y[s->n] = y;
  s->n++;
  s->file = file;
  s->line = line;
}

/* Plausibility of measurements (docs/calibration.md): a message size is a
 * whole number of at most 2^53 bytes (exact in a double, as in model files);
 * one operation takes at most an hour (a larger value is a unit mistake or a
 * corrupted file, and would fit a model no network has). */
#define CSV_MAX_SIZE 9007199254740992.0 /* bytes */
#define CSV_MAX_DURATION 3600.0          /* seconds */

/* A non-negative finite number filling the whole field. */
int parse_field(const char *f, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(f, &end);
  return *f != '\0' && *end == '\0' && errno != ERANGE && isfinite(*v) && *v >= 0;
}

void inputs_free(struct inputs *in)
{
  for (int op = 0; op < OP_COUNT; op++) {
    free(in->op[op].k);
    free(in->op[op].y);
  }
  free(in->probe);
  free(in->cont);
  free(in->rma);
  memset(in, 0, sizeof *in);
}

void read_csv(const char *path, struct inputs *in)
{
  char why[512];
  FILE *f = hnm_input_open(path, why, sizeof why);
  if (f == NULL)
    die("%s: %s", path, why);
  char *line = NULL;
  size_t cap = 0;
  long len;
  long ln = 0;
  int kind = -1; /* 0 p2p, 1 probe, 2 contention, 3 rma */
  long rows = 0;
  while ((len = hnm_input_getline(&line, &cap, f, HNM_INPUT_MAX_LINE)) != -1) {
    ln++;
    if (len == -2 || (size_t)len != strlen(line)) {
      fprintf(stderr, PROG ": %s:%ld: %s\n", path, ln,
              len == -2 ? "line longer than 64 KiB (not a measurement file)" : "NUL byte in the line (not text)");
      exit(2);
    }
    if (len == 0 || line[len - 1] != '\n') {
      fprintf(stderr, PROG ": %s:%ld: truncated line (no end of line)\n", path, ln);
      exit(2);
    }
    line[--len] = '\0';
    if (len > 0 && line[len - 1] == '\r')
      line[--len] = '\0';
    if (ln == 1) {
      if (strcmp(line, HNM_BENCH_P2P_HEADER) == 0)
        kind = 0;
      else if (strcmp(line, HNM_BENCH_PROBE_HEADER) == 0)
        kind = 1;
      else if (strcmp(line, HNM_BENCH_CONTENTION_HEADER) == 0)
        kind = 2;
      else if (strcmp(line, HNM_BENCH_RMA_HEADER) == 0)
        kind = 3;
      else {
        fprintf(stderr,
                PROG ": %s:1: unknown header '%s' (expected " HNM_BENCH_P2P_HEADER " or " HNM_BENCH_PROBE_HEADER
                     " or " HNM_BENCH_CONTENTION_HEADER " or " HNM_BENCH_RMA_HEADER ")\n",
                path, line);
        exit(2);
      }
      continue;
    }
    char *fl[6];
    int want = kind == 0   ? HNM_BENCH_P2P_FIELDS
               : kind == 1 ? HNM_BENCH_PROBE_FIELDS
               : kind == 2 ? HNM_BENCH_CONTENTION_FIELDS
                           : HNM_BENCH_RMA_FIELDS;
    int nf = hnm_csv_split(line, fl, 6);
    if (nf != want) {
      fprintf(stderr, PROG ": %s:%ld: %d field(s), expected %d\n", path, ln, nf, want);
      exit(2);
    }
    static const char *const names[4][5] = {{"op", "size", "start", "duration"},
                                            {"size", "delay", "send", "recv", "pingpong"},
                                            {"pairs", "mode", "size", "rank", "duration"},
                                            {"epoch", "size", "duration"}};
    double v[5] = {0};
    for (int i = 0; i < want; i++) {
      if ((kind == 0 && i == 0) || (kind == 2 && i == 1) || (kind == 3 && i == 0))
        continue;
      if (!parse_field(fl[i], &v[i])) {
        fprintf(stderr, PROG ": %s:%ld: %s: '%s' is not a non-negative number\n", path, ln,
                names[kind][i], fl[i]);
        exit(2);
      }
    }
    int size_field = kind == 0 || kind == 3 ? 1 : kind == 1 ? 0 : 2;
    if (v[size_field] != floor(v[size_field])) {
      fprintf(stderr, PROG ": %s:%ld: size: '%s' is not a whole number of bytes\n", path, ln,
              fl[size_field]);
      exit(2);
    }
    if (v[size_field] > CSV_MAX_SIZE) {
      fprintf(stderr, PROG ": %s:%ld: size: '%s' is above 2^53 bytes (not a message size)\n", path, ln,
              fl[size_field]);
      exit(2);
    }
    /* Every field but the size (and p2p's start, a clock reading) is a
     * duration of one operation. */
    for (int i = 0; i < want; i++) {
      int is_time = kind == 0 ? i == 3 : kind == 1 ? i >= 1 : kind == 2 ? i == 4 : i == 2;
      if (is_time && v[i] > CSV_MAX_DURATION) {
        fprintf(stderr, PROG ": %s:%ld: %s: %s s is above %g s (not the time of one message)\n", path,
                ln, names[kind][i], fl[i], CSV_MAX_DURATION);
        exit(2);
      }
    }
    rows++;
    if (kind == 0) {
      int op = 0;
      while (op < OP_COUNT && strcmp(fl[0], op_names[op]) != 0)
        op++;
      if (op == OP_COUNT) {
        fprintf(stderr, PROG ": %s:%ld: op: unknown operation '%s' (send, recv, pingpong, isend, irecv)\n",
                path, ln, fl[0]);
        exit(2);
      }
      series_add(&in->op[op], v[1], v[3], path, ln);
      if (in->p2p_file == NULL)
        in->p2p_file = path;
      if (in->p2p_file == path)
        in->p2p_line = ln;
    } else if (kind == 1) {
      if (in->nprobe == in->capprobe) {
        in->capprobe = in->capprobe ? 2 * in->capprobe : 64;
        in->probe = realloc(in->probe, in->capprobe * sizeof *in->probe);
        if (in->probe == NULL)
          die("out of memory");
      }
      if (!(v[1] > 0)) {
        fprintf(stderr, PROG ": %s:%ld: delay: must be > 0\n", path, ln);
        exit(2);
      }
      in->probe[in->nprobe++] = (struct probe_row){v[0], v[1], v[2], v[3], v[4]};
      in->probe_file = path;
      in->probe_line = ln;
    } else if (kind == 3) {
      static const char *const epochs[HNM_BENCH_RMA_EPOCHS] = HNM_BENCH_RMA_NAMES;
      int e = 0;
      while (e < HNM_BENCH_RMA_EPOCHS && strcmp(fl[0], epochs[e]) != 0)
        e++;
      if (e == HNM_BENCH_RMA_EPOCHS) {
        fprintf(stderr, PROG ": %s:%ld: epoch: unknown epoch '%s' (lock, lockflush, lockput, lockget, fence, pscw)\n",
                path, ln, fl[0]);
        exit(2);
      }
      if (in->nrma == in->caprma) {
        in->caprma = in->caprma ? 2 * in->caprma : 64;
        in->rma = realloc(in->rma, in->caprma * sizeof *in->rma);
        if (in->rma == NULL)
          die("out of memory");
      }
      in->rma[in->nrma++] = (struct rma_row){e, v[1], v[2]};
      in->rma_file = path;
      in->rma_line = ln;
    } else {
      int bi = strcmp(fl[1], HNM_BENCH_MODE_BI) == 0;
      if (!bi && strcmp(fl[1], HNM_BENCH_MODE_UNI) != 0) {
        fprintf(stderr, PROG ": %s:%ld: mode: '%s' is not uni or bi\n", path, ln, fl[1]);
        exit(2);
      }
      /* pairs and rank become ints: bounded first (a rank of 1e300 is
       * not a rank). */
      if (v[0] < 1 || v[0] != floor(v[0]) || v[3] != floor(v[3]) || v[0] > 1e6 || v[3] > 2e6) {
        fprintf(stderr, PROG ": %s:%ld: fields 'pairs' and 'rank' must be whole, pairs from 1 to 1e6, rank to 2e6\n",
                path, ln);
        exit(2);
      }
      if (in->ncont == in->capcont) {
        in->capcont = in->capcont ? 2 * in->capcont : 64;
        in->cont = realloc(in->cont, in->capcont * sizeof *in->cont);
        if (in->cont == NULL)
          die("out of memory");
      }
      in->cont[in->ncont++] = (struct cont_row){(int)v[0], bi, (int)v[3], v[2], v[4]};
      in->cont_file = path;
      in->cont_line = ln;
    }
  }
  free(line);
  if (ferror(f))
    die("%s: read error", path);
  fclose(f);
  if (ln == 0) {
    fprintf(stderr, PROG ": %s:1: empty file (no header)\n", path);
    exit(2);
  }
  if (rows == 0) {
    fprintf(stderr, PROG ": %s:%ld: no measurements after the header\n", path, ln);
    exit(2);
  }
}
