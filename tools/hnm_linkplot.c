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
 * Exit status: 0; 2 on bad input (one line naming file, line and field;
 * nothing written); 1 if gnuplot fails (data and script are written).
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_input.h"
#include "hnm_msg.h"
#include "hnm_out.h"
#include "hnm_opt.h"
#include "hnm_version.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROG "hnm-linkplot"

/* Bounds that keep time and memory small whatever the file says: a link's
 * coordinates (group, router, dimension, host, level) lie in [-1, MAX_INDEX],
 * and a map has at most MAX_CELLS cells (32 MiB of doubles, about 40 MB of
 * text), far above the largest platforms hnm-platform generates. */
#define MAX_INDEX 1048576L
#define MAX_CELLS (1L << 22)

struct row {
  char role[32];
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
 * and the handle in *o, or NULL after printing the reason. */
static FILE *out_open(const char *path, hnm_out **o)
{
  char err[1024];
  if ((*o = hnm_out_open(path, "-o", err, sizeof err)) == NULL) {
    hnm_msg_error("%s", err);
    return NULL;
  }
  return hnm_out_file(*o);
}

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: " PROG " map LOAD.csv -o PREFIX [--metric mean|peak] [--title TEXT]\n"
          "       " PROG " dist -o PREFIX [--metric mean|peak] [--roles R1,R2,...] [--title TEXT] LABEL=LOAD.csv ...\n"
          "Pictures of hnm-run --link-load files (gnuplot, PNG).\n"
          "  map   congestion map: dragonfly group x group global links + per-router local links,\n"
          "        torus per dimension and host, fat tree per level (PREFIX.png, .dat, .gp)\n"
          "  dist  utilisation distributions of several runs: PREFIX-cdf.png, PREFIX-hist.png\n"
          "The options of each: " PROG " map --help, " PROG " dist --help.\n"
          "Exit status: 0; 2 on bad input (nothing written); 1 if gnuplot fails.\n");
}

static int metric__peak(void *ctx, const char *v, char *err, size_t errlen)
{
  if (strcmp(v, "mean") != 0 && strcmp(v, "peak") != 0)
    return snprintf(err, errlen, "'%s' is not mean or peak", v), -1;
  *(int *)ctx = v[0] == 'p';
  return 0;
}

/* A coordinate field: a whole number in [-1, MAX_INDEX]. */
static int index_field(const struct load *L, int lineno, const char *name, const char *v, long *out)
{
  char *end;
  errno = 0;
  long x = strtol(v, &end, 10);
  if (end == v || *end != '\0' || errno != 0 || x < -1 || x > MAX_INDEX)
    return hnm_msg_error("%s:%d: %s: '%.40s' is not a whole number from -1 to %ld", L->path, lineno, name, v, MAX_INDEX);
  *out = x;
  return 0;
}

/* A utilisation field: a finite number >= 0. */
static int util_field(const struct load *L, int lineno, const char *name, const char *v, double *out)
{
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (end == v || *end != '\0' || errno != 0 || !(x >= 0) || !isfinite(x))
    return hnm_msg_error("%s:%d: %s: '%.40s' is not a finite number >= 0", L->path, lineno, name, v);
  *out = x;
  return 0;
}

static void load_free(struct load *L)
{
  free(L->rows);
  L->rows = NULL;
  L->n = 0;
}

/* Read a link-load CSV: header, then link,role,a,b,c,bandwidth,bytes,busy,mean,peak.
 * On error, the message is printed and L holds nothing. */
