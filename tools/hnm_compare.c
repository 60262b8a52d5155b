/* hnm-compare -- sweeps of an MPI program over models x process counts x
 * platforms x program arguments, through hnm-run, with a resumable CSV.
 *
 *   hnm-compare run   [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]
 *   hnm-compare slurm --tasks N --script JOB.sh [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]
 *   hnm-compare merge -o OUT.csv IN.csv...
 *   hnm-compare plot  IN.csv -o PREFIX [--reference MODEL] [--only COL=VAL]... [--title TEXT]
 *
 * The grid is enumerated in a fixed order (platform, then argument set, then
 * process count, then model; then the optional mpirun reference runs per
 * argument set and process count), so that a run's index is the same in every
 * invocation over the same grid: --task i --tasks n runs the indices equal to
 * i modulo n, and merge sorts by index.
 *
 * Every run is one child process group (hnm-run -> smpirun -> smpimain, or
 * mpirun): several at once (--workers), each with its stdout/stderr in the log
 * directory, a wall-clock timeout (the whole group is killed), its exit status
 * and peak resident memory from wait4(). One CSV row per finished run is
 * appended and flushed at once; a later invocation skips the runs whose key
 * (program, args, model, platform, np, metric, options) already has an ok row.
 */
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CMP_VERSION "0.1.0"
#define CMP_HEADER \
  "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code"
#define CMP_NCOLS 13
enum { C_INDEX, C_PROGRAM, C_ARGS, C_MODEL, C_PLATFORM, C_NP, C_METRIC, C_OPTIONS, C_TIME, C_WALL, C_RSS, C_STATUS, C_EXIT };

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */

