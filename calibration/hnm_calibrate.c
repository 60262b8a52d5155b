/* hnm-calibrate -- measure a cluster's point-to-point behaviour and fit a
 * hybrid model file to it (seed 002, Section IV-A, Figure 4).
 *
 *   hnm-calibrate run [options] [-- benchmark options]
 *   hnm-calibrate fit [options] FILE.csv... -o MODEL.xml
 *   hnm-calibrate compare REAL.csv NAME=SIM.csv...
 *
 * What `fit` inverts (docs/calibration.md gives the derivation): under
 * SMPI, with async threshold A and detached threshold D (probe.csv) and a
 * segment's absolute latency L and bandwidth B, T(k) = L + k/B:
 *   send (receiver ready)  = o_s + k O_s          if k <= D, else T(k)
 *   recv (sender early)    = o_r + k O_r          if k <= A,
 *                            T(k) + o_r + k O_r   if A < k <= D, else T(k)
 *   ping-pong round trip   = 2 (o_s + k O_s + T(k) + o_r + k O_r)  if k <= D,
 *                            2 T(k) otherwise.
 * So O_s, o_s come from send (k <= D), o_r, O_r from recv (k <= A), and T
 * from the ping-pong minus 2 (o_s + k O_s) [k <= D] + 2 (o_r + k O_r)
 * [k <= A]: the paper's "minus 2(o_r + k O_r)", plus the sender's overhead
 * that SMPI sleeps before the data leaves. In the detached range only T +
 * o_r is observable; hnm puts it all in T (recv overheads 0 there).
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_fit.h"
#include "hnm_input.h"
#include "hnm_model.h"
#include "hnm_units.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROG "hnm-calibrate"

enum { OP_SEND, OP_RECV, OP_PINGPONG, OP_ISEND, OP_IRECV, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"send", "recv", "pingpong", "isend", "irecv"};

static void die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, PROG ": ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(2);
}

/* mkdir -p: 0, or -1 with errno. */
static int mkdir_p(const char *path)
{
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
      *p = '/';
    }
  if (mkdir(buf, 0777) != 0 && errno != EEXIST)
    return -1;
  return 0;
}

/* ---------------------------------------------------------------- CSV -- */

struct series {
  double *k, *y;
  size_t n, cap;
  const char *file; /* where its last row was read, for messages */
  long line;
};

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

struct probe_row {
  double size, delay, send, recv, pingpong;
};
struct cont_row {
  int pairs, bi, rank;
  double size, duration;
};

struct inputs {
  struct series op[OP_COUNT];
  struct probe_row *probe;
  size_t nprobe, capprobe;
  const char *probe_file;
  long probe_line;
  struct cont_row *cont;
  size_t ncont, capcont;
  const char *cont_file;
  long cont_line;
  const char *p2p_file; /* first p2p CSV, for messages */
  long p2p_line;
};

/* Plausibility of measurements (docs/calibration.md): a message size is a
 * whole number of at most 2^53 bytes (exact in a double, as in model files);
 * one operation takes at most an hour (a larger value is a unit mistake or a
 * corrupted file, and would fit a model no network has). */
#define CSV_MAX_SIZE 9007199254740992.0 /* bytes */
#define CSV_MAX_DURATION 3600.0          /* seconds */

/* A non-negative finite number filling the whole field. */
static int parse_field(const char *f, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(f, &end);
  return *f != '\0' && *end == '\0' && errno != ERANGE && isfinite(*v) && *v >= 0;
}

static int split(char *line, char **fields, int max)
{
  int n = 0;
  for (char *p = line;; p++) {
    if (n < max)
      fields[n] = p;
    n++;
    p = strchr(p, ',');
    if (p == NULL)
      break;
    *p = '\0';
  }
  return n;
}

