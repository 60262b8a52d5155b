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
#include "hnm_error.h"
#include "hnm_msg.h"
#include "hnm_opt.h"
#include "hnm_out.h"
#include "hnm_compare_util.h"

const char *cmp_run_model(const cmp_config *c, const cmp_run *r)
{
  return r->model < 0 ? "mpirun" : c->models.v[r->model];
}

const char *cmp_run_platform(const cmp_config *c, const cmp_run *r)
{
  return r->plat < 0 ? "-" : c->plats[r->plat].label;
}

char *cmp_make_key(const char *program, const char *args, const char *model, const char *platform,
               const char *np, const char *metric, const char *options, const char *member)
{
  size_t n = strlen(program) + strlen(args) + strlen(model) + strlen(platform) + strlen(np) + strlen(metric) +
             strlen(options) + strlen(member) + 9;
  char *k = cmp_xmalloc(n);
  snprintf(k, n, "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", program, args, model, platform, np, metric, options,
           member);
  return k;
}

void cmp_run_member(const cmp_config *c, const cmp_run *r, char *buf, size_t len)
{
  if (r->member < 0) {
    snprintf(buf, len, "%s", "");
  } else if (r->member == 0) {
    snprintf(buf, len, "%s", "central");
  } else {
    /* "member-007.xml" -> "007" */
    const char *f = c->sets[r->model]->files[r->member];
    snprintf(buf, len, "%.*s", (int)(strlen(f) - strlen("member-") - strlen(".xml")), f + strlen("member-"));
  }
}

const char *cmp_run_options(const cmp_config *c, const cmp_run *r)
{
  return r->model < 0 ? c->mpirun_opts_str : c->sim_opts_str;
}

char *cmp_join(const cmp_strvec *v)
{
  size_t n = 1;
  for (int i = 0; i < v->n; i++)
    n += strlen(v->v[i]) + 1;
  char *s = cmp_xmalloc(n);
  for (int i = 0; i < v->n; i++) {
    if (i)
      strcat(s, " ");
    strcat(s, v->v[i]);
  }
  return s;
}

static char *run_key(const cmp_config *c, const cmp_run *r)
{
  char np[32], member[32];
  snprintf(np, sizeof np, "%ld", r->np);
  cmp_run_member(c, r, member, sizeof member);
  return cmp_make_key(c->program, c->args.v[r->argset], cmp_run_model(c, r), cmp_run_platform(c, r), np, c->metric,
                  cmp_run_options(c, r), member);
}

/* A model set's models run one after the other in the grid (central
 * first), as if they were models of their own. */
long cmp_enumerate(const cmp_config *c, cmp_run **out)
{
  long per_point = 0;
  for (int m = 0; m < c->models.n; m++)
    per_point += c->sets[m] != NULL ? (long)c->sets[m]->nmembers + 1 : 1;
  long n = c->nplats * c->args.n * c->nnps * per_point + (c->reference ? c->args.n * c->nnps : 0);
  cmp_run *runs = cmp_xmalloc((size_t)n * sizeof *runs);
  long idx = 0;
  for (int p = 0; p < c->nplats; p++)
    for (int a = 0; a < c->args.n; a++)
      for (int k = 0; k < c->nnps; k++)
        for (int m = 0; m < c->models.n; m++) {
          long group = idx;
          int last = c->sets[m] != NULL ? (int)c->sets[m]->nmembers : -1;
          for (int member = c->sets[m] != NULL ? 0 : -1; member <= last; member++) {
            cmp_run r = {idx, m, p, a, c->nps[k], member, group, NULL};
            r.key = run_key(c, &r);
            runs[idx++] = r;
          }
        }
  if (c->reference)
    for (int a = 0; a < c->args.n; a++)
      for (int k = 0; k < c->nnps; k++) {
        cmp_run r = {idx, -1, -1, a, c->nps[k], -1, idx, NULL};
        r.key = run_key(c, &r);
        runs[idx++] = r;
      }
  *out = runs;
  return n;
}