static int load_read(struct load *L)
{
  char line[1024];
  size_t cap = 0;
  int lineno = 0, rc = 0;
  char ierr[512];
  L->rows = NULL;
  L->n = 0;
  FILE *f = hnm_input_open(L->path, ierr, sizeof ierr);
  if (f == NULL)
    return hnm_msg_error("%s: %s", L->path, ierr);
  while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
    char *field[10], *save = NULL;
    int nf = 0;
    lineno++;
    /* fgets() stops at a newline, a full buffer or the end: a line that
     * ends otherwise holds a NUL byte (strlen() stops there). */
    size_t len = strlen(line);
    int ended = len > 0 && line[len - 1] == '\n';
    if (!ended && len + 1 == sizeof line && !feof(f)) {
      rc = hnm_msg_error("%s:%d: line longer than %zu bytes", L->path, lineno, sizeof line - 2);
      break;
    }
    if (!ended && !feof(f)) {
      rc = hnm_msg_error("%s:%d: NUL byte in the line", L->path, lineno);
      break;
    }
    line[strcspn(line, "\r\n")] = '\0';
    if (lineno == 1) {
      if (strcmp(line, "link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util") != 0)
        rc = hnm_msg_error("%s:1: not a link-load file (hnm-run --link-load)", L->path);
      continue;
    }
    for (char *p = strtok_r(line, ",", &save); p != NULL && nf < 10; p = strtok_r(NULL, ",", &save))
      field[nf++] = p;
    if (nf != 10 || strtok_r(NULL, ",", &save) != NULL) {
      rc = hnm_msg_error("%s:%d: %d fields, 10 expected", L->path, lineno, nf < 10 ? nf : 11);
      break;
    }
    if (L->n == cap) {
      cap = cap ? 2 * cap : 256;
      struct row *r = realloc(L->rows, cap * sizeof *r);
      if (r == NULL) {
        rc = hnm_msg_error("out of memory");
        break;
      }
      L->rows = r;
    }
    struct row *r = &L->rows[L->n];
    snprintf(r->role, sizeof r->role, "%s", field[1]);
    if (index_field(L, lineno, "a", field[2], &r->a) != 0 || index_field(L, lineno, "b", field[3], &r->b) != 0 ||
        index_field(L, lineno, "c", field[4], &r->c) != 0 ||
        util_field(L, lineno, "mean_util", field[8], &r->mean) != 0 ||
        util_field(L, lineno, "peak_util", field[9], &r->peak) != 0) {
      rc = 2;
      break;
    }
    L->n++;
  }
  if (rc == 0 && ferror(f))
    rc = hnm_msg_error("%s: read error", L->path);
  fclose(f);
  if (rc == 0 && lineno == 0)
    rc = hnm_msg_error("%s: empty file", L->path);
  if (rc != 0)
    load_free(L);
  return rc;
}

static double metric(const struct row *r, int peak)
{
  return peak ? r->peak : r->mean;
}

static void gp_string(FILE *g, const char *s)
{
  fputc('"', g);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', g);
    fputc(*s, g);
  }
  fputc('"', g);
}

static int run_gnuplot(const char *gp)
{
  pid_t pid = fork();
  int st = 0;
  if (pid == 0) {
    execlp("gnuplot", "gnuplot", gp, (char *)NULL);
    hnm_msg_error("cannot run gnuplot: %s (install gnuplot-nox; the script is %s)", strerror(errno), gp);
    _exit(127);
  }
  if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    hnm_msg_error("gnuplot failed on %s", gp);
    return 1;
  }
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

