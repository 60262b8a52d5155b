/* hnm-calibrate run: the benchmark under mpirun or (--simulate) hnm-run. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_home.h"
#include "hnm_msg.h"
#include "hnm_fit.h"
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
#include "hnm_calibrate_refine.h"
#include "hnm_calibrate_run.h"
#include "hnm_out.h"
#include "hnm_opt.h"
#include "hnm_calibrate_util.h"

/* hnm-run --dry-run with the simulation's arguments AV (AV[0] is hnm-run):
 * model, platform, hostfile and -np checked before the benchmark starts or
 * anything is written; hnm-run's one-line reason goes to stderr. 0 if
 * valid; HNM_EXIT_USAGE (err empty: hnm-run said why) if hnm-run refused;
 * HNM_EXIT_FAILURE with err when it could not be run. */
static int run__simulate_check(char **av, char *err, size_t errlen)
{
  int n = 0;
  while (av[n] != NULL)
    n++;
  char **dry = calloc((size_t)n + 2, sizeof *dry);
  if (dry == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return HNM_EXIT_FAILURE;
  }
  dry[0] = av[0];
  dry[1] = "--dry-run";
  memcpy(dry + 2, av + 1, (size_t)n * sizeof *dry);
  int st;
  int rc = cal_spawn(dry, 0, 1, NULL, &st, err, errlen);
  free(dry);
  if (rc != 0)
    return HNM_EXIT_FAILURE;
  if (st != 0)
    hnm_errf(err, errlen, "%s", "");
  return st == 0 ? 0 : HNM_EXIT_USAGE;
}

/* Run av (NULL-terminated, on $PATH) and wait: 0 with *st its exit status
 * (128 if killed), or -1 with err when it could not be run. */
static int run__spawn(char **av, int *st, char *err, size_t errlen)
{
  return cal_spawn(av, 1, 0, NULL, st, err, errlen);
}

/* One refinement round: av[0..n) is the launcher and benchmark, then
 * the user's benchmark options, then the round's sizes. */
struct refine_ctx {
  char **av;
  int n;
  char **user;
  int nuser;
};

/* hnm-calibrate fit DIR/\*.csv -o OUT --no-plots, run as a child of this
 * very program: 0, or the status to return (its own, 1 or 2: it said why,
 * err empty; 1 with err when it could not be run). */
static int run__fit_dir(const char *dir, const char *out, char *err, size_t errlen)
{
  char report[4500];
  snprintf(report, sizeof report, "%s/refine-first-report", dir);
  char *head[] = {"/proc/self/exe", "fit", "-o", (char *)out, "--report", report, "--no-plots"};
  char **av = cal_csv_args(dir, head, 7, "-d: ", err, errlen);
  if (av == NULL)
    return strcmp(err, "out of memory") == 0 ? HNM_EXIT_FAILURE : HNM_EXIT_USAGE;
  int st;
  int rc = run__spawn(av, &st, err, errlen);
  cal_csv_args_free(av, 7);
  if (rc != 0)
    return HNM_EXIT_FAILURE;
  hnm_errf(err, errlen, "%s", "");
  return st == 0 ? 0 : st == 2 ? 2 : 1;
}

/* The benchmark's status as this command's: 0, or 2 or 1 with "the
 * benchmark failed (status N)" in err. */
static int run__bench_status(int st, char *err, size_t errlen)
{
  if (st == 0)
    return 0;
  hnm_errf(err, errlen, "the benchmark failed (status %d)", st);
  return st == 2 ? 2 : 1;
}

static int run__refine_bench(void *vctx, const char *dir, const char *sizes, long reps, char *err, size_t errlen)
{
  struct refine_ctx *c = vctx;
  char **av = calloc((size_t)(c->n + c->nuser + 16), sizeof *av);
  if (av == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return HNM_EXIT_FAILURE;
  }
  char r[32];
  snprintf(r, sizeof r, "%ld", reps);
  int n = 0;
  for (int i = 0; i < c->n; i++)
    av[n++] = c->av[i];
  av[n++] = "-d";
  av[n++] = (char *)dir;
  for (int i = 0; i < c->nuser; i++)
    av[n++] = c->user[i];
  char *fixed[] = {"--size-list", (char *)sizes, "--reps", r, "--no-probe", "--no-contention", "--ops",
                   "send,recv,pingpong"};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    av[n++] = fixed[i];
  av[n] = NULL;
  int st;
  int rc = run__spawn(av, &st, err, errlen);
  free(av);
  return rc != 0 ? HNM_EXIT_FAILURE : run__bench_status(st, err, errlen);
}

/* The command's options and what follows them. */
struct run__args {
  const char *dir, *mpirun, *model, *platform, *hostfile, *bench, *refine;
  long refine_reps, np;
  int simulate, progress;
  int first; /* argv's index of the benchmark's options */
};