/* The command line of one run (a NULL-terminated vector). */
void cmp_run_argv(const cmp_config *c, const cmp_run *r, cmp_strvec *v)
{
  char np[32];
  snprintf(np, sizeof np, "%ld", r->np);
  if (r->model < 0) {
    cmp_sv_push(v, "mpirun");
    for (int i = 0; i < c->mpirun_opts.n; i++)
      cmp_sv_push(v, c->mpirun_opts.v[i]);
    cmp_sv_push(v, "-np");
    cmp_sv_push(v, np);
    cmp_sv_push(v, c->mpi_program);
  } else {
    cmp_sv_push(v, c->hnm_run);
    cmp_sv_push(v, "--model");
    cmp_sv_push(v, r->member >= 0 ? c->sets[r->model]->specs[r->member] : c->models.v[r->model]);
    cmp_sv_push(v, "-platform");
    cmp_sv_push(v, c->plats[r->plat].xml);
    cmp_sv_push(v, "-hostfile");
    cmp_sv_push(v, c->plats[r->plat].hosts);
    cmp_sv_push(v, "-np");
    cmp_sv_push(v, np);
    for (int i = 0; i < c->sim_opts.n; i++)
      cmp_sv_push(v, c->sim_opts.v[i]);
    if (strcmp(c->metric, "simclock") == 0 || strcmp(c->metric, "auto") == 0) {
      /* SimGrid 3.32 (smpi_utils.cpp, print_time_analysis) then logs
       * "Simulated time: %g seconds." at the end, in category smpi_utils. */
      cmp_sv_push(v, "--cfg=smpi/display-timing:yes");
      cmp_sv_push(v, "--log=smpi_utils.thres:info");
    }
    cmp_sv_push(v, c->program);
  }
  for (int i = 0; i < c->base_args.n; i++)
    cmp_sv_push(v, c->base_args.v[i]);
  cmp_sv_split(v, c->args.v[r->argset]);
}

/* ------------------------------------------------------------------------ */

/* The checks of --platform, --np and --metric: 0, or -1 with the reason in
 * err (without the option's name: hnm_opt_parse() adds it). */
static int add_platform(cmp_config *c, const char *spec, char *err, size_t errlen)
{
  const char *colon = strrchr(spec, ':');
  char *xml, *hosts;
  if (colon != NULL) {
    xml = cmp_xmalloc((size_t)(colon - spec) + 1);
    memcpy(xml, spec, (size_t)(colon - spec));
    hosts = cmp_xstrdup(colon + 1);
  } else {
    xml = cmp_xstrdup(spec);
    size_t n = strlen(spec);
    hosts = cmp_xmalloc(n + 8);
    if (n > 4 && strcmp(spec + n - 4, ".xml") == 0)
      snprintf(hosts, n + 8, "%.*s.hosts", (int)(n - 4), spec);
    else
      snprintf(hosts, n + 8, "%s.hosts", spec);
  }
  const char *base = strrchr(xml, '/') ? strrchr(xml, '/') + 1 : xml;
  char *label = cmp_xstrdup(base);
  size_t n = strlen(label);
  if (n > 4 && strcmp(label + n - 4, ".xml") == 0)
    label[n - 4] = '\0';
  int rc = 0;
  if (access(xml, R_OK) != 0)
    rc = hnm_fail(err, errlen, "cannot read platform file '%s': %s", xml, strerror(errno));
  else if (access(hosts, R_OK) != 0)
    rc = hnm_fail(err, errlen, "cannot read hostfile '%s': %s (give it as XML:HOSTS)", hosts, strerror(errno));
  for (int i = 0; rc == 0 && i < c->nplats; i++)
    if (strcmp(c->plats[i].label, label) == 0)
      rc = hnm_fail(err, errlen, "two platforms named '%s' (labels are file names without .xml)", label);
  if (rc != 0) {
    free(xml), free(hosts), free(label);
    return -1;
  }
  c->plats = cmp_xrealloc(c->plats, (size_t)(c->nplats + 1) * sizeof *c->plats);
  c->plats[c->nplats++] = (cmp_platform){xml, hosts, label};
  return 0;
}

static int add_nps(cmp_config *c, const char *list, char *err, size_t errlen)
{
  if (*list == '\0' || *list == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,") != NULL)
    return hnm_fail(err, errlen, "'%s' is not a comma-separated list of process counts", list);
  char *copy = cmp_xstrdup(list), *save = NULL;
  int rc = 0;
  for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
    long v;
    if (cmp_parse_long(t, 1, 100000000, &v) != 0) {
      rc = hnm_fail(err, errlen, "'%s' is not a process count (a whole number >= 1)", t);
      break;
    }
    for (int i = 0; rc == 0 && i < c->nnps; i++)
      if (c->nps[i] == v)
        rc = hnm_fail(err, errlen, "'%ld' given twice", v);
    if (rc == 0) {
      c->nps = cmp_xrealloc(c->nps, (size_t)(c->nnps + 1) * sizeof *c->nps);
      c->nps[c->nnps++] = v;
    }
  }
  free(copy);
  return rc;
}

