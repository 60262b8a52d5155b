/* hnm-compare: the sweep grid and the options of run and slurm. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "hnm_home.h"
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
#include "hnm_compare_grid.h"
#include "hnm_compare_util.h"
#include "hnm_compare.h"

const char *run_model(const cmp_config *c, const cmp_run *r)
{
  return r->model < 0 ? "mpirun" : c->models.v[r->model];
}

const char *run_platform(const cmp_config *c, const cmp_run *r)
{
  return r->plat < 0 ? "-" : c->plats[r->plat].label;
}

char *make_key(const char *program, const char *args, const char *model, const char *platform,
               const char *np, const char *metric, const char *options)
{
  size_t n = strlen(program) + strlen(args) + strlen(model) + strlen(platform) + strlen(np) + strlen(metric) +
             strlen(options) + 8;
  char *k = xmalloc(n);
  snprintf(k, n, "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", program, args, model, platform, np, metric, options);
  return k;
}

const char *run_options(const cmp_config *c, const cmp_run *r)
{
  return r->model < 0 ? c->mpirun_opts_str : c->sim_opts_str;
}

char *join(const strvec *v)
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

int enumerate(const cmp_config *c, cmp_run **out)
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
void run_argv(const cmp_config *c, const cmp_run *r, strvec *v)
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
  if (*list == '\0' || *list == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,") != NULL)
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
int parse_run(int argc, char **argv, int first, cmp_config *c, slurm_opts *sl)
{
  memset(c, 0, sizeof *c);
  c->metric = "csv:time_s";
  c->hnm_run = getenv("HNM_COMPARE_HNM_RUN") ? getenv("HNM_COMPARE_HNM_RUN") : hnm_home_file(HNM_HOME_BIN "/hnm-run");
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
    if (add_platform(c, hnm_home_file(HNM_HOME_PLATFORMS "/default.xml")) != 0)
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
  struct stat st;
  if (c->log_dir == NULL && (strncmp(c->out, "/dev/", 5) == 0 || strncmp(c->out, "/proc/", 6) == 0 ||
                            (stat(c->out, &st) == 0 && !S_ISREG(st.st_mode)))) {
    /* -o is a device or FIFO (/dev/stdout): no OUT.logs beside it. */
    c->log_dir = "hnm-compare.logs";
  } else if (c->log_dir == NULL) {
    size_t n = strlen(c->out) + 8;
    char *d = xmalloc(n);
    snprintf(d, n, "%s.logs", c->out);
    c->log_dir = d;
  }
  return 0;
}
