/* hnm-linkplot -- pictures of link-load files (hnm-run --link-load).
 *
 *   hnm-linkplot map LOAD.csv -o PREFIX [--metric mean|peak] [--title TEXT]
 *   hnm-linkplot dist -o PREFIX [--metric mean|peak] [--roles R1,R2,...] [--title TEXT] LABEL=LOAD.csv ...
 *
 * map: a congestion map like Zheng & Marguinaud 2018, Fig. 7, chosen from
 * the roles in the file:
 *   dragonfly  (global links present): left, the group x group matrix of
 *              global-link utilisation (mean over the links between the two
 *              groups, from row to column); right, per group (row) and router
 *              (column) the largest utilisation of the router's outgoing
 *              local links;
 *   torus      per dimension (row) and host (column, the link's source) the
 *              largest utilisation of the host's outgoing links in that
 *              dimension;
 *   fat tree   per level and direction, the links' utilisations sorted.
 * Writes PREFIX.dat (the numbers plotted, gnuplot matrix/index blocks),
 * PREFIX.gp and PREFIX.png.
 *
 * dist: the distribution of link utilisations of several runs side by side:
 * PREFIX-cdf.png (empirical CDF, one curve per run) and PREFIX-hist.png
 * (histogram, bins of 0.05, fraction of links), over the links whose role
 * is in --roles (default: every network link, i.e. all but node-up,
 * node-down, node, loopback, limiter). Data in PREFIX-cdf.dat and
 * PREFIX-hist.dat.
 *
 * The command line comes from core's command and option tables (hnm_opt.h:
 * --help of the tool and of each command); the files are read with core's
 * CSV reader (hnm_csv.h), their columns are platforms/hnm_linkload_csv.h's.
 *
 * Exit status: 0; 2 on bad input (one line naming file, line and field;
 * nothing written); 1 if the work fails: an output that cannot be written
 * (a full disk), memory, or gnuplot (data and script are then written).
 * Every helper returns its error in err (include/hnm/hnm_error.h): 0/-1, or a
 * step's exit status; the commands print it once.
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_csv.h"
#include "hnm_gnuplot.h"
#include "hnm_input.h"
#include "hnm_linkload_csv.h"
#include "hnm_msg.h"
#include "hnm_out.h"
#include "hnm_opt.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "hnm-linkplot"

/* Bounds that keep time and memory small whatever the file says: a link's
 * coordinates (group, router, dimension, host, level) lie in [-1, MAX_INDEX],
 * and a map has at most MAX_CELLS cells (32 MiB of doubles, about 40 MB of
 * text), far above the largest platforms hnm-platform generates. */
#define MAX_INDEX 1048576L
#define MAX_CELLS (1L << 22)

struct row {
  char *role;
  long a, b, c;
  double mean, peak;
};

struct load {
  const char *label, *path;
  struct row *rows;
  size_t n;
};

/* Outputs go through hnm_out (symlinks kept, devices written through,
 * nothing but its own temporaries removed). out_open() returns the stream
 * and the handle in *o, or NULL with the reason in err. */
static FILE *out_open(const char *path, hnm_out **o, char *err, size_t errlen)
{
  if ((*o = hnm_out_open(path, "-o", err, errlen)) == NULL)
    return NULL;
  return hnm_out_file(*o);
}

/* A coordinate field: a whole number in [-1, MAX_INDEX]. */
static int index_field(const struct load *L, long lineno, const char *name, const char *v, long *out, char *err,
                       size_t errlen)
{
  char *end;
  errno = 0;
  long x = strtol(v, &end, 10);
  if (end == v || *end != '\0' || errno != 0 || x < -1 || x > MAX_INDEX)
    return hnm_fail(err, errlen, "%s:%ld: %s: '%.40s' is not a whole number from -1 to %ld", L->path, lineno, name, v,
                    MAX_INDEX);
  *out = x;
  return 0;
}

/* A number field in [LO, HI] (LO itself refused when LO_OPEN), a whole
 * number when WHOLE: the ranges of hnm_linkload_csv.h. */
static int range_field(const struct load *L, long lineno, const char *name, const char *v, double lo, int lo_open,
                       double hi, int whole, double *out, char *err, size_t errlen)
{
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (end == v || *end != '\0' || errno != 0 || !isfinite(x) || (whole && x != floor(x)))
    return hnm_fail(err, errlen, "%s:%ld: %s: '%.40s' is not a finite %s", L->path, lineno, name, v,
                    whole ? "whole number" : "number");
  if (x < lo || (lo_open && x == lo) || x > hi)
    return hnm_fail(err, errlen, "%s:%ld: %s: '%.40s' is not in %s%g, %g] (hnm_linkload_csv.h)", L->path, lineno, name,
                    v, lo_open ? "(" : "[", lo, hi);
  *out = x;
  return 0;
}