static int check_metric(const char *m, char *err, size_t errlen)
{
  if (strcmp(m, "simclock") == 0 || strcmp(m, "auto") == 0)
    return 0;
  if (strncmp(m, "csv:", 4) != 0 || m[4] == '\0' || m[4] == ':')
    return hnm_fail(err, errlen, "'%s' is neither auto, simclock nor csv:COLUMN[:KEY=VALUE...]", m);
  for (const char *p = strchr(m + 4, ':'); p; p = strchr(p + 1, ':')) {
    const char *eq = strchr(p + 1, '='), *next = strchr(p + 1, ':');
    if (eq == NULL || eq == p + 1 || (next && eq > next))
      return hnm_fail(err, errlen, "'%s': filter '%s' is not KEY=VALUE", m, p + 1);
  }
  if (strchr(m, ',') != NULL)
    return hnm_fail(err, errlen, "'%s': a column name or filter cannot hold a comma", m);
  return 0;
}

/* The options of run and slurm, as given to cmp_parse_run(). */
struct cmp_parse {
  cmp_config *c;
  cmp_slurm_opts *sl;
};

static int grid__model(void *ctx, const char *v, char *err, size_t errlen)
{
  cmp_config *c = ((struct cmp_parse *)ctx)->c;
  if (strpbrk(v, "\n\r") != NULL)
    return hnm_fail(err, errlen, "a model spec cannot hold a newline");
  char e[HNM_ERRLEN];
  hnm_model_set *set = NULL;
  if (hnm_model_set_is(v)) {
    /* The whole set, before anything runs. */
    set = hnm_model_set_open(v, e, sizeof e);
    if (set == NULL)
      return hnm_fail(err, errlen, "%s", e);
  } else {
    hnm_model *m = hnm_model_parse_spec(v, e, sizeof e);
    if (m == NULL)
      return hnm_fail(err, errlen, "%s: %s", v, e);
    hnm_model_free(m);
  }
  for (int k = 0; k < c->models.n; k++)
    if (strcmp(c->models.v[k], v) == 0)
      return hnm_model_set_free(set), hnm_fail(err, errlen, "'%s' given twice", v);
  if (strcmp(v, "mpirun") == 0)
    return hnm_fail(err, errlen, "'mpirun' is the reference's label (use --reference)");
  cmp_sv_push(&c->models, v);
  c->sets = cmp_xrealloc(c->sets, (size_t)c->models.n * sizeof *c->sets);
  c->sets[c->models.n - 1] = set;
  c->has_sets |= set != NULL;
  return 0;
}

/* --models-of MODEL.xml: the three models of one calibration, as
 * `hnm-calibrate fit -o MODEL.xml` writes them: MODEL.xml (hybrid), and in
 * its report directory MODEL-report/ (MODEL.xml without .xml), loggps.xml
 * and fluid.xml. Each is then an ordinary --model (the CSV names it by its
 * path). */
static int grid__models_of(void *ctx, const char *v, char *err, size_t errlen)
{
  size_t l = strlen(v);
  if (l < 5 || strcmp(v + l - 4, ".xml") != 0)
    return hnm_fail(err, errlen, "'%s' is not the model file of hnm-calibrate fit -o MODEL.xml", v);
  char *paths[3];
  paths[0] = cmp_xstrdup(v);
  for (int i = 1; i < 3; i++) {
    size_t n = l + 32;
    paths[i] = cmp_xmalloc(n);
    snprintf(paths[i], n, "%.*s-report/%s", (int)(l - 4), v, i == 1 ? "loggps.xml" : "fluid.xml");
  }
  int rc = 0;
  for (int i = 0; i < 3 && rc == 0; i++) {
    struct stat st;
    if (stat(paths[i], &st) != 0) {
      hnm_errf(err, errlen, "'%s': no %s (%s; hnm-calibrate fit -o %s writes it)", v, paths[i], strerror(errno), v);
      rc = -1;
    } else if (grid__model(ctx, paths[i], err, errlen) != 0) {
      rc = -1;
    }
  }
  for (int i = 0; i < 3; i++)
    free(paths[i]); /* grid__model() keeps its own copy */
  return rc;
}

