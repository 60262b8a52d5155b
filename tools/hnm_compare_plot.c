/* hnm-compare plot: gnuplot scripts and figures from a result CSV. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "hnm_model.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include "hnm_compare_plot.h"
#include "hnm_gnuplot.h"
#include "hnm_out.h"
#include "hnm_opt.h"
#include "hnm_compare_util.h"
#include "hnm_error.h"
#include "hnm_msg.h"
#include "hnm_compare_grid.h"
#include "hnm_compare_store.h"

/* ------------------------------------------------------------------------ */
/* plot                                                                      */

typedef struct {
  const cmp_row *first;
  long *np;
  double *t, *lo, *hi; /* lo, hi: a model set's band (= t without one) */
  long n;
  int banded;
  char *label;
} series;

static int same_group(const cmp_row *a, const cmp_row *b)
{
  return strcmp(a->f[CMP_COL_PROGRAM], b->f[CMP_COL_PROGRAM]) == 0 && strcmp(a->f[CMP_COL_ARGS], b->f[CMP_COL_ARGS]) == 0 &&
         strcmp(a->f[CMP_COL_MODEL], b->f[CMP_COL_MODEL]) == 0 && strcmp(a->f[CMP_COL_PLATFORM], b->f[CMP_COL_PLATFORM]) == 0 &&
         strcmp(a->f[CMP_COL_METRIC], b->f[CMP_COL_METRIC]) == 0 && strcmp(a->f[CMP_COL_OPTIONS], b->f[CMP_COL_OPTIONS]) == 0;
}

/* The reference time for row R: same program, args, metric, np, and same
 * platform and options (or any platform and options when the reference is
 * mpirun's, platform "-"). */
static int find_ref(cmp_row **sel, long n, const cmp_row *r, const char *ref, double *t)
{
  for (long i = 0; i < n; i++) {
    const cmp_row *q = sel[i];
    if (strcmp(q->f[CMP_COL_MODEL], ref) != 0 || strcmp(q->f[CMP_COL_PROGRAM], r->f[CMP_COL_PROGRAM]) != 0 ||
        strcmp(q->f[CMP_COL_ARGS], r->f[CMP_COL_ARGS]) != 0 || strcmp(q->f[CMP_COL_METRIC], r->f[CMP_COL_METRIC]) != 0 ||
        strcmp(q->f[CMP_COL_NP], r->f[CMP_COL_NP]) != 0 ||
        (strcmp(q->f[CMP_COL_PLATFORM], "-") != 0 &&
         (strcmp(q->f[CMP_COL_PLATFORM], r->f[CMP_COL_PLATFORM]) != 0 || strcmp(q->f[CMP_COL_OPTIONS], r->f[CMP_COL_OPTIONS]) != 0)))
      continue;
    return cmp_parse_double(q->f[CMP_COL_TIME], t);
  }
  return -1;
}

/* The data files and the script, through hnm_out (core/hnm_out.h): the
 * stream, or NULL with err. */
static FILE *plot__open(const char *path, hnm_out **o, char *err, size_t errlen)
{
  *o = hnm_out_open(path, "-o", err, errlen);
  return *o == NULL ? NULL : hnm_out_file(*o);
}

/* --only COLUMN=VALUE, up to 16. */
struct plot_only {
  int *col;
  const char **val;
  int n;
  const char *const *colnames;
};

static int plot__only(void *ctx, const char *v, char *err, size_t errlen)
{
  struct plot_only *o = ctx;
  const char *eq = strchr(v, '=');
  int col = -1;
  for (int k = 0; eq && k < CMP_NCOLS; k++)
    if (strlen(o->colnames[k]) == (size_t)(eq - v) && strncmp(v, o->colnames[k], (size_t)(eq - v)) == 0)
      col = k;
  if (col < 0)
    return hnm_fail(err, errlen, "'%s' is not COLUMN=VALUE with a column of " CMP_HEADER, v);
  if (o->n == 16)
    return hnm_fail(err, errlen, "at most 16 of them");
  o->col[o->n] = col;
  o->val[o->n++] = eq + 1;
  return 0;
}

static void plot__sv_free(cmp_strvec *v)
{
  for (int i = 0; i < v->n; i++)
    free(v->v[i]);
  free(v->v);
  memset(v, 0, sizeof *v);
}

/* What plot was asked for. */
typedef struct {
  const char *in, *prefix, *ref, *title;
  int onlycol[16];
  const char *onlyval[16];
  int nonly;
  char *dat, *edat, *gp, *png, *epng; /* PREFIX-time.dat ... */
} plot__args;