static int cmp_fail(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("hnm-compare: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 2;
}

static void *xmalloc(size_t n)
{
  void *p = calloc(1, n ? n : 1);
  if (p == NULL) {
    fputs("hnm-compare: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

static void *xrealloc(void *p, size_t n)
{
  p = realloc(p, n ? n : 1);
  if (p == NULL) {
    fputs("hnm-compare: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

static char *xstrdup(const char *s)
{
  char *d = xmalloc(strlen(s) + 1);
  memcpy(d, s, strlen(s) + 1);
  return d;
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A growable array of strings. */
typedef struct {
  char **v;
  int n, cap;
} strvec;

static void sv_push(strvec *s, const char *x)
{
  if (s->n + 1 >= s->cap) {
    s->cap = s->cap ? 2 * s->cap : 8;
    s->v = xrealloc(s->v, (size_t)s->cap * sizeof *s->v);
  }
  s->v[s->n++] = x ? xstrdup(x) : NULL;
  s->v[s->n] = NULL;
}

/* Split TEXT on blanks (no quoting: an argument set is a list of words). */
static void sv_split(strvec *s, const char *text)
{
  const char *p = text;
  while (*p) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (!*p)
      break;
    const char *e = p;
    while (*e && *e != ' ' && *e != '\t')
      e++;
    char *w = xmalloc((size_t)(e - p) + 1);
    memcpy(w, p, (size_t)(e - p));
    sv_push(s, w);
    free(w);
    p = e;
  }
}

/* Shell-quote S for a script line or a dry-run listing. */
static void put_shell(FILE *f, const char *s)
{
  int safe = *s != '\0';
  for (const char *p = s; *p; p++)
    if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') || ('0' <= *p && *p <= '9') || strchr("-_./=:,+%@", *p)))
      safe = 0;
  if (safe) {
    fputs(s, f);
    return;
  }
  fputc('\'', f);
  for (const char *p = s; *p; p++)
    if (*p == '\'')
      fputs("'\\''", f);
    else
      fputc(*p, f);
  fputc('\'', f);
}

/* CSV field, quoted when it holds a comma or a quote (RFC 4180). */
static void put_csv(FILE *f, const char *s)
{
  if (strpbrk(s, ",\"") == NULL) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (const char *p = s; *p; p++) {
    if (*p == '"')
      fputc('"', f);
    fputc(*p, f);
  }
  fputc('"', f);
}

/* Split one CSV line (no newline inside fields) into at most MAX fields,
 * in place. Returns the number of fields, or -1 on a malformed quote. */
static int csv_split(char *line, char **fields, int max)
{
  int n = 0;
  char *p = line, *w;
  for (;;) {
    if (n == max)
      return max + 1;
    fields[n++] = w = p;
    if (*p == '"') {
      p++;
      for (;;) {
        if (*p == '\0')
          return -1;
        if (*p == '"') {
          if (p[1] == '"') {
            *w++ = '"';
            p += 2;
            continue;
          }
          p++;
          break;
        }
        *w++ = *p++;
      }
      if (*p != ',' && *p != '\0')
        return -1;
    } else {
      while (*p && *p != ',')
        *w++ = *p++;
    }
    if (*p == '\0') {
      *w = '\0';
      return n;
    }
    *w = '\0';
    p++;
  }
}

static void chomp(char *s)
{
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
    s[--n] = '\0';
}

static int parse_long(const char *s, long min, long max, long *out)
{
  char *e;
  errno = 0;
  long v = strtol(s, &e, 10);
  if (e == s || *e != '\0' || errno != 0 || v < min || v > max)
    return -1;
  *out = v;
  return 0;
}

static int parse_double(const char *s, double *out)
{
  char *e;
  errno = 0;
  double v = strtod(s, &e);
  if (e == s || *e != '\0' || errno != 0 || !isfinite(v))
    return -1;
  *out = v;
  return 0;
}

/* ------------------------------------------------------------------------ */
/* The grid                                                                  */

typedef struct {
  char *xml, *hosts, *label;
} cmp_platform;

typedef struct {
  strvec models, args, sim_opts, mpirun_opts, base_args, raw; /* raw: run options as given */
  long *nps;
  int nnps;
  cmp_platform *plats;
  int nplats;
  const char *program, *mpi_program, *metric, *out, *log_dir, *hnm_run;
  char *sim_opts_str, *mpirun_opts_str; /* the options of a run, blank-separated (CSV column options) */
  int reference, progress, dry_run, no_retry;
  long workers, task, tasks;
  double timeout;
} cmp_config;

typedef struct {
  long index;
  int model;    /* index in models, or -1 for the mpirun reference */
  int plat;     /* -1 for the reference */
  int argset;
  long np;
  char *key;    /* program \x1f args \x1f model \x1f platform \x1f np \x1f metric \x1f options */
} cmp_run;

static const char *run_model(const cmp_config *c, const cmp_run *r)
{
  return r->model < 0 ? "mpirun" : c->models.v[r->model];
}

static const char *run_platform(const cmp_config *c, const cmp_run *r)
{
  return r->plat < 0 ? "-" : c->plats[r->plat].label;
}

static char *make_key(const char *program, const char *args, const char *model, const char *platform,
                      const char *np, const char *metric, const char *options)
{
  size_t n = strlen(program) + strlen(args) + strlen(model) + strlen(platform) + strlen(np) + strlen(metric) +
             strlen(options) + 8;
  char *k = xmalloc(n);
  snprintf(k, n, "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", program, args, model, platform, np, metric, options);
  return k;
}

static const char *run_options(const cmp_config *c, const cmp_run *r)
{
  return r->model < 0 ? c->mpirun_opts_str : c->sim_opts_str;
}

static char *join(const strvec *v)
{
  size_t n = 1;
  for (int i = 0; i < v->n; i++)
    n += strlen(v->v[i]) + 1;
  char *s = xmalloc(n);
  for (int i = 0; i < v->n; i++) {
    if (i)
      strcat(s, " ");
    strcat(s, v->v[i]);
  }
  return s;
}

static char *run_key(const cmp_config *c, const cmp_run *r)
{
  char np[32];
  snprintf(np, sizeof np, "%ld", r->np);
  return make_key(c->program, c->args.v[r->argset], run_model(c, r), run_platform(c, r), np, c->metric,
                  run_options(c, r));
}

static int enumerate(const cmp_config *c, cmp_run **out)
{
  int n = c->nplats * c->args.n * c->nnps * c->models.n + (c->reference ? c->args.n * c->nnps : 0);
  cmp_run *runs = xmalloc((size_t)n * sizeof *runs);
  long idx = 0;
  for (int p = 0; p < c->nplats; p++)
    for (int a = 0; a < c->args.n; a++)
      for (int k = 0; k < c->nnps; k++)
        for (int m = 0; m < c->models.n; m++) {
          cmp_run r = {idx, m, p, a, c->nps[k], NULL};
          r.key = run_key(c, &r);
          runs[idx++] = r;
        }
  if (c->reference)
    for (int a = 0; a < c->args.n; a++)
      for (int k = 0; k < c->nnps; k++) {
        cmp_run r = {idx, -1, -1, a, c->nps[k], NULL};
        r.key = run_key(c, &r);
        runs[idx++] = r;
      }
  *out = runs;
  return n;
}

/* The command line of one run (a NULL-terminated vector). */
static void run_argv(const cmp_config *c, const cmp_run *r, strvec *v)
{
  char np[32];
  snprintf(np, sizeof np, "%ld", r->np);
  if (r->model < 0) {
    sv_push(v, "mpirun");
    for (int i = 0; i < c->mpirun_opts.n; i++)
      sv_push(v, c->mpirun_opts.v[i]);
    sv_push(v, "-np");
    sv_push(v, np);
    sv_push(v, c->mpi_program);
  } else {
    sv_push(v, c->hnm_run);
    sv_push(v, "--model");
    sv_push(v, c->models.v[r->model]);
    sv_push(v, "-platform");
    sv_push(v, c->plats[r->plat].xml);
    sv_push(v, "-hostfile");
    sv_push(v, c->plats[r->plat].hosts);
    sv_push(v, "-np");
    sv_push(v, np);
    for (int i = 0; i < c->sim_opts.n; i++)
      sv_push(v, c->sim_opts.v[i]);
    if (strcmp(c->metric, "simclock") == 0) {
      /* SimGrid 3.32 (smpi_utils.cpp, print_time_analysis) then logs
       * "Simulated time: %g seconds." at the end, in category smpi_utils. */
      sv_push(v, "--cfg=smpi/display-timing:yes");
      sv_push(v, "--log=smpi_utils.thres:info");
    }
    sv_push(v, c->program);
  }
  for (int i = 0; i < c->base_args.n; i++)
    sv_push(v, c->base_args.v[i]);
  sv_split(v, c->args.v[r->argset]);
}

/* ------------------------------------------------------------------------ */
/* Options of run and slurm                                                  */

static void usage(FILE *f)
{
  fprintf(f,
          "Usage: hnm-compare run   [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]\n"
          "       hnm-compare slurm --tasks N --script JOB.sh [--sbatch LINE]... [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]\n"
          "       hnm-compare merge -o OUT.csv IN.csv...\n"
          "       hnm-compare plot  IN.csv -o PREFIX [--reference MODEL] [--only COLUMN=VALUE]... [--title TEXT]\n"
          "Run an MPI program built with smpicc over models x process counts x platforms x\n"
          "argument sets through hnm-run, several runs at once, into a resumable CSV.\n"
          "\n"
          "Grid (each option repeatable; the grid is their product):\n"
          "  --model SPEC        an hnm-run model (graphene, loggps, fluid, smpi-default, a file,\n"
          "                      NAME:k=v,...); default graphene\n"
          "  --np LIST           process counts, comma-separated (e.g. 8,16,32); required\n"
          "  --platform XML[:HOSTS]  platform and hostfile (default hostfile: XML with .xml\n"
          "                      replaced by .hosts); label = file name without .xml;\n"
          "                      default: hnm-run's bundled platform\n"
          "  --args 'WORDS'      one argument set appended to PROGRAM ARGS (split on blanks);\n"
          "                      default: one empty set\n"
          "Runs:\n"
          "  --metric M          simclock: SimGrid's final simulated clock (smpi/display-timing,\n"
          "                      6 significant digits); csv:COL[:KEY=VAL...]: the sum of column\n"
          "                      COL over the rows of the program's CSV output (stdout) whose\n"
          "                      column KEY equals VAL (default csv:time_s, the skeletons' report)\n"
          "  --sim-opt OPT       an smpirun option for every simulation (repeatable), e.g.\n"
          "                      --sim-opt=--cfg=smpi/privatization:no; unless one sets\n"
          "                      smpi/simulate-computation, --cfg=smpi/simulate-computation:no\n"
          "                      is added (reproducible, network-only times; give\n"
          "                      --sim-opt=--cfg=smpi/simulate-computation:yes to inject the\n"
          "                      measured computation)\n"
          "  --reference         also run PROGRAM-mpi with mpirun at each np and argument set\n"
          "                      (model 'mpirun', platform '-'); with --metric simclock its\n"
          "                      time is the wall time of mpirun\n"
          "  --mpi-program PATH  the program for --reference (default PROGRAM-mpi)\n"
          "  --mpirun-opt OPT    mpirun options (repeatable; default --allow-run-as-root\n"
          "                      --oversubscribe --mca btl self,vader)\n"
          "  --workers N         runs at once (default: the number of cores)\n"
          "  --timeout SEC       kill a run's process group after SEC seconds of wall time\n"
          "                      (default 0: none); recorded with status timeout\n"
          "  -o, --out FILE      the CSV (appended to; runs with an ok row are skipped)\n"
          "  --no-retry          also skip the runs recorded as failed, timeout, ... (default:\n"
          "                      run them again)\n"
          "  --log-dir DIR       stdout/stderr of each run, INDEX.out/INDEX.err (default FILE.logs)\n"
          "  --task I --tasks N  run only the grid indices equal to I modulo N (0 <= I < N)\n"
          "  --progress          progress line on stderr even when it is not a terminal\n"
          "  --dry-run           print the runs to do (shell syntax), run nothing\n"
          "  --hnm-run PATH      the hnm-run to use (default %s)\n"
          "  -h, --help, --version\n"
          "Slurm: --tasks N (array size), --script FILE (the job script to write), --sbatch LINE\n"
          "  (an #SBATCH line, repeatable); the other options as for run; per-task CSVs\n"
          "  OUT.task-I.csv (OUT without .csv), its directory created.\n"
          "Merge: rows sorted by index; duplicates dropped; conflicting ok rows or two runs\n"
          "  with one index (different grids) refused.\n"
          "\n"
          "Plot: PREFIX-time.png (time vs processes, log axes, one line per model, platform\n"
          "  and argument set that vary), PREFIX-error.png (relative error against --reference\n"
          "  MODEL at the same program, args, platform or '-', np), their .dat files, PREFIX.gp\n"
          "  and a table on stdout; --only keeps the rows whose COLUMN equals VALUE.\n"
          "\n"
          "CSV columns: " CMP_HEADER "\n"
          "status: ok, failed (exit status != 0), signal, timeout, nometric (exit 0, no metric).\n"
          "Exit status: 0 all runs ok, 1 some run not ok, 2 bad input (nothing run).\n"
          "See docs/experiments.md.\n",
          HNM_RUN_PATH);
}

static int add_platform(cmp_config *c, const char *spec)
{
  const char *colon = strrchr(spec, ':');
  char *xml, *hosts;
  if (colon != NULL) {
    xml = xmalloc((size_t)(colon - spec) + 1);
    memcpy(xml, spec, (size_t)(colon - spec));
    hosts = xstrdup(colon + 1);
  } else {
    xml = xstrdup(spec);
    size_t n = strlen(spec);
    hosts = xmalloc(n + 8);
    if (n > 4 && strcmp(spec + n - 4, ".xml") == 0)
      snprintf(hosts, n + 8, "%.*s.hosts", (int)(n - 4), spec);
    else
      snprintf(hosts, n + 8, "%s.hosts", spec);
  }
  if (access(xml, R_OK) != 0)
    return cmp_fail("--platform: cannot read platform file '%s': %s", xml, strerror(errno));
  if (access(hosts, R_OK) != 0)
    return cmp_fail("--platform: cannot read hostfile '%s': %s (give it as XML:HOSTS)", hosts, strerror(errno));
  const char *base = strrchr(xml, '/') ? strrchr(xml, '/') + 1 : xml;
  char *label = xstrdup(base);
  size_t n = strlen(label);
  if (n > 4 && strcmp(label + n - 4, ".xml") == 0)
    label[n - 4] = '\0';
  for (int i = 0; i < c->nplats; i++)
    if (strcmp(c->plats[i].label, label) == 0)
      return cmp_fail("--platform: two platforms named '%s' (labels are file names without .xml)", label);
  c->plats = xrealloc(c->plats, (size_t)(c->nplats + 1) * sizeof *c->plats);
  c->plats[c->nplats++] = (cmp_platform){xml, hosts, label};
  return 0;
}

static int add_nps(cmp_config *c, const char *list)
{
  char *copy = xstrdup(list), *save = NULL;
  if (*list == '\0' || list[strlen(list) - 1] == ',')
    return cmp_fail("--np: '%s' is not a comma-separated list of process counts", list);
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    long v;
    if (parse_long(t, 1, 100000000, &v) != 0)
      return cmp_fail("--np: '%s' is not a process count (a whole number >= 1)", t);
    for (int i = 0; i < c->nnps; i++)
      if (c->nps[i] == v)
        return cmp_fail("--np: %ld given twice", v);
    c->nps = xrealloc(c->nps, (size_t)(c->nnps + 1) * sizeof *c->nps);
    c->nps[c->nnps++] = v;
  }
  free(copy);
  return 0;
}

static int check_metric(const char *m)
{
  if (strcmp(m, "simclock") == 0)
    return 0;
  if (strncmp(m, "csv:", 4) != 0 || m[4] == '\0' || m[4] == ':')
    return cmp_fail("--metric: '%s' is neither simclock nor csv:COLUMN[:KEY=VALUE...]", m);
  for (const char *p = strchr(m + 4, ':'); p; p = strchr(p + 1, ':')) {
    const char *eq = strchr(p + 1, '='), *next = strchr(p + 1, ':');
    if (eq == NULL || eq == p + 1 || (next && eq > next))
      return cmp_fail("--metric: '%s': filter '%s' is not KEY=VALUE", m, p + 1);
  }
  if (strchr(m, ',') != NULL)
    return cmp_fail("--metric: '%s': a column name or filter cannot hold a comma", m);
  return 0;
}

/* The value following an option: "--opt VAL" or "--opt=VAL". */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *err)
{
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0)
    return NULL;
  if (a[n] == '=')
    return a + n + 1;
  if (a[n] != '\0')
    return NULL;
  if (*i + 1 >= argc) {
    *err = cmp_fail("%s needs a value (see hnm-compare --help)", name);
    return NULL;
  }
  return argv[++*i];
}

/* Parse the run options argv[first..]; SLURM-only options are accepted when
 * SL is not NULL. Returns 0, or 2 after printing the error. */
typedef struct {
  long tasks;
  const char *script;
  strvec sbatch;
} slurm_opts;

static int parse_run(int argc, char **argv, int first, cmp_config *c, slurm_opts *sl)
{
  memset(c, 0, sizeof *c);
  c->metric = "csv:time_s";
  c->hnm_run = getenv("HNM_COMPARE_HNM_RUN") ? getenv("HNM_COMPARE_HNM_RUN") : HNM_RUN_PATH;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  c->workers = ncpu > 0 ? ncpu : 1;
  c->task = 0;
  c->tasks = 1;
  int task_given = 0, tasks_given = 0;
  int i = first;
  for (; i < argc; i++) {
    const char *a = argv[i], *v;
    int err = 0, start = i;
    if (strcmp(a, "--") == 0) {
      i++;
      break;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(0);
    } else if ((v = opt_value(argc, argv, &i, "--model", &err)) != NULL) {
      if (strpbrk(v, "\n\r") != NULL)
        return cmp_fail("--model: a model spec cannot hold a newline");
      hnm_error e;
      hnm_model *m = hnm_model_parse_spec(v, &e);
      if (m == NULL)
        return cmp_fail("--model %s: %s", v, e.msg);
      hnm_model_free(m);
      for (int k = 0; k < c->models.n; k++)
        if (strcmp(c->models.v[k], v) == 0)
          return cmp_fail("--model: '%s' given twice", v);
      if (strcmp(v, "mpirun") == 0)
        return cmp_fail("--model: 'mpirun' is the reference's label (use --reference)");
      sv_push(&c->models, v);
    } else if ((v = opt_value(argc, argv, &i, "--np", &err)) != NULL) {
      if ((err = add_nps(c, v)) != 0)
        return err;
    } else if ((v = opt_value(argc, argv, &i, "--platform", &err)) != NULL) {
      if ((err = add_platform(c, v)) != 0)
        return err;
    } else if ((v = opt_value(argc, argv, &i, "--args", &err)) != NULL) {
      if (strpbrk(v, "\n\r") != NULL)
        return cmp_fail("--args: an argument set cannot hold a newline");
      for (int k = 0; k < c->args.n; k++)
        if (strcmp(c->args.v[k], v) == 0)
          return cmp_fail("--args: '%s' given twice", v);
      sv_push(&c->args, v);
    } else if ((v = opt_value(argc, argv, &i, "--metric", &err)) != NULL) {
      if ((err = check_metric(v)) != 0)
        return err;
      c->metric = v;
    } else if ((v = opt_value(argc, argv, &i, "--sim-opt", &err)) != NULL) {
      sv_push(&c->sim_opts, v);
    } else if (strcmp(a, "--reference") == 0) {
      c->reference = 1;
    } else if ((v = opt_value(argc, argv, &i, "--mpi-program", &err)) != NULL) {
      c->mpi_program = v;
    } else if ((v = opt_value(argc, argv, &i, "--mpirun-opt", &err)) != NULL) {
      sv_push(&c->mpirun_opts, v);
    } else if ((v = opt_value(argc, argv, &i, "--workers", &err)) != NULL) {
      if (parse_long(v, 1, 4096, &c->workers) != 0)
        return cmp_fail("--workers: '%s' is not a whole number in [1, 4096]", v);
    } else if ((v = opt_value(argc, argv, &i, "--timeout", &err)) != NULL) {
      if (parse_double(v, &c->timeout) != 0 || c->timeout < 0)
        return cmp_fail("--timeout: '%s' is not a number of seconds >= 0", v);
    } else if ((v = opt_value(argc, argv, &i, "--out", &err)) != NULL ||
               (err == 0 && (v = opt_value(argc, argv, &i, "-o", &err)) != NULL)) {
      c->out = v;
    } else if ((v = opt_value(argc, argv, &i, "--log-dir", &err)) != NULL) {
      c->log_dir = v;
    } else if ((v = opt_value(argc, argv, &i, "--tasks", &err)) != NULL) {
      if (parse_long(v, 1, 1000000, &c->tasks) != 0)
        return cmp_fail("--tasks: '%s' is not a whole number in [1, 1000000]", v);
      tasks_given = 1;
    } else if ((v = opt_value(argc, argv, &i, "--task", &err)) != NULL) {
      if (parse_long(v, 0, 999999, &c->task) != 0)
        return cmp_fail("--task: '%s' is not a whole number >= 0", v);
      task_given = 1;
    } else if (strcmp(a, "--progress") == 0) {
      c->progress = 1;
    } else if (strcmp(a, "--dry-run") == 0) {
      c->dry_run = 1;
    } else if (strcmp(a, "--no-retry") == 0) {
      c->no_retry = 1;
    } else if ((v = opt_value(argc, argv, &i, "--hnm-run", &err)) != NULL) {
      c->hnm_run = v;
    } else if (sl != NULL && (v = opt_value(argc, argv, &i, "--script", &err)) != NULL) {
      sl->script = v;
      continue;
    } else if (sl != NULL && (v = opt_value(argc, argv, &i, "--sbatch", &err)) != NULL) {
      if (strpbrk(v, "\n\r") != NULL)
        return cmp_fail("--sbatch: a line cannot hold a newline");
      sv_push(&sl->sbatch, v);
      continue;
    } else if (err == 0) {
      return cmp_fail("unknown option '%s' (see hnm-compare --help)", a);
    }
    if (err != 0)
      return err;
    /* Keep the run options as given (slurm re-emits them, except -o and the task slice). */
    int keep = !(strcmp(a, "-o") == 0 || strncmp(a, "-o=", 3) == 0 || strncmp(a, "--out", 5) == 0 ||
                 strncmp(a, "--task", 6) == 0);
    for (int k = start; k <= i && keep; k++)
      sv_push(&c->raw, argv[k]);
  }
  if (i >= argc)
    return cmp_fail("no program to run (give it after --; see hnm-compare --help)");
  c->program = argv[i];
  for (int k = i + 1; k < argc; k++)
    sv_push(&c->base_args, argv[k]);
  if (access(c->program, X_OK) != 0)
    return cmp_fail("cannot execute program '%s': %s", c->program, strerror(errno));
  if (c->nnps == 0)
    return cmp_fail("--np is required (process counts, e.g. --np 8,16,32)");
  if (c->out == NULL)
    return cmp_fail("-o OUT.csv is required");
  if (sl == NULL && task_given != tasks_given)
    return cmp_fail("--task and --tasks go together");
  if (c->task >= c->tasks)
    return cmp_fail("--task %ld: must be below --tasks %ld", c->task, c->tasks);
  if (c->models.n == 0)
    sv_push(&c->models, "graphene");
  if (c->args.n == 0)
    sv_push(&c->args, "");
  if (c->nplats == 0) {
    /* hnm-run's bundled platform: label "default". */
    if (add_platform(c, HNM_DEFAULT_PLATFORM) != 0)
      return 2;
  }
  if (c->reference) {
    if (c->mpi_program == NULL) {
      size_t n = strlen(c->program) + 5;
      char *p = xmalloc(n);
      snprintf(p, n, "%s-mpi", c->program);
      c->mpi_program = p;
    }
    if (access(c->mpi_program, X_OK) != 0)
      return cmp_fail("--reference: cannot execute '%s': %s (build it, or give --mpi-program)", c->mpi_program,
                      strerror(errno));
    if (c->mpirun_opts.n == 0) {
      const char *def[] = {"--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader"};
      for (int k = 0; k < 5; k++)
        sv_push(&c->mpirun_opts, def[k]);
    }
  }
  if (sl == NULL && !c->dry_run && access(c->hnm_run, X_OK) != 0)
    return cmp_fail("cannot execute hnm-run '%s': %s (build it, or give --hnm-run)", c->hnm_run, strerror(errno));
  for (int k = 0; k < c->sim_opts.n; k++)
    if (strpbrk(c->sim_opts.v[k], "\n\r") != NULL)
      return cmp_fail("--sim-opt: an option cannot hold a newline");
  /* Sweeps compare network models: unless told otherwise, no measured
   * computation, so that two runs of a sweep give the same numbers. */
  int simcomp_given = 0;
  for (int k = 0; k < c->sim_opts.n; k++)
    if (strncmp(c->sim_opts.v[k], "--cfg=smpi/simulate-computation:", 32) == 0)
      simcomp_given = 1;
  if (!simcomp_given)
    sv_push(&c->sim_opts, "--cfg=smpi/simulate-computation:no");
  c->sim_opts_str = join(&c->sim_opts);
  c->mpirun_opts_str = join(&c->mpirun_opts);
  if (c->log_dir == NULL) {
    size_t n = strlen(c->out) + 8;
    char *d = xmalloc(n);
    snprintf(d, n, "%s.logs", c->out);
    c->log_dir = d;
  }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Reading result CSVs                                                       */

typedef struct {
  char *f[CMP_NCOLS];
  char *buf;
  const char *file;
  int ord; /* the file's position among the inputs */
  long line;
} cmp_row;

typedef struct {
  cmp_row *v;
  long n, cap;
} rowvec;

/* Read FILE (which must start with the CMP_HEADER line) into ROWS.
 * MISSING_OK: a missing or empty file is no rows. Returns 0, or 2 after
 * printing "FILE:LINE: ..." */
static int read_rows(const char *file, int ord, rowvec *rows, int missing_ok)
{
  FILE *f = fopen(file, "r");
  if (f == NULL) {
    if (missing_ok && errno == ENOENT)
      return 0;
    return cmp_fail("cannot read '%s': %s", file, strerror(errno));
  }
  char *line = NULL;
  size_t cap = 0;
  long ln = 0;
  int rc = 0;
  while (getline(&line, &cap, f) >= 0) {
    ln++;
    chomp(line);
    if (ln == 1) {
      if (strcmp(line, CMP_HEADER) != 0) {
        rc = cmp_fail("%s:1: header is not hnm-compare's (" CMP_HEADER ")", file);
        break;
      }
      continue;
    }
    if (line[0] == '\0')
      continue;
    cmp_row r = {.buf = xstrdup(line), .file = file, .ord = ord, .line = ln};
    int n = csv_split(r.buf, r.f, CMP_NCOLS);
    if (n != CMP_NCOLS) {
      rc = cmp_fail("%s:%ld: %d fields, expected %d", file, ln, n < 0 ? 0 : n, CMP_NCOLS);
      free(r.buf);
      break;
    }
    long idx;
    if (parse_long(r.f[C_INDEX], 0, 1L << 40, &idx) != 0) {
      rc = cmp_fail("%s:%ld: field index: '%s' is not a whole number", file, ln, r.f[C_INDEX]);
      free(r.buf);
      break;
    }
    if (rows->n == rows->cap) {
      rows->cap = rows->cap ? 2 * rows->cap : 64;
      rows->v = xrealloc(rows->v, (size_t)rows->cap * sizeof *rows->v);
    }
    rows->v[rows->n++] = r;
  }
  if (ln == 0 && rc == 0 && !missing_ok)
    rc = cmp_fail("%s:1: empty file (no header)", file);
  free(line);
  fclose(f);
  return rc;
}

static char *row_key(const cmp_row *r)
{
  return make_key(r->f[C_PROGRAM], r->f[C_ARGS], r->f[C_MODEL], r->f[C_PLATFORM], r->f[C_NP], r->f[C_METRIC],
                  r->f[C_OPTIONS]);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
  interrupted = sig;
}

/* The metric of a finished run, from its stdout (csv:) or stderr (simclock). */
static int extract_metric(const char *metric, const char *out_file, const char *err_file, double *value)
{
  int simclock = strcmp(metric, "simclock") == 0;
  FILE *f = fopen(simclock ? err_file : out_file, "r");
  if (f == NULL)
    return -1;
  char *line = NULL;
  size_t cap = 0;
  int found = 0;
  double sum = 0;
  /* csv: the column, the filters (KEY=VAL), their column positions. */
  char *spec = xstrdup(simclock ? "" : metric + 4);
  char *col = spec, *filt[32];
  int nfilt = 0;
  for (char *p = strchr(spec, ':'); p && nfilt < 32; p = strchr(p, ':')) {
    *p++ = '\0';
    filt[nfilt++] = p;
  }
  char *fkey[32], *fval[32];
  for (int k = 0; k < nfilt; k++) {
    fkey[k] = filt[k];
    fval[k] = strchr(filt[k], '=');
    *fval[k]++ = '\0';
  }
  int ncols = 0, vcol = -1, fcol[32];
  char *fields[256];
  while (getline(&line, &cap, f) >= 0) {
    chomp(line);
    if (simclock) {
      const char *p = strstr(line, "Simulated time: ");
      if (p != NULL) {
        char *e;
        double v = strtod(p + 16, &e);
        if (e != p + 16) {
          sum = v;
          found = 1;
        }
      }
      continue;
    }
    int n = csv_split(line, fields, 255);
    if (n <= 0 || n > 255)
      continue;
    int is_header = 0;
    for (int k = 0; k < n; k++)
      if (strcmp(fields[k], col) == 0)
        is_header = 1;
    if (is_header) {
      ncols = n;
      vcol = -1;
      for (int k = 0; k < n; k++)
        if (strcmp(fields[k], col) == 0)
          vcol = k;
      for (int j = 0; j < nfilt; j++) {
        fcol[j] = -1;
        for (int k = 0; k < n; k++)
          if (strcmp(fields[k], fkey[j]) == 0)
            fcol[j] = k;
        if (fcol[j] < 0)
          vcol = -1; /* a filter column this output lacks: no row can match */
      }
      continue;
    }
    if (vcol < 0 || n != ncols)
      continue;
    int match = 1;
    for (int j = 0; j < nfilt; j++)
      if (strcmp(fields[fcol[j]], fval[j]) != 0)
        match = 0;
    double v;
    if (match && parse_double(fields[vcol], &v) == 0) {
      sum += v;
      found = 1;
    }
  }
  free(line);
  free(spec);
  fclose(f);
  if (!found)
    return -1;
  *value = sum;
  return 0;
}

typedef struct {
  pid_t pid;
  long run;
  double t0, kill_t;
  int killed; /* 1: SIGTERM sent at kill_t; 2: SIGKILL sent */
} cmp_slot;

static void write_row(FILE *csv, const cmp_config *c, const cmp_run *r, int have_time, double time_s, double wall,
                      long rss, const char *status, int code)
{
  fprintf(csv, "%ld,", r->index);
  put_csv(csv, c->program);
  fputc(',', csv);
  put_csv(csv, c->args.v[r->argset]);
  fputc(',', csv);
  put_csv(csv, run_model(c, r));
  fputc(',', csv);
  put_csv(csv, run_platform(c, r));
  fprintf(csv, ",%ld,", r->np);
  put_csv(csv, c->metric);
  fputc(',', csv);
  put_csv(csv, run_options(c, r));
  fputc(',', csv);
  if (have_time)
    fprintf(csv, "%.17g", time_s);
  fprintf(csv, ",%.3f,%ld,%s,%d\n", wall, rss, status, code);
  fflush(csv);
}

static void fmt_dur(char *b, size_t n, double s)
{
  long t = (long)(s + 0.5);
  if (t >= 3600)
    snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    snprintf(b, n, "%ld:%02ld", t / 60, t % 60);
}

static void progress(int tty, long done, long total, long bad, double t0)
{
  double el = now_s() - t0;
  char e[32], r[32] = "?";
  fmt_dur(e, sizeof e, el);
  if (done > 0)
    fmt_dur(r, sizeof r, el / (double)done * (double)(total - done));
  fprintf(stderr, "%shnm-compare: %ld/%ld runs done (%ld not ok), %s elapsed, ~%s remaining%s", tty ? "\r" : "",
          done, total, bad, e, r, tty ? "\033[K" : "\n");
  fflush(stderr);
}

static int mkdir_p(const char *dir)
{
  char *d = xstrdup(dir);
  for (char *p = d + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(d, 0777) != 0 && errno != EEXIST) {
        free(d);
        return -1;
      }
      *p = '/';
    }
  int rc = mkdir(d, 0777) != 0 && errno != EEXIST ? -1 : 0;
  free(d);
  return rc;
}

/* Before anything runs: let hnm-run validate (--dry-run) one run per
 * platform (its largest -np), so that a platform, hostfile or --sim-opt it refuses stops the
 * sweep with its one-line message instead of failing every run. */
static int validate_with_hnm_run(const cmp_config *c, const cmp_run *runs, long nruns)
{
  for (int p = 0; p < c->nplats; p++) {
    /* The largest process count: hnm-run checks it against the hostfile. */
    const cmp_run *r = NULL;
    for (long k = 0; k < nruns; k++)
      if (runs[k].plat == p && (r == NULL || runs[k].np > r->np))
        r = &runs[k];
    if (r == NULL)
      continue;
    strvec v = {0};
    run_argv(c, r, &v);
    strvec dry = {0};
    sv_push(&dry, v.v[0]);
    sv_push(&dry, "--dry-run");
    for (int j = 1; j < v.n; j++)
      sv_push(&dry, v.v[j]);
    char errf[] = "/tmp/hnm-compare-XXXXXX";
    int fd = mkstemp(errf);
    if (fd < 0)
      return cmp_fail("cannot create a temporary file: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      dup2(fd, 2);
      int nul = open("/dev/null", O_WRONLY);
      if (nul >= 0)
        dup2(nul, 1);
      execvp(dry.v[0], dry.v);
      _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0) {
      close(fd);
      unlink(errf);
      return cmp_fail("cannot run '%s': %s", dry.v[0], strerror(errno));
    }
    char msg[1024] = "";
    ssize_t n = pread(fd, msg, sizeof msg - 1, 0);
    msg[n > 0 ? n : 0] = '\0';
    msg[strcspn(msg, "\n")] = '\0';
    close(fd);
    unlink(errf);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
      return cmp_fail("platform %s: %s", c->plats[p].label,
                      *msg ? msg : "hnm-run --dry-run failed");
  }
  return 0;
}

static int cmd_run(int argc, char **argv)
{
  cmp_config c;
  int rc = parse_run(argc, argv, 2, &c, NULL);
  if (rc != 0)
    return rc;
  cmp_run *runs;
  long nruns = enumerate(&c, &runs);

  /* Resume: the keys that already have an ok row. */
  rowvec old = {0};
  if ((rc = read_rows(c.out, 0, &old, 1)) != 0)
    return rc;
  char **done = xmalloc((size_t)(old.n + 1) * sizeof *done);
  long ndone = 0;
  for (long k = 0; k < old.n; k++)
    if (c.no_retry || strcmp(old.v[k].f[C_STATUS], "ok") == 0)
      done[ndone++] = row_key(&old.v[k]);
  qsort(done, (size_t)ndone, sizeof *done, cmp_str);

  long *todo = xmalloc((size_t)(nruns + 1) * sizeof *todo);
  long ntodo = 0, mine = 0;
  for (long k = 0; k < nruns; k++) {
    if (k % c.tasks != c.task)
      continue;
    mine++;
    if (bsearch(&runs[k].key, done, (size_t)ndone, sizeof *done, cmp_str) == NULL)
      todo[ntodo++] = k;
  }

  if (c.dry_run) {
    printf("# %ld runs in the grid, %ld in this task, %ld already ok, %ld to run\n", nruns, mine, mine - ntodo,
           ntodo);
    for (long k = 0; k < ntodo; k++) {
      strvec v = {0};
      run_argv(&c, &runs[todo[k]], &v);
      printf("%ld:", runs[todo[k]].index);
      for (int j = 0; j < v.n; j++) {
        fputc(' ', stdout);
        put_shell(stdout, v.v[j]);
      }
      fputc('\n', stdout);
    }
    return 0;
  }

  if (mkdir_p(c.log_dir) != 0)
    return cmp_fail("--log-dir: cannot create '%s': %s", c.log_dir, strerror(errno));
  if (ntodo > 0 && (rc = validate_with_hnm_run(&c, runs, nruns)) != 0)
    return rc;
  /* The CSV: created with its header through a temporary file, then appended. */
  if (access(c.out, F_OK) != 0) {
    size_t n = strlen(c.out) + 16;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp%ld", c.out, (long)getpid());
    FILE *t = fopen(tmp, "w");
    if (t == NULL || fprintf(t, CMP_HEADER "\n") < 0 || fclose(t) != 0 || rename(tmp, c.out) != 0)
      return cmp_fail("-o: cannot write '%s': %s", c.out, strerror(errno));
    free(tmp);
  }
  FILE *csv = fopen(c.out, "a");
  if (csv == NULL)
    return cmp_fail("-o: cannot append to '%s': %s", c.out, strerror(errno));

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);

  int tty = isatty(2);
  int show = tty || c.progress;
  cmp_slot *slots = xmalloc((size_t)c.workers * sizeof *slots);
  long next = 0, active = 0, finished = 0, bad = 0;
  double t0 = now_s(), last_progress = 0;
  if (show)
    progress(tty, 0, ntodo, 0, t0);
  while ((next < ntodo || active > 0) && !interrupted) {
    while (active < c.workers && next < ntodo) {
      const cmp_run *r = &runs[todo[next]];
      strvec v = {0};
      run_argv(&c, r, &v);
      size_t n = strlen(c.log_dir) + 40;
      char *outf = xmalloc(n), *errf = xmalloc(n);
      snprintf(outf, n, "%s/%ld.out", c.log_dir, r->index);
      snprintf(errf, n, "%s/%ld.err", c.log_dir, r->index);
      fflush(NULL);
      pid_t pid = fork();
      if (pid < 0)
        return cmp_fail("cannot fork: %s", strerror(errno));
      if (pid == 0) {
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        FILE *o = freopen(outf, "w", stdout), *e = freopen(errf, "w", stderr);
        if (o == NULL || e == NULL)
          _exit(126);
        FILE *nul = freopen("/dev/null", "r", stdin);
        (void)nul;
        execvp(v.v[0], v.v);
        fprintf(stderr, "hnm-compare: cannot execute '%s': %s\n", v.v[0], strerror(errno));
        _exit(127);
      }
      setpgid(pid, pid);
      for (long s = 0; s < c.workers; s++)
        if (slots[s].pid == 0) {
          slots[s] = (cmp_slot){pid, todo[next], now_s(), 0, 0};
          break;
        }
      active++;
      next++;
      for (int j = 0; j < v.n; j++)
        free(v.v[j]);
      free(v.v);
      free(outf);
      free(errf);
    }
    int st;
    struct rusage ru;
    pid_t p = wait4(-1, &st, WNOHANG, &ru);
    double t = now_s();
    if (p > 0) {
      for (long s = 0; s < c.workers; s++) {
        if (slots[s].pid != p)
          continue;
        const cmp_run *r = &runs[slots[s].run];
        double wall = t - slots[s].t0;
        const char *status;
        int code;
        if (WIFEXITED(st)) {
          code = WEXITSTATUS(st);
          status = code == 0 ? "ok" : "failed";
        } else {
          code = -WTERMSIG(st);
          status = "signal";
        }
        if (slots[s].killed)
          status = "timeout";
        /* The group may still hold stragglers (children of the leader). */
        kill(-p, SIGKILL);
        double value = 0;
        int have = 0;
        if (strcmp(status, "ok") == 0) {
          size_t n = strlen(c.log_dir) + 40;
          char *outf = xmalloc(n), *errf = xmalloc(n);
          snprintf(outf, n, "%s/%ld.out", c.log_dir, r->index);
          snprintf(errf, n, "%s/%ld.err", c.log_dir, r->index);
          if (r->model < 0 && strcmp(c.metric, "simclock") == 0) {
            value = wall;
            have = 1;
          } else {
            have = extract_metric(c.metric, outf, errf, &value) == 0;
          }
          if (!have)
            status = "nometric";
          free(outf);
          free(errf);
        }
        write_row(csv, &c, r, have, value, wall, ru.ru_maxrss, status, code);
        finished++;
        if (strcmp(status, "ok") != 0) {
          bad++;
          fprintf(stderr, "%shnm-compare: run %ld (model %s, platform %s, np %ld, args '%s'): %s (%d); see %s/%ld.err\n",
                  tty ? "\r\033[K" : "", r->index, run_model(&c, r), run_platform(&c, r), r->np, c.args.v[r->argset],
                  status, code, c.log_dir, r->index);
        }
        slots[s].pid = 0;
        active--;
        if (show)
          progress(tty, finished, ntodo, bad, t0);
        last_progress = t;
        break;
      }
      continue;
    }
    for (long s = 0; s < c.workers; s++) {
      if (slots[s].pid == 0 || c.timeout <= 0)
        continue;
      if (!slots[s].killed && t - slots[s].t0 > c.timeout) {
        kill(-slots[s].pid, SIGTERM);
        slots[s].killed = 1;
        slots[s].kill_t = t;
      } else if (slots[s].killed == 1 && t - slots[s].kill_t > 2) {
        kill(-slots[s].pid, SIGKILL);
        slots[s].killed = 2;
      }
    }
    if (show && tty && t - last_progress >= 1) {
      progress(tty, finished, ntodo, bad, t0);
      last_progress = t;
    }
    struct timespec nap = {0, 20000000};
    nanosleep(&nap, NULL);
  }
  if (interrupted) {
    for (long s = 0; s < c.workers; s++)
      if (slots[s].pid != 0) {
        kill(-slots[s].pid, SIGKILL);
        waitpid(slots[s].pid, NULL, 0);
      }
    fclose(csv);
    fprintf(stderr, "%shnm-compare: interrupted; %ld runs recorded in %s, re-run to resume\n", tty ? "\r\033[K" : "",
            finished, c.out);
    return 128 + interrupted;
  }
  if (show && tty)
    fputc('\n', stderr);
  fclose(csv);
  return bad > 0 ? 1 : 0;
}

/* ------------------------------------------------------------------------ */
/* slurm                                                                     */

static int cmd_slurm(int argc, char **argv)
{
  cmp_config c;
  slurm_opts sl = {0};
  int rc = parse_run(argc, argv, 2, &c, &sl);
  if (rc != 0)
    return rc;
  if (c.tasks < 1 || sl.script == NULL)
    return cmp_fail("slurm needs --tasks N and --script JOB.sh");
  for (int i = 0; i < c.raw.n; i++)
    if (strcmp(c.raw.v[i], "--dry-run") == 0)
      return cmp_fail("slurm: --dry-run makes no sense in a job script");
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return cmp_fail("cannot find hnm-compare's own path: %s", strerror(errno));
  self[n] = '\0';
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) == NULL)
    return cmp_fail("cannot get the current directory: %s", strerror(errno));
  cmp_run *runs;
  long nruns = enumerate(&c, &runs);

  /* The per-task CSV: OUT without .csv, then .task-I.csv. */
  size_t ol = strlen(c.out);
  char *stem = xstrdup(c.out);
  if (ol > 4 && strcmp(stem + ol - 4, ".csv") == 0)
    stem[ol - 4] = '\0';

  /* Slurm opens --output before the script runs: its directory must exist. */
  char *dir = xstrdup(stem);
  if (strrchr(dir, '/') != NULL) {
    *strrchr(dir, '/') = '\0';
    if (*dir != '\0' && mkdir_p(dir) != 0)
      return cmp_fail("-o: cannot create the directory '%s': %s", dir, strerror(errno));
  }
  free(dir);
  size_t tl = strlen(sl.script) + 16;
  char *tmp = xmalloc(tl);
  snprintf(tmp, tl, "%s.tmp%ld", sl.script, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (f == NULL)
    return cmp_fail("--script: cannot write '%s': %s", sl.script, strerror(errno));
  fprintf(f, "#!/bin/bash\n");
  fprintf(f, "# Generated by hnm-compare slurm: %ld runs split into %ld array tasks\n", nruns, c.tasks);
  fprintf(f, "# (task I runs the grid indices equal to I modulo %ld). Submit with\n", c.tasks);
  fprintf(f, "#   sbatch %s\n# then, when every task is done, combine the per-task CSVs:\n#   ", sl.script);
  put_shell(f, self);
  fprintf(f, " merge -o ");
  put_shell(f, c.out);
  for (long t = 0; t < c.tasks && t < 8; t++) {
    char name[4200];
    snprintf(name, sizeof name, "%s.task-%ld.csv", stem, t);
    fputc(' ', f);
    put_shell(f, name);
  }
  fprintf(f, "%s\n", c.tasks > 8 ? " ..." : "");
  fprintf(f, "# Re-submitting resumes: each task skips its runs already ok in its CSV.\n");
  fprintf(f, "#SBATCH --job-name=hnm-compare\n#SBATCH --array=0-%ld\n#SBATCH --ntasks=1\n", c.tasks - 1);
  fprintf(f, "#SBATCH --output=%s.task-%%a.log\n", stem);
  for (int i = 0; i < sl.sbatch.n; i++)
    fprintf(f, "#SBATCH %s\n", sl.sbatch.v[i]);
  fprintf(f, "set -eu\ncd ");
  put_shell(f, cwd);
  fprintf(f, "\ntask=${SLURM_ARRAY_TASK_ID:?run this script with sbatch (or set SLURM_ARRAY_TASK_ID)}\n");
  fprintf(f, "exec ");
  put_shell(f, self);
  fprintf(f, " run");
  for (int i = 0; i < c.raw.n; i++) {
    fputc(' ', f);
    put_shell(f, c.raw.v[i]);
  }
  fprintf(f, " --task \"$task\" --tasks %ld -o ", c.tasks);
  put_shell(f, stem);
  fprintf(f, ".task-\"$task\".csv --");
  fputc(' ', f);
  put_shell(f, c.program);
  for (int i = 0; i < c.base_args.n; i++) {
    fputc(' ', f);
    put_shell(f, c.base_args.v[i]);
  }
  fputc('\n', f);
  if (fclose(f) != 0 || chmod(tmp, 0755) != 0 || rename(tmp, sl.script) != 0)
    return cmp_fail("--script: cannot write '%s': %s", sl.script, strerror(errno));
  printf("%s: %ld runs in %ld array tasks; per-task CSVs %s.task-I.csv\n", sl.script, nruns, c.tasks, stem);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* merge                                                                     */

typedef struct {
  char *key;
  long idx; /* index in rows */
  long order;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
  const keyed *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  if (c != 0)
    return c;
  return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_row_index(const void *a, const void *b)
{
  const cmp_row *x = *(cmp_row *const *)a, *y = *(cmp_row *const *)b;
  long i = atol(x->f[C_INDEX]), j = atol(y->f[C_INDEX]);
  if (i != j)
    return i < j ? -1 : 1;
  if (x->ord != y->ord)
    return x->ord < y->ord ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static void put_row(FILE *f, const cmp_row *r)
{
  for (int k = 0; k < CMP_NCOLS; k++) {
    if (k)
      fputc(',', f);
    put_csv(f, r->f[k]);
  }
  fputc('\n', f);
}

/* Per key, the row kept: within one file the last row wins (a resumed sweep
 * appends its re-runs); across files an ok row wins over a non-ok one; two ok
 * rows from different files are duplicates when their time_s are equal and a
 * conflict otherwise. Rows of different keys with the same index in two
 * files mean the files come from different grids: a conflict too. (Within
 * one file they are legitimate: a CSV resumed with a grown or changed grid
 * holds runs numbered by several grids.) */
static int select_rows(rowvec *rows, cmp_row ***out, long *nout, long *dups)
{
  keyed *k = xmalloc((size_t)(rows->n + 1) * sizeof *k);
  for (long i = 0; i < rows->n; i++)
    k[i] = (keyed){row_key(&rows->v[i]), i, i};
  qsort(k, (size_t)rows->n, sizeof *k, cmp_keyed);
  cmp_row **sel = xmalloc((size_t)(rows->n + 1) * sizeof *sel);
  long n = 0;
  *dups = 0;
  for (long i = 0; i < rows->n;) {
    long j = i;
    cmp_row *best = NULL;
    while (j < rows->n && strcmp(k[j].key, k[i].key) == 0) {
      cmp_row *r = &rows->v[k[j].idx];
      if (best == NULL) {
        best = r;
      } else if (best->ord == r->ord) {
        best = r; /* later in the same file */
      } else {
        int bok = strcmp(best->f[C_STATUS], "ok") == 0, rok = strcmp(r->f[C_STATUS], "ok") == 0;
        if (bok && rok) {
          if (strcmp(best->f[C_TIME], r->f[C_TIME]) != 0)
            return cmp_fail("%s:%ld: time_s %s conflicts with %s:%ld (time_s %s) for the same run", r->file, r->line,
                            r->f[C_TIME], best->file, best->line, best->f[C_TIME]);
          (*dups)++;
        } else if (rok) {
          best = r;
        } else if (!bok) {
          best = r;
        }
      }
      j++;
    }
    sel[n++] = best;
    i = j;
  }
  qsort(sel, (size_t)n, sizeof *sel, cmp_row_index);
  for (long i = 1; i < n; i++)
    if (strcmp(sel[i]->f[C_INDEX], sel[i - 1]->f[C_INDEX]) == 0 && sel[i]->ord != sel[i - 1]->ord)
      return cmp_fail("%s:%ld: index %s is another run in %s:%ld (CSVs of different grids?)", sel[i]->file,
                      sel[i]->line, sel[i]->f[C_INDEX], sel[i - 1]->file, sel[i - 1]->line);
  *out = sel;
  *nout = n;
  return 0;
}

static int cmd_merge(int argc, char **argv)
{
  const char *out = NULL;
  strvec in = {0};
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--out") == 0) {
      if (i + 1 >= argc)
        return cmp_fail("%s needs a value", argv[i]);
      out = argv[++i];
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return cmp_fail("merge: unknown option '%s'", argv[i]);
    } else {
      sv_push(&in, argv[i]);
    }
  }
  if (out == NULL || in.n == 0)
    return cmp_fail("merge needs -o OUT.csv and at least one input CSV");
  rowvec rows = {0};
  for (int i = 0; i < in.n; i++) {
    for (int j = 0; j < i; j++)
      if (strcmp(in.v[i], in.v[j]) == 0)
        return cmp_fail("merge: '%s' given twice", in.v[i]);
    int rc = read_rows(in.v[i], i, &rows, 0);
    if (rc != 0)
      return rc;
  }
  cmp_row **sel;
  long n, dups;
  int rc = select_rows(&rows, &sel, &n, &dups);
  if (rc != 0)
    return rc;
  size_t tl = strlen(out) + 16;
  char *tmp = xmalloc(tl);
  snprintf(tmp, tl, "%s.tmp%ld", out, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (f == NULL)
    return cmp_fail("-o: cannot write '%s': %s", out, strerror(errno));
  fprintf(f, CMP_HEADER "\n");
  long bad = 0;
  for (long i = 0; i < n; i++) {
    put_row(f, sel[i]);
    bad += strcmp(sel[i]->f[C_STATUS], "ok") != 0;
  }
  if (fclose(f) != 0 || rename(tmp, out) != 0) {
    unlink(tmp);
    return cmp_fail("-o: cannot write '%s': %s", out, strerror(errno));
  }
  fprintf(stderr, "hnm-compare merge: %ld runs (%ld not ok) from %d files into %s; %ld duplicates dropped\n", n, bad,
          in.n, out, dups);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* plot                                                                      */

typedef struct {
  const cmp_row *first;
  long *np;
  double *t;
  long n;
  char *label;
} series;

static int same_group(const cmp_row *a, const cmp_row *b)
{
  return strcmp(a->f[C_PROGRAM], b->f[C_PROGRAM]) == 0 && strcmp(a->f[C_ARGS], b->f[C_ARGS]) == 0 &&
         strcmp(a->f[C_MODEL], b->f[C_MODEL]) == 0 && strcmp(a->f[C_PLATFORM], b->f[C_PLATFORM]) == 0 &&
         strcmp(a->f[C_METRIC], b->f[C_METRIC]) == 0 && strcmp(a->f[C_OPTIONS], b->f[C_OPTIONS]) == 0;
}

/* The reference time for row R: same program, args, metric, np, and same
 * platform and options (or any platform and options when the reference is
 * mpirun's, platform "-"). */
static int find_ref(cmp_row **sel, long n, const cmp_row *r, const char *ref, double *t)
{
  for (long i = 0; i < n; i++) {
    const cmp_row *q = sel[i];
    if (strcmp(q->f[C_MODEL], ref) != 0 || strcmp(q->f[C_PROGRAM], r->f[C_PROGRAM]) != 0 ||
        strcmp(q->f[C_ARGS], r->f[C_ARGS]) != 0 || strcmp(q->f[C_METRIC], r->f[C_METRIC]) != 0 ||
        strcmp(q->f[C_NP], r->f[C_NP]) != 0 ||
        (strcmp(q->f[C_PLATFORM], "-") != 0 &&
         (strcmp(q->f[C_PLATFORM], r->f[C_PLATFORM]) != 0 || strcmp(q->f[C_OPTIONS], r->f[C_OPTIONS]) != 0)))
      continue;
    return parse_double(q->f[C_TIME], t);
  }
  return -1;
}

static void put_gp_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static int cmd_plot(int argc, char **argv)
{
  const char *in = NULL, *prefix = NULL, *ref = NULL, *title = NULL;
  int onlycol[16], nonly = 0;
  const char *onlyval[16];
  static const char *const colnames[CMP_NCOLS] = {"index",  "program", "args",   "model",      "platform",
                                                   "np",     "metric",  "options", "time_s",    "wall_s",
                                                   "maxrss_kib", "status", "exit_code"};
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(a, "--only") == 0) {
      if (i + 1 >= argc)
        return cmp_fail("--only needs a value (COLUMN=VALUE)");
      const char *v = argv[++i], *eq = strchr(v, '=');
      int col = -1;
      for (int k = 0; eq && k < CMP_NCOLS; k++)
        if (strlen(colnames[k]) == (size_t)(eq - v) && strncmp(v, colnames[k], (size_t)(eq - v)) == 0)
          col = k;
      if (col < 0)
        return cmp_fail("--only: '%s' is not COLUMN=VALUE with a column of " CMP_HEADER, v);
      if (nonly == 16)
        return cmp_fail("--only: at most 16 of them");
      onlycol[nonly] = col;
      onlyval[nonly++] = eq + 1;
      continue;
    }
    const char **dst = strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0 ? &prefix
                       : strcmp(a, "--reference") == 0                  ? &ref
                       : strcmp(a, "--title") == 0                      ? &title
                                                                        : NULL;
    if (dst != NULL) {
      if (i + 1 >= argc)
        return cmp_fail("%s needs a value", a);
      *dst = argv[++i];
    } else if (a[0] == '-') {
      return cmp_fail("plot: unknown option '%s'", a);
    } else if (in == NULL) {
      in = a;
    } else {
      return cmp_fail("plot: one input CSV only ('%s' is a second one; merge first)", a);
    }
  }
  if (in == NULL || prefix == NULL)
    return cmp_fail("plot needs IN.csv and -o PREFIX");
  rowvec rows = {0};
  int rc = read_rows(in, 0, &rows, 0);
  if (rc != 0)
    return rc;
  cmp_row **sel;
  long n, dups;
  if ((rc = select_rows(&rows, &sel, &n, &dups)) != 0)
    return rc;
  /* Keep the ok rows that pass --only (the reference model's rows, too, as
   * long as they match), check their numbers. */
  long m = 0;
  for (long i = 0; i < n; i++) {
    double t;
    long np;
    int keep = strcmp(sel[i]->f[C_STATUS], "ok") == 0;
    for (int k = 0; k < nonly && keep; k++)
      keep = strcmp(sel[i]->f[onlycol[k]], onlyval[k]) == 0 ||
             (ref && onlycol[k] == C_MODEL && strcmp(sel[i]->f[C_MODEL], ref) == 0);
    if (!keep)
      continue;
    if (parse_double(sel[i]->f[C_TIME], &t) != 0 || t < 0)
      return cmp_fail("%s:%ld: field time_s: '%s' is not a time", sel[i]->file, sel[i]->line, sel[i]->f[C_TIME]);
    if (parse_long(sel[i]->f[C_NP], 1, 100000000, &np) != 0)
      return cmp_fail("%s:%ld: field np: '%s' is not a process count", sel[i]->file, sel[i]->line, sel[i]->f[C_NP]);
    sel[m++] = sel[i];
  }
  n = m;
  if (n == 0)
    return cmp_fail("%s: no ok run to plot", in);
  int found_ref = 0;
  for (long i = 0; ref && i < n; i++)
    found_ref |= strcmp(sel[i]->f[C_MODEL], ref) == 0;
  if (ref && !found_ref)
    return cmp_fail("--reference: no ok run of model '%s' in %s", ref, in);

  /* Series: one per (program, args, model, platform, metric), in index order. */
  series *s = xmalloc((size_t)n * sizeof *s);
  long ns = 0;
  for (long i = 0; i < n; i++) {
    long g = 0;
    while (g < ns && !same_group(s[g].first, sel[i]))
      g++;
    if (g == ns) {
      s[ns] = (series){sel[i], xmalloc((size_t)n * sizeof(long)), xmalloc((size_t)n * sizeof(double)), 0, NULL};
      ns++;
    }
    long k = s[g].n++;
    s[g].np[k] = atol(sel[i]->f[C_NP]);
    parse_double(sel[i]->f[C_TIME], &s[g].t[k]);
    /* insertion sort by np */
    while (k > 0 && s[g].np[k - 1] > s[g].np[k]) {
      long tn = s[g].np[k];
      double tt = s[g].t[k];
      s[g].np[k] = s[g].np[k - 1];
      s[g].t[k] = s[g].t[k - 1];
      s[g].np[k - 1] = tn;
      s[g].t[k - 1] = tt;
      k--;
    }
  }
  /* Labels: the components that vary between series. */
  int vary[CMP_NCOLS] = {0};
  /* The mpirun reference always has other options and platform ("-") than
   * the simulations: those vary only if they do among the simulations. */
  const int comps[] = {C_MODEL, C_PLATFORM, C_ARGS, C_PROGRAM, C_METRIC, C_OPTIONS};
  const int ncomps = 6;
  for (int c = 0; c < ncomps; c++)
    for (long g = 1; g < ns; g++) {
      const cmp_row *a = s[g].first, *b = s[0].first;
      if (comps[c] == C_OPTIONS || comps[c] == C_PLATFORM) {
        long h = 0;
        while (h < ns && strcmp(s[h].first->f[C_MODEL], "mpirun") == 0)
          h++;
        b = h < ns ? s[h].first : b;
        if (strcmp(a->f[C_MODEL], "mpirun") == 0)
          continue;
      }
      if (strcmp(a->f[comps[c]], b->f[comps[c]]) != 0)
        vary[comps[c]] = 1;
    }
  if (!vary[C_PLATFORM] && !vary[C_ARGS] && !vary[C_PROGRAM] && !vary[C_METRIC] && !vary[C_OPTIONS])
    vary[C_MODEL] = 1; /* one series or models only: name them by model */
  for (long g = 0; g < ns; g++) {
    char buf[1024] = "";
    for (int c = 0; c < ncomps; c++) {
      if (!vary[comps[c]])
        continue;
      const char *v = s[g].first->f[comps[c]];
      if (comps[c] == C_OPTIONS && strcmp(s[g].first->f[C_MODEL], "mpirun") == 0)
        continue;
      char *uncommon = NULL;
      if (comps[c] == C_OPTIONS) {
        /* Only the words that not every simulation series has. */
        strvec w = {0}, keep = {0};
        sv_split(&w, v);
        for (int i = 0; i < w.n; i++) {
          int everywhere = 1;
          for (long h = 0; h < ns && everywhere; h++) {
            if (strcmp(s[h].first->f[C_MODEL], "mpirun") == 0)
              continue;
            strvec o = {0};
            sv_split(&o, s[h].first->f[C_OPTIONS]);
            int found = 0;
            for (int j = 0; j < o.n; j++)
              found |= strcmp(o.v[j], w.v[i]) == 0;
            everywhere = found;
          }
          if (!everywhere)
            sv_push(&keep, w.v[i]);
        }
        uncommon = join(&keep);
        v = *uncommon ? uncommon : "(base options)";
      }
      if (comps[c] == C_PROGRAM && strrchr(v, '/'))
        v = strrchr(v, '/') + 1;
      if (comps[c] == C_PLATFORM && strcmp(v, "-") == 0)
        continue;
      size_t l = strlen(buf);
      snprintf(buf + l, sizeof buf - l, "%s%s", l ? " " : "", *v ? v : "(no args)");
      free(uncommon);
    }
    s[g].label = xstrdup(buf);
  }

  /* Text table on stdout. */
  printf("%-40s %8s %14s%s\n", "series", "np", "time_s", ref ? "  err_vs_ref" : "");
  for (long g = 0; g < ns; g++)
    for (long k = 0; k < s[g].n; k++) {
      printf("%-40s %8ld %14.6g", s[g].label, s[g].np[k], s[g].t[k]);
      if (ref) {
        cmp_row probe = *s[g].first;
        char npb[32];
        snprintf(npb, sizeof npb, "%ld", s[g].np[k]);
        probe.f[C_NP] = npb;
        double tr;
        if (find_ref(sel, n, &probe, ref, &tr) == 0 && tr > 0)
          printf("  %+9.1f%%", 100 * (s[g].t[k] - tr) / tr);
      }
      putchar('\n');
    }

  /* Data files and the gnuplot script. */
  size_t pl = strlen(prefix) + 32;
  char *dat = xmalloc(pl), *edat = xmalloc(pl), *gp = xmalloc(pl), *png = xmalloc(pl), *epng = xmalloc(pl);
  snprintf(dat, pl, "%s-time.dat", prefix);
  snprintf(edat, pl, "%s-error.dat", prefix);
  snprintf(gp, pl, "%s.gp", prefix);
  snprintf(png, pl, "%s-time.png", prefix);
  snprintf(epng, pl, "%s-error.png", prefix);
  FILE *d = fopen(dat, "w");
  if (d == NULL)
    return cmp_fail("-o: cannot write '%s': %s", dat, strerror(errno));
  for (long g = 0; g < ns; g++) {
    fprintf(d, "# %s\n", s[g].label);
    for (long k = 0; k < s[g].n; k++)
      fprintf(d, "%ld %.17g\n", s[g].np[k], s[g].t[k]);
    fprintf(d, "\n\n");
  }
  fclose(d);
  long nerr = 0;
  long *eidx = xmalloc((size_t)ns * sizeof *eidx);
  if (ref) {
    FILE *e = fopen(edat, "w");
    if (e == NULL)
      return cmp_fail("-o: cannot write '%s': %s", edat, strerror(errno));
    for (long g = 0; g < ns; g++) {
      if (strcmp(s[g].first->f[C_MODEL], ref) == 0)
        continue;
      int any = 0;
      for (long k = 0; k < s[g].n; k++) {
        cmp_row probe = *s[g].first;
        char npb[32];
        snprintf(npb, sizeof npb, "%ld", s[g].np[k]);
        probe.f[C_NP] = npb;
        double tr;
        if (find_ref(sel, n, &probe, ref, &tr) != 0 || tr <= 0)
          continue;
        if (!any)
          fprintf(e, "# %s\n", s[g].label);
        any = 1;
        fprintf(e, "%ld %.17g\n", s[g].np[k], 100 * (s[g].t[k] - tr) / tr);
      }
      if (any) {
        fprintf(e, "\n\n");
        eidx[nerr++] = g;
      }
    }
    fclose(e);
  }
  FILE *g = fopen(gp, "w");
  if (g == NULL)
    return cmp_fail("-o: cannot write '%s': %s", gp, strerror(errno));
  fprintf(g, "# Generated by hnm-compare plot from %s\n", in);
  fprintf(g, "set terminal pngcairo size 800,600 enhanced font 'sans,11'\n");
  /* Long series names go under the plot, where they do not squeeze it. */
  size_t longest = 0;
  for (long k = 0; k < ns; k++)
    longest = strlen(s[k].label) > longest ? strlen(s[k].label) : longest;
  fprintf(g, "set logscale x 2\nset logscale y 10\nset format y \"%%g\"\nset grid\n%s\n",
          longest > 24 ? "set key outside below left Left reverse" : "set key outside right top");
  fprintf(g, "set xlabel 'processes'\nset ylabel 'time (s)'\n");
  fprintf(g, "set output ");
  put_gp_string(g, png);
  fprintf(g, "\nset title ");
  put_gp_string(g, title ? title : "");
  fprintf(g, " noenhanced\nplot \\\n");
  for (long k = 0; k < ns; k++) {
    fprintf(g, "  ");
    put_gp_string(g, dat);
    fprintf(g, " index %ld using 1:2 with linespoints title ", k);
    put_gp_string(g, s[k].label);
    fprintf(g, " noenhanced%s\n", k + 1 < ns ? ", \\" : "");
  }
  if (ref && nerr > 0) {
    fprintf(g, "set output ");
    put_gp_string(g, epng);
    fprintf(g, "\nunset logscale y\nset ylabel 'relative error vs %s (%%)'\n", ref);
    fprintf(g, "plot \\\n");
    for (long k = 0; k < nerr; k++) {
      fprintf(g, "  ");
      put_gp_string(g, edat);
      fprintf(g, " index %ld using 1:2 with linespoints title ", k);
      put_gp_string(g, s[eidx[k]].label);
      fprintf(g, " noenhanced%s\n", k + 1 < nerr ? ", \\" : "");
    }
  }
  fclose(g);
  pid_t pid = fork();
  if (pid == 0) {
    execlp("gnuplot", "gnuplot", gp, (char *)NULL);
    fprintf(stderr, "hnm-compare: cannot run gnuplot: %s (install gnuplot-nox; the script is %s)\n", strerror(errno),
            gp);
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "hnm-compare: gnuplot failed on %s\n", gp);
    return 1; /* not bad input: the data and script are written */
  }
  fprintf(stderr, "hnm-compare plot: %s%s%s (script %s)\n", png, ref && nerr ? ", " : "", ref && nerr ? epng : "", gp);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("hnm-compare %s\n", CMP_VERSION);
    return 0;
  }
  if (strcmp(argv[1], "run") == 0)
    return cmd_run(argc, argv);
  if (strcmp(argv[1], "slurm") == 0)
    return cmd_slurm(argc, argv);
  if (strcmp(argv[1], "merge") == 0)
    return cmd_merge(argc, argv);
  if (strcmp(argv[1], "plot") == 0)
    return cmd_plot(argc, argv);
  return cmp_fail("unknown command '%s' (run, slurm, merge or plot; see hnm-compare --help)", argv[1]);
}