static int grid__np(void *ctx, const char *v, char *err, size_t errlen)
{
  return add_nps(((struct cmp_parse *)ctx)->c, v, err, errlen);
}

static int grid__platform(void *ctx, const char *v, char *err, size_t errlen)
{
  return add_platform(((struct cmp_parse *)ctx)->c, v, err, errlen);
}

static int grid__args(void *ctx, const char *v, char *err, size_t errlen)
{
  cmp_config *c = ((struct cmp_parse *)ctx)->c;
  if (strpbrk(v, "\n\r") != NULL)
    return hnm_fail(err, errlen, "an argument set cannot hold a newline");
  for (int k = 0; k < c->args.n; k++)
    if (strcmp(c->args.v[k], v) == 0)
      return hnm_fail(err, errlen, "'%s' given twice", v);
  cmp_sv_push(&c->args, v);
  return 0;
}

static int grid__metric(void *ctx, const char *v, char *err, size_t errlen)
{
  if (check_metric(v, err, errlen) != 0)
    return -1;
  ((struct cmp_parse *)ctx)->c->metric = v;
  return 0;
}

static int grid__sim_opt(void *ctx, const char *v, char *err, size_t errlen)
{
  (void)err;
  (void)errlen;
  cmp_sv_push(&((struct cmp_parse *)ctx)->c->sim_opts, v);
  return 0;
}

static int grid__mpirun_opt(void *ctx, const char *v, char *err, size_t errlen)
{
  (void)err;
  (void)errlen;
  cmp_sv_push(&((struct cmp_parse *)ctx)->c->mpirun_opts, v);
  return 0;
}

static int grid__sbatch(void *ctx, const char *v, char *err, size_t errlen)
{
  if (strpbrk(v, "\n\r") != NULL)
    return hnm_fail(err, errlen, "a line cannot hold a newline");
  cmp_sv_push(&((struct cmp_parse *)ctx)->sl->sbatch, v);
  return 0;
}

static const char grid__epilog[] =
  "The grid is the product of --model, --np, --platform and --args; it is enumerated in a\n"
  "fixed order (platform, argument set, process count, model, then the reference runs).\n"
  "--platform XML[:HOSTS]: without HOSTS, XML with .xml replaced by .hosts; the CSV names it\n"
  "  by its file name without .xml; default: hnm-run's bundled platform.\n"
  "--args 'WORDS': split on blanks, appended to PROGRAM ARGS; default one empty set.\n"
  "--metric: simclock = SimGrid's final simulated clock (smpi/display-timing, 6 significant\n"
  "  digits); csv:COL[:KEY=VAL...] = the sum of column COL over the rows of the program's CSV\n"
  "  output (stdout) whose column KEY equals VAL; auto (default) = csv:time_s (the skeletons'\n"
  "  report) when the program prints it, else simclock: any program gets a time.\n"
  "--model NAME.set: a model set (directory of central.xml, member-001.xml ...; checked whole\n"
  "  first): each grid point runs the central model and every member; the CSV gets the\n"
  "  columns member, band_lo, band_hi, members: one row per run, and on the central row,\n"
  "  written once its members are done, the 5% and 95% quantiles of the members' metric\n"
  "  (linear interpolation, Hyndman-Fan type 7) and their number. A set's runs stay in one\n"
  "  --task (the one of its central run's index). plot draws the band as a shaded area.\n"
  "--reference: PROGRAM-mpi with mpirun at each np and argument set (model 'mpirun',\n"
  "  platform '-'); with --metric simclock, or auto without csv:time_s, its time is mpirun's\n"
  "  wall time. --mpirun-opt\n"
  "  default: --allow-run-as-root --oversubscribe --mca btl self,vader.\n"
  "-o FILE: appended to; runs with an ok row are skipped (with --no-retry, any recorded run);\n"
  "  the existing file is checked first (header, complete last row, status values); a FIFO,\n"
  "  or an input of the sweep (platform, hostfile, model file, program), is refused.\n"
  "--dry-run: refuses what a run would refuse (hnm-run --dry-run of each platform), creates nothing.\n"
  "Exit status: 0 all runs ok; 1 some run not ok, or the work failed (a write, a fork,\n"
  "memory); 2 bad input (nothing run).\n"
  "See docs/experiments.md.\n";