static FILE *outs_open(struct outs *O, const char *path)
{
  FILE *f = out_open(path, &O->o[O->n]);
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

static int outs_commit(struct outs *O)
{
  char err[1024];
  for (int i = 0; i < O->n; i++)
    if (hnm_out_finish(O->o[i], err, sizeof err) != 0) {
      outs_abort(O);
      return hnm_msg_error("%s", err);
    }
  int rc = 0;
  for (int i = 0; i < O->n; i++)
    if (hnm_out_commit(O->o[i], err, sizeof err) != 0 && rc == 0)
      rc = hnm_msg_error("%s", err);
  O->n = 0;
  return rc;
}

/* The number of cells of a ROWS x COLS map, or -1 beyond MAX_CELLS. */
static long cells(long rows, long cols)
{
  return rows <= 0 || cols <= 0 ? 0 : rows > MAX_CELLS / cols ? -1 : rows * cols;
}

static int map_dragonfly(const struct load *L, int peak, const char *title, const char *what, const char *dat,
                         const char *png, FILE *d, FILE *g)
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
    return hnm_msg_error("%s: global links without a group (run hnm-run --link-load with the platform file)", L->path);
  if (cells(G, G) < 0 || cells(G, K) < 0 || cells(G, G) + cells(G, K) > MAX_CELLS)
    return hnm_msg_error("%s: %ld groups of %ld routers: more than %ld cells to draw", L->path, G, K, MAX_CELLS);
  double *gm = calloc((size_t)(G * G), sizeof *gm), *gn = calloc((size_t)(G * G), sizeof *gn);
  double *lm = calloc((size_t)(G * (K ? K : 1)), sizeof *lm);
  if (gm == NULL || gn == NULL || lm == NULL) {
    free(gm), free(gn), free(lm);
    return hnm_msg_error("out of memory");
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
  gp_string(g, png);
  fprintf(g, "\nset palette defined (0 'white', 0.25 'yellow', 0.6 'orange', 1 'red', 1.2 'dark-red')\n");
  fprintf(g, "set cbrange [0:1]\nset cblabel '%s'\nset multiplot layout 1,%d title ", what, K > 0 ? 2 : 1);
  gp_string(g, title ? title : "");
  fprintf(g, " noenhanced\n");
  fprintf(g, "set title 'global links (group to group)'\nset xlabel 'to group'\nset ylabel 'from group'\n");
  fprintf(g, "set xrange [-0.5:%ld.5]\nset yrange [%ld.5:-0.5]\n", G - 1, G - 1);
  fprintf(g, "plot ");
  gp_string(g, dat);
  fprintf(g, " index 0 matrix with image notitle\n");
  if (K > 0) {
    fprintf(g, "set title 'local links (largest out of each router)'\nset xlabel 'router in group'\n"
               "set ylabel 'group'\nset xrange [-0.5:%ld.5]\nset yrange [%ld.5:-0.5]\nplot ",
            K - 1, G - 1);
    gp_string(g, dat);
    fprintf(g, " index 1 matrix with image notitle\n");
  }
  fprintf(g, "unset multiplot\n");
  return 0;
}

static int map_torus(const struct load *L, int peak, const char *title, const char *what, const char *dat,
                     const char *png, FILE *d, FILE *g)
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
    return hnm_msg_error("%s: torus links without a dimension (run hnm-run --link-load with the platform file)", L->path);
  if (cells(D, N) < 0)
    return hnm_msg_error("%s: %ld dimensions of %ld hosts: more than %ld cells to draw", L->path, D, N, MAX_CELLS);
  double *m = calloc((size_t)(D * N), sizeof *m);
  if (m == NULL)
    return hnm_msg_error("out of memory");
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
  gp_string(g, png);
  fprintf(g, "\nset palette defined (0 'white', 0.25 'yellow', 0.6 'orange', 1 'red')\nset cbrange [0:1]\n");
  fprintf(g, "set cblabel '%s'\nset xlabel 'host (link source)'\nset ylabel 'dimension'\n", what);
  fprintf(g, "set xrange [-0.5:%ld.5]\nset yrange [%ld.5:-0.5]\nset ytics 1\nset title ", N - 1, D - 1);
  gp_string(g, title ? title : "torus links");
  fprintf(g, " noenhanced\nplot ");
  gp_string(g, dat);
  fprintf(g, " matrix with image notitle\n");
  return 0;
}

static int map_fattree(const struct load *L, int peak, const char *title, const char *what, const char *dat,
                       const char *png, FILE *d, FILE *g)
{
  long levels = 0;
  for (size_t i = 0; i < L->n; i++)
    if (strncmp(L->rows[i].role, "fattree-", 8) == 0 && L->rows[i].a + 1 > levels)
      levels = L->rows[i].a + 1;
  if (levels > 64)
    return hnm_msg_error("%s: %ld fat-tree levels: at most 64", L->path, levels);
  double *v = malloc((L->n + 1) * sizeof *v);
  if (v == NULL)
    return hnm_msg_error("out of memory");
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
  gp_string(g, png);
  fprintf(g, "\nset xlabel 'links of the level, most loaded first'\nset ylabel '%s'\nset grid\nset title ", what);
  gp_string(g, title ? title : "fat-tree links per level");
  fprintf(g, " noenhanced\nplot ");
  for (int b = 0; b < blocks; b++) {
    gp_string(g, dat);
    fprintf(g, " index %d using 1:2 with lines lw 2 title 'level %d-%d %s'%s", b, b / 2, b / 2 + 1,
            b % 2 == 0 ? "up" : "down", b + 1 < blocks ? ", " : "\n");
  }
  if (blocks == 0)
    fprintf(g, "0 notitle\n");
  return 0;
}

/* Whether one of PREFIX's outputs is the input file: refused, it would be
 * destroyed. */
static int names_input(const char *const *outs, int nouts, const struct load *runs, int nruns)
{
  for (int i = 0; i < nouts; i++)
    for (int k = 0; k < nruns; k++)
      if (hnm_out_same_file(outs[i], runs[k].path))
        return hnm_msg_error("-o: '%s' is the input file %s", outs[i], runs[k].path);
  return 0;
}