/* Parse and check the options: 0, HNM_OPT_DONE (--help), or 2 with err. */
static int run__parse(int argc, char **argv, struct run__args *a, char *err, size_t errlen)
{
  *a = (struct run__args){.dir = ".", .mpirun = "mpirun", .refine_reps = 5, .progress = isatty(2), .np = 2};
  const struct hnm_opt opts[] = {
    {.name = "d", .short_name = 'd', .kind = HNM_OPT_STRING, .arg = "DIR", .def = ".", .help = "output directory (created if missing)", .value = &a->dir},
    {.name = "np", .kind = HNM_OPT_LONG, .arg = "N", .def = "2", .help = "ranks (the contention probe uses N/2 pairs)", .value = &a->np, .min = 2, .max = 1000000},
    {.name = "mpirun", .kind = HNM_OPT_STRING, .arg = "CMD", .def = "mpirun", .help = "real run launcher, split on spaces (see below)", .value = &a->mpirun},
    {.name = "simulate", .kind = HNM_OPT_FLAG, .help = "run under hnm-run instead, with -model, -platform, -hostfile", .value = &a->simulate},
    {.name = "model", .kind = HNM_OPT_STRING, .arg = "M", .help = "hnm-run's --model (with --simulate)", .value = &a->model},
    {.name = "platform", .kind = HNM_OPT_STRING, .arg = "P.xml", .help = "platform (with --simulate)", .value = &a->platform},
    {.name = "hostfile", .kind = HNM_OPT_STRING, .arg = "H", .help = "hostfile (with --simulate)", .value = &a->hostfile},
    {.name = "bench", .kind = HNM_OPT_STRING, .arg = "PATH", .help = "benchmark binary (default: libexec/hnm/calibrate[-mpi] of hnm's home)", .value = &a->bench},
    {.name = "progress", .kind = HNM_OPT_FLAG, .help = "progress on stderr (default: when stderr is a terminal)", .value = &a->progress},
    {.name = "refine", .kind = HNM_OPT_STRING, .arg = "MODEL", .help = "instead: locate MODEL's breakpoints (fitted from DIR's CSVs; auto: fit them first) to the byte; writes DIR/refine.csv and DIR/breakpoints.csv for the next fit", .value = &a->refine},
    {.name = "refine-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "5", .help = "with --refine: measurements per size and round", .value = &a->refine_reps, .min = 1, .max = 100000},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate run", "[OPTIONS] [-- BENCHMARK-OPTIONS]",
    "Runs apps/calibrate (see `calibrate -h` for its options: --min, --max, --sizes, --reps, ...)\n"
    "and leaves p2p.csv, probe.csv, contention.csv in DIR.",
    "Options are also accepted with one dash (-np 4, -platform P.xml, -hostfile H, as smpirun).\n"
    "--mpirun example: 'mpirun --allow-run-as-root --mca btl self,vader'.\n",
    NULL, HNM_OPT_LONG_ONLY, NULL};
  int i = hnm_opt_parse(&cmd, opts, argc, argv, err, errlen);
  if (i < 0)
    return i == HNM_OPT_DONE ? HNM_OPT_DONE : HNM_EXIT_USAGE;
  a->first = i;
  if (i < argc && strcmp(argv[i - 1], "--") != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "run: '%s': unexpected argument (benchmark options go after --)", argv[i]);
  if (a->simulate && (a->model == NULL || a->platform == NULL || a->hostfile == NULL))
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "run --simulate: --model, -platform and -hostfile are all required");
  if (!a->simulate && (a->model || a->platform || a->hostfile))
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "run: --model, -platform and -hostfile need --simulate");
  if (a->bench == NULL)
    a->bench = hnm_home_file(a->simulate ? HNM_HOME_APPS "/calibrate" : HNM_HOME_APPS "/calibrate-mpi");
  if (access(a->bench, X_OK) != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--bench: '%s' is not an executable (build apps/calibrate)",
                           a->bench);
  return 0;
}

/* The launcher's words and the benchmark into av (room for argc + 64):
 * their number, or -1 with err (an empty --mpirun). *launcher and, with
 * --simulate, av[0] are to be freed. */
static int run__launcher(const struct run__args *a, char **av, char *nps, char **launcher, char *err, size_t errlen)
{
  int n = 0;
  *launcher = NULL;
  if (a->simulate) {
    av[n++] = hnm_home_file(HNM_HOME_BIN "/hnm-run");
    av[n++] = "--model";
    av[n++] = (char *)a->model;
    av[n++] = "-platform";
    av[n++] = (char *)a->platform;
    av[n++] = "-hostfile";
    av[n++] = (char *)a->hostfile;
    av[n++] = "-np";
    av[n++] = nps;
    /* Time moves only through the network model: no benchmarked
     * computation, no time charged to MPI_Wtime. */
    av[n++] = "--cfg=smpi/wtime:0";
    av[n++] = "--cfg=smpi/simulate-computation:no";
    av[n++] = "--log=root.thres:warning";
  } else {
    *launcher = strdup(a->mpirun);
    if (*launcher == NULL)
      return hnm_fail(err, errlen, "out of memory");
    for (char *sv, *t = strtok_r(*launcher, " ", &sv); t != NULL && n < 40; t = strtok_r(NULL, " ", &sv))
      av[n++] = t;
    if (n == 0)
      return hnm_fail(err, errlen, "--mpirun: empty command");
    av[n++] = (char *)cal_np_option(av[0]);
    av[n++] = nps;
  }
  av[n++] = (char *)a->bench;
  return n;
}