/* The defaults of run and slurm, before their options. */
static void grid__defaults(cmp_config *c)
{
  memset(c, 0, sizeof *c);
  c->metric = "auto";
  /* The default hnm-run, reachable until exit whether --hnm-run replaces it or not. */
  static char *default_run;
  if (default_run == NULL)
    default_run = hnm_home_file(HNM_HOME_BIN "/hnm-run");
  c->hnm_run = getenv("HNM_COMPARE_HNM_RUN") ? getenv("HNM_COMPARE_HNM_RUN") : default_run;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  c->workers = ncpu > 0 ? ncpu : 1;
  c->task = -1; /* -1: not given */
  c->tasks = -1;
}

/* The options argv[first..]: the index of PROGRAM (argc when none), or
 * HNM_OPT_DONE (--help), or another negative value with err. */
static int grid__options(int argc, char **argv, int first, cmp_config *c, cmp_slurm_opts *sl, char *err,
                         size_t errlen)
{
  const double any = HUGE_VAL;
  struct cmp_parse ctx = {c, sl};
  struct hnm_opt opts[] = {
    {.name = "model", .kind = HNM_OPT_CALL, .arg = "SPEC", .help = "an hnm-run model (repeatable; default graphene)", .fn = grid__model},
    {.name = "models-of", .kind = HNM_OPT_CALL, .arg = "MODEL.xml", .help = "the three models of one calibration (hnm-calibrate fit -o MODEL.xml): MODEL.xml, MODEL-report/loggps.xml, MODEL-report/fluid.xml (repeatable)", .fn = grid__models_of},
    {.name = "np", .kind = HNM_OPT_CALL, .arg = "LIST", .help = "process counts, comma-separated (e.g. 8,16,32); required", .fn = grid__np},
    {.name = "platform", .kind = HNM_OPT_CALL, .arg = "XML[:HOSTS]", .help = "platform and hostfile (repeatable; see below)", .fn = grid__platform},
    {.name = "args", .kind = HNM_OPT_CALL, .arg = "WORDS", .help = "one argument set appended to PROGRAM ARGS (repeatable)", .fn = grid__args},
    {.name = "metric", .kind = HNM_OPT_CALL, .arg = "M", .def = "auto", .help = "auto, simclock, or csv:COL[:KEY=VAL...]", .fn = grid__metric},
    {.name = "sim-opt", .kind = HNM_OPT_CALL, .arg = "OPT", .help = "an smpirun option for every simulation (repeatable); --cfg=smpi/simulate-computation:no is added unless one sets it (reproducible, network-only times)", .fn = grid__sim_opt},
    {.name = "reference", .kind = HNM_OPT_FLAG, .help = "also run PROGRAM-mpi with mpirun", .value = &c->reference},
    {.name = "mpi-program", .kind = HNM_OPT_STRING, .arg = "PATH", .help = "the program for --reference (default PROGRAM-mpi)", .value = &c->mpi_program},
    {.name = "mpirun-opt", .kind = HNM_OPT_CALL, .arg = "OPT", .help = "an mpirun option (repeatable)", .fn = grid__mpirun_opt},
    {.name = "workers", .kind = HNM_OPT_LONG, .arg = "N", .help = "runs at once (default: the number of cores)", .value = &c->workers, .min = 1, .max = 4096},
    {.name = "timeout", .kind = HNM_OPT_NUMBER, .arg = "SEC", .def = "0", .unit = "s", .help = "kill a run's process group after SEC of wall time, 0 = never", .value = &c->timeout, .max = any},
    {.name = "out", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "FILE", .help = "the CSV (appended to; runs with an ok row are skipped)", .value = &c->out},
    {.name = "no-retry", .kind = HNM_OPT_FLAG, .help = "also skip the runs recorded as not ok", .value = &c->no_retry},
    {.name = "log-dir", .kind = HNM_OPT_STRING, .arg = "DIR", .help = "stdout/stderr of each run (default FILE.logs)", .value = &c->log_dir},
    {.name = "tasks", .kind = HNM_OPT_LONG, .arg = "N", .help = "with --task: run only the grid indices equal to I modulo N", .value = &c->tasks, .min = 1, .max = 1000000},
    {.name = "task", .kind = HNM_OPT_LONG, .arg = "I", .help = "see --tasks (0 <= I < N)", .value = &c->task, .max = 999999},
    {.name = "progress", .kind = HNM_OPT_FLAG, .help = "progress line on stderr even when it is not a terminal", .value = &c->progress},
    {.name = "dry-run", .kind = HNM_OPT_FLAG, .help = "print the runs to do (shell syntax), run nothing", .value = &c->dry_run},
    {.name = "hnm-run", .kind = HNM_OPT_STRING, .arg = "PATH", .help = "the hnm-run to use", .value = &c->hnm_run},
    {.name = "script", .kind = HNM_OPT_STRING, .arg = "FILE", .help = "slurm: the job script to write", .value = sl ? (void *)&sl->script : NULL},
    {.name = "sbatch", .kind = HNM_OPT_CALL, .arg = "LINE", .help = "slurm: an #SBATCH line (repeatable)", .fn = grid__sbatch},
    {.name = "submit", .kind = HNM_OPT_FLAG, .help = "slurm: submit the tasks that have runs without an ok row (sbatch), watch them, merge into -o", .value = sl ? (void *)&sl->submit : NULL},
    {.name = "no-wait", .kind = HNM_OPT_FLAG, .help = "slurm --submit: print the job id and return", .value = sl ? (void *)&sl->no_wait : NULL},
    {.name = "attach", .kind = HNM_OPT_STRING, .arg = "JOBID", .help = "slurm: watch job JOBID (submitted by --submit with these options) and merge into -o", .value = sl ? (void *)&sl->attach : NULL},
    {.name = "cancel-on-interrupt", .kind = HNM_OPT_FLAG, .help = "slurm: on SIGINT while watching, scancel the job without asking", .value = sl ? (void *)&sl->cancel_on_interrupt : NULL},
    {.name = "partition", .kind = HNM_OPT_STRING, .arg = "NAME", .help = "slurm: sbatch --partition", .value = sl ? (void *)&sl->partition : NULL},
    {.name = "account", .kind = HNM_OPT_STRING, .arg = "NAME", .help = "slurm: sbatch --account", .value = sl ? (void *)&sl->account : NULL},
    {.name = "time", .kind = HNM_OPT_STRING, .arg = "LIMIT", .help = "slurm: each task's time limit (sbatch --time: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S)", .value = sl ? (void *)&sl->time : NULL},
    {.name = "mem", .kind = HNM_OPT_STRING, .arg = "SIZE", .help = "slurm: each task's memory (sbatch --mem: N[K|M|G|T], default M)", .value = sl ? (void *)&sl->mem : NULL},
    {.name = "throttle", .kind = HNM_OPT_LONG, .arg = "N", .help = "slurm: at most N tasks at once (--array=...%N)", .value = sl ? (void *)&sl->throttle : NULL, .min = 1, .max = 1000000},
    {.name = "poll", .kind = HNM_OPT_NUMBER, .arg = "SEC", .def = "2", .unit = "s", .help = "slurm: seconds between two looks at the queue while watching", .value = sl ? (void *)&sl->poll : NULL, .min = 0.05, .max = 3600},
    {.name = NULL}};
  if (sl == NULL) /* script, sbatch and what follows: slurm only */
    for (size_t k = 0; opts[k].name != NULL; k++)
      if (strcmp(opts[k].name, "script") == 0) {
        opts[k].name = NULL;
        break;
      }
  if (sl != NULL)
    sl->poll = 2;
  const struct hnm_opt_cmd cmd = {sl ? "hnm-compare slurm" : "hnm-compare run",
                                  sl ? "--tasks N --script JOB.sh [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]"
                                     : "[OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]",
                                  sl ? "Writes a Slurm job array script: task I runs the grid indices equal to I modulo N\n"
                                       "into OUT.task-I.csv (OUT without .csv; its directory created). --submit submits\n"
                                       "the tasks with runs lacking an ok row, watches them (squeue), merges into OUT,\n"
                                       "names failed tasks and missing grid indices; --attach JOBID watches a job later."
                                     : "Runs PROGRAM over models x process counts x platforms x argument sets through\n"
                                       "hnm-run, several runs at once, into a resumable CSV.",
                                  grid__epilog, NULL, HNM_OPT_IN_ORDER, &ctx};
  int i = hnm_opt_parse(&cmd, opts, argc - (first - 1), argv + (first - 1), err, errlen);
  return i < 0 ? i : i + first - 1;
}