static void read_csv(const char *path, struct inputs *in)
{
  char why[512];
  FILE *f = hnm_input_open(path, why, sizeof why);
  if (f == NULL)
    die("%s: %s", path, why);
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  long ln = 0;
  int kind = -1; /* 0 p2p, 1 probe, 2 contention */
  long rows = 0;
  while ((len = getline(&line, &cap, f)) != -1) {
    ln++;
    if (len == 0 || line[len - 1] != '\n') {
      fprintf(stderr, PROG ": %s:%ld: truncated line (no end of line)\n", path, ln);
      exit(2);
    }
    line[--len] = '\0';
    if (len > 0 && line[len - 1] == '\r')
      line[--len] = '\0';
    if (ln == 1) {
      if (strcmp(line, "op,size,start,duration") == 0)
        kind = 0;
      else if (strcmp(line, "size,delay,send,recv,pingpong") == 0)
        kind = 1;
      else if (strcmp(line, "pairs,mode,size,rank,duration") == 0)
        kind = 2;
      else {
        fprintf(stderr,
                PROG ": %s:1: unknown header '%s' (expected op,size,start,duration or "
                     "size,delay,send,recv,pingpong or pairs,mode,size,rank,duration)\n",
                path, line);
        exit(2);
      }
      continue;
    }
    char *fl[6];
    int want = kind == 0 ? 4 : 5;
    int nf = split(line, fl, 6);
    if (nf != want) {
      fprintf(stderr, PROG ": %s:%ld: %d field(s), expected %d\n", path, ln, nf, want);
      exit(2);
    }
    static const char *const names[3][5] = {{"op", "size", "start", "duration"},
                                            {"size", "delay", "send", "recv", "pingpong"},
                                            {"pairs", "mode", "size", "rank", "duration"}};
    double v[5] = {0};
    for (int i = 0; i < want; i++) {
      if ((kind == 0 && i == 0) || (kind == 2 && i == 1))
        continue;
      if (!parse_field(fl[i], &v[i])) {
        fprintf(stderr, PROG ": %s:%ld: field '%s': '%s' is not a non-negative number\n", path, ln,
                names[kind][i], fl[i]);
        exit(2);
      }
    }
    int size_field = kind == 0 ? 1 : kind == 1 ? 0 : 2;
    if (v[size_field] != floor(v[size_field])) {
      fprintf(stderr, PROG ": %s:%ld: field 'size': '%s' is not a whole number of bytes\n", path, ln,
              fl[size_field]);
      exit(2);
    }
    if (v[size_field] > CSV_MAX_SIZE) {
      fprintf(stderr, PROG ": %s:%ld: field 'size': '%s' is above 2^53 bytes (not a message size)\n", path, ln,
              fl[size_field]);
      exit(2);
    }
    /* Every field but the size (and p2p's start, a clock reading) is a
     * duration of one operation. */
    for (int i = 0; i < want; i++) {
      int is_time = kind == 0 ? i == 3 : kind == 1 ? i >= 1 : i == 4;
      if (is_time && v[i] > CSV_MAX_DURATION) {
        fprintf(stderr, PROG ": %s:%ld: field '%s': %s s is above %g s (not the time of one message)\n", path,
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
        fprintf(stderr, PROG ": %s:%ld: field 'op': unknown operation '%s' (send, recv, pingpong, isend, irecv)\n",
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
        fprintf(stderr, PROG ": %s:%ld: field 'delay': must be > 0\n", path, ln);
        exit(2);
      }
      in->probe[in->nprobe++] = (struct probe_row){v[0], v[1], v[2], v[3], v[4]};
      in->probe_file = path;
      in->probe_line = ln;
    } else {
      int bi = strcmp(fl[1], "bi") == 0;
      if (!bi && strcmp(fl[1], "uni") != 0) {
        fprintf(stderr, PROG ": %s:%ld: field 'mode': '%s' is not uni or bi\n", path, ln, fl[1]);
        exit(2);
      }
      if (v[0] < 1 || v[0] != floor(v[0]) || v[3] != floor(v[3])) {
        fprintf(stderr, PROG ": %s:%ld: fields 'pairs' and 'rank' must be whole, pairs >= 1\n", path, ln);
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

static void inputs_free(struct inputs *in)
{
  for (int op = 0; op < OP_COUNT; op++) {
    free(in->op[op].k);
    free(in->op[op].y);
  }
  free(in->probe);
  free(in->cont);
  memset(in, 0, sizeof *in);
}

/* ------------------------------------------------------ the fitted model -- */

struct segment {
  double upto; /* bytes; INFINITY for the last */
  double lat, bw; /* seconds, bytes/s */
  double so, sb, ro, rb, io, ib; /* send/recv/isend overheads: s, s/byte */
};

struct fitted {
  double async, detached; /* bytes, -1 = none */
  double limiter;         /* factor, <= 0 = keep */
  double overlap_scale;   /* applied to the send and recv overheads (1: none) */
  char warnings[4096];    /* shown once the fit succeeded */
  int nfiles;             /* CSV files read */
  struct segment *seg;
  size_t nseg;
  /* per-op pieces, for the report */
  hnm_fit_piece pieces[OP_COUNT + 1][64]; /* index OP_COUNT: T = one-way transfer */
  size_t npieces[OP_COUNT + 1];
  double sigma[OP_COUNT + 1];
  int have[OP_COUNT + 1];
  /* single-segment comparisons */
  double lg_L, lg_o, lg_G, lg_Os, lg_Or; /* LogGPS, S = detached */
  double fl_L, fl_B;                     /* fluid */
  /* contention */
  double bsr, buni, cont_size;
};

static const struct segment *seg_of(const struct fitted *m, double k)
{
  size_t i = 0;
  while (i + 1 < m->nseg && k > m->seg[i].upto)
    i++;
  return &m->seg[i];
}

/* What SMPI makes of the fitted hybrid model (the file comment). */
static double hybrid_predict(const struct fitted *m, int op, double k)
{
  const struct segment *s = seg_of(m, k);
  double T = s->lat + k / s->bw;
  double so = s->so + k * s->sb, ro = s->ro + k * s->rb;
  switch (op) {
    case OP_SEND:
      return k <= m->detached ? so : T;
    case OP_RECV:
      return k <= m->async ? ro : k <= m->detached ? T + ro : T;
    case OP_PINGPONG:
      return k <= m->detached ? 2 * (so + T + ro) : 2 * T;
    case OP_ISEND:
      return s->io + k * s->ib;
    default:
      return 0;
  }
}

/* hnm's LogGPS expansion (docs/model-format.md) with g = G, s = 0. */
static double loggps_predict(const struct fitted *m, int op, double k)
{
  double o = m->lg_o, L = m->lg_L, S = m->detached;
  if (k > S) {
    double X = 6 * o + 3 * L + k * (m->lg_G + m->lg_Os + m->lg_Or);
    return op == OP_PINGPONG ? 2 * X : op == OP_ISEND ? o : op == OP_IRECV ? 0 : X;
  }
  switch (op) {
    case OP_SEND:
      return o + k * m->lg_Os;
    case OP_RECV:
      return o + k * m->lg_Or;
    case OP_PINGPONG:
      return 2 * (2 * o + k * (m->lg_Os + m->lg_Or) + L + k * m->lg_G);
    case OP_ISEND:
      return o;
    default:
      return 0;
  }
}

/* Fluid: T = L + k/B, no overhead, same protocol thresholds. */
static double fluid_predict(const struct fitted *m, int op, double k)
{
  double T = m->fl_L + k / m->fl_B;
  switch (op) {
    case OP_SEND:
      return k <= m->detached ? 0 : T;
    case OP_RECV:
      return k <= m->async ? 0 : T;
    case OP_PINGPONG:
      return 2 * T;
    default:
      return 0;
  }
}

/* --------------------------------------------------------------- fit -- */

struct fit_args {
  const char *out, *report, *name;
  double *forced;
  size_t nforced;
  int forced_only;
  double penalty, noise_floor;
  int max_segments, min_sizes;
  double force_async, force_detached; /* -2 = not forced */
  int plots;
};

/* Distinct values of k[0..n) in (lo, hi]. */
static size_t count_sizes(const double *k, size_t n, double lo, double hi)
{
  size_t c = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(k[i] > lo && k[i] <= hi))
      continue;
    int first = 1;
    for (size_t j = 0; j < i && first; j++)
      first = k[j] != k[i];
    c += first;
  }
  return c;
}

static void fit_op(const struct series *s, const char *what, double kmax, const double *forced, size_t nforced,
                   const struct fit_args *a, hnm_fit_piece *pieces, size_t *np, double *sigma,
                   const double *yover, char *warn, size_t warncap)
{
  double *k = malloc((s->n ? s->n : 1) * sizeof *k), *y = malloc((s->n ? s->n : 1) * sizeof *y);
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->k[i] <= kmax) {
      k[n] = s->k[i];
      y[n] = yover ? yover[i] : s->y[i];
      n++;
    }
  double f[80];
  size_t nf = 0;
  /* The protocol thresholds split every op, unless a stretch between them
   * holds fewer than min_sizes sampled sizes: then that stretch is fitted
   * with its neighbour (and the report says so). User breakpoints always
   * split; too few sizes there is an error. */
  int min_sizes = a->min_sizes > 0 ? a->min_sizes : 2;
  for (size_t i = 0; i < nforced && nf < 40; i++) {
    double lo = -1, hi = INFINITY;
    for (size_t j = 0; j < nforced; j++) {
      if (forced[j] < forced[i] && forced[j] > lo)
        lo = forced[j];
      if (forced[j] > forced[i] && forced[j] < hi)
        hi = forced[j];
    }
    if (hi > kmax)
      hi = kmax;
    double below = (double)count_sizes(k, n, lo, forced[i]), above = (double)count_sizes(k, n, forced[i], hi);
    if (below >= min_sizes && above >= min_sizes)
      f[nf++] = forced[i];
    else if (forced[i] < kmax) {
      size_t used = strlen(warn);
      snprintf(warn + used, warncap - used,
               "warning: %s: too few sampled sizes next to the protocol threshold %.0f to split the fit there "
               "(sample more sizes)\n",
               what, forced[i]);
    }
  }
  for (size_t i = 0; i < a->nforced && nf < 80; i++)
    f[nf++] = a->forced[i];
  hnm_fit_options o = {a->penalty, a->max_segments, a->min_sizes, f, nf, a->forced_only, a->noise_floor};
  char err[512];
  /* A protocol range (k <= async or detached, from the probe) may hold
   * fewer sampled sizes than a segment needs (a probe on noisy timings can
   * find a tiny eager range): then one constant (b = 0), or nothing (0)
   * without data, and a warning; not an error, as the user chose none of it. */
  size_t distinct = count_sizes(k, n, -1, kmax);
  if (isfinite(kmax) && (int)distinct < min_sizes) {
    size_t used = strlen(warn);
    snprintf(warn + used, warncap - used,
             "warning: %s: only %zu sampled size(s) up to the protocol threshold %.0f: %s (sample more sizes)\n",
             what, distinct, kmax, n ? "fitted by a constant" : "overheads 0 there");
    if (n == 0) {
      memset(pieces, 0, sizeof *pieces);
      pieces[0].lo = -1;
      pieces[0].hi = kmax;
      *np = 1;
      *sigma = 0;
      free(k);
      free(y);
      return;
    }
    o.min_sizes = 1;
    o.max_segments = 1;
    o.nforced = 0;
  }
  if (hnm_fit_segments(k, y, n, &o, pieces, 64, np, sigma, err, sizeof err) != 0) {
    fprintf(stderr, PROG ": %s:%ld: %s: %s\n", s->file, s->line, what, err);
    exit(2);
  }
  free(k);
  free(y);
}

static size_t piece_index(const hnm_fit_piece *p, size_t n, double k)
{
  size_t i = 0;
  while (i + 1 < n && k > p[i].hi)
    i++;
  return i;
}

static int cmp_d(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Protocol thresholds from probe rows: per size, medians; rendez-vous if
 * send >= delay/2, else eager if recv < 0.9 (pingpong/2 - send): SMPI's
 * detached receive lasts exactly pingpong/2 - send (T + o_r), an eager one
 * T less (docs/calibration.md).
 * A = largest eager size below the smallest non-eager one, D = largest
 * non-rendez-vous size below the smallest rendez-vous one (-1: none). */
static void protocol_from_probe(const struct inputs *in, double *A, double *D)
{
  size_t n = in->nprobe;
  double *sz = malloc(n * sizeof *sz), *tmp = malloc(3 * n * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    sz[i] = in->probe[i].size;
  qsort(sz, n, sizeof *sz, cmp_d);
  double min_non_eager = INFINITY, min_rdv = INFINITY;
  double *modes_size = malloc(n * sizeof *modes_size);
  int *modes = malloc(n * sizeof *modes);
  size_t nm = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && sz[i] == sz[i - 1])
      continue;
    size_t c = 0;
    double *s = tmp, *r = tmp + n, *p = tmp + 2 * n;
    double delay = 0;
    for (size_t j = 0; j < n; j++)
      if (in->probe[j].size == sz[i]) {
        s[c] = in->probe[j].send;
        r[c] = in->probe[j].recv;
        p[c] = in->probe[j].pingpong;
        delay = in->probe[j].delay;
        c++;
      }
    double ms = hnm_fit_median(s, c), mr = hnm_fit_median(r, c), mp = hnm_fit_median(p, c);
    int mode = ms >= delay / 2 ? 2 : mr < 0.9 * (mp / 2 - ms) ? 0 : 1;
    modes_size[nm] = sz[i];
    modes[nm++] = mode;
    if (mode >= 1 && sz[i] < min_non_eager)
      min_non_eager = sz[i];
    if (mode == 2 && sz[i] < min_rdv)
      min_rdv = sz[i];
  }
  *A = *D = -1;
  for (size_t i = 0; i < nm; i++) {
    if (modes[i] == 0 && modes_size[i] < min_non_eager && modes_size[i] > *A)
      *A = modes_size[i];
    if (modes[i] <= 1 && modes_size[i] < min_rdv && modes_size[i] > *D)
      *D = modes_size[i];
  }
  free(sz);
  free(tmp);
  free(modes_size);
  free(modes);
}

static void fit_model(struct inputs *in, const struct fit_args *a, struct fitted *m)
{
  memset(m, 0, sizeof *m);
  for (int op = OP_SEND; op <= OP_PINGPONG; op++)
    if (in->op[op].n == 0) {
      if (in->p2p_file == NULL)
        die("no point-to-point CSV (header op,size,start,duration) among the inputs");
      fprintf(stderr, PROG ": %s:%ld: no '%s' measurements in the point-to-point CSV(s)\n", in->p2p_file,
              in->p2p_line, op_names[op]);
      exit(2);
    }
  if (a->force_detached > -2) {
    m->async = a->force_async;
    m->detached = a->force_detached;
  } else if (in->nprobe > 0) {
    protocol_from_probe(in, &m->async, &m->detached);
    /* A probed range holding fewer sampled sizes than a segment needs
     * (timing noise can make the probe see an eager range of a byte or
     * two) cannot be fitted: it is merged into the next mode, which SMPI
     * times with the same round trip, and the report says so. */
    int min_sizes = a->min_sizes > 0 ? a->min_sizes : 2;
    const struct series *ss = &in->op[OP_SEND];
    double *lim[2] = {&m->async, &m->detached};
    const char *mode[2] = {"eager", "detached"};
    for (int i = 1; i >= 0; i--) {
      size_t c = *lim[i] >= 0 ? count_sizes(ss->k, ss->n, i == 1 ? m->async : -1, *lim[i]) : 0;
      if (*lim[i] >= 0 && (int)c < min_sizes) {
        size_t used = strlen(m->warnings);
        snprintf(m->warnings + used, sizeof m->warnings - used,
                 "warning: probe: the %s range (up to %.0f B) holds %zu sampled size(s), too few to fit: "
                 "merged into the next mode\n",
                 mode[i], *lim[i], c);
        *lim[i] = i == 1 ? m->async : -1;
      }
    }
  } else
    die("no protocol probe (header size,delay,send,recv,pingpong) among the inputs; give probe.csv or "
        "--protocol ASYNC,DETACHED");

  double AD[2] = {m->async, m->detached};
  size_t nAD = 0;
  double ADf[2];
  for (int i = 0; i < 2; i++)
    if (AD[i] >= 0)
      ADf[nAD++] = AD[i];

  /* send, k <= D */
  if (m->detached >= 0) {
    fit_op(&in->op[OP_SEND], "op 'send'", m->detached, ADf, nAD, a, m->pieces[OP_SEND], &m->npieces[OP_SEND],
           &m->sigma[OP_SEND], NULL, m->warnings, sizeof m->warnings);
    m->have[OP_SEND] = 1;
  }
  if (m->async >= 0) {
    fit_op(&in->op[OP_RECV], "op 'recv'", m->async, ADf, nAD, a, m->pieces[OP_RECV], &m->npieces[OP_RECV],
           &m->sigma[OP_RECV], NULL, m->warnings, sizeof m->warnings);
    m->have[OP_RECV] = 1;
  }
  /* T = round trip / 2 minus the overheads SMPI adds in each mode. A real
   * library may overlap its overheads with the wire, so that send + late
   * receive exceed the one-way time, which SMPI (overheads, then transfer,
   * then overheads) cannot reproduce: then both overheads are scaled by
   * s = 0.8 x the 10th percentile over sizes of (median round trip / 2) /
   * (o_s + o_r), keeping the round trip exact and leaving the transfer at
   * least ~20% of it. Under SMPI itself the ratio is > 1.25 whenever the
   * route latency is > 1/4 of the overheads, and s = 1. */
  struct series *pp = &in->op[OP_PINGPONG];
  m->overlap_scale = 1;
  {
    double *ratio = malloc((pp->n + 1) * sizeof *ratio), *v = malloc((pp->n + 1) * sizeof *v);
    size_t nr = 0;
    for (size_t i = 0; i < pp->n; i++) {
      double k = pp->k[i];
      int first = 1;
      for (size_t q = 0; q < i && first; q++)
        first = pp->k[q] != k;
      if (!first || !(k <= m->detached))
        continue;
      size_t nv = 0;
      for (size_t q = 0; q < pp->n; q++)
        if (pp->k[q] == k)
          v[nv++] = pp->y[q];
      double ov = 0;
      if (m->have[OP_SEND])
        ov += hnm_fit_eval(m->pieces[OP_SEND], m->npieces[OP_SEND], k);
      if (m->have[OP_RECV] && k <= m->async)
        ov += hnm_fit_eval(m->pieces[OP_RECV], m->npieces[OP_RECV], k);
      if (ov > 0)
        ratio[nr++] = hnm_fit_median(v, nv) / 2 / ov;
    }
    if (nr > 0) {
      qsort(ratio, nr, sizeof *ratio, cmp_d);
      double r10 = ratio[(size_t)floor(0.1 * (double)(nr - 1))];
      if (0.8 * r10 < 1)
        m->overlap_scale = 0.8 * r10 > 0 ? 0.8 * r10 : 0;
    }
    free(ratio);
    free(v);
  }
  for (int op = OP_SEND; op <= OP_RECV; op++)
    for (size_t i = 0; m->have[op] && i < m->npieces[op]; i++) {
      m->pieces[op][i].a *= m->overlap_scale;
      m->pieces[op][i].b *= m->overlap_scale;
    }
  double *t = malloc(pp->n * sizeof *t);
  for (size_t i = 0; i < pp->n; i++) {
    double k = pp->k[i];
    t[i] = pp->y[i] / 2;
    if (m->have[OP_SEND] && k <= m->detached)
      t[i] -= hnm_fit_eval(m->pieces[OP_SEND], m->npieces[OP_SEND], k);
    if (m->have[OP_RECV] && k <= m->async)
      t[i] -= hnm_fit_eval(m->pieces[OP_RECV], m->npieces[OP_RECV], k);
  }
  fit_op(pp, "op 'pingpong' (transfer time)", INFINITY, ADf, nAD, a, m->pieces[OP_COUNT], &m->npieces[OP_COUNT],
         &m->sigma[OP_COUNT], t, m->warnings, sizeof m->warnings);
  m->have[OP_COUNT] = 1;
  if (in->op[OP_ISEND].n > 0) {
    fit_op(&in->op[OP_ISEND], "op 'isend'", INFINITY, ADf, nAD, a, m->pieces[OP_ISEND], &m->npieces[OP_ISEND],
           &m->sigma[OP_ISEND], NULL, m->warnings, sizeof m->warnings);
    m->have[OP_ISEND] = 1;
  }

  /* The model's segments: every op's breakpoints, plus A and D. */
  double *b = malloc((5 * 64 + 3) * sizeof *b);
  size_t nb = 0;
  for (int op = 0; op <= OP_COUNT; op++)
    for (size_t i = 0; m->have[op] && i + 1 < m->npieces[op]; i++)
      b[nb++] = m->pieces[op][i].hi;
  for (size_t i = 0; i < nAD; i++)
    b[nb++] = ADf[i];
  qsort(b, nb, sizeof *b, cmp_d);
  size_t u = 0;
  for (size_t i = 0; i < nb; i++)
    if (u == 0 || b[i] != b[u - 1])
      b[u++] = b[i];
  b[u++] = INFINITY;
  m->seg = calloc(u, sizeof *m->seg);
  m->nseg = u;
  for (size_t i = 0; i < u; i++) {
    struct segment *s = &m->seg[i];
    s->upto = b[i];
    /* A point inside the segment, to pick each op's piece. */
    double k = isinf(b[i]) ? (u > 1 ? b[u - 2] + 1 : 1) : b[i];
    const hnm_fit_piece *p = &m->pieces[OP_COUNT][piece_index(m->pieces[OP_COUNT], m->npieces[OP_COUNT], k)];
    s->lat = p->a > 0 ? p->a : 0;
    s->bw = p->b > 1 / HNM_MAX_BANDWIDTH ? 1 / p->b : HNM_MAX_BANDWIDTH;
    if (m->have[OP_SEND] && k <= m->detached) {
      p = &m->pieces[OP_SEND][piece_index(m->pieces[OP_SEND], m->npieces[OP_SEND], k)];
      s->so = p->a > 0 ? p->a : 0;
      s->sb = p->b > 0 ? p->b : 0;
    }
    if (m->have[OP_RECV] && k <= m->async) {
      p = &m->pieces[OP_RECV][piece_index(m->pieces[OP_RECV], m->npieces[OP_RECV], k)];
      s->ro = p->a > 0 ? p->a : 0;
      s->rb = p->b > 0 ? p->b : 0;
    }
    if (m->have[OP_ISEND]) {
      p = &m->pieces[OP_ISEND][piece_index(m->pieces[OP_ISEND], m->npieces[OP_ISEND], k)];
      s->io = p->a > 0 ? p->a : 0;
      s->ib = p->b > 0 ? p->b : 0;
    }
  }
  free(b);

  /* Single-segment comparisons. Fluid: one line L + k/B through all of
   * rtt/2. LogGPS: o_s + k O_s on send and o_r + k O_r on recv (k <= S =
   * D), o their mean intercept; the per-byte total G + O_s + O_r is the
   * fluid slope (so that large messages keep the right rate), O_s and O_r
   * scaled down if they exceed it, L = fluid intercept - 2 o, g = G. */
  {
    hnm_fit_options one = {0, 1, 1, NULL, 0, 1, a->noise_floor};
    hnm_fit_piece pc;
    size_t np;
    double sg;
    char err[256];
    double S = m->detached;
    struct series *ss = &in->op[OP_SEND], *rr = &in->op[OP_RECV];
    size_t cap = pp->n > ss->n ? pp->n : ss->n;
    cap = cap > rr->n ? cap : rr->n;
    double *k = malloc(cap * sizeof *k), *y = malloc(cap * sizeof *y);
    for (size_t i = 0; i < pp->n; i++)
      k[i] = pp->k[i], y[i] = pp->y[i] / 2;
    double P = 0;
    m->fl_L = 0;
    m->fl_B = HNM_MAX_BANDWIDTH;
    if (hnm_fit_segments(k, y, pp->n, &one, &pc, 1, &np, &sg, err, sizeof err) == 0) {
      m->fl_L = fmax(0, pc.a);
      m->fl_B = pc.b > 1 / HNM_MAX_BANDWIDTH ? 1 / pc.b : HNM_MAX_BANDWIDTH;
      P = fmax(0, pc.b);
    }
    double os = 0, Os = 0, orr = 0, Or = 0;
    size_t n = 0;
    for (size_t i = 0; i < ss->n; i++)
      if (ss->k[i] <= S)
        k[n] = ss->k[i], y[n++] = ss->y[i];
    if (n > 0 && hnm_fit_segments(k, y, n, &one, &pc, 1, &np, &sg, err, sizeof err) == 0)
      os = fmax(0, pc.a), Os = fmax(0, pc.b);
    n = 0;
    for (size_t i = 0; i < rr->n; i++)
      if (rr->k[i] <= S)
        k[n] = rr->k[i], y[n++] = rr->y[i];
    if (n > 0 && hnm_fit_segments(k, y, n, &one, &pc, 1, &np, &sg, err, sizeof err) == 0)
      orr = fmax(0, pc.a), Or = fmax(0, pc.b);
    if (Os + Or > P && Os + Or > 0) {
      double f = P / (Os + Or);
      Os *= f;
      Or *= f;
    }
    m->lg_o = 0.5 * (os + orr);
    m->lg_Os = Os;
    m->lg_Or = Or;
    m->lg_G = fmax(0, P - Os - Or);
    m->lg_L = fmax(0, m->fl_L - 2 * m->lg_o);
    free(k);
    free(y);
  }
  free(t);

  /* Limiter: per-node B_s + B_r with one bidirectional pair, against the
   * one-way bandwidth B. SimGrid scales a flow's max-min share by its
   * bandwidth factor (bw-factor = B / B_link for the fitted absolute
   * bandwidth), so a limiter of f x B_link gives B_s + B_r = f x B: the
   * factor is the measured ratio, whatever the platform's B_link. */
  m->limiter = -1;
  if (in->ncont > 0) {
    /* Per rank (0 and 1 of the first pair), the median over repetitions;
     * then the smaller of the two: a rank that left the barrier first
     * also counts the wait for its peer. */
    double *v = malloc(in->ncont * sizeof *v), med[2][2] = {{0, 0}, {0, 0}};
    double M = 0;
    for (int bi = 0; bi < 2; bi++)
      for (int r = 0; r < 2; r++) {
        size_t nv = 0;
        for (size_t i = 0; i < in->ncont; i++) {
          const struct cont_row *c = &in->cont[i];
          if (c->pairs == 1 && c->bi == bi && c->rank == r) {
            v[nv++] = c->duration;
            M = c->size;
          }
        }
        if (nv == 0) {
          fprintf(stderr, PROG ": %s:%ld: contention probe without %s rows for rank %d of 1 pair\n",
                  in->cont_file, in->cont_line, bi ? "bi" : "uni", r);
          exit(2);
        }
        med[bi][r] = hnm_fit_median(v, nv);
      }
    free(v);
    const struct segment *s = seg_of(m, M);
    double tu = fmin(med[0][0], med[0][1]) - s->lat, tb = fmin(med[1][0], med[1][1]) - s->lat;
    if (!(tu > 0 && tb > 0)) {
      /* The probe's messages were too small for their transfer time to
       * stand out of the latency noise (typical on one machine, where the
       * copies go through memory). Without a measured B_s + B_r nothing
       * supports a factor: keep the limiters the platform declares. */
      size_t used = strlen(m->warnings);
      snprintf(m->warnings + used, sizeof m->warnings - used,
               "warning: %s: contention durations at %.0f B not above the fitted latency (%.3g s): no "
               "limiter fitted, the platform's limiters kept as declared (rerun the probe with larger "
               "messages to fit one)\n",
               in->cont_file, M, s->lat);
      return;
    }
    m->cont_size = M;
    m->buni = M / tu;
    m->bsr = 2 * M / tb;
    m->limiter = m->bsr / m->buni;
    /* The limiter is shared by a node's in and out flows: below 1 it would
     * also slow a one-way transfer under the fitted B (which the model's own
     * one-way fit contradicts); above 2 it never binds. Kept in [1, 2]. */
    if (m->limiter < 1 || m->limiter > 2) {
      double f = m->limiter < 1 ? 1 : 2;
      size_t used = strlen(m->warnings);
      snprintf(m->warnings + used, sizeof m->warnings - used,
               "warning: contention: B_s + B_r = %.3g x the one-way bandwidth, outside [1, 2] where a node "
               "limiter can express it; limiter factor set to %g\n",
               m->limiter, f);
      m->limiter = f;
    }
  }
}

/* The fitted values within the ranges a model file accepts
 * (docs/model-format.md): otherwise the measurements are not of a network,
 * and nothing is written. */
#define FIT_MAX_TIME 1.0         /* seconds, or seconds per byte */
#define FIT_MAX_BANDWIDTH HNM_MAX_BANDWIDTH /* bytes per second: "no limit" */

/* " for sizes up to N B", or "" for the last segment. */
static const char *sizes_upto(double upto, char *buf, size_t len)
{
  if (isinf(upto))
    return "";
  snprintf(buf, len, " for sizes up to %.0f B", upto);
  return buf;
}

static void check_time(const char *what, double v, double upto)
{
  char where[64];
  if (!(v >= 0 && v <= FIT_MAX_TIME))
    die("the measurements fit a %s of %.3g s%s, outside [0, %g s]: not a network's (check the CSV files)", what, v,
        sizes_upto(upto, where, sizeof where), FIT_MAX_TIME);
}

static void check_fitted(const struct fitted *m)
{
  for (size_t i = 0; i < m->nseg; i++) {
    const struct segment *g = &m->seg[i];
    char where[64];
    if (!(g->bw > 0 && g->bw <= FIT_MAX_BANDWIDTH))
      die("the measurements fit a bandwidth of %.3g B/s%s, outside (0, %g B/s]: not a network's (check the CSV "
          "files)",
          g->bw, sizes_upto(g->upto, where, sizeof where), FIT_MAX_BANDWIDTH);
    check_time("latency", g->lat, g->upto);
    const double o[] = {g->so, g->sb, g->ro, g->rb, g->io, g->ib};
    for (size_t j = 0; j < sizeof o / sizeof o[0]; j++)
      check_time("software overhead", o[j], g->upto);
  }
  const double t[] = {m->lg_L, m->lg_o, m->lg_G, m->lg_Os, m->lg_Or, m->fl_L};
  for (size_t j = 0; j < sizeof t / sizeof t[0]; j++)
    check_time("LogGPS or fluid time", t[j], INFINITY);
  if (!(m->fl_B > 0 && m->fl_B <= FIT_MAX_BANDWIDTH))
    die("the measurements fit a fluid bandwidth of %.3g B/s, outside (0, %g B/s]: not a network's (check the "
        "CSV files)",
        m->fl_B, FIT_MAX_BANDWIDTH);
}

/* Write FILE atomically: callback into a temp file, then rename. */
static FILE *tmp_open(const char *path, char *tmp, size_t cap)
{
  snprintf(tmp, cap, "%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (f == NULL)
    die("%s: cannot write: %s", tmp, strerror(errno));
  return f;
}
static void tmp_commit(FILE *f, const char *tmp, const char *path)
{
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    remove(tmp);
    die("%s: cannot write", path);
  }
}

static void write_size(FILE *f, double v)
{
  if (v < 0)
    fprintf(f, "none");
  else
    fprintf(f, "%.0f", v);
}

static void write_hybrid(FILE *f, const struct fitted *m, const char *name)
{
  fprintf(f, "<?xml version=\"1.0\"?>\n<!DOCTYPE hnm-model SYSTEM \"hnm-model.dtd\">\n");
  fprintf(f, "<hnm-model name=\"%s\" version=\"1\">\n", name);
  fprintf(f, "  <description>Hybrid model fitted by hnm-calibrate from %d CSV file(s) (see its report)</description>\n",
          m->nfiles);
  fprintf(f, "  <protocol async=\"");
  write_size(f, m->async);
  fprintf(f, "\" detached=\"");
  write_size(f, m->detached);
  fprintf(f, "\"/>\n");
  if (m->limiter > 0)
    fprintf(f, "  <limiter factor=\"%.17g\"/>\n", m->limiter);
  fprintf(f, "  <sharing contention=\"maxmin\" crosstraffic=\"off\"/>\n  <segments route=\"any\">\n");
  for (size_t i = 0; i < m->nseg; i++) {
    const struct segment *s = &m->seg[i];
    fprintf(f, "    <segment upto=\"");
    if (isinf(s->upto))
      fprintf(f, "inf");
    else
      fprintf(f, "%.0f", s->upto);
    fprintf(f, "\" latency=\"%.17gs\" bandwidth=\"%.17gBps\"", s->lat, s->bw);
    fprintf(f, " send-o=\"%.17gs\" send-per-byte=\"%.17gs\" recv-o=\"%.17gs\" recv-per-byte=\"%.17gs\"", s->so,
            s->sb, s->ro, s->rb);
    fprintf(f, " isend-o=\"%.17gs\" isend-per-byte=\"%.17gs\"/>\n", s->io, s->ib);
  }
  fprintf(f, "  </segments>\n</hnm-model>\n");
}

static void write_loggps(FILE *f, const struct fitted *m, const char *name)
{
  fprintf(f, "<?xml version=\"1.0\"?>\n<hnm-model name=\"%s-loggps\" version=\"1\">\n", name);
  fprintf(f, "  <description>Single-segment LogGPS fit by hnm-calibrate (g = G, s = 0, S = detached)</description>\n");
  fprintf(f, "  <loggps L=\"%.17gs\" o=\"%.17gs\" g=\"%.17gs\" G=\"%.17gs\" s=\"0\" S=\"%.0f\" Os=\"%.17gs\" Or=\"%.17gs\"/>\n",
          m->lg_L, m->lg_o, m->lg_G, m->lg_G, m->detached > 0 ? m->detached : 0, m->lg_Os, m->lg_Or);
  fprintf(f, "</hnm-model>\n");
}

static void write_fluid(FILE *f, const struct fitted *m, const char *name)
{
  fprintf(f, "<?xml version=\"1.0\"?>\n<hnm-model name=\"%s-fluid\" version=\"1\">\n", name);
  fprintf(f, "  <description>Fluid fit by hnm-calibrate: latency + bandwidth only</description>\n");
  fprintf(f, "  <protocol async=\"");
  write_size(f, m->async);
  fprintf(f, "\" detached=\"");
  write_size(f, m->detached);
  fprintf(f, "\"/>\n  <limiter factor=\"off\"/>\n  <sharing contention=\"maxmin\" crosstraffic=\"off\"/>\n");
  fprintf(f, "  <segments route=\"any\">\n    <segment upto=\"inf\" latency=\"%.17gs\" bandwidth=\"%.17gBps\"/>\n",
          m->fl_L, m->fl_B);
  fprintf(f, "  </segments>\n</hnm-model>\n");
}

/* Write a model through a temp file, load it back with hnm's own loader
 * (so that nothing hnm-run would refuse is ever written), then rename. */
static void write_model(const char *path, void (*writer)(FILE *, const struct fitted *, const char *),
                        const struct fitted *m, const char *name)
{
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld.xml", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (f == NULL)
    die("%s: cannot write: %s", tmp, strerror(errno));
  writer(f, m, name);
  if (fclose(f) != 0)
    die("%s: cannot write", tmp);
  hnm_error err;
  hnm_model *chk = hnm_model_load(tmp, &err);
  if (chk == NULL) {
    remove(tmp);
    die("internal error: the fitted model does not load: %s", err.msg);
  }
  hnm_model_free(chk);
  if (rename(tmp, path) != 0) {
    remove(tmp);
    die("%s: cannot write", path);
  }
}

/* Median relative error of a predictor over the raw points of op, per size
 * decade [10^d, 10^(d+1)). */
typedef double (*predictor)(const struct fitted *, int, double);

static void decade_errors(const struct series *s, const struct fitted *m, predictor pr, int op, double *err,
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
        buf[c++] = fabs(pr(m, op, k) - med) / med;
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

static void write_report(const char *dir, const struct fitted *m, struct inputs *in, const char *model_path,
                         int plots)
{
  char path[4200], tmp[4300];
  snprintf(path, sizeof path, "%s/report.txt", dir);
  FILE *f = tmp_open(path, tmp, sizeof tmp);
  fprintf(f, "hnm-calibrate fit report for %s\n\n", model_path);
  fprintf(f, "Protocol: eager (async) up to ");
  write_size(f, m->async);
  fprintf(f, " B, detached up to ");
  write_size(f, m->detached);
  fprintf(f, " B, rendez-vous above\n");
  if (m->limiter > 0)
    fprintf(f, "Contention (1 pair, %.0f B): one-way %.6g B/s, B_s + B_r = %.6g B/s per node -> limiter factor %.6g\n",
            m->cont_size, m->buni, m->bsr, m->limiter);
  else
    fprintf(f, "Contention: no probe, limiter left as the platform declares it (keep)\n");
  if (m->limiter > 0) {
    /* Every pair count: per rank B_s + B_r (median over the active ranks
     * and repetitions of 2 size / (duration - L)), against one-way B. */
    int maxp = 0;
    for (size_t i = 0; i < in->ncont; i++)
      maxp = in->cont[i].pairs > maxp ? in->cont[i].pairs : maxp;
    double *v = malloc((in->ncont + 1) * sizeof *v);
    double L = seg_of(m, m->cont_size)->lat;
    fprintf(f, "  per rank (per node when each rank has a node of its own):\n  %-6s %18s %10s\n", "pairs",
            "B_s + B_r (B/s)", "/ B");
    for (int np = 1; np <= maxp; np++) {
      size_t nv = 0;
      for (size_t i = 0; i < in->ncont; i++)
        if (in->cont[i].pairs == np && in->cont[i].bi && in->cont[i].duration > L)
          v[nv++] = 2 * in->cont[i].size / (in->cont[i].duration - L);
      if (nv > 0) {
        double b = hnm_fit_median(v, nv);
        fprintf(f, "  %-6d %18.6g %10.4g\n", np, b, b / m->buni);
      }
    }
    free(v);
  }
  if (m->warnings[0])
    fprintf(f, "%s", m->warnings);
  if (m->overlap_scale < 1)
    fprintf(f, "Overlap correction: send + late recv exceed the one-way time; both overheads scaled by %.4g\n"
               "(the tables below show the scaled coefficients)\n",
            m->overlap_scale);
  if (m->have[OP_SEND])
    report_piece_table(f, "send (o_s + k O_s), k <= detached", m->pieces[OP_SEND], m->npieces[OP_SEND],
                       m->sigma[OP_SEND]);
  if (m->have[OP_RECV])
    report_piece_table(f, "recv (o_r + k O_r), k <= async", m->pieces[OP_RECV], m->npieces[OP_RECV],
                       m->sigma[OP_RECV]);
  report_piece_table(f, "transfer T = L + k/B (ping-pong / 2 minus overheads)", m->pieces[OP_COUNT],
                     m->npieces[OP_COUNT], m->sigma[OP_COUNT]);
  if (m->have[OP_ISEND])
    report_piece_table(f, "isend (o + k O)", m->pieces[OP_ISEND], m->npieces[OP_ISEND], m->sigma[OP_ISEND]);

  fprintf(f, "\nModel segments\n  %-12s %12s %14s %11s %11s %11s %11s\n", "upto (B)", "latency (s)",
          "bandwidth (B/s)", "send-o", "send/B", "recv-o", "recv/B");
  for (size_t i = 0; i < m->nseg; i++) {
    const struct segment *s = &m->seg[i];
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
          m->lg_L, m->lg_o, m->lg_G, m->lg_Os, m->lg_Or, m->detached, m->fl_L, m->fl_B);
  fprintf(f, "\nMedian relative error of each model's closed form (what SMPI computes) against the\n"
             "measurements (per size: |model - median| / median; median over the decade's sizes), in-sample:\n");
  static const predictor prs[3] = {hybrid_predict, loggps_predict, fluid_predict};
  for (int op = OP_SEND; op <= OP_PINGPONG; op++) {
    double e[3][12];
    size_t c[3][12];
    for (int p = 0; p < 3; p++)
      decade_errors(&in->op[op], m, prs[p], op, e[p], c[p], 12);
    fprintf(f, "  %-9s %-10s %7s %9s %9s %9s\n", op_names[op], "decade", "points", "hybrid", "loggps", "fluid");
    for (int d = 0; d < 12; d++)
      if (c[0][d] > 0)
        fprintf(f, "  %-9s 1e%d-1e%-4d %7zu %8.2f%% %8.2f%% %8.2f%%\n", "", d, d + 1, c[0][d], 100 * e[0][d],
                100 * e[1][d], 100 * e[2][d]);
  }
  tmp_commit(f, tmp, path);

  if (!plots)
    return;
  /* Plots: raw measurements coloured by model segment, the model's line per
   * segment, log-log (seed 002 Figure 4). */
  for (int op = OP_SEND; op <= OP_ISEND; op++) {
    const struct series *s = &in->op[op];
    if (s->n == 0 || (op == OP_ISEND && !m->have[OP_ISEND]))
      continue;
    char dat[4200], gp[4200], png[4200];
    snprintf(dat, sizeof dat, "%s/%s.dat", dir, op_names[op]);
    snprintf(gp, sizeof gp, "%s/%s.gp", dir, op_names[op]);
    snprintf(png, sizeof png, "%s/%s.png", dir, op_names[op]);
    FILE *d = fopen(dat, "w");
    if (d == NULL)
      die("%s: cannot write", dat);
    /* index 2i: points of segment i; index 2i+1: its model line. */
    double lo = 0;
    double kmax = 1;
    for (size_t i = 0; i < s->n; i++)
      kmax = s->k[i] > kmax ? s->k[i] : kmax;
    for (size_t g = 0; g < m->nseg; g++) {
      double hi = isinf(m->seg[g].upto) || m->seg[g].upto > kmax ? kmax : m->seg[g].upto;
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
        double v = hybrid_predict(m, op, k);
        fprintf(d, "%.17g %.17g\n", k, v > 0 ? v : NAN);
      }
      fprintf(d, "\n\n");
      lo = hi;
    }
    fclose(d);
    FILE *g = fopen(gp, "w");
    if (g == NULL)
      die("%s: cannot write", gp);
    fprintf(g, "set terminal png size 1000,650\nset output '%s'\nset logscale xy\nset key left top\n"
               "set xlabel 'message size (bytes)'\nset ylabel '%s duration (s)'\nset title '%s: raw measurements and "
               "fitted hybrid model'\nplot ",
            png, op_names[op], op_names[op]);
    for (size_t k = 0; k < m->nseg; k++) {
      char title[96];
      double from = k ? m->seg[k - 1].upto : 0;
      if (isinf(m->seg[k].upto))
        snprintf(title, sizeof title, "k > %.0f", from);
      else
        snprintf(title, sizeof title, "%.0f < k <= %.0f", from, m->seg[k].upto);
      fprintf(g, "%s'%s' index %zu with points pt 7 ps 0.5 lc %zu title '%s', '%s' index %zu with lines lw 2 "
                 "lc %zu notitle",
              k ? ", " : "", dat, 2 * k, k + 1, title, dat, 2 * k + 1, k + 1);
    }
    fprintf(g, "\n");
    fclose(g);
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", gp);
    if (system(cmd) != 0)
      fprintf(stderr, PROG ": warning: gnuplot failed on %s (plots skipped)\n", gp);
  }
}

static double parse_size_opt(const char *opt, const char *v)
{
  if (strcmp(v, "none") == 0)
    return -1;
  double b;
  char err[256];
  if (hnm_parse_size(v, &b, err, sizeof err) != 0 && !(parse_field(v, &b)))
    die("%s: '%s': not a size (%s)", opt, v, err);
  if (b != floor(b) || b < 0)
    die("%s: '%s': not a whole number of bytes", opt, v);
  return b;
}

static int usage_fit(FILE *f)
{
  fprintf(f,
          "usage: hnm-calibrate fit [options] FILE.csv... -o MODEL.xml\n"
          "Reads the CSVs of `hnm-calibrate run` (p2p.csv, probe.csv, contention.csv; recognised by header)\n"
          "and writes a hybrid model file (docs/model-format.md) and a report directory.\n"
          "  -o FILE               model to write (required)\n"
          "  --report DIR          report directory (default: MODEL without .xml, plus -report):\n"
          "                        report.txt, PNG plots per operation, loggps.xml and fluid.xml fits\n"
          "  --name NAME           model name (default: calibrated)\n"
          "  --breakpoints LIST    force breakpoints (comma-separated sizes: k <= b and k > b split)\n"
          "  --only-breakpoints    no breakpoint other than the forced ones and the protocol thresholds\n"
          "  --protocol A,D        force the async and detached thresholds (sizes or none)\n"
          "  --penalty X           per-segment penalty in noise units (default 3 ln n)\n"
          "  --max-segments N      per operation (default 8)\n"
          "  --min-sizes N         distinct sizes per segment (default 2)\n"
          "  --noise-floor X       lowest relative noise assumed (default 5e-3)\n"
          "  --no-plots            skip gnuplot\n");
  return 0;
}

static int cmd_fit(int argc, char **argv)
{
  struct fit_args a = {0};
  a.name = "calibrated";
  a.force_async = a.force_detached = -2;
  a.plots = 1;
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  int nfiles = 0;
  double forced[64];
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0)
      return usage_fit(stdout);
    if (o[0] != '-') {
      files[nfiles++] = o;
      continue;
    }
    if (strcmp(o, "--only-breakpoints") == 0) {
      a.forced_only = 1;
      continue;
    }
    if (strcmp(o, "--no-plots") == 0) {
      a.plots = 0;
      continue;
    }
    if (v == NULL)
      die("fit: %s: unknown option or missing value (see fit --help)", o);
    i++;
    char err[256];
    if (strcmp(o, "-o") == 0)
      a.out = v;
    else if (strcmp(o, "--report") == 0)
      a.report = v;
    else if (strcmp(o, "--name") == 0) {
      if (*v == '\0' || strpbrk(v, "<>&\"'") != NULL)
        die("--name: '%s': empty or has XML special characters", v);
      a.name = v;
    } else if (strcmp(o, "--breakpoints") == 0) {
      char buf[4096];
      snprintf(buf, sizeof buf, "%s", v);
      a.nforced = 0;
      for (char *sv, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
        if (a.nforced == 40)
          die("--breakpoints: at most 40");
        double b = parse_size_opt("--breakpoints", t);
        if (b < 0)
          die("--breakpoints: 'none' is not a breakpoint");
        forced[a.nforced++] = b;
      }
      a.forced = forced;
    } else if (strcmp(o, "--protocol") == 0) {
      char buf[256];
      snprintf(buf, sizeof buf, "%s", v);
      char *c = strchr(buf, ',');
      if (c == NULL)
        die("--protocol: '%s': expected ASYNC,DETACHED", v);
      *c = '\0';
      a.force_async = parse_size_opt("--protocol", buf);
      a.force_detached = parse_size_opt("--protocol", c + 1);
      if (a.force_async >= 0 && (a.force_detached < 0 || a.force_async > a.force_detached))
        die("--protocol: '%s': async > detached", v);
    } else if (strcmp(o, "--penalty") == 0) {
      if (hnm_parse_number(v, &a.penalty, err, sizeof err) != 0 || !(a.penalty > 0))
        die("--penalty: '%s': not a number > 0", v);
    } else if (strcmp(o, "--noise-floor") == 0) {
      if (hnm_parse_number(v, &a.noise_floor, err, sizeof err) != 0 || !(a.noise_floor > 0))
        die("--noise-floor: '%s': not a number > 0", v);
    } else if (strcmp(o, "--max-segments") == 0 || strcmp(o, "--min-sizes") == 0) {
      char *end;
      long n = strtol(v, &end, 10);
      if (*v == '\0' || *end != '\0' || n < 1 || n > 64)
        die("%s: '%s': not a whole number in [1, 64]", o, v);
      if (o[2] == 'm' && o[3] == 'a')
        a.max_segments = (int)n;
      else
        a.min_sizes = (int)n;
    } else
      die("fit: %s: unknown option (see fit --help)", o);
  }
  if (a.out == NULL)
    die("fit: -o MODEL.xml is required");
  if (nfiles == 0)
    die("fit: no CSV file given");
  char report[4200];
  if (a.report == NULL) {
    size_t l = strlen(a.out);
    if (l > 4 && strcmp(a.out + l - 4, ".xml") == 0)
      l -= 4;
    snprintf(report, sizeof report, "%.*s-report", (int)l, a.out);
    a.report = report;
  }
  /* The same measurements twice would count double in every median. */
  struct stat *seen = calloc((size_t)nfiles + 1, sizeof *seen);
  if (seen == NULL)
    die("out of memory");
  for (int i = 0; i < nfiles; i++) {
    if (stat(files[i], &seen[i]) != 0)
      die("%s: cannot open: %s", files[i], strerror(errno));
    for (int j = 0; j < i; j++)
      if (seen[j].st_dev == seen[i].st_dev && seen[j].st_ino == seen[i].st_ino)
        die("%s: the same file as %s, given twice", files[i], files[j]);
  }
  free(seen);
  struct inputs in;
  memset(&in, 0, sizeof in);
  for (int i = 0; i < nfiles; i++)
    read_csv(files[i], &in);
  struct fitted m;
  fit_model(&in, &a, &m);
  m.nfiles = nfiles;
  check_fitted(&m);
  if (mkdir_p(a.report) != 0)
    die("--report: %s: cannot create: %s", a.report, strerror(errno));
  char p[4300];
  snprintf(p, sizeof p, "%s/loggps.xml", a.report);
  write_model(p, write_loggps, &m, a.name);
  snprintf(p, sizeof p, "%s/fluid.xml", a.report);
  write_model(p, write_fluid, &m, a.name);
  write_report(a.report, &m, &in, a.out, a.plots);
  write_model(a.out, write_hybrid, &m, a.name);
  for (char *w = m.warnings, *e; *w; w = e + 1) {
    e = strchr(w, '\n');
    fprintf(stderr, PROG ": %.*s\n", (int)(e - w), w);
  }
  fprintf(stderr, PROG ": wrote %s (%zu segments) and %s/\n", a.out, m.nseg, a.report);
  free(files);
  inputs_free(&in);
  free(m.seg);
  return 0;
}

/* ----------------------------------------------------------- compare -- */

static int decade_of(double k) { return k < 1 ? 0 : (int)floor(log10(k) + 1e-12); }

static int cmd_compare(int argc, char **argv)
{
  if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    printf("usage: hnm-calibrate compare REAL.csv NAME=SIM.csv...\n"
           "Errors of each simulation against the real measurements, per op (send, recv, pingpong)\n"
           "and size decade [10^d, 10^(d+1)), two statistics per model:\n"
           "  abs:NAME   median over the decade's distinct sizes k of\n"
           "             |median sim(k) - median real(k)| / median real(k)\n"
           "  bias:NAME  median over the decade's real rows y of (median sim(k) - y) / y (signed)\n"
           "`points` counts real rows; `se` is how precisely the real medians are known (median over\n"
           "the sizes of 1.2533 x 1.4826 x MAD / median / sqrt(n), the standard error of a median).\n"
           "Both runs must use the same sizes (--min --max --sizes --seed).\n");
    return 0;
  }
  if (argc < 3)
    die("compare: need REAL.csv and at least one NAME=SIM.csv");
  int ns = argc - 2;
  struct inputs *in = calloc((size_t)ns + 1, sizeof *in);
  const char **names = calloc((size_t)ns, sizeof *names);
  read_csv(argv[1], &in[0]);
  for (int i = 0; i < ns; i++) {
    char *eq = strchr(argv[i + 2], '=');
    if (eq == NULL || eq == argv[i + 2])
      die("compare: '%s': expected NAME=SIM.csv", argv[i + 2]);
    *eq = '\0';
    names[i] = argv[i + 2];
    read_csv(eq + 1, &in[i + 1]);
  }
  for (int op = OP_SEND; op <= OP_PINGPONG; op++) {
    struct series *r = &in[0].op[op];
    if (r->n == 0)
      continue;
    /* Per real row: the median of its size's real and simulated values. */
    double *rmed = malloc(r->n * sizeof *rmed), *smed = malloc((size_t)ns * r->n * sizeof *smed);
    double *v = NULL;
    size_t cap = 0;
    for (size_t j = 0; j < r->n; j++) {
      for (int i = -1; i < ns; i++) {
        struct series *s = i < 0 ? r : &in[i + 1].op[op];
        if (s->n + 1 > cap) {
          cap = s->n + 1;
          v = realloc(v, cap * sizeof *v);
        }
        size_t m = 0;
        for (size_t q = 0; q < s->n; q++)
          if (s->k[q] == r->k[j])
            v[m++] = s->y[q];
        if (m == 0)
          die("compare: %s has no '%s' measurement of %.0f bytes (run both with the same --min --max --sizes "
              "--seed)",
              argv[i + 2] + strlen(argv[i + 2]) + 1, op_names[op], r->k[j]);
        double med = hnm_fit_median(v, m);
        if (i < 0)
          rmed[j] = med;
        else
          smed[(size_t)i * r->n + j] = med;
      }
    }
    printf("%-9s %-10s %7s %8s", op_names[op], "decade", "points", "se");
    for (int st = 0; st < 2; st++)
      for (int i = 0; i < ns; i++) {
        char h[64];
        snprintf(h, sizeof h, "%s:%s", st ? "bias" : "abs", names[i]);
        printf(" %12s", h);
      }
    printf("\n");
    double *buf = malloc(r->n * sizeof *buf);
    for (int d = 0; d < 12; d++) {
      size_t rows = 0;
      for (size_t j = 0; j < r->n; j++)
        rows += decade_of(r->k[j]) == d;
      if (rows == 0)
        continue;
      printf("%-9s 1e%d-1e%-4d %7zu", "", d, d + 1, rows);
      /* se: how precisely the real medians are known, the median over the
       * decade's sizes of 1.2533 x 1.4826 x MAD / median / sqrt(n) (the
       * standard error of a median of n samples of that spread). */
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
              v[m++] = fabs(r->y[q] - rmed[j]);
          buf[c++] = 1.2533 * 1.4826 * hnm_fit_median(v, m) / rmed[j] / sqrt((double)m);
        }
        printf(" %7.2f%%", 100 * hnm_fit_median(buf, c));
      }
      for (int st = 0; st < 2; st++)
        for (int i = 0; i < ns; i++) {
          size_t c = 0;
          for (size_t j = 0; j < r->n; j++) {
            if (decade_of(r->k[j]) != d)
              continue;
            double sim = smed[(size_t)i * r->n + j];
            if (st == 1) {
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
          printf(" %11.2f%%", 100 * hnm_fit_median(buf, c));
        }
      printf("\n");
    }
    free(buf);
    free(v);
    free(rmed);
    free(smed);
  }
  free(in);
  free(names);
  return 0;
}

