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
 * anything is written; hnm-run's one-line reason goes to stderr. 0 if valid. */
static int simulate_check(char **av)
{
  int n = 0;
  while (av[n] != NULL)
    n++;
  char **dry = calloc((size_t)n + 2, sizeof *dry);
  if (dry == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  dry[0] = av[0];
  dry[1] = "--dry-run";
  memcpy(dry + 2, av + 1, (size_t)n * sizeof *dry);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    hnm_msg_die(HNM_EXIT_USAGE, "fork: %s", strerror(errno));
  if (pid == 0) {
    int nul = open("/dev/null", O_WRONLY);
    if (nul >= 0)
      dup2(nul, 1);
    execv(dry[0], dry);
    hnm_msg_error("%s: %s", dry[0], strerror(errno));
    _exit(2);
  }
  free(dry);
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      hnm_msg_die(HNM_EXIT_USAGE, "waitpid: %s", strerror(errno));
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Run av (NULL-terminated) and wait: its exit status, 128 if killed. */
static int spawn(char **av)
{
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    hnm_msg_die(HNM_EXIT_USAGE, "fork: %s", strerror(errno));
  if (pid == 0) {
    execvp(av[0], av);
    hnm_msg_error("%s: %s", av[0], strerror(errno));
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      hnm_msg_die(HNM_EXIT_USAGE, "waitpid: %s", strerror(errno));
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
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
 * very program: its exit status. */
static int fit_dir(const char *dir, const char *out)
{
  char report[4500];
  snprintf(report, sizeof report, "%s/refine-first-report", dir);
  char *head[] = {"/proc/self/exe", "fit", "-o", (char *)out, "--report", report, "--no-plots"};
  char **av = cal_csv_args(dir, head, 7, "-d: ");
  int st = spawn(av);
  cal_csv_args_free(av, 7);
  return st == 0 ? 0 : st == 2 ? 2 : 1;
}

static int refine_bench(void *vctx, const char *dir, const char *sizes, long reps)
{
  struct refine_ctx *c = vctx;
  char **av = calloc((size_t)(c->n + c->nuser + 16), sizeof *av);
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
  int st = spawn(av);
  free(av);
  if (st != 0)
    hnm_msg_error("the benchmark failed (status %d)", st);
  return st == 0 ? 0 : st == 2 ? 2 : 1;
}

int cal_cmd_run(int argc, char **argv)
{
  const char *dir = ".", *mpirun = "mpirun", *model = NULL, *platform = NULL, *hostfile = NULL, *bench = NULL;
  const char *refine = NULL;
  long refine_reps = 5;
  int simulate = 0, progress = isatty(2);
  long np = 2;
  const struct hnm_opt opts[] = {
    {.name = "d", .short_name = 'd', .kind = HNM_OPT_STRING, .arg = "DIR", .def = ".", .help = "output directory (created if missing)", .value = &dir},
    {.name = "np", .kind = HNM_OPT_LONG, .arg = "N", .def = "2", .help = "ranks (the contention probe uses N/2 pairs)", .value = &np, .min = 2, .max = 1000000},
    {.name = "mpirun", .kind = HNM_OPT_STRING, .arg = "CMD", .def = "mpirun", .help = "real run launcher, split on spaces (see below)", .value = &mpirun},
    {.name = "simulate", .kind = HNM_OPT_FLAG, .help = "run under hnm-run instead, with -model, -platform, -hostfile", .value = &simulate},
    {.name = "model", .kind = HNM_OPT_STRING, .arg = "M", .help = "hnm-run's --model (with --simulate)", .value = &model},
    {.name = "platform", .kind = HNM_OPT_STRING, .arg = "P.xml", .help = "platform (with --simulate)", .value = &platform},
    {.name = "hostfile", .kind = HNM_OPT_STRING, .arg = "H", .help = "hostfile (with --simulate)", .value = &hostfile},
    {.name = "bench", .kind = HNM_OPT_STRING, .arg = "PATH", .help = "benchmark binary (default: libexec/hnm/calibrate[-mpi] of hnm's home)", .value = &bench},
    {.name = "progress", .kind = HNM_OPT_FLAG, .help = "progress on stderr (default: when stderr is a terminal)", .value = &progress},
    {.name = "refine", .kind = HNM_OPT_STRING, .arg = "MODEL", .help = "instead: locate MODEL's breakpoints (fitted from DIR's CSVs; auto: fit them first) to the byte; writes DIR/refine.csv and DIR/breakpoints.csv for the next fit", .value = &refine},
    {.name = "refine-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "5", .help = "with --refine: measurements per size and round", .value = &refine_reps, .min = 1, .max = 100000},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate run", "[OPTIONS] [-- BENCHMARK-OPTIONS]",
    "Runs apps/calibrate (see `calibrate -h` for its options: --min, --max, --sizes, --reps, ...)\n"
    "and leaves p2p.csv, probe.csv, contention.csv in DIR.",
    "Options are also accepted with one dash (-np 4, -platform P.xml, -hostfile H, as smpirun).\n"
    "--mpirun example: 'mpirun --allow-run-as-root --mca btl self,vader'.\n",
    NULL, HNM_OPT_LONG_ONLY, NULL};
  char opt_err[HNM_ERRLEN];
  int i = hnm_opt_parse(&cmd, opts, argc, argv, opt_err, sizeof opt_err);
  if (i < 0)
    return i == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", opt_err);
  if (i < argc && strcmp(argv[i - 1], "--") != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "run: '%s': unexpected argument (benchmark options go after --)", argv[i]);
  if (simulate && (model == NULL || platform == NULL || hostfile == NULL))
    hnm_msg_die(HNM_EXIT_USAGE, "run --simulate: --model, -platform and -hostfile are all required");
  if (!simulate && (model || platform || hostfile))
    hnm_msg_die(HNM_EXIT_USAGE, "run: --model, -platform and -hostfile need --simulate");
  if (bench == NULL)
    bench = hnm_home_file(simulate ? HNM_HOME_APPS "/calibrate" : HNM_HOME_APPS "/calibrate-mpi");
  if (access(bench, X_OK) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "--bench: '%s' is not an executable (build apps/calibrate)", bench);

  char **av = calloc((size_t)argc + 64, sizeof *av);
  int n = 0;
  char nps[32];
  snprintf(nps, sizeof nps, "%ld", np);
  char *launcher = NULL;
  if (simulate) {
    av[n++] = hnm_home_file(HNM_HOME_BIN "/hnm-run");
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
      hnm_msg_die(HNM_EXIT_USAGE, "--mpirun: empty command");
    av[n++] = "-np";
    av[n++] = nps;
  }
  av[n++] = (char *)bench;
  if (simulate && simulate_check(av) != 0) {
    free(av[0]); /* hnm_home_file()'s */
    free(av);
    return 2; /* hnm-run said why, in one line; nothing created */
  }
  char merr[256];
  if (hnm_out_mkdirs(dir, merr, sizeof merr) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "-d: %s: cannot create: %s", dir, merr);
  if (refine != NULL) {
    struct refine_ctx c = {av, n, argv + i, argc - i};
    char first[4400];
    if (strcmp(refine, "auto") == 0) {
      /* Fit DIR's CSVs first (this very program, `fit`), then refine that. */
      snprintf(first, sizeof first, "%s/refine-first.xml", dir);
      int st = fit_dir(dir, first);
      if (st != 0) {
        free(av);
        free(launcher);
        return st;
      }
      refine = first;
    }
    char rerr[HNM_ERRLEN];
    int rc = cal_refine_model(refine, dir, refine_reps, refine_bench, &c, rerr, sizeof rerr);
    if (rc != 0 && rerr[0] != '\0')
      hnm_msg_error("%s", rerr);
    if (simulate)
      free(av[0]);
    free(av);
    free(launcher);
    return rc;
  }
  av[n++] = "-d";
  av[n++] = (char *)dir;
  if (progress)
    av[n++] = "--progress";
  for (; i < argc; i++)
    av[n++] = argv[i];
  av[n] = NULL;
  if (progress) {
    size_t len = 1;
    for (int j = 0; j < n; j++)
      len += strlen(av[j]) + 1;
    char *line = malloc(len);
    if (line == NULL)
      hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
    line[0] = '\0';
    for (int j = 0; j < n; j++)
      strcat(strcat(line, " "), av[j]);
    hnm_msg_info("%s", line + 1);
    free(line);
  }
  int st = spawn(av);
  if (simulate)
    free(av[0]);
  free(av);
  free(launcher);
  if (st != 0) {
    hnm_msg_error("the benchmark failed (status %d)", st);
    return st == 2 ? 2 : 1;
  }
  /* SMPI's MPI_Abort exits 0: make sure the CSVs are there. */
  char p[4200];
  snprintf(p, sizeof p, "%s/p2p.csv", dir);
  if (access(p, R_OK) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "the benchmark wrote no %s", p);
  return 0;
}