/* The run options as given, argv[first..end) (slurm re-emits them, except
 * -o and the task slice). */
static void grid__keep_raw(cmp_config *c, char **argv, int first, int end)
{
  for (int k = first; k < end && strcmp(argv[k], "--") != 0; k++) {
    const char *a = argv[k];
    /* Options of the slice, and slurm's own: not the run's. */
    static const char *const valued[] = {"--out", "--task", "--tasks", "--script", "--sbatch", "--attach", "--partition",
                                         "--account", "--time", "--mem", "--throttle", "--poll", NULL};
    static const char *const flags[] = {"--submit", "--no-wait", "--cancel-on-interrupt", NULL};
    int drop = 0;
    if (strcmp(a, "-o") == 0) {
      k++; /* and its value */
      continue;
    }
    if (strncmp(a, "-o", 2) == 0 && a[1] == 'o')
      continue;
    for (int v = 0; valued[v] != NULL && !drop; v++) {
      size_t l = strlen(valued[v]);
      if (strcmp(a, valued[v]) == 0) {
        k++;
        drop = 1;
      } else if (strncmp(a, valued[v], l) == 0 && a[l] == '=') {
        drop = 1;
      }
    }
    for (int v = 0; flags[v] != NULL && !drop; v++)
      drop = strcmp(a, flags[v]) == 0;
    if (drop)
      continue;
    cmp_sv_push(&c->raw, a);
  }
}