/* --------------------------------------------------------------- run -- */

static int usage_run(FILE *f)
{
  fprintf(f,
          "usage: hnm-calibrate run [options] [-- benchmark options]\n"
          "Runs apps/calibrate (see `calibrate -h` for its options: --min, --max, --sizes, --reps, ...)\n"
          "and leaves p2p.csv, probe.csv, contention.csv in DIR.\n"
          "  -d DIR            output directory (default .; created if missing)\n"
          "  -np N             ranks (default 2; the contention probe uses N/2 pairs)\n"
          "  --mpirun CMD      real run launcher, split on spaces (default 'mpirun'), e.g.\n"
          "                    'mpirun --allow-run-as-root --mca btl self,vader'\n"
          "  --simulate        run under hnm-run instead, with:\n"
          "  --model M  -platform P.xml  -hostfile H   (as hnm-run)\n"
          "  --bench PATH      benchmark binary (default: the build's apps/calibrate[-mpi])\n"
          "  --progress        progress on stderr (default: when stderr is a terminal)\n");
  return 0;
}

/* hnm-run --dry-run with the simulation's arguments AV (AV[0] is hnm-run):
 * model, platform, hostfile and -np checked before the benchmark starts or
 * anything is written; hnm-run's one-line reason goes to stderr. 0 if valid. */