static int map(const struct load *L, const char *prefix, int peak, const char *title)
{
  char *dat = path_with(prefix, ".dat"), *gpp = path_with(prefix, ".gp"), *png = path_with(prefix, ".png");
  const char *what = peak ? "peak utilisation" : "mean utilisation";
  const char *outs[3] = {dat, gpp, png};
  struct outs O = {{NULL}, 0};
  FILE *d = NULL, *g = NULL;
  int rc = 0;
  int kind = has_role(L, "global")                                         ? 1
             : has_role(L, "torus")                                        ? 2
             : has_role(L, "fattree-up") || has_role(L, "fattree-down") ? 3
                                                                           : 0;
  if (dat == NULL || gpp == NULL || png == NULL)
    rc = hnm_msg_error("out of memory");
  else if (kind == 0)
    rc = hnm_msg_error("%s: no dragonfly, torus or fat-tree links (roles global, torus, fattree-*)", L->path);
  else if ((rc = names_input(outs, 3, L, 1)) == 0 && ((d = outs_open(&O, dat)) == NULL || (g = outs_open(&O, gpp)) == NULL))
    rc = HNM_EXIT_USAGE;
  if (rc == 0)
    rc = (kind == 1   ? map_dragonfly
          : kind == 2 ? map_torus
                      : map_fattree)(L, peak, title, what, dat, png, d, g);
  if (rc != 0)
    outs_abort(&O);
  else if (outs_commit(&O) != 0)
    rc = HNM_EXIT_USAGE;
  if (rc == 0) {
    rc = run_gnuplot(gpp);
    if (rc == 0)
      fprintf(stderr, PROG " map: %s (data %s, script %s)\n", png, dat, gpp);
  }
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

static int dist(struct load *runs, int nruns, const char *prefix, int peak, const char *roles, const char *title)
{
  char *cdat = path_with(prefix, "-cdf.dat"), *hdat = path_with(prefix, "-hist.dat"), *gpp = path_with(prefix, ".gp");
  char *cpng = path_with(prefix, "-cdf.png"), *hpng = path_with(prefix, "-hist.png");
  const char *outs[5] = {cdat, hdat, gpp, cpng, hpng};
  const char *what = peak ? "peak utilisation" : "mean utilisation";
  double hist[64][HIST_BINS + 1];
  struct outs O = {{NULL}, 0};
  FILE *c = NULL, *h = NULL, *g = NULL;
  int rc = 0;

  if (cdat == NULL || hdat == NULL || gpp == NULL || cpng == NULL || hpng == NULL)
    rc = hnm_msg_error("out of memory");
  else if (nruns > 64)
    rc = hnm_msg_error("dist: at most 64 runs");
  for (int k = 0; rc == 0 && k < nruns; k++) {
    size_t m = 0;
    for (size_t i = 0; i < runs[k].n; i++)
      m += role_kept(runs[k].rows[i].role, roles);
    if (m == 0)
      rc = hnm_msg_error("%s: no link with a role in %s", runs[k].path, roles ? roles : "the network");
  }
  if (rc == 0 && (rc = names_input(outs, 5, runs, nruns)) == 0 &&
      ((c = outs_open(&O, cdat)) == NULL || (h = outs_open(&O, hdat)) == NULL || (g = outs_open(&O, gpp)) == NULL))
    rc = HNM_EXIT_USAGE;
  for (int k = 0; rc == 0 && k < nruns; k++) {
    double *v = malloc((runs[k].n + 1) * sizeof *v);
    size_t m = 0;
    if (v == NULL) {
      rc = hnm_msg_error("out of memory");
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
    gp_string(g, cpng);
    fprintf(g, "\nset title ");
    gp_string(g, title ? title : "");
    fprintf(g, " noenhanced\nset xlabel '%s'\nset ylabel 'fraction of links'\nset key bottom right\n", what);
    fprintf(g, "set xrange [0:*]\nset yrange [0:1]\nplot ");
    for (int k = 0; k < nruns; k++) {
      gp_string(g, cdat);
      fprintf(g, " index %d using 1:2 with steps lw 2 title ", k);
      gp_string(g, runs[k].label);
      fprintf(g, " noenhanced%s", k + 1 < nruns ? ", " : "\n");
    }
    fprintf(g, "set output ");
    gp_string(g, hpng);
    fprintf(g, "\nset style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n");
    fprintf(g, "set xlabel '%s (bin lower edge)'\nset key top right\nset xtics rotate by -45\nset autoscale x\n"
               "set yrange [0:*]\nplot ",
            what);
    for (int k = 0; k < nruns; k++) {
      gp_string(g, hdat);
      fprintf(g, " using %d:xtic(1) title ", k + 2);
      gp_string(g, runs[k].label);
      fprintf(g, " noenhanced%s", k + 1 < nruns ? ", " : "\n");
    }
  }
  if (rc != 0)
    outs_abort(&O);
  else if (outs_commit(&O) != 0)
    rc = HNM_EXIT_USAGE;
  if (rc == 0) {
    rc = run_gnuplot(gpp);
    if (rc == 0)
      fprintf(stderr, PROG " dist: %s, %s (data %s, %s; script %s)\n", cpng, hpng, cdat, hdat, gpp);
  }
  free(cdat), free(hdat), free(gpp), free(cpng), free(hpng);
  return rc;
}

int main(int argc, char **argv)
{
  const char *prefix = NULL, *title = NULL, *roles = NULL;
  int peak = 0, nin = 0;
  const char *inputs[64];

  hnm_msg_init(PROG);
  if (argc < 2)
    return hnm_msg_error("a command is needed: map or dist (see " PROG " --help)");
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf(PROG " %s\n", HNM_VERSION);
    return 0;
  }
  int is_map = strcmp(argv[1], "map") == 0;
  if (!is_map && strcmp(argv[1], "dist") != 0)
    return hnm_msg_error("unknown command '%s' (map, dist; see " PROG " --help)", argv[1]);
  const struct hnm_opt opts[] = {
    {"out", 'o', HNM_OPT_STRING, "PREFIX", NULL, NULL, "the files to write: PREFIX.png, .dat, .gp (map) or PREFIX-cdf.png, -hist.png (dist)", &prefix, 0, 0, NULL},
    {"metric", 0, HNM_OPT_CALL, "mean|peak", "mean", NULL, "mean utilisation over the run, or peak", NULL, 0, 0, metric__peak},
    {"roles", 0, HNM_OPT_STRING, "LIST", NULL, NULL, "dist: roles kept, comma-separated (default: all but node and loopback links)", &roles, 0, 0, NULL},
    {"title", 0, HNM_OPT_STRING, "TEXT", NULL, NULL, "figure title", &title, 0, 0, NULL},
    {NULL, 0, HNM_OPT_FLAG, NULL, NULL, NULL, NULL, NULL, 0, 0, NULL}};
  const struct hnm_opt_cmd cmd = {is_map ? PROG " map" : PROG " dist",
                                  is_map ? "LOAD.csv -o PREFIX [OPTIONS]" : "-o PREFIX [OPTIONS] LABEL=LOAD.csv ...",
                                  is_map ? "Congestion map of one hnm-run --link-load file."
                                         : "Utilisation distributions (CDF, histogram) of several runs.",
                                  NULL, NULL, 0, &peak};
  int first = hnm_opt_parse(&cmd, opts, argc - 1, argv + 1);
  if (first < 0)
    return hnm_opt_status(first);
  for (int i = first + 1; i < argc; i++) {
    if (nin == 64)
      return hnm_msg_error("at most 64 input files");
    inputs[nin++] = argv[i];
  }
  if (prefix == NULL || prefix[0] == '\0')
    return hnm_msg_error("-o PREFIX is required");
  if (is_map && nin != 1)
    return hnm_msg_error("map takes one LOAD.csv (%d given)", nin);
  if (!is_map && nin < 1)
    return hnm_msg_error("dist needs LABEL=LOAD.csv arguments");
  if (is_map && roles != NULL)
    return hnm_msg_error("--roles: only for dist");

  struct load runs[64];
  char *labels[64] = {NULL};
  int nread = 0, rc = 0;
  for (int k = 0; k < nin && rc == 0; k++) {
    const char *eq = is_map ? NULL : strchr(inputs[k], '=');
    if (!is_map && (eq == NULL || eq == inputs[k] || eq[1] == '\0')) {
      rc = hnm_msg_error("'%s' is not LABEL=LOAD.csv", inputs[k]);
      break;
    }
    if (eq != NULL) {
      labels[k] = strndup(inputs[k], (size_t)(eq - inputs[k]));
      if (labels[k] == NULL) {
        rc = hnm_msg_error("out of memory");
        break;
      }
      runs[k].label = labels[k];
      runs[k].path = eq + 1;
    } else {
      runs[k].label = inputs[k];
      runs[k].path = inputs[k];
    }
    rc = load_read(&runs[k]);
    if (rc == 0)
      nread++;
  }
  if (rc == 0)
    rc = is_map ? map(&runs[0], prefix, peak, title) : dist(runs, nin, prefix, peak, roles, title);
  for (int k = 0; k < nread; k++)
    load_free(&runs[k]);
  for (int k = 0; k < nin; k++)
    free(labels[k]);
  return rc;
}