/* The required options and their defaults (models, argument sets,
 * platform, the reference's program and options): 0, or -1 with err. */
static int grid__complete(cmp_config *c, const cmp_slurm_opts *sl, int task_given, int tasks_given, char *err,
                          size_t errlen)
{
  if (access(c->program, X_OK) != 0)
    return hnm_fail(err, errlen, "cannot execute program '%s': %s", c->program, strerror(errno));
  if (c->nnps == 0)
    return hnm_fail(err, errlen, "--np is required (process counts, e.g. --np 8,16,32)");
  if (c->out == NULL)
    return hnm_fail(err, errlen, "-o OUT.csv is required");
  if (sl == NULL && task_given != tasks_given)
    return hnm_fail(err, errlen, "--task and --tasks go together");
  if (c->task >= c->tasks)
    return hnm_fail(err, errlen, "--task: '%ld' is not below --tasks %ld", c->task, c->tasks);
  if (c->models.n == 0) {
    cmp_sv_push(&c->models, "graphene");
    c->sets = cmp_xrealloc(c->sets, sizeof *c->sets);
    c->sets[0] = NULL;
  }
  if (c->args.n == 0)
    cmp_sv_push(&c->args, "");
  if (c->nplats == 0) {
    /* hnm-run's bundled platform: label "default" (add_platform copies it). */
    char *bundled = hnm_home_file(HNM_HOME_PLATFORMS "/default.xml");
    char e[HNM_ERRLEN];
    int bad = add_platform(c, bundled, e, sizeof e) != 0;
    free(bundled);
    if (bad)
      return hnm_fail(err, errlen, "--platform: %s", e);
  }
  if (c->reference) {
    if (c->mpi_program == NULL) {
      size_t n = strlen(c->program) + 5;
      char *p = cmp_xmalloc(n);
      snprintf(p, n, "%s-mpi", c->program);
      c->mpi_program = p;
    }
    if (access(c->mpi_program, X_OK) != 0)
      return hnm_fail(err, errlen, "--reference: cannot execute '%s': %s (build it, or give --mpi-program)",
                      c->mpi_program, strerror(errno));
    if (c->mpirun_opts.n == 0) {
      const char *def[] = {"--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader"};
      for (int k = 0; k < 5; k++)
        cmp_sv_push(&c->mpirun_opts, def[k]);
    }
  }
  /* --dry-run checks what a run checks, hnm-run's own checks included. */
  if (sl == NULL && access(c->hnm_run, X_OK) != 0)
    return hnm_fail(err, errlen, "cannot execute hnm-run '%s': %s (build it, or give --hnm-run)", c->hnm_run,
                    strerror(errno));
  for (int k = 0; k < c->sim_opts.n; k++)
    if (strpbrk(c->sim_opts.v[k], "\n\r") != NULL)
      return hnm_fail(err, errlen, "--sim-opt: an option cannot hold a newline");
  return 0;
}

/* What every run gets: the simulation options (CSV column options), the
 * log directory. */