static int simulate_check(char **av)
{
  int n = 0;
  while (av[n] != NULL)
    n++;
  char **dry = calloc((size_t)n + 2, sizeof *dry);
  if (dry == NULL)
    die("out of memory");
  dry[0] = av[0];
  dry[1] = "--dry-run";
  memcpy(dry + 2, av + 1, (size_t)n * sizeof *dry);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    die("fork: %s", strerror(errno));
  if (pid == 0) {
    int nul = open("/dev/null", O_WRONLY);
    if (nul >= 0)
      dup2(nul, 1);
    execv(dry[0], dry);
    fprintf(stderr, PROG ": %s: %s\n", dry[0], strerror(errno));
    _exit(2);
  }
  free(dry);
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      die("waitpid: %s", strerror(errno));
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int cmd_run(int argc, char **argv)
{
  const char *dir = ".", *mpirun = "mpirun", *model = NULL, *platform = NULL, *hostfile = NULL, *bench = NULL;
  int simulate = 0, progress = isatty(2);
  long np = 2;
  int i = 1;
  for (; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(o, "--") == 0) {
      i++;
      break;
    }
    if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0)
      return usage_run(stdout);
    if (strcmp(o, "--simulate") == 0) {
      simulate = 1;
      continue;
    }
    if (strcmp(o, "--progress") == 0) {
      progress = 1;
      continue;
    }
    if (v == NULL)
      die("run: %s: unknown option or missing value (see run --help)", o);
    i++;
    if (strcmp(o, "-d") == 0)
      dir = v;
    else if (strcmp(o, "--mpirun") == 0)
      mpirun = v;
    else if (strcmp(o, "--model") == 0)
      model = v;
    else if (strcmp(o, "-platform") == 0)
      platform = v;
    else if (strcmp(o, "-hostfile") == 0)
      hostfile = v;
    else if (strcmp(o, "--bench") == 0)
      bench = v;
    else if (strcmp(o, "-np") == 0) {
      char *end;
      np = strtol(v, &end, 10);
      if (*v == '\0' || *end != '\0' || np < 2 || np > 1000000)
        die("-np: '%s': not a whole number >= 2", v);
    } else
      die("run: %s: unknown option (see run --help)", o);
  }
  if (simulate && (model == NULL || platform == NULL || hostfile == NULL))
    die("run --simulate: --model, -platform and -hostfile are all required");
  if (!simulate && (model || platform || hostfile))
    die("run: --model, -platform and -hostfile need --simulate");
  if (bench == NULL)
    bench = simulate ? HNM_CALIBRATE_BENCH_SMPI : HNM_CALIBRATE_BENCH_MPI;
  if (access(bench, X_OK) != 0)
    die("--bench: %s: not an executable (build apps/calibrate)", bench);

  char **av = calloc((size_t)argc + 64, sizeof *av);
  int n = 0;
  char nps[32];
  snprintf(nps, sizeof nps, "%ld", np);
  char *launcher = NULL;
  if (simulate) {
    av[n++] = HNM_RUN_PATH;
    av[n++] = "--model";
    av[n++] = (char *)model;
    av[n++] = "-platform";
    av[n++] = (char *)platform;
    av[n++] = "-hostfile";
    av[n++] = (char *)hostfile;
    av[n++] = "-np";
    av[n++] = nps;
    /* Time moves only through the network model: no benchmarked
     * computation, no time charged to MPI_Wtime. */
    av[n++] = "--cfg=smpi/wtime:0";
    av[n++] = "--cfg=smpi/simulate-computation:no";
    av[n++] = "--log=root.thres:warning";
  } else {
    launcher = strdup(mpirun);
    for (char *sv, *t = strtok_r(launcher, " ", &sv); t != NULL && n < 40; t = strtok_r(NULL, " ", &sv))
      av[n++] = t;
    if (n == 0)
      die("--mpirun: empty command");
    av[n++] = "-np";
    av[n++] = nps;
  }
  av[n++] = (char *)bench;
  av[n++] = "-d";
  av[n++] = (char *)dir;
  if (progress)
    av[n++] = "--progress";
  for (; i < argc; i++)
    av[n++] = argv[i];
  av[n] = NULL;
  if (progress) {
    fprintf(stderr, PROG ":");
    for (int j = 0; j < n; j++)
      fprintf(stderr, " %s", av[j]);
    fprintf(stderr, "\n");
  }
  if (simulate && simulate_check(av) != 0)
    return 2; /* hnm-run said why, in one line */
  if (mkdir_p(dir) != 0)
    die("-d: %s: cannot create: %s", dir, strerror(errno));
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    die("fork: %s", strerror(errno));
  if (pid == 0) {
    execvp(av[0], av);
    fprintf(stderr, PROG ": %s: %s\n", av[0], strerror(errno));
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      die("waitpid: %s", strerror(errno));
  free(av);
  free(launcher);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, PROG ": the benchmark failed (status %d)\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128);
    return WIFEXITED(st) && WEXITSTATUS(st) == 2 ? 2 : 1;
  }
  /* SMPI's MPI_Abort exits 0: make sure the CSVs are there. */
  char p[4200];
  snprintf(p, sizeof p, "%s/p2p.csv", dir);
  if (access(p, R_OK) != 0)
    die("the benchmark wrote no %s", p);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    FILE *f = argc < 2 ? stderr : stdout;
    fprintf(f, "usage: hnm-calibrate run|fit|compare ... (hnm-calibrate CMD --help for each)\n"
               "  run      measure (real mpirun, or --simulate under hnm-run): p2p.csv probe.csv contention.csv\n"
               "  fit      CSVs -> hybrid model file + report (table, PNG plots, LogGPS and fluid fits)\n"
               "  compare  median relative error per size decade of simulations against real measurements\n");
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf(PROG " 0.1.0\n");
    return 0;
  }
  if (strcmp(argv[1], "run") == 0)
    return cmd_run(argc - 1, argv + 1);
  if (strcmp(argv[1], "fit") == 0)
    return cmd_fit(argc - 1, argv + 1);
  if (strcmp(argv[1], "compare") == 0)
    return cmd_compare(argc - 1, argv + 1);
  die("%s: unknown command (run, fit, compare)", argv[1]);
}