/* The numbers of a row: what hnm_linkload_csv.h says a row holds. */
static int load_numbers(const struct load *L, long lineno, char **field, struct row *r, char *err, size_t errlen)
{
  double x;
  if (range_field(L, lineno, "bandwidth_Bps", field[HNM_LINKLOAD_BANDWIDTH], 0, 1, HNM_LINKLOAD_MAX_BANDWIDTH, 0, &x,
                  err, errlen) != 0)
    return -1;
  if (range_field(L, lineno, "bytes", field[HNM_LINKLOAD_BYTES], 0, 0, HNM_LINKLOAD_MAX_BYTES, 1, &x, err, errlen) != 0)
    return -1;
  if (range_field(L, lineno, "busy_s", field[HNM_LINKLOAD_BUSY], 0, 0, HNM_LINKLOAD_MAX_BUSY, 0, &x, err, errlen) != 0)
    return -1;
  if (range_field(L, lineno, "mean_util", field[HNM_LINKLOAD_MEAN], 0, 0, HNM_LINKLOAD_MAX_UTIL, 0, &r->mean, err,
                  errlen) != 0)
    return -1;
  return range_field(L, lineno, "peak_util", field[HNM_LINKLOAD_PEAK], 0, 0, HNM_LINKLOAD_MAX_UTIL, 0, &r->peak, err,
                     errlen);
}

static void load_free(struct load *L)
{
  for (size_t i = 0; i < L->n; i++)
    free(L->rows[i].role);
  free(L->rows);
  L->rows = NULL;
  L->n = 0;
}

/* One row of a link-load file (hnm_linkload_csv.h), split by core's CSV
 * reader: an empty field is a field (named in the message), never skipped.
 * 0, or an exit status with the line in err. */
static int load_row(struct load *L, long lineno, char *line, char *err, size_t errlen)
{
  char *field[HNM_LINKLOAD_NCOLS];
  int nf = hnm_csv_split(line, field, HNM_LINKLOAD_NCOLS);
  if (nf < 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "%s:%ld: a quoted field is not closed, or text follows its closing quote", L->path, lineno);
  if (nf != HNM_LINKLOAD_NCOLS)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s:%ld: %d fields, %d expected", L->path, lineno, nf,
                           HNM_LINKLOAD_NCOLS);
  if (field[HNM_LINKLOAD_ROLE][0] == '\0')
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s:%ld: role: empty", L->path, lineno);
  struct row r = {NULL, 0, 0, 0, 0, 0};
  if (index_field(L, lineno, "a", field[HNM_LINKLOAD_A], &r.a, err, errlen) != 0 ||
      index_field(L, lineno, "b", field[HNM_LINKLOAD_B], &r.b, err, errlen) != 0 ||
      index_field(L, lineno, "c", field[HNM_LINKLOAD_C], &r.c, err, errlen) != 0 ||
      load_numbers(L, lineno, field, &r, err, errlen) != 0)
    return HNM_EXIT_USAGE;
  if ((L->n & (L->n - 1)) == 0) { /* 0, 1, 2, 4, ...: the capacity is full */
    struct row *g = realloc(L->rows, (L->n ? 2 * L->n : 1) * sizeof *g);
    if (g == NULL)
      return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
    L->rows = g;
  }
  if ((r.role = strdup(field[HNM_LINKLOAD_ROLE])) == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  L->rows[L->n++] = r;
  return 0;
}

/* Read a link-load CSV: the header, then one row per link. 0, or an exit
 * status with the line in err, and L holds nothing. */
static int load_read(struct load *L, char *err, size_t errlen)
{
  char *line = NULL, ierr[512];
  size_t cap = 0;
  long lineno = 0, len;
  int rc = 0;
  L->rows = NULL;
  L->n = 0;
  FILE *f = hnm_input_open(L->path, ierr, sizeof ierr);
  if (f == NULL)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: %s", L->path, ierr);
  while (rc == 0 && (len = hnm_input_getline(&line, &cap, f, HNM_INPUT_MAX_LINE)) != -1) {
    lineno++;
    if (len == -2) {
      rc = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s:%ld: line longer than 64 KiB", L->path, lineno);
      break;
    }
    if ((size_t)len != strlen(line)) {
      rc = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s:%ld: NUL byte in the line", L->path, lineno);
      break;
    }
    hnm_csv_chomp(line);
    if (lineno > 1)
      rc = load_row(L, lineno, line, err, errlen);
    else if (strcmp(line, HNM_LINKLOAD_HEADER) != 0)
      rc = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s:1: not a link-load file (hnm-run --link-load)", L->path);
  }
  free(line);
  if (rc == 0 && ferror(f))
    rc = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: read error", L->path);
  fclose(f);
  if (rc == 0 && lineno == 0)
    rc = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: empty file", L->path);
  if (rc != 0)
    load_free(L);
  return rc;
}

