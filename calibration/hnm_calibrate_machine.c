/* hnm-calibrate machine: calibrate a machine, then predict on it.
 *
 *   hnm-calibrate machine --mpirun CMD -d DIR [--np N] [--hosts H] [-- BENCHMARK-OPTIONS]
 *
 * One command for the loop of docs/calibration.md: under the user's mpirun
 * line it measures the point-to-point costs (`run`), locates the fitted
 * breakpoints to the byte (`run --refine auto`), fits the model (`fit`), and
 * times apps/hostspeed on every rank; it then writes a platform and a
 * hostfile that reproduce the machine:
 *
 *   DIR/data/          the measurements (p2p.csv, probe.csv, refine.csv, ...)
 *   DIR/model.xml      the fitted hybrid model (DIR/model-report/: its report,
 *                      with the LogGPS and fluid fits of the same data)
 *   DIR/speed.csv      apps/hostspeed's measurements (rank,host,rep,flops,seconds)
 *   DIR/platform.xml   H hosts at the measured speed, one private link each
 *                      way per host, as fast as the model's fastest segment,
 *                      so that the platform never caps the model (every
 *                      segment's rate and latency come from the model)
 *   DIR/hostfile       the H hosts, one per line
 *
 * so that `hnm-run --model DIR/model.xml -platform DIR/platform.xml
 * -hostfile DIR/hostfile -np N PROGRAM` predicts an unmodified program with
 * no other option. Computation: SMPI scales the CPU time it measures on the
 * machine running the simulation by smpi/host-speed / host speed
 * (tools/hnm_speed.h). When every rank of the speed benchmark ran on this
 * very machine (the usual case: calibrate here, predict here), hnm-run's
 * default smpi/host-speed, the hosts' own speed, is exact; otherwise the
 * platform's <config> records this machine's speed (apps/hostspeed run here
 * without mpirun) so that a second measured here counts as the ratio of the
 * two speeds on the calibrated hosts.
 *
 * Files: DIR/.hnm-calibrate-machine lists what this command wrote in DIR; a
 * later run replaces those and refuses, before running anything, to touch
 * any other file of the same name (exit 2).
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_machine.h"

#include "hnm_calibrate_util.h"
#include "hnm_home.h"
#include "hnm_model.h"
#include "hnm_msg.h"
#include "hnm_opt.h"
#include "hnm_out.h"
#include "hnm_xml_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STAMP ".hnm-calibrate-machine"
#define STAMP_HEADER "# hnm-calibrate machine wrote these entries of this directory (the next run replaces them)"

/* What this command writes in DIR, and nothing else. */
static const char *const outputs[] = {"data", "model.xml", "model-report", "speed.csv", "platform.xml", "hostfile",
                                      NULL};

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Run AV (on $PATH) and wait; with OUT, its stdout is read into *OUT
 * (malloc'ed, NUL terminated). 0 with *ST its exit status (128 if killed),
 * or -1 with err when it could not be run (pipe, fork, exec, waitpid). */
static int machine__spawn(char **av, char **out, int *st, char *err, size_t errlen)
{
  if (out != NULL)
    *out = NULL;
  return cal_spawn(av, 1, 0, out, st, err, errlen);
}

/* Is WORD (the launcher) a program that can be run: a path to an executable
 * file, or a name found so on $PATH? */
static int machine__runnable(const char *word)
{
  struct stat st;
  if (strchr(word, '/') != NULL)
    return stat(word, &st) == 0 && S_ISREG(st.st_mode) && access(word, X_OK) == 0;
  const char *path = getenv("PATH");
  if (path == NULL || *word == '\0')
    return 0;
  char *copy = strdup(path), *sv = NULL, full[4096];
  int ok = 0;
  for (char *d = strtok_r(copy, ":", &sv); d != NULL && !ok; d = strtok_r(NULL, ":", &sv)) {
    snprintf(full, sizeof full, "%s/%s", *d ? d : ".", word);
    ok = stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0;
  }
  free(copy);
  return ok;
}

static void machine__free_names(char **names);

/* The names STAMP lists (NULL-terminated, malloc'ed) into *NAMES, or
 * NULL when DIR has no stamp. 0, or -1 with err: a stamp this command did
 * not write is refused, so is an unreadable one; memory. */
static int machine__read_stamp(const char *dir, char ***names_out, char *err, size_t errlen)
{
  char path[4200], line[512];
  *names_out = NULL;
  snprintf(path, sizeof path, "%s/" STAMP, dir);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    if (errno == ENOENT)
      return 0;
    return hnm_fail(err, errlen, "-d: %s: %s", path, strerror(errno));
  }
  char **names = calloc(16, sizeof *names);
  if (names == NULL) {
    fclose(f);
    return hnm_fail(err, errlen, "out of memory");
  }
  size_t n = 0;
  int first = 1, bad = 0;
  while (!bad && fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (first) {
      bad = strcmp(line, STAMP_HEADER) != 0;
      first = 0;
      continue;
    }
    for (int i = 0; outputs[i] != NULL && n < 15; i++)
      if (strcmp(line, outputs[i]) == 0 && (names[n] = strdup(line)) != NULL)
        n++;
  }
  fclose(f);
  if (first || bad) {
    machine__free_names(names);
    return hnm_fail(err, errlen, "-d: %s was not written by hnm-calibrate machine: give another -d", path);
  }
  *names_out = names;
  return 0;
}