static void grid__finish(cmp_config *c)
{
  /* Sweeps compare network models: unless told otherwise, no measured
   * computation, so that two runs of a sweep give the same numbers. */
  int simcomp_given = 0;
  for (int k = 0; k < c->sim_opts.n; k++)
    if (strncmp(c->sim_opts.v[k], "--cfg=smpi/simulate-computation:", 32) == 0)
      simcomp_given = 1;
  if (!simcomp_given)
    cmp_sv_push(&c->sim_opts, "--cfg=smpi/simulate-computation:no");
  c->sim_opts_str = cmp_join(&c->sim_opts);
  c->mpirun_opts_str = cmp_join(&c->mpirun_opts);
  struct stat st;
  if (c->log_dir == NULL && (strncmp(c->out, "/dev/", 5) == 0 || strncmp(c->out, "/proc/", 6) == 0 ||
                            (stat(c->out, &st) == 0 && !S_ISREG(st.st_mode)))) {
    /* -o is a device or FIFO (/dev/stdout): no OUT.logs beside it. */
    c->log_dir = "hnm-compare.logs";
  } else if (c->log_dir == NULL) {
    size_t n = strlen(c->out) + 8;
    char *d = cmp_xmalloc(n);
    snprintf(d, n, "%s.logs", c->out);
    c->log_dir = d;
  }
}

/* A model spec's file (the spec itself, or its part before the first ':',
 * "m.xml:detached=1"), registered as an input when it names one. */
static int grid__model_input(const char *spec, char *err, size_t errlen)
{
  const char *colon = strchr(spec, ':');
  if (colon == NULL)
    return hnm_out_input(spec, "--model", err, errlen);
  char *file = cmp_xmalloc((size_t)(colon - spec) + 1);
  memcpy(file, spec, (size_t)(colon - spec));
  file[colon - spec] = '\0';
  int rc = hnm_out_input(file, "--model", err, errlen);
  free(file);
  return rc;
}

/* The one output rule (hnm_out.h): every file the sweep reads or hands to
 * its runs -- platforms, hostfiles, model files, the programs -- registered
 * before any output is checked or opened, so that -o, --log-dir and
 * --script are never one of them. 0, or -1 with err (memory). */
static int grid__inputs(const cmp_config *c, char *err, size_t errlen)
{
  for (int p = 0; p < c->nplats; p++)
    if (hnm_out_input(c->plats[p].xml, "--platform", err, errlen) != 0 ||
        hnm_out_input(c->plats[p].hosts, "--platform's hostfile", err, errlen) != 0)
      return -1;
  for (int m = 0; m < c->models.n; m++)
    if (grid__model_input(c->models.v[m], err, errlen) != 0)
      return -1;
  if (hnm_out_input(c->program, "PROGRAM", err, errlen) != 0 ||
      (c->reference && hnm_out_input(c->mpi_program, "--mpi-program", err, errlen) != 0))
    return -1;
  return 0;
}

/* Parse the run options argv[first..]; SLURM-only options are accepted when
 * SL is not NULL. Returns 0; HNM_OPT_DONE after --help (exit 0); or
 * HNM_EXIT_USAGE (HNM_EXIT_FAILURE: memory) with the error in err (nothing
 * printed). */
int cmp_parse_run(int argc, char **argv, int first, cmp_config *c, cmp_slurm_opts *sl, char *err, size_t errlen)
{
  grid__defaults(c);
  int i = grid__options(argc, argv, first, c, sl, err, errlen);
  if (i < 0)
    return i == HNM_OPT_DONE ? HNM_OPT_DONE : HNM_EXIT_USAGE;
  int task_given = c->task >= 0, tasks_given = c->tasks >= 0;
  if (!task_given)
    c->task = 0;
  if (!tasks_given)
    c->tasks = 1;
  grid__keep_raw(c, argv, first, i);
  if (i >= argc) {
    hnm_errf(err, errlen, "no program to run (give it after --; see hnm-compare --help)");
    return HNM_EXIT_USAGE;
  }
  c->program = argv[i];
  for (int k = i + 1; k < argc; k++)
    cmp_sv_push(&c->base_args, argv[k]);
  if (grid__complete(c, sl, task_given, tasks_given, err, errlen) != 0)
    return HNM_EXIT_USAGE;
  grid__finish(c);
  if (grid__inputs(c, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  return 0;
}