/* The options and operands: 0, HNM_OPT_DONE (--help) or HNM_EXIT_USAGE
 * with err. */
static int plot__parse(int argc, char **argv, plot__args *a, char *err, size_t errlen)
{
  static const char *const colnames[CMP_NCOLS] = {"index",  "program", "args",   "model",      "platform",
                                                   "np",     "metric",  "options", "time_s",    "wall_s",
                                                   "maxrss_kib", "status", "exit_code", "member", "band_lo",
                                                   "band_hi", "members"};
  struct plot_only only = {a->onlycol, a->onlyval, 0, colnames};
  const struct hnm_opt opts[] = {
    {.name = "out", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "PREFIX", .help = "PREFIX-time.png, PREFIX-error.png, their .dat, PREFIX.gp", .value = &a->prefix},
    {.name = "reference", .kind = HNM_OPT_STRING, .arg = "MODEL", .help = "relative errors against this model's runs", .value = &a->ref},
    {.name = "only", .kind = HNM_OPT_CALL, .arg = "COLUMN=VALUE", .help = "keep the rows whose COLUMN equals VALUE (repeatable)", .fn = plot__only},
    {.name = "title", .kind = HNM_OPT_STRING, .arg = "TEXT", .help = "figure title", .value = &a->title},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {"hnm-compare plot", "IN.csv -o PREFIX [OPTIONS]",
                                  "Figures of a result CSV: time vs processes, errors against --reference (hnm-compare --help).",
                                  NULL, NULL, 0, &only};
  int first = hnm_opt_parse(&cmd, opts, argc - 1, argv + 1, err, errlen);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_OPT_DONE : HNM_EXIT_USAGE;
  a->nonly = only.n;
  for (int i = first + 1; i < argc; i++) {
    if (a->in != NULL) {
      hnm_errf(err, errlen, "plot: one input CSV only ('%s' is a second one; merge first)", argv[i]);
      return HNM_EXIT_USAGE;
    }
    a->in = argv[i];
  }
  if (a->in == NULL || a->prefix == NULL) {
    hnm_errf(err, errlen, "plot needs IN.csv and -o PREFIX");
    return HNM_EXIT_USAGE;
  }
  if (a->prefix[0] == '\0') {
    hnm_errf(err, errlen, "-o: empty PREFIX (the figures are PREFIX-time.png ...)");
    return HNM_EXIT_USAGE;
  }
  size_t pl = strlen(a->prefix) + 32;
  a->dat = cmp_xmalloc(pl), a->edat = cmp_xmalloc(pl), a->gp = cmp_xmalloc(pl), a->png = cmp_xmalloc(pl);
  a->epng = cmp_xmalloc(pl);
  snprintf(a->dat, pl, "%s-time.dat", a->prefix);
  snprintf(a->edat, pl, "%s-error.dat", a->prefix);
  snprintf(a->gp, pl, "%s.gp", a->prefix);
  snprintf(a->png, pl, "%s-time.png", a->prefix);
  snprintf(a->epng, pl, "%s-error.png", a->prefix);
  return 0;
}

/* Keep the ok rows of SEL that pass --only (the reference model's rows, too,
 * as long as they match), check their numbers: 0 and *N the rows kept, or
 * -1 with err. */
static int plot__keep(const plot__args *a, cmp_row **sel, long *n, char *err, size_t errlen)
{
  long m = 0;
  for (long i = 0; i < *n; i++) {
    const cmp_row *r = sel[i];
    double t, lo, hi;
    long np;
    /* A model set is drawn by its central rows, which carry the band. */
    int keep = strcmp(r->f[CMP_COL_STATUS], "ok") == 0 &&
               (r->f[CMP_COL_MEMBER][0] == '\0' || strcmp(r->f[CMP_COL_MEMBER], "central") == 0);
    for (int k = 0; k < a->nonly && keep; k++)
      keep = strcmp(r->f[a->onlycol[k]], a->onlyval[k]) == 0 ||
             (a->ref && a->onlycol[k] == CMP_COL_MODEL && strcmp(r->f[CMP_COL_MODEL], a->ref) == 0);
    if (!keep)
      continue;
    if (cmp_parse_double(r->f[CMP_COL_TIME], &t) != 0 || t < 0)
      return hnm_fail(err, errlen, "%s:%ld: time_s: '%s' is not a time", r->file, r->line, r->f[CMP_COL_TIME]);
    if (cmp_parse_long(r->f[CMP_COL_NP], 1, 100000000, &np) != 0)
      return hnm_fail(err, errlen, "%s:%ld: np: '%s' is not a process count", r->file, r->line, r->f[CMP_COL_NP]);
    if (r->f[CMP_COL_BAND_LO][0] != '\0' &&
        (cmp_parse_double(r->f[CMP_COL_BAND_LO], &lo) != 0 || cmp_parse_double(r->f[CMP_COL_BAND_HI], &hi) != 0 ||
         lo < 0 || hi < lo))
      return hnm_fail(err, errlen, "%s:%ld: band_lo, band_hi: '%s', '%s' is not a band (0 <= band_lo <= band_hi)",
                      r->file, r->line, r->f[CMP_COL_BAND_LO], r->f[CMP_COL_BAND_HI]);
    sel[m++] = sel[i];
  }
  *n = m;
  if (m == 0)
    return hnm_fail(err, errlen, "%s: no ok run to plot", a->in);
  int found_ref = 0;
  for (long i = 0; a->ref && i < m; i++)
    found_ref |= strcmp(sel[i]->f[CMP_COL_MODEL], a->ref) == 0;
  if (a->ref && !found_ref)
    return hnm_fail(err, errlen, "--reference: no ok run of model '%s' in %s", a->ref, a->in);
  return 0;
}

/* Series: one per (program, args, model, platform, metric), in index order,
 * each sorted by np. Returns their number. */
static long plot__series(cmp_row **sel, long n, series **out)
{
  series *s = cmp_xmalloc((size_t)n * sizeof *s);
  long ns = 0;
  for (long i = 0; i < n; i++) {
    long g = 0;
    while (g < ns && !same_group(s[g].first, sel[i]))
      g++;
    if (g == ns) {
      s[ns] = (series){sel[i], cmp_xmalloc((size_t)n * sizeof(long)), cmp_xmalloc((size_t)n * sizeof(double)),
                       cmp_xmalloc((size_t)n * sizeof(double)), cmp_xmalloc((size_t)n * sizeof(double)), 0, 0, NULL};
      ns++;
    }
    long k = s[g].n++;
    s[g].np[k] = atol(sel[i]->f[CMP_COL_NP]);
    cmp_parse_double(sel[i]->f[CMP_COL_TIME], &s[g].t[k]);
    s[g].lo[k] = s[g].hi[k] = s[g].t[k];
    if (sel[i]->f[CMP_COL_BAND_LO][0] != '\0') {
      cmp_parse_double(sel[i]->f[CMP_COL_BAND_LO], &s[g].lo[k]);
      cmp_parse_double(sel[i]->f[CMP_COL_BAND_HI], &s[g].hi[k]);
      s[g].banded = 1;
    }
    /* insertion sort by np */
    while (k > 0 && s[g].np[k - 1] > s[g].np[k]) {
      long tn = s[g].np[k];
      double tt = s[g].t[k], tl = s[g].lo[k], th = s[g].hi[k];
      s[g].np[k] = s[g].np[k - 1];
      s[g].t[k] = s[g].t[k - 1];
      s[g].lo[k] = s[g].lo[k - 1];
      s[g].hi[k] = s[g].hi[k - 1];
      s[g].np[k - 1] = tn;
      s[g].t[k - 1] = tt;
      s[g].lo[k - 1] = tl;
      s[g].hi[k - 1] = th;
      k--;
    }
  }
  *out = s;
  return ns;
}

/* The words of series G's options that not every simulation series has
 * (allocated). */
static char *plot__uncommon_options(const series *s, long ns, long g)
{
  cmp_strvec w = {0}, keep = {0};
  cmp_sv_split(&w, s[g].first->f[CMP_COL_OPTIONS]);
  for (int i = 0; i < w.n; i++) {
    int everywhere = 1;
    for (long h = 0; h < ns && everywhere; h++) {
      if (strcmp(s[h].first->f[CMP_COL_MODEL], "mpirun") == 0)
        continue;
      cmp_strvec o = {0};
      cmp_sv_split(&o, s[h].first->f[CMP_COL_OPTIONS]);
      int found = 0;
      for (int j = 0; j < o.n; j++)
        found |= strcmp(o.v[j], w.v[i]) == 0;
      everywhere = found;
      plot__sv_free(&o);
    }
    if (!everywhere)
      cmp_sv_push(&keep, w.v[i]);
  }
  char *uncommon = cmp_join(&keep);
  plot__sv_free(&w);
  plot__sv_free(&keep);
  return uncommon;
}

/* Labels: the components that vary between series. */
static void plot__labels(series *s, long ns)
{
  int vary[CMP_NCOLS] = {0};
  /* The mpirun reference always has other options and platform ("-") than
   * the simulations: those vary only if they do among the simulations. */
  const int comps[] = {CMP_COL_MODEL, CMP_COL_PLATFORM, CMP_COL_ARGS, CMP_COL_PROGRAM, CMP_COL_METRIC, CMP_COL_OPTIONS};
  const int ncomps = 6;
  for (int c = 0; c < ncomps; c++)
    for (long g = 1; g < ns; g++) {
      const cmp_row *a = s[g].first, *b = s[0].first;
      if (comps[c] == CMP_COL_OPTIONS || comps[c] == CMP_COL_PLATFORM) {
        long h = 0;
        while (h < ns && strcmp(s[h].first->f[CMP_COL_MODEL], "mpirun") == 0)
          h++;
        b = h < ns ? s[h].first : b;
        if (strcmp(a->f[CMP_COL_MODEL], "mpirun") == 0)
          continue;
      }
      if (strcmp(a->f[comps[c]], b->f[comps[c]]) != 0)
        vary[comps[c]] = 1;
    }
  if (!vary[CMP_COL_PLATFORM] && !vary[CMP_COL_ARGS] && !vary[CMP_COL_PROGRAM] && !vary[CMP_COL_METRIC] && !vary[CMP_COL_OPTIONS])
    vary[CMP_COL_MODEL] = 1; /* one series or models only: name them by model */
  for (long g = 0; g < ns; g++) {
    char buf[1024] = "";
    for (int c = 0; c < ncomps; c++) {
      if (!vary[comps[c]])
        continue;
      const char *v = s[g].first->f[comps[c]];
      if (comps[c] == CMP_COL_OPTIONS && strcmp(s[g].first->f[CMP_COL_MODEL], "mpirun") == 0)
        continue;
      char *uncommon = NULL;
      if (comps[c] == CMP_COL_OPTIONS) {
        /* Only the words that not every simulation series has. */
        uncommon = plot__uncommon_options(s, ns, g);
        v = *uncommon ? uncommon : "(base options)";
      }
      if (comps[c] == CMP_COL_PROGRAM && strrchr(v, '/'))
        v = strrchr(v, '/') + 1;
      if (comps[c] == CMP_COL_PLATFORM && strcmp(v, "-") == 0)
        continue;
      size_t l = strlen(buf);
      snprintf(buf + l, sizeof buf - l, "%s%s", l ? " " : "", *v ? v : "(no args)");
      free(uncommon);
    }
    s[g].label = cmp_xstrdup(buf);
  }
}

/* The reference time of series G at its K-th np: 0 and *TR > 0, or -1. */
static int plot__ref_time(const series *s, long g, long k, cmp_row **sel, long n, const char *ref, double *tr)
{
  cmp_row probe = *s[g].first;
  char npb[32];
  snprintf(npb, sizeof npb, "%ld", s[g].np[k]);
  probe.f[CMP_COL_NP] = npb;
  return find_ref(sel, n, &probe, ref, tr) == 0 && *tr > 0 ? 0 : -1;
}

/* Text table on stdout (with the 5-95% band when a series has one). */
static void plot__table(const series *s, long ns, int banded, cmp_row **sel, long n, const char *ref)
{
  printf("%-40s %8s %14s%s%s\n", "series", "np", "time_s", banded ? "  5-95% band" : "", ref ? "  err_vs_ref" : "");
  for (long g = 0; g < ns; g++)
    for (long k = 0; k < s[g].n; k++) {
      printf("%-40s %8ld %14.6g", s[g].label, s[g].np[k], s[g].t[k]);
      if (banded)
        printf("  [%.6g, %.6g]", s[g].lo[k], s[g].hi[k]);
      double tr;
      if (ref && plot__ref_time(s, g, k, sel, n, ref, &tr) == 0)
        printf("  %+9.1f%%", 100 * (s[g].t[k] - tr) / tr);
      putchar('\n');
    }
}

/* PREFIX-time.dat: one block per series. 0, or HNM_EXIT_USAGE (cannot be
 * created) / HNM_EXIT_FAILURE (write error) with err. */
static int plot__write_time(const plot__args *a, const series *s, long ns, int banded, char *err, size_t errlen)
{
  hnm_out *od;
  FILE *d = plot__open(a->dat, &od, err, errlen);
  if (d == NULL)
    return HNM_EXIT_USAGE;
  for (long g = 0; g < ns; g++) {
    fprintf(d, "# %s\n", s[g].label);
    for (long k = 0; k < s[g].n; k++) {
      fprintf(d, "%ld %.17g", s[g].np[k], s[g].t[k]);
      if (banded)
        fprintf(d, " %.17g %.17g", s[g].lo[k], s[g].hi[k]);
      fputc('\n', d);
    }
    fprintf(d, "\n\n");
  }
  return hnm_out_commit(od, err, errlen) != 0 ? HNM_EXIT_FAILURE : 0;
}

/* PREFIX-error.dat (--reference): the relative errors of every other
 * series; EIDX, *NERR: the series written. Status as plot__write_time(). */
static int plot__write_error(const plot__args *a, const series *s, long ns, int banded, cmp_row **sel, long n,
                             long *eidx, long *nerr, char *err, size_t errlen)
{
  hnm_out *oe;
  FILE *e = plot__open(a->edat, &oe, err, errlen);
  if (e == NULL)
    return HNM_EXIT_USAGE;
  for (long g = 0; g < ns; g++) {
    if (strcmp(s[g].first->f[CMP_COL_MODEL], a->ref) == 0)
      continue;
    int any = 0;
    for (long k = 0; k < s[g].n; k++) {
      double tr;
      if (plot__ref_time(s, g, k, sel, n, a->ref, &tr) != 0)
        continue;
      if (!any)
        fprintf(e, "# %s\n", s[g].label);
      any = 1;
      fprintf(e, "%ld %.17g", s[g].np[k], 100 * (s[g].t[k] - tr) / tr);
      if (banded)
        fprintf(e, " %.17g %.17g", 100 * (s[g].lo[k] - tr) / tr, 100 * (s[g].hi[k] - tr) / tr);
      fputc('\n', e);
    }
    if (any) {
      fprintf(e, "\n\n");
      eidx[(*nerr)++] = g;
    }
  }
  return hnm_out_commit(oe, err, errlen) != 0 ? HNM_EXIT_FAILURE : 0;
}

/* One plot command of the script: DAT's blocks (IDX[k], or k when IDX is
 * NULL, gives the series of block k), bands first, under the lines, in
 * their series' colour. */
static void plot__gp_plot(FILE *g, const char *dat, const series *s, long nb, const long *idx, int banded)
{
  fprintf(g, "plot \\\n");
  for (long k = 0; k < nb; k++) {
    long sk = idx ? idx[k] : k;
    if (!s[sk].banded)
      continue;
    fprintf(g, "  ");
    hnm_gnuplot_string(g, dat);
    fprintf(g, " index %ld using 1:3:4 with filledcurves fillstyle transparent solid 0.25 noborder lt %ld notitle, "
            "\\\n", k, sk + 1);
  }
  for (long k = 0; k < nb; k++) {
    long sk = idx ? idx[k] : k;
    fprintf(g, "  ");
    hnm_gnuplot_string(g, dat);
    fprintf(g, " index %ld using 1:2 with linespoints", k);
    if (banded)
      fprintf(g, " lt %ld", sk + 1);
    fprintf(g, " title ");
    hnm_gnuplot_string(g, s[sk].label);
    fprintf(g, " noenhanced%s\n", k + 1 < nb ? ", \\" : "");
  }
}

/* PREFIX.gp. Status as plot__write_time(). */
static int plot__write_script(const plot__args *a, const series *s, long ns, int banded, const long *eidx, long nerr,
                              char *err, size_t errlen)
{
  hnm_out *og;
  FILE *g = plot__open(a->gp, &og, err, errlen);
  if (g == NULL)
    return HNM_EXIT_USAGE;
  fprintf(g, "# Generated by hnm-compare plot from %s\n", a->in);
  fprintf(g, "set terminal pngcairo size 800,600 enhanced font 'sans,11'\n");
  /* Long series names go under the plot, where they do not squeeze it. */
  size_t longest = 0;
  for (long k = 0; k < ns; k++)
    longest = strlen(s[k].label) > longest ? strlen(s[k].label) : longest;
  fprintf(g, "set logscale x 2\nset logscale y 10\nset format y \"%%g\"\nset grid\n%s\n",
          longest > 24 ? "set key outside below left Left reverse" : "set key outside right top");
  fprintf(g, "set xlabel 'processes'\nset ylabel 'time (s)'\n");
  fprintf(g, "set output ");
  hnm_gnuplot_string(g, a->png);
  fprintf(g, "\nset title ");
  hnm_gnuplot_string(g, a->title ? a->title : "");
  fprintf(g, " noenhanced\n");
  plot__gp_plot(g, a->dat, s, ns, NULL, banded);
  if (a->ref && nerr > 0) {
    fprintf(g, "set output ");
    hnm_gnuplot_string(g, a->epng);
    fprintf(g, "\nunset logscale y\nset ylabel 'relative error vs %s (%%)'\n", a->ref);
    plot__gp_plot(g, a->edat, s, nerr, eidx, banded);
  }
  return hnm_out_commit(og, err, errlen) != 0 ? HNM_EXIT_FAILURE : 0;
}

/* The one output rule (hnm_out.h), before anything is read further or
 * printed: every file plot writes -- the data files and the script, and
 * the PNGs gnuplot opens by name, which must be regular files (a FIFO
 * blocks gnuplot for ever, a device loses the figure) -- can be created
 * and is not the input CSV (hard or symbolic link). 0, or -1 with err. */
static int plot__check_outputs(const plot__args *a, char *err, size_t errlen)
{
  if (hnm_out_input(a->in, "IN.csv", err, errlen) != 0)
    return -1;
  if (hnm_out_check(a->dat, "-o", err, errlen) != 0 || hnm_out_check(a->gp, "-o", err, errlen) != 0 ||
      hnm_out_regular(a->png, "-o", err, errlen) != 0)
    return -1;
  if (a->ref && (hnm_out_check(a->edat, "-o", err, errlen) != 0 || hnm_out_regular(a->epng, "-o", err, errlen) != 0))
    return -1;
  return 0;
}

int cmp_cmd_plot(int argc, char **argv)
{
  /* Static: what plot reads lives until exit, whatever the path (no leak
   * at exit under LeakSanitizer). */
  static plot__args a;
  char err[HNM_ERRLEN];
  int rc = plot__parse(argc, argv, &a, err, sizeof err);
  if (rc != 0)
    return rc == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", err);
  static cmp_rowvec rows;
  static cmp_row **sel;
  long n, dups;
  if (cmp_read_rows(a.in, 0, &rows, 0, err, sizeof err) != 0 ||
      cmp_select_rows(&rows, &sel, &n, &dups, err, sizeof err) != 0 || plot__keep(&a, sel, &n, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  if (plot__check_outputs(&a, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);

  static series *s;
  long ns = plot__series(sel, n, &s);
  plot__labels(s, ns);
  int banded = 0;
  for (long g = 0; g < ns; g++)
    banded |= s[g].banded;
  plot__table(s, ns, banded, sel, n, a.ref);
  /* The table reached its place, or that is the one line said (nothing
   * else written). */
  if (fflush(stdout) != 0 || ferror(stdout))
    return hnm_msg_failure("standard output: write error: %s", strerror(errno));

  /* Data files and the gnuplot script. */
  static long *eidx;
  long nerr = 0;
  eidx = cmp_xmalloc((size_t)ns * sizeof *eidx);
  if ((rc = plot__write_time(&a, s, ns, banded, err, sizeof err)) != 0 ||
      (a.ref && (rc = plot__write_error(&a, s, ns, banded, sel, n, eidx, &nerr, err, sizeof err)) != 0) ||
      (rc = plot__write_script(&a, s, ns, banded, eidx, nerr, err, sizeof err)) != 0)
    return rc == HNM_EXIT_USAGE ? hnm_msg_error("%s", err) : hnm_msg_failure("%s", err);
  char gerr[1200];
  if (hnm_gnuplot_run(a.gp, 0, gerr, sizeof gerr) != 0)
    return hnm_msg_failure("%s", gerr); /* not bad input: the data and script are written */
  /* gnuplot exits 0 when it cannot write a figure: each one checked. */
  if (hnm_gnuplot_png_written(a.png, "-o", gerr, sizeof gerr) != 0 ||
      (a.ref && nerr && hnm_gnuplot_png_written(a.epng, "-o", gerr, sizeof gerr) != 0))
    return hnm_msg_failure("%s", gerr);
  hnm_msg_info("plot: wrote %s%s%s (script %s)", a.png, a.ref && nerr ? ", " : "", a.ref && nerr ? a.epng : "", a.gp);
  return 0;
}