static double metric(const struct row *r, int peak)
{
  return peak ? r->peak : r->mean;
}

/* gnuplot on the script; the data and the script stay written when it
 * fails (HNM_EXIT_FAILURE, the line in err). */
static int run_gnuplot(const char *gp, char *err, size_t errlen)
{
  if (hnm_gnuplot_run(gp, 0, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  return 0;
}

static char *path_with(const char *prefix, const char *suffix)
{
  size_t n = strlen(prefix) + strlen(suffix) + 1;
  char *p = malloc(n);
  if (p != NULL)
    snprintf(p, n, "%s%s", prefix, suffix);
  return p;
}

static int has_role(const struct load *L, const char *role)
{
  for (size_t i = 0; i < L->n; i++)
    if (strcmp(L->rows[i].role, role) == 0)
      return 1;
  return 0;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int cmp_double_desc(const void *a, const void *b)
{
  return cmp_double(b, a);
}

/* ---- map ------------------------------------------------------------------ */

static void matrix_write(FILE *d, const double *m, long rows, long cols)
{
  for (long i = 0; i < rows; i++)
    for (long j = 0; j < cols; j++)
      fprintf(d, "%.6g%c", m[i * cols + j], j + 1 < cols ? ' ' : '\n');
}

/* The data and the script are written together: both opened before
 * anything is written, both committed at the end, neither on an error. */
struct outs {
  hnm_out *o[3];
  int n;
};

static FILE *outs_open(struct outs *O, const char *path, char *err, size_t errlen)
{
  FILE *f = out_open(path, &O->o[O->n], err, errlen);
  if (f != NULL)
    O->n++;
  return f;
}

static void outs_abort(struct outs *O)
{
  for (int i = 0; i < O->n; i++)
    hnm_out_abort(O->o[i]);
  O->n = 0;
}

/* Finish every output, then commit them all: 0, or -1 with the first
 * error in err (a write that failed: the work failed). */
static int outs_commit(struct outs *O, char *err, size_t errlen)
{
  for (int i = 0; i < O->n; i++)
    if (hnm_out_finish(O->o[i], err, errlen) != 0) {
      outs_abort(O);
      return -1;
    }
  int rc = 0;
  char cerr[HNM_ERRLEN];
  for (int i = 0; i < O->n; i++)
    if (hnm_out_commit(O->o[i], cerr, sizeof cerr) != 0 && rc == 0)
      rc = hnm_fail(err, errlen, "%s", cerr);
  O->n = 0;
  return rc;
}

/* After writing with status RC: drop the outputs (RC != 0), or commit them,
 * run gnuplot on the script GP and check that it wrote each of the NPNGS
 * PNGS whole (gnuplot exits 0 on a full disk). The status of the whole (err
 * filled unless 0). */
static int outs_draw(struct outs *O, int rc, const char *gp, const char *const *pngs, int npngs, char *err,
                     size_t errlen)
{
  if (rc != 0) {
    outs_abort(O);
    return rc;
  }
  if (outs_commit(O, err, errlen) != 0 || run_gnuplot(gp, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  for (int i = 0; i < npngs; i++)
    if (hnm_gnuplot_png_written(pngs[i], "-o", err, errlen) != 0)
      return HNM_EXIT_FAILURE;
  return 0;
}

/* The number of cells of a ROWS x COLS map, or -1 beyond MAX_CELLS. */
static long cells(long rows, long cols)
{
  return rows <= 0 || cols <= 0 ? 0 : rows > MAX_CELLS / cols ? -1 : rows * cols;
}

static int map_dragonfly(const struct load *L, int peak, const char *title, const char *what, const char *dat,
                         const char *png, FILE *d, FILE *g, char *err, size_t errlen)
{
  long G = 0, K = 0, Gl = 0;
  for (size_t i = 0; i < L->n; i++) {
    const struct row *r = &L->rows[i];
    if (strcmp(r->role, "global") == 0) {
      G = r->a + 1 > G ? r->a + 1 : G;
      G = r->b + 1 > G ? r->b + 1 : G;
    } else if (strcmp(r->role, "local") == 0 && r->b >= 0) {
      K = r->b + 1 > K ? r->b + 1 : K;
      Gl = r->a + 1 > Gl ? r->a + 1 : Gl;
    }
  }
  G = Gl > G ? Gl : G;
  if (G == 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "%s: global links without a group (run hnm-run --link-load with the platform file)",
                           L->path);
  if (cells(G, G) < 0 || cells(G, K) < 0 || cells(G, G) + cells(G, K) > MAX_CELLS)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: %ld groups of %ld routers: more than %ld cells to draw",
                           L->path, G, K, MAX_CELLS);
  double *gm = calloc((size_t)(G * G), sizeof *gm), *gn = calloc((size_t)(G * G), sizeof *gn);
  double *lm = calloc((size_t)(G * (K ? K : 1)), sizeof *lm);
  if (gm == NULL || gn == NULL || lm == NULL) {
    free(gm), free(gn), free(lm);
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  }
  /* Global: mean over the links between two groups that carried traffic.
   * The file lists only links that carried traffic, so idle copies count
   * as 0 only if the user asks for them: the mean is over listed links. */
  for (size_t i = 0; i < L->n; i++) {
    const struct row *r = &L->rows[i];
    if (strcmp(r->role, "global") == 0 && r->a >= 0 && r->b >= 0) {
      gm[r->a * G + r->b] += metric(r, peak);
      gn[r->a * G + r->b] += 1;
    } else if (strcmp(r->role, "local") == 0 && r->a >= 0 && r->b >= 0 && K > 0) {
      double v = metric(r, peak);
      if (v > lm[r->a * K + r->b])
        lm[r->a * K + r->b] = v;
    }
  }
  for (long i = 0; i < G * G; i++)
    gm[i] = gn[i] > 0 ? gm[i] / gn[i] : 0;
  fprintf(d, "# global links: %s, row = from group, column = to group (mean over the links between them)\n", what);
  matrix_write(d, gm, G, G);
  fprintf(d, "\n\n# local links: largest %s of a router's outgoing local links, row = group, column = router\n",
          what);
  if (K > 0)
    matrix_write(d, lm, G, K);
  free(gm), free(gn), free(lm);
  fprintf(g, "# Generated by " PROG " map from %s\n", L->path);
  fprintf(g, "set terminal pngcairo size %d,520 enhanced font 'sans,11'\nset output ", K > 0 ? 1200 : 640);
  hnm_gnuplot_string(g, png);
  fprintf(g, "\nset palette defined (0 'white', 0.25 'yellow', 0.6 'orange', 1 'red', 1.2 'dark-red')\n");
  fprintf(g, "set cbrange [0:1]\nset cblabel '%s'\nset multiplot layout 1,%d title ", what, K > 0 ? 2 : 1);
  hnm_gnuplot_string(g, title ? title : "");
  fprintf(g, " noenhanced\n");
  fprintf(g, "set title 'global links (group to group)'\nset xlabel 'to group'\nset ylabel 'from group'\n");
  fprintf(g, "set xrange [-0.5:%ld.5]\nset yrange [%ld.5:-0.5]\n", G - 1, G - 1);
  fprintf(g, "plot ");
  hnm_gnuplot_string(g, dat);
  fprintf(g, " index 0 matrix with image notitle\n");
  if (K > 0) {
    fprintf(g, "set title 'local links (largest out of each router)'\nset xlabel 'router in group'\n"
               "set ylabel 'group'\nset xrange [-0.5:%ld.5]\nset yrange [%ld.5:-0.5]\nplot ",
            K - 1, G - 1);
    hnm_gnuplot_string(g, dat);
    fprintf(g, " index 1 matrix with image notitle\n");
  }
  fprintf(g, "unset multiplot\n");
  return 0;
}

static int map_torus(const struct load *L, int peak, const char *title, const char *what, const char *dat,
                     const char *png, FILE *d, FILE *g, char *err, size_t errlen)
{
  long D = 0, N = 0;
  for (size_t i = 0; i < L->n; i++) {
    const struct row *r = &L->rows[i];
    if (strcmp(r->role, "torus") == 0) {
      D = r->a + 1 > D ? r->a + 1 : D;
      N = r->b + 1 > N ? r->b + 1 : N;
      N = r->c + 1 > N ? r->c + 1 : N;
    }
  }
  if (D == 0 || N == 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "%s: torus links without a dimension (run hnm-run --link-load with the platform file)",
                           L->path);
  if (cells(D, N) < 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: %ld dimensions of %ld hosts: more than %ld cells to draw",
                           L->path, D, N, MAX_CELLS);
  double *m = calloc((size_t)(D * N), sizeof *m);
  if (m == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  for (size_t i = 0; i < L->n; i++) {
    const struct row *r = &L->rows[i];
    if (strcmp(r->role, "torus") == 0 && r->a >= 0 && r->b >= 0 && metric(r, peak) > m[r->a * N + r->b])
      m[r->a * N + r->b] = metric(r, peak);
  }
  fprintf(d, "# torus: largest %s of a host's outgoing links, row = dimension, column = host\n", what);
  matrix_write(d, m, D, N);
  free(m);
  fprintf(g, "# Generated by " PROG " map from %s\n", L->path);
  fprintf(g, "set terminal pngcairo size 1000,%ld enhanced font 'sans,11'\nset output ", 220 + 60 * (D < 64 ? D : 64));
  hnm_gnuplot_string(g, png);
  fprintf(g, "\nset palette defined (0 'white', 0.25 'yellow', 0.6 'orange', 1 'red')\nset cbrange [0:1]\n");
  fprintf(g, "set cblabel '%s'\nset xlabel 'host (link source)'\nset ylabel 'dimension'\n", what);
  fprintf(g, "set xrange [-0.5:%ld.5]\nset yrange [%ld.5:-0.5]\nset ytics 1\nset title ", N - 1, D - 1);
  hnm_gnuplot_string(g, title ? title : "torus links");
  fprintf(g, " noenhanced\nplot ");
  hnm_gnuplot_string(g, dat);
  fprintf(g, " matrix with image notitle\n");
  return 0;
}

static int map_fattree(const struct load *L, int peak, const char *title, const char *what, const char *dat,
                       const char *png, FILE *d, FILE *g, char *err, size_t errlen)
{
  long levels = 0;
  for (size_t i = 0; i < L->n; i++)
    if (strncmp(L->rows[i].role, "fattree-", 8) == 0 && L->rows[i].a + 1 > levels)
      levels = L->rows[i].a + 1;
  /* One curve per level and direction: beyond 64 levels (SimGrid's fat
   * trees have a handful) the file is not a fat tree's. */
  if (levels > 64)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: %ld fat-tree levels: at most 64", L->path, levels);
  double *v = malloc((L->n + 1) * sizeof *v);
  if (v == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  int blocks = 0;
  for (long l = 0; l < levels; l++)
    for (int up = 1; up >= 0; up--) {
      size_t k = 0;
      for (size_t i = 0; i < L->n; i++)
        if (strcmp(L->rows[i].role, up ? "fattree-up" : "fattree-down") == 0 && L->rows[i].a == l)
          v[k++] = metric(&L->rows[i], peak);
      qsort(v, k, sizeof *v, cmp_double_desc);
      fprintf(d, "# level %ld-%ld %s\n", l, l + 1, up ? "up" : "down");
      for (size_t i = 0; i < k; i++)
        fprintf(d, "%zu %.6g\n", i, v[i]);
      fprintf(d, "\n\n");
      blocks++;
    }
  free(v);
  fprintf(g, "# Generated by " PROG " map from %s\n", L->path);
  fprintf(g, "set terminal pngcairo size 800,520 enhanced font 'sans,11'\nset output ");
  hnm_gnuplot_string(g, png);
  fprintf(g, "\nset xlabel 'links of the level, most loaded first'\nset ylabel '%s'\nset grid\nset title ", what);
  hnm_gnuplot_string(g, title ? title : "fat-tree links per level");
  fprintf(g, " noenhanced\nplot ");
  for (int b = 0; b < blocks; b++) {
    hnm_gnuplot_string(g, dat);
    fprintf(g, " index %d using 1:2 with lines lw 2 title 'level %d-%d %s'%s", b, b / 2, b / 2 + 1,
            b % 2 == 0 ? "up" : "down", b + 1 < blocks ? ", " : "\n");
  }
  if (blocks == 0)
    fprintf(g, "0 notitle\n");
  return 0;
}

/* The one output rule (hnm_out.h): the NRUNS input files registered, so
 * that no output -- the data and script hnm_out_open() opens, the PNGS
 * gnuplot writes -- is one of them (hard or symbolic link); the PNGs must
 * be regular files (a FIFO blocks gnuplot for ever, a device loses the
 * figure). 0, or -1 with the line in err. */
static int outputs_ok(const char *const *pngs, int npngs, const struct load *runs, int nruns, char *err,
                      size_t errlen)
{
  for (int k = 0; k < nruns; k++)
    if (hnm_out_input(runs[k].path, "LOAD.csv", err, errlen) != 0)
      return -1;
  for (int i = 0; i < npngs; i++)
    if (hnm_out_regular(pngs[i], "-o", err, errlen) != 0)
      return -1;
  return 0;
}

/* map's work: 0, or an exit status with the line in err. */
static int map(const struct load *L, const char *prefix, int peak, const char *title, char *err, size_t errlen)
{
  char *dat = path_with(prefix, ".dat"), *gpp = path_with(prefix, ".gp"), *png = path_with(prefix, ".png");
  const char *what = peak ? "peak utilisation" : "mean utilisation";
  const char *pngs[1] = {png};
  struct outs O = {{NULL}, 0};
  FILE *d = NULL, *g = NULL;
  int rc = 0;
  int kind = has_role(L, "global")                                         ? 1
             : has_role(L, "torus")                                        ? 2
             : has_role(L, "fattree-up") || has_role(L, "fattree-down") ? 3
                                                                           : 0;
  if (dat == NULL || gpp == NULL || png == NULL)
    rc = hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  else if (kind == 0)
    rc = hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                         "%s: no dragonfly, torus or fat-tree links (roles global, torus, fattree-*)", L->path);
  else if (outputs_ok(pngs, 1, L, 1, err, errlen) != 0 || (d = outs_open(&O, dat, err, errlen)) == NULL ||
           (g = outs_open(&O, gpp, err, errlen)) == NULL)
    rc = HNM_EXIT_USAGE;
  if (rc == 0)
    rc = (kind == 1   ? map_dragonfly
          : kind == 2 ? map_torus
                      : map_fattree)(L, peak, title, what, dat, png, d, g, err, errlen);
  if ((rc = outs_draw(&O, rc, gpp, pngs, 1, err, errlen)) == 0)
    hnm_msg_info("map: wrote %s (data %s, script %s)", png, dat, gpp);
  free(dat), free(gpp), free(png);
  return rc;
}

/* ---- dist ----------------------------------------------------------------- */

static int role_kept(const char *role, const char *roles)
{
  if (roles == NULL)
    return strcmp(role, "node-up") != 0 && strcmp(role, "node-down") != 0 && strcmp(role, "node") != 0 &&
           strcmp(role, "loopback") != 0 && strcmp(role, "limiter") != 0;
  size_t n = strlen(role);
  for (const char *p = roles; *p;) {
    const char *e = strchr(p, ',');
    size_t m = e ? (size_t)(e - p) : strlen(p);
    if (m == n && strncmp(p, role, n) == 0)
      return 1;
    p += m + (e ? 1 : 0);
  }
  return 0;
}


#define HIST_BINS 20

/* dist's work: 0, or an exit status with the line in err. */
static int dist(struct load *runs, int nruns, const char *prefix, int peak, const char *roles, const char *title,
                char *err, size_t errlen)
{
  char *cdat = path_with(prefix, "-cdf.dat"), *hdat = path_with(prefix, "-hist.dat"), *gpp = path_with(prefix, ".gp");
  char *cpng = path_with(prefix, "-cdf.png"), *hpng = path_with(prefix, "-hist.png");
  const char *pngs[2] = {cpng, hpng};
  const char *what = peak ? "peak utilisation" : "mean utilisation";
  double(*hist)[HIST_BINS + 1] = calloc((size_t)nruns, sizeof *hist);
  struct outs O = {{NULL}, 0};
  FILE *c = NULL, *h = NULL, *g = NULL;
  int rc = 0;

  if (cdat == NULL || hdat == NULL || gpp == NULL || cpng == NULL || hpng == NULL || hist == NULL)
    rc = hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  for (int k = 0; rc == 0 && k < nruns; k++) {
    size_t m = 0;
    for (size_t i = 0; i < runs[k].n; i++)
      m += role_kept(runs[k].rows[i].role, roles);
    if (m == 0)
      rc = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: no link with a role in %s", runs[k].path,
                           roles ? roles : "the network");
  }
  if (rc == 0 && (outputs_ok(pngs, 2, runs, nruns, err, errlen) != 0 || (c = outs_open(&O, cdat, err, errlen)) == NULL ||
                  (h = outs_open(&O, hdat, err, errlen)) == NULL || (g = outs_open(&O, gpp, err, errlen)) == NULL))
    rc = HNM_EXIT_USAGE;
  for (int k = 0; rc == 0 && k < nruns; k++) {
    double *v = malloc((runs[k].n + 1) * sizeof *v);
    size_t m = 0;
    if (v == NULL) {
      rc = hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
      break;
    }
    for (size_t i = 0; i < runs[k].n; i++)
      if (role_kept(runs[k].rows[i].role, roles))
        v[m++] = metric(&runs[k].rows[i], peak);
    qsort(v, m, sizeof *v, cmp_double);
    memset(hist[k], 0, sizeof hist[k]);
    fprintf(c, "# %s: %zu links\n", runs[k].label, m);
    for (size_t i = 0; i < m; i++) {
      /* The bin as a double first: a utilisation of 1e300 is finite, its
       * bin number is not an int. */
      double bin = floor(v[i] * HIST_BINS);
      int b = bin < 0 ? 0 : bin > HIST_BINS ? HIST_BINS : (int)bin;
      hist[k][b] += 1.0 / (double)m;
      fprintf(c, "%.6g %.6g\n", v[i], (double)(i + 1) / (double)m);
    }
    fprintf(c, "\n\n");
    free(v);
  }
  if (rc == 0) {
    fprintf(h, "# bin (lower edge) then the fraction of links of each run:");
    for (int k = 0; k < nruns; k++)
      fprintf(h, " %s", runs[k].label);
    fprintf(h, "\n");
    for (int b = 0; b <= HIST_BINS; b++) {
      fprintf(h, "%.2f", (double)b / HIST_BINS);
      for (int k = 0; k < nruns; k++)
        fprintf(h, " %.6g", hist[k][b]);
      fprintf(h, "\n");
    }
    fprintf(g, "# Generated by " PROG " dist\nset terminal pngcairo size 800,520 enhanced font 'sans,11'\nset grid\n");
    fprintf(g, "set output ");
    hnm_gnuplot_string(g, cpng);
    fprintf(g, "\nset title ");
    hnm_gnuplot_string(g, title ? title : "");
    fprintf(g, " noenhanced\nset xlabel '%s'\nset ylabel 'fraction of links'\nset key bottom right\n", what);
    fprintf(g, "set xrange [0:*]\nset yrange [0:1]\nplot ");
    for (int k = 0; k < nruns; k++) {
      hnm_gnuplot_string(g, cdat);
      fprintf(g, " index %d using 1:2 with steps lw 2 title ", k);
      hnm_gnuplot_string(g, runs[k].label);
      fprintf(g, " noenhanced%s", k + 1 < nruns ? ", " : "\n");
    }
    fprintf(g, "set output ");
    hnm_gnuplot_string(g, hpng);
    fprintf(g, "\nset style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n");
    fprintf(g, "set xlabel '%s (bin lower edge)'\nset key top right\nset xtics rotate by -45\nset autoscale x\n"
               "set yrange [0:*]\nplot ",
            what);
    for (int k = 0; k < nruns; k++) {
      hnm_gnuplot_string(g, hdat);
      fprintf(g, " using %d:xtic(1) title ", k + 2);
      hnm_gnuplot_string(g, runs[k].label);
      fprintf(g, " noenhanced%s", k + 1 < nruns ? ", " : "\n");
    }
  }
  if ((rc = outs_draw(&O, rc, gpp, pngs, 2, err, errlen)) == 0)
    hnm_msg_info("dist: wrote %s, %s (data %s, %s; script %s)", cpng, hpng, cdat, hdat, gpp);
  free(cdat), free(hdat), free(gpp), free(cpng), free(hpng), free(hist);
  return rc;
}

/* ---- the command line ---------------------------------------------------- */

/* The options of both commands, and what the command was given. */
struct lp_args {
  const char *prefix, *title, *roles;
  int peak; /* --metric: 0 mean, 1 peak */
};

#define LP_OPT_OUT(a, files)                                                                                     \
  {.name = "out", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "PREFIX", .help = "the files to write: " files, \
   .value = &(a)->prefix}
#define LP_OPT_METRIC(a)                                                                                         \
  {.name = "metric", .kind = HNM_OPT_CHOICE, .arg = "WHICH", .def = "mean", .unit = "mean|peak",                 \
   .help = "mean utilisation over the run, or peak", .value = &(a)->peak}
#define LP_OPT_TITLE(a) {.name = "title", .kind = HNM_OPT_STRING, .arg = "TEXT", .help = "figure title", .value = &(a)->title}

/* Parse a command's options (argv[0] is the command): the index of the
 * first operand, or -1 when the command is over (--help, --version: 0 in
 * *status; an error: 2, the line in err). */
static int lp_parse(const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, int argc, char **argv,
                    const struct lp_args *a, int *status, char *err, size_t errlen)
{
  int first = hnm_opt_parse(cmd, opts, argc, argv, err, errlen);
  if (first < 0)
    *status = first == HNM_OPT_DONE ? HNM_EXIT_OK : HNM_EXIT_USAGE;
  else if (a->prefix == NULL || a->prefix[0] == '\0')
    *status = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "-o: PREFIX is required");
  return first < 0 || a->prefix == NULL || a->prefix[0] == '\0' ? -1 : first;
}

static int lp_cmd_map(int argc, char **argv)
{
  struct lp_args a = {NULL, NULL, NULL, 0};
  const struct hnm_opt opts[] = {LP_OPT_OUT(&a, "PREFIX.png, PREFIX.dat (the numbers drawn), PREFIX.gp"),
                                 LP_OPT_METRIC(&a), LP_OPT_TITLE(&a), {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    .prog = PROG " map",
    .usage = "LOAD.csv -o PREFIX [OPTIONS]",
    .summary = "Congestion map of one hnm-run --link-load file, chosen from the roles in it: dragonfly\n"
               "group x group global links and per-router local links, torus per dimension and host,\n"
               "fat tree per level."};
  char err[HNM_ERRLEN];
  int rc = 0, first = lp_parse(&cmd, opts, argc, argv, &a, &rc, err, sizeof err);
  if (first >= 0 && argc - first != 1)
    return hnm_msg_option_error("LOAD.csv", "map takes one (%d given)", argc - first);
  struct load run = {first >= 0 ? argv[first] : NULL, first >= 0 ? argv[first] : NULL, NULL, 0};
  if (first >= 0 && (rc = load_read(&run, err, sizeof err)) == 0) {
    rc = map(&run, a.prefix, a.peak, a.title, err, sizeof err);
    load_free(&run);
  }
  if (rc == HNM_EXIT_FAILURE)
    return hnm_msg_failure("%s", err);
  return rc != 0 ? hnm_msg_error("%s", err) : 0;
}

/* LABEL=LOAD.csv: the label, allocated, and the path in *path; or NULL
 * with an exit status in *status and the line in err. */
static char *lp_labelled(const char *arg, const char **path, int *status, char *err, size_t errlen)
{
  const char *eq = strchr(arg, '=');
  if (eq == NULL || eq == arg || eq[1] == '\0') {
    *status = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "LABEL=LOAD.csv: '%s' is not LABEL=LOAD.csv", arg);
    return NULL;
  }
  char *label = strndup(arg, (size_t)(eq - arg));
  if (label == NULL)
    *status = hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  *path = eq + 1;
  return label;
}

static int lp_cmd_dist(int argc, char **argv)
{
  struct lp_args a = {NULL, NULL, NULL, 0};
  const struct hnm_opt opts[] = {
    LP_OPT_OUT(&a, "PREFIX-cdf.png, PREFIX-hist.png, their .dat, PREFIX.gp"),
    LP_OPT_METRIC(&a),
    {.name = "roles", .kind = HNM_OPT_STRING, .arg = "LIST",
     .help = "roles kept, comma-separated (default: all but node-up, node-down, node, loopback, limiter)",
     .value = &a.roles},
    LP_OPT_TITLE(&a),
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    .prog = PROG " dist",
    .usage = "-o PREFIX [OPTIONS] LABEL=LOAD.csv ...",
    .summary = "Utilisation distributions of several runs side by side: the empirical CDF and a\n"
               "histogram (bins of 0.05, fraction of links), one curve or bar per LABEL."};
  char err[HNM_ERRLEN];
  int rc = 0, first = lp_parse(&cmd, opts, argc, argv, &a, &rc, err, sizeof err);
  if (first < 0)
    return rc == 0 ? 0 : hnm_msg_error("%s", err);
  int nruns = argc - first, nread = 0;
  if (nruns < 1)
    return hnm_msg_option_error("LABEL=LOAD.csv", "dist needs at least one");
  struct load *runs = calloc((size_t)nruns, sizeof *runs);
  if (runs == NULL)
    return hnm_msg_failure("out of memory");
  for (int k = 0; k < nruns && rc == 0; k++) {
    char *label = lp_labelled(argv[first + k], &runs[k].path, &rc, err, sizeof err);
    runs[k].label = label;
    if (label != NULL && (rc = load_read(&runs[k], err, sizeof err)) == 0)
      nread = k + 1;
  }
  if (rc == 0)
    rc = dist(runs, nruns, a.prefix, a.peak, a.roles, a.title, err, sizeof err);
  for (int k = 0; k < nruns; k++) {
    if (k < nread)
      load_free(&runs[k]);
    free((char *)runs[k].label);
  }
  free(runs);
  if (rc == HNM_EXIT_FAILURE)
    return hnm_msg_failure("%s", err);
  return rc != 0 ? hnm_msg_error("%s", err) : 0;
}

static const struct hnm_opt_command lp_commands[] = {
  {.name = "map", .usage = "LOAD.csv -o PREFIX [--metric mean|peak] [--title TEXT]",
   .summary = "congestion map (dragonfly, torus or fat tree): PREFIX.png, .dat, .gp"},
  {.name = "dist", .usage = "-o PREFIX [--metric mean|peak] [--roles R1,R2,...] [--title TEXT] LABEL=LOAD.csv ...",
   .summary = "utilisation distributions of several runs: PREFIX-cdf.png, PREFIX-hist.png"},
  {.name = NULL}};

static const struct hnm_opt_tool lp_tool = {
  .prog = PROG,
  .metavar = "COMMAND",
  .heading = "Commands",
  .summary = "Pictures of hnm-run --link-load files (gnuplot, PNG).",
  .epilog = "Exit status: 0; 2 on bad input (nothing written); 1 if the work fails (an output that\n"
            "cannot be written, gnuplot).\n"};

int main(int argc, char **argv)
{
  static int (*const run[])(int, char **) = {lp_cmd_map, lp_cmd_dist};
  hnm_msg_init(PROG);
  char err[HNM_ERRLEN];
  int c = hnm_opt_command(&lp_tool, lp_commands, argc, argv, err, sizeof err);
  if (c < 0)
    return c == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", err);
  return run[c](argc - 1, argv + 1);
}