static void machine__free_names(char **names)
{
  for (size_t j = 0; names != NULL && names[j] != NULL; j++)
    free(names[j]);
  free(names);
}

static int machine__stamp_write(FILE *f, void *ctx)
{
  (void)ctx;
  fprintf(f, "%s\n", STAMP_HEADER);
  for (int i = 0; outputs[i] != NULL; i++)
    fprintf(f, "%s\n", outputs[i]);
  return ferror(f) ? -1 : 0;
}

/* Before anything runs: DIR can be created and written, and every entry
 * this command writes there is absent or was written by an earlier run of
 * it (the stamp). Old refinement files of such a run are removed, since
 * `run --refine auto` fits every CSV of DIR/data. 0, or HNM_EXIT_USAGE /
 * HNM_EXIT_FAILURE (memory, the stamp's write) with err filled. */
static int machine__prepare_dir(const char *dir, char *err, size_t errlen)
{
  struct stat st;
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "-d: '%s' exists and is not a directory", dir);
  char merr[256];
  if (hnm_out_mkdirs(dir, merr, sizeof merr) != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "-d: '%s': cannot create it: %s", dir, merr);
  char probe[4200];
  snprintf(probe, sizeof probe, "%s/.hnm-calibrate-machine-XXXXXX", dir);
  int fd = mkstemp(probe);
  if (fd < 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "-d: '%s': cannot write in it: %s", dir, strerror(errno));
  close(fd);
  unlink(probe);

  char **mine;
  if (machine__read_stamp(dir, &mine, err, errlen) != 0)
    return strcmp(err, "out of memory") == 0 ? HNM_EXIT_FAILURE : HNM_EXIT_USAGE;
  for (int i = 0; outputs[i] != NULL; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, outputs[i]);
    if (lstat(path, &st) != 0)
      continue;
    int owned = 0;
    for (size_t j = 0; mine != NULL && mine[j] != NULL; j++)
      owned |= strcmp(mine[j], outputs[i]) == 0;
    if (!owned) {
      machine__free_names(mine);
      return hnm_fail_status(
          HNM_EXIT_USAGE, err, errlen,
          "-d: '%s' exists and was not written by hnm-calibrate machine (it would be replaced): move it or "
          "give another -d",
          path);
    }
  }
  machine__free_names(mine);
  static const char *const stale[] = {"refine.csv", "breakpoints.csv", "refine-first.xml", NULL};
  for (int i = 0; stale[i] != NULL; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/data/%s", dir, stale[i]);
    if (unlink(path) != 0 && errno != ENOENT)
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "-d: cannot remove the earlier run's %s: %s", path,
                             strerror(errno));
  }
  char stamp[4200];
  snprintf(stamp, sizeof stamp, "%s/" STAMP, dir);
  if (hnm_out_write(stamp, "-d", machine__stamp_write, NULL, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  return 0;
}

static int compare_doubles(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* apps/hostspeed's output: every row checked; the median speed in flop/s,
 * and whether every rank ran on THIS_HOST. 0, or -1 with the reason. */
static int machine__parse_speed(char *text, const char *this_host, double *median, int *all_here, char *why,
                                size_t whylen)
{
  size_t cap = 64, n = 0;
  double *v = malloc(cap * sizeof *v);
  if (v == NULL)
    return hnm_fail(why, whylen, "out of memory");
  *all_here = 1;
  long line = 0;
  int rc = 0;
  for (char *sv = NULL, *l = strtok_r(text, "\n", &sv); l != NULL && rc == 0; l = strtok_r(NULL, "\n", &sv)) {
    line++;
    if (line == 1) {
      if (strcmp(l, "rank,host,rep,flops,seconds") != 0) {
        hnm_errf(why, whylen, "line 1: not hostspeed's header: '%.60s'", l);
        rc = -1;
      }
      continue;
    }
    char host[256];
    long rank, rep;
    double flops, seconds;
    int used = 0;
    if (sscanf(l, "%ld,%255[^,],%ld,%lf,%lf%n", &rank, host, &rep, &flops, &seconds, &used) != 5 ||
        l[used] != '\0' || !(flops > 0) || !(seconds > 0) || !isfinite(flops / seconds)) {
      hnm_errf(why, whylen, "line %ld: '%.60s': not rank,host,rep,flops,seconds", line, l);
      rc = -1;
      break;
    }
    if (strcmp(host, this_host) != 0)
      *all_here = 0;
    if (n == cap) {
      double *grown = realloc(v, cap * 2 * sizeof *v);
      if (grown == NULL) {
        hnm_errf(why, whylen, "out of memory");
        rc = -1;
        break;
      }
      v = grown;
      cap *= 2;
    }
    v[n++] = flops / seconds;
  }
  if (rc == 0 && n == 0) {
    hnm_errf(why, whylen, "no measurement");
    rc = -1;
  }
  if (rc == 0) {
    qsort(v, n, sizeof *v, compare_doubles);
    *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  }
  free(v);
  return rc;
}

struct machine_platform {
  long hosts;
  double speed;      /* flop/s of every host */
  double here_speed; /* smpi/host-speed for the <config>, 0: none */
  double bandwidth;  /* bytes/s of each link */
  double latency;    /* seconds of each link */
  const char *model;
};

/* A number with a unit ("%.17g" then UNIT) as attribute NAME. */
static int machine__attr(hnm_xml_writer *x, const char *name, double v, const char *unit)
{
  char buf[64];
  snprintf(buf, sizeof buf, "%.17g%s", v, unit);
  return hnm_xml_writer_attr(x, name, buf);
}

/* Through core's XML writer (core/hnm_xml_writer.h), as every XML file hnm
 * writes. */
static int machine__platform_write(FILE *f, void *ctx)
{
  const struct machine_platform *p = ctx;
  char text[1024], radical[64];
  hnm_xml_writer *x = hnm_xml_writer_new(f, 1);
  if (x == NULL)
    return -1;
  hnm_xml_writer_raw(x, "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
  snprintf(text, sizeof text,
           " Written by hnm-calibrate machine for the model %s: %ld hosts of the measured\n"
           "     speed, one private link each way per host (SPLITDUPLEX), as fast as the model's\n"
           "     fastest segment, so that the model alone sets every message's latency and rate.\n"
           "     Use: hnm-run -platform THIS -hostfile HOSTFILE -np N PROGRAM, with that model ",
           p->model, p->hosts);
  /* No "--" in a comment (XML): the option names stay out of it. */
  hnm_xml_writer_comment(x, text);
  hnm_xml_writer_start(x, "platform");
  hnm_xml_writer_attr(x, "version", "4.1");
  if (p->here_speed > 0) {
    hnm_xml_writer_comment(x, " The speed of the machine that ran hnm-calibrate, which is not the calibrated one:\n"
                              "       hnm-run scales the CPU time it measures by this / the hosts' speed. ");
    hnm_xml_writer_start(x, "config");
    hnm_xml_writer_start(x, "prop");
    hnm_xml_writer_attr(x, "id", "smpi/host-speed");
    machine__attr(x, "value", p->here_speed, "f");
    hnm_xml_writer_end(x);
    hnm_xml_writer_end(x);
  }
  snprintf(radical, sizeof radical, "0-%ld", p->hosts - 1);
  hnm_xml_writer_start(x, "cluster");
  hnm_xml_writer_attr(x, "id", "machine");
  hnm_xml_writer_attr(x, "prefix", "host-");
  hnm_xml_writer_attr(x, "suffix", "");
  hnm_xml_writer_attr(x, "radical", radical);
  machine__attr(x, "speed", p->speed, "f");
  machine__attr(x, "bw", p->bandwidth, "Bps");
  machine__attr(x, "lat", p->latency, "s");
  hnm_xml_writer_attr(x, "sharing_policy", "SPLITDUPLEX");
  return hnm_xml_writer_finish(x);
}

static int machine__hostfile_write(FILE *f, void *ctx)
{
  const struct machine_platform *p = ctx;
  for (long i = 0; i < p->hosts; i++)
    fprintf(f, "host-%ld\n", i);
  return ferror(f) ? -1 : 0;
}

static void step(int k, double t0, const char *fmt, const char *a)
{
  char what[4096];
  snprintf(what, sizeof what, fmt, a);
  hnm_msg_info("machine [%d/5, %.0f s]: %s", k, now() - t0, what);
}

/* One run of the command: its options, the launcher, the paths it writes
 * and what it measured. */
struct machine__run {
  const char *dir, *mpirun;
  long np, hosts, speed_reps, refine_reps;
  char **user; /* the benchmark's options (after --) */
  int nuser;
  char *line;  /* --mpirun's copy, split into words */
  char *words[48];
  int nw;
  char *bench, *speedbench, *hnm_run; /* hnm_home_file()'s */
  double t0;
  char data[4200], model[4200], report[4200], speedcsv[4200], platform[4200], hostfile[4200], nps[32], rr[32];
  char **av; /* room for every child's arguments */
  double bw, lat;       /* the links: bytes/s, seconds (the model's fastest) */
  double speed;         /* the hosts' median speed, flop/s */
  char *out;            /* hostspeed's output (speed.csv) */
  struct machine_platform plat;
  char *explain;        /* hnm-run --explain's output */
};

/* The options: 0, HNM_OPT_DONE (--help), or 2 with err. */
static int machine__parse(int argc, char **argv, struct machine__run *r, char *err, size_t errlen)
{
  r->mpirun = "mpirun";
  r->np = 2, r->speed_reps = 5, r->refine_reps = 5;
  const struct hnm_opt opts[] = {
    {.name = "d", .short_name = 'd', .kind = HNM_OPT_STRING, .arg = "DIR", .help = "output directory (required; created if missing)", .value = &r->dir},
    {.name = "mpirun", .kind = HNM_OPT_STRING, .arg = "CMD", .def = "mpirun", .help = "the launcher of the machine, split on spaces", .value = &r->mpirun},
    {.name = "np", .kind = HNM_OPT_LONG, .arg = "N", .def = "2", .help = "ranks of the benchmarks (the point-to-point part uses ranks 0 and 1)", .value = &r->np, .min = 2, .max = 1000000},
    {.name = "hosts", .kind = HNM_OPT_LONG, .arg = "H", .help = "hosts of the platform (default: -np, or this machine's processors if more)", .value = &r->hosts, .min = 1, .max = 1000000},
    {.name = "speed-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "5", .help = "repetitions of the host-speed kernel on every rank", .value = &r->speed_reps, .min = 1, .max = 1000},
    {.name = "refine-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "5", .help = "measurements per size and round when locating breakpoints", .value = &r->refine_reps, .min = 1, .max = 100000},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate machine", "--mpirun CMD -d DIR [OPTIONS] [-- BENCHMARK-OPTIONS]",
    "Calibrates the machine that CMD runs on, in one command: the point-to-point benchmark\n"
    "(run), its breakpoints to the byte (run --refine auto), the model (fit), the speed of\n"
    "every rank's host (apps/hostspeed); then writes DIR/model.xml, DIR/platform.xml and\n"
    "DIR/hostfile, with which `hnm-run --model DIR/model.xml -platform DIR/platform.xml\n"
    "-hostfile DIR/hostfile -np N PROGRAM` predicts PROGRAM on that machine.",
    "Benchmark options (after --) go to apps/calibrate after the defaults --max 64MiB\n"
    "--sizes 250 --reps 7 --no-contention (the platform has no node limiter to fit).\n"
    "Every file written is listed in DIR/.hnm-calibrate-machine; a file of the same name\n"
    "that an earlier run did not write is never replaced (exit 2, nothing run).\n"
    "Example (this machine): hnm-calibrate machine --mpirun \"mpirun --allow-run-as-root\n"
    "--oversubscribe\" -d here\n",
    NULL, HNM_OPT_LONG_ONLY, NULL};
  int i = hnm_opt_parse(&cmd, opts, argc, argv, err, errlen);
  if (i < 0)
    return i == HNM_OPT_DONE ? HNM_OPT_DONE : HNM_EXIT_USAGE;
  r->user = argv + i, r->nuser = argc - i;
  if (i < argc && strcmp(argv[i - 1], "--") != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "machine: '%s': unexpected argument (benchmark options go after --)", argv[i]);
  if (r->dir == NULL || *r->dir == '\0')
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "machine: -d DIR is required");
  if (strchr(r->dir, ' ') != NULL || strchr(r->dir, ',') != NULL)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "-d: '%s': a blank or ',' in the path cannot be passed to hnm-run's options", r->dir);
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (r->hosts == 0)
    r->hosts = online > r->np ? online : r->np;
  return 0;
}

/* The launcher and the benchmarks, before anything is created; then the
 * paths. 0, or 2 (1: memory) with err. */
static int machine__validate(struct machine__run *r, int argc, char *err, size_t errlen)
{
  char *sv = NULL;
  r->line = strdup(r->mpirun);
  r->av = calloc((size_t)argc + 40, sizeof *r->av);
  if (r->line == NULL || r->av == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  for (char *t = strtok_r(r->line, " ", &sv); t != NULL; t = strtok_r(NULL, " ", &sv)) {
    if (r->nw == 40)
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--mpirun: more than 40 words");
    r->words[r->nw++] = t;
  }
  if (r->nw == 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--mpirun: empty command");
  if (!machine__runnable(r->words[0]))
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--mpirun: '%s': no such program (on $PATH, or executable)",
                           r->words[0]);
  r->bench = hnm_home_file(HNM_HOME_APPS "/calibrate-mpi");
  r->speedbench = hnm_home_file(HNM_HOME_APPS "/hostspeed-mpi");
  r->hnm_run = hnm_home_file(HNM_HOME_BIN "/hnm-run");
  if (access(r->bench, X_OK) != 0 || access(r->speedbench, X_OK) != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "the benchmarks '%s' and '%s' must be built (they need Open MPI's mpicc)", r->bench,
                           r->speedbench);
  snprintf(r->data, sizeof r->data, "%s/data", r->dir);
  snprintf(r->model, sizeof r->model, "%s/model.xml", r->dir);
  snprintf(r->report, sizeof r->report, "%s/model-report", r->dir);
  snprintf(r->speedcsv, sizeof r->speedcsv, "%s/speed.csv", r->dir);
  snprintf(r->platform, sizeof r->platform, "%s/platform.xml", r->dir);
  snprintf(r->hostfile, sizeof r->hostfile, "%s/hostfile", r->dir);
  snprintf(r->nps, sizeof r->nps, "%ld", r->np);
  snprintf(r->rr, sizeof r->rr, "%ld", r->refine_reps);
  return 0;
}

/* A child's status as this command's: 0, or 2 or 1 with WHAT in err
 * ("machine: WHAT failed (status N)"); 1 when it could not be run. */
static int machine__child(struct machine__run *r, char **out, const char *what, char *err, size_t errlen)
{
  int st;
  if (machine__spawn(r->av, out, &st, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  if (st == 0)
    return 0;
  hnm_errf(err, errlen, "machine: %s failed (status %d)", what, st);
  return st == 2 ? 2 : 1;
}

/* 1. run; 2. run --refine auto: this very program, so that every check
 * and message of those commands applies. */
static int machine__measure(struct machine__run *r, char *err, size_t errlen)
{
  char **av = r->av;
  int n = 0;
  av[n++] = "/proc/self/exe";
  av[n++] = "run";
  av[n++] = "--mpirun";
  av[n++] = (char *)r->mpirun;
  av[n++] = "-np";
  av[n++] = r->nps;
  av[n++] = "-d";
  av[n++] = r->data;
  if (isatty(2))
    av[n++] = "--progress";
  int common = n;
  av[n++] = "--";
  char *defaults[] = {"--max", "64MiB", "--sizes", "250", "--reps", "7", "--no-contention"};
  for (size_t k = 0; k < sizeof defaults / sizeof *defaults; k++)
    av[n++] = defaults[k];
  for (int k = 0; k < r->nuser; k++)
    av[n++] = r->user[k];
  av[n] = NULL;
  step(1, r->t0, "point-to-point benchmark under '%s' (docs/calibration.md)", r->mpirun);
  int rc = machine__child(r, NULL, "the point-to-point benchmark", err, errlen);
  if (rc != 0) {
    if (strncmp(err, "machine: ", 9) == 0) {
      size_t l = strlen(err);
      hnm_errf(err + l, errlen > l ? errlen - l : 0, "; its data, if any, is in %s", r->data);
    }
    return rc;
  }
  step(2, r->t0, "locating the fitted model's breakpoints to the byte (run --refine auto)%s", "");
  n = common;
  av[n++] = "--refine";
  av[n++] = "auto";
  av[n++] = "--refine-reps";
  av[n++] = r->rr;
  av[n] = NULL;
  /* --progress is a run option, before the refinement's. */
  return machine__child(r, NULL, "locating the breakpoints", err, errlen);
}

/* 3. fit; the links from the model: as fast as the fastest segment
 * (unlimited ones aside), and a latency that the model's factors scale
 * (lat-factor = (L - 16/B) / route latency: any positive route latency
 * gives the model's L). */
static int machine__fit(struct machine__run *r, char *err, size_t errlen)
{
  step(3, r->t0, "fitting %s", r->model);
  /* --held-out: the breakpoints of run --refine, automatic ones besides,
   * or automatic ones alone, whichever the held-out round trips prefer. */
  char *head[] = {"/proc/self/exe", "fit", "-o", r->model, "--report", r->report, "--held-out"};
  char **fav = cal_csv_args(r->data, head, 7, "", err, errlen);
  if (fav == NULL)
    return strcmp(err, "out of memory") == 0 ? HNM_EXIT_FAILURE : HNM_EXIT_USAGE;
  int st;
  int rc = machine__spawn(fav, NULL, &st, err, errlen);
  cal_csv_args_free(fav, 7);
  if (rc != 0)
    return HNM_EXIT_FAILURE;
  if (st != 0)
    return hnm_fail_status(st == 2 ? 2 : 1, err, errlen, "machine: the fit failed (status %d)", st);
  hnm_model *m = hnm_model_load(r->model, err, errlen);
  if (m == NULL)
    return HNM_EXIT_USAGE;
  double bw = 0, lat = INFINITY;
  for (int c = 0; c < HNM_ROUTE_CLASSES; c++) {
    size_t ns = 0;
    const struct hnm_segment *s = hnm_model_segments(m, (enum hnm_route_class)c, &ns);
    for (size_t k = 0; s != NULL && k < ns; k++) {
      if (s[k].bandwidth_absolute && s[k].bandwidth_Bps < HNM_MAX_BANDWIDTH && s[k].bandwidth_Bps > bw)
        bw = s[k].bandwidth_Bps;
      if (s[k].latency_absolute && s[k].latency_s > 0 && s[k].latency_s < lat)
        lat = s[k].latency_s;
    }
  }
  hnm_model_free(m);
  r->bw = bw > 0 ? bw : 1e10; /* every segment relative or unlimited: any link works */
  r->lat = isfinite(lat) ? lat : 1e-6;
  return 0;
}

/* 4. The hosts' speed, every rank at once; and this machine's when the
 * ranks ran elsewhere. */
static int machine__speed(struct machine__run *r, char *err, size_t errlen)
{
  step(4, r->t0, "host speed: apps/hostspeed on every rank under '%s'", r->mpirun);
  char reps[32], why[256];
  snprintf(reps, sizeof reps, "%ld", r->speed_reps);
  int n = 0;
  for (int k = 0; k < r->nw; k++)
    r->av[n++] = r->words[k];
  r->av[n++] = (char *)cal_np_option(r->words[0]);
  r->av[n++] = r->nps;
  r->av[n++] = r->speedbench;
  r->av[n++] = reps;
  r->av[n] = NULL;
  int rc = machine__child(r, &r->out, "the host-speed benchmark", err, errlen);
  if (rc == 0 && r->out == NULL)
    rc = hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  if (rc != 0)
    return rc;
  char *copy = strdup(r->out);
  if (copy == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  char here[256] = "";
  gethostname(here, sizeof here - 1);
  double here_speed = 0;
  int all_here = 0;
  rc = machine__parse_speed(copy, here, &r->speed, &all_here, why, sizeof why);
  free(copy);
  if (rc != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "the host-speed benchmark's output: %s", why);
  r->plat = (struct machine_platform){r->hosts, r->speed, 0, r->bw, r->lat / 2, "model.xml"};
  if (!all_here) {
    /* Not this machine: time the same binary here, alone (MPI singleton). */
    char *lav[] = {r->speedbench, reps, NULL};
    char *lout = NULL;
    int all = 0, st = -1;
    if (machine__spawn(lav, &lout, &st, why, sizeof why) == 0 && st == 0 && lout != NULL &&
        machine__parse_speed(lout, here, &here_speed, &all, why, sizeof why) == 0)
      r->plat.here_speed = here_speed;
    else
      hnm_msg_warn("machine: could not time %s on this machine: predictions count its CPU seconds as the "
                   "calibrated hosts' (give hnm-run --cfg=smpi/host-speed:S, S this machine's speed)",
                   r->speedbench);
    free(lout);
  }
  return 0;
}

/* 5. The outputs, together; then checked as a user will run them: hnm-run
 * validates model, platform and hostfile and prints how computation is
 * counted (kept in r->explain). */
static int machine__write(struct machine__run *r, char *err, size_t errlen)
{
  step(5, r->t0, "writing %s, its hostfile and speed.csv", r->platform);
  hnm_out *o[3] = {hnm_out_open(r->speedcsv, "speed.csv", err, errlen), NULL, NULL};
  if (o[0] != NULL)
    o[1] = hnm_out_open(r->platform, "platform", err, errlen);
  if (o[1] != NULL)
    o[2] = hnm_out_open(r->hostfile, "hostfile", err, errlen);
  int opened = o[2] != NULL, ok = opened;
  if (ok) {
    fputs(r->out, hnm_out_file(o[0]));
    ok = machine__platform_write(hnm_out_file(o[1]), &r->plat) == 0 &&
         machine__hostfile_write(hnm_out_file(o[2]), &r->plat) == 0;
    if (!ok)
      hnm_errf(err, errlen, "%s: write error", r->platform);
  }
  for (int k = 0; ok && k < 3; k++)
    ok = hnm_out_finish(o[k], err, errlen) == 0;
  for (int k = 0; k < 3; k++) {
    if (ok)
      ok = hnm_out_commit(o[k], err, errlen) == 0;
    else
      hnm_out_abort(o[k]);
  }
  if (!ok)
    return opened ? HNM_EXIT_FAILURE : HNM_EXIT_USAGE;
  int n = 0;
  char **av = r->av;
  av[n++] = r->hnm_run;
  av[n++] = "--model";
  av[n++] = r->model;
  av[n++] = "-platform";
  av[n++] = r->platform;
  av[n++] = "-hostfile";
  av[n++] = r->hostfile;
  av[n++] = "-np";
  av[n++] = r->nps;
  av[n++] = "--explain";
  av[n] = NULL;
  int st = -1;
  if (machine__spawn(av, &r->explain, &st, err, errlen) != 0 || st != 0 || r->explain == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen,
                           "hnm-run refuses what was written (%s, %s, %s): a defect of hnm-calibrate machine", r->model,
                           r->platform, r->hostfile);
  return 0;
}

static void machine__free(struct machine__run *r)
{
  free(r->explain);
  free(r->out);
  free(r->av);
  free(r->line);
  free(r->bench);
  free(r->speedbench);
  free(r->hnm_run);
}

int cal_cmd_machine(int argc, char **argv)
{
  struct machine__run r = {0};
  char err[HNM_ERRLEN] = "";
  int rc = machine__parse(argc, argv, &r, err, sizeof err);
  if (rc == HNM_OPT_DONE)
    return HNM_EXIT_OK;
  if (rc == 0)
    rc = machine__validate(&r, argc, err, sizeof err);
  if (rc == 0)
    rc = machine__prepare_dir(r.dir, err, sizeof err);
  r.t0 = now();
  if (rc == 0)
    rc = machine__measure(&r, err, sizeof err);
  if (rc == 0)
    rc = machine__fit(&r, err, sizeof err);
  if (rc == 0)
    rc = machine__speed(&r, err, sizeof err);
  if (rc == 0)
    rc = machine__write(&r, err, sizeof err);
  if (rc != 0) {
    machine__free(&r);
    return rc == HNM_EXIT_USAGE ? hnm_msg_error("%s", err) : (hnm_msg_failure("%s", err), rc);
  }
  const char *comp = strstr(r.explain, "computation:");
  hnm_msg_info("machine: done in %.0f s: %ld hosts at %.4g flop/s (median of %s), links %.4g B/s, %.3g s;",
               now() - r.t0, r.hosts, r.speed, r.speedcsv, r.bw, r.lat / 2);
  if (comp != NULL)
    fputs(comp, stderr); /* hnm-run --explain's lines, as they are */
  hnm_msg_info("predict with: hnm-run --model %s -platform %s -hostfile %s -np %ld PROGRAM", r.model, r.platform,
               r.hostfile, r.np);
  machine__free(&r);
  return 0;
}