/* --refine: locate MODEL's breakpoints (auto: fit DIR's CSVs first). */
static int run__refine(const struct run__args *a, char **av, int n, char **user, int nuser, char *err, size_t errlen)
{
  struct refine_ctx c = {av, n, user, nuser};
  char first[4400];
  const char *refine = a->refine;
  if (strcmp(refine, "auto") == 0) {
    /* Fit DIR's CSVs first (this very program, `fit`), then refine that. */
    snprintf(first, sizeof first, "%s/refine-first.xml", a->dir);
    int st = run__fit_dir(a->dir, first, err, errlen);
    if (st != 0)
      return st;
    refine = first;
  }
  return cal_refine_model(refine, a->dir, a->refine_reps, run__refine_bench, &c, err, errlen);
}

/* The benchmark itself into DIR (the command line shown with --progress). */
static int run__bench(const struct run__args *a, char **av, int n, char **user, int nuser, char *err, size_t errlen)
{
  av[n++] = "-d";
  av[n++] = (char *)a->dir;
  if (a->progress)
    av[n++] = "--progress";
  for (int i = 0; i < nuser; i++)
    av[n++] = user[i];
  av[n] = NULL;
  if (a->progress) {
    size_t len = 1;
    for (int j = 0; j < n; j++)
      len += strlen(av[j]) + 1;
    char *line = malloc(len);
    if (line == NULL)
      return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
    line[0] = '\0';
    for (int j = 0; j < n; j++)
      strcat(strcat(line, " "), av[j]);
    hnm_msg_info("%s", line + 1);
    free(line);
  }
  int st;
  if (run__spawn(av, &st, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  int rc = run__bench_status(st, err, errlen);
  if (rc != 0)
    return rc;
  /* SMPI's MPI_Abort exits 0: make sure the CSVs are there. */
  char p[4200];
  snprintf(p, sizeof p, "%s/p2p.csv", a->dir);
  if (access(p, R_OK) != 0)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "the benchmark wrote no %s", p);
  return 0;
}

/* Check the simulation, create DIR, then refine or run the benchmark. */
static int run__do(const struct run__args *a, char **av, int n, char **user, int nuser, char *err, size_t errlen)
{
  /* -d first: a FIFO or a file there would fail only once the benchmark
   * has run (its CSVs go into -d). */
  struct stat st;
  if (stat(a->dir, &st) == 0 && !S_ISDIR(st.st_mode))
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "-d: '%s' exists and is not a directory", a->dir);
  if (a->simulate) {
    av[n] = NULL;
    int rc = run__simulate_check(av, err, errlen);
    if (rc != 0)
      return rc; /* 2: hnm-run said why, in one line; nothing created */
  }
  char merr[256];
  if (hnm_out_mkdirs(a->dir, merr, sizeof merr) != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "-d: %s: cannot create: %s", a->dir, merr);
  if (access(a->dir, W_OK | X_OK) != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "-d: '%s': cannot write into it: %s", a->dir, strerror(errno));
  if (a->refine != NULL)
    return run__refine(a, av, n, user, nuser, err, errlen);
  return run__bench(a, av, n, user, nuser, err, errlen);
}

int cal_cmd_run(int argc, char **argv)
{
  struct run__args a;
  char err[HNM_ERRLEN] = "";
  int rc = run__parse(argc, argv, &a, err, sizeof err);
  if (rc == HNM_OPT_DONE)
    return HNM_EXIT_OK;
  if (rc != 0)
    return hnm_msg_error("%s", err);
  char **av = calloc((size_t)argc + 64, sizeof *av);
  if (av == NULL)
    return hnm_msg_failure("out of memory");
  char nps[32], *launcher = NULL;
  snprintf(nps, sizeof nps, "%ld", a.np);
  int n = run__launcher(&a, av, nps, &launcher, err, sizeof err);
  if (n < 0)
    rc = strcmp(err, "out of memory") == 0 ? HNM_EXIT_FAILURE : HNM_EXIT_USAGE;
  else
    rc = run__do(&a, av, n, argv + a.first, argc - a.first, err, sizeof err);
  if (a.simulate)
    free(av[0]); /* hnm_home_file()'s */
  free(av);
  free(launcher);
  if (rc != 0 && err[0] != '\0')
    return rc == HNM_EXIT_USAGE ? hnm_msg_error("%s", err) : (hnm_msg_failure("%s", err), rc);
  return rc;
}
