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

/* Run AV and wait; with OUT, its stdout is read into *OUT (malloc'ed, NUL
 * terminated). Its exit status, 128 if killed, 127 if it could not start. */
static int machine__spawn(char **av, char **out)
{
  int p[2] = {-1, -1};
  if (out != NULL && pipe(p) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "pipe: %s", strerror(errno));
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    hnm_msg_die(HNM_EXIT_USAGE, "fork: %s", strerror(errno));
  if (pid == 0) {
    if (out != NULL) {
      dup2(p[1], 1);
      close(p[0]);
      close(p[1]);
    }
    execvp(av[0], av);
    hnm_msg_error("%s: %s", av[0], strerror(errno));
    _exit(127);
  }
  if (out != NULL) {
    close(p[1]);
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    for (ssize_t r; buf != NULL;) {
      if (cap - n < 4096) {
        char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL; /* bounded: 64 MiB */
        if (nb == NULL) {
          free(buf);
          buf = NULL;
          break;
        }
        buf = nb;
        cap *= 2;
      }
      r = read(p[0], buf + n, cap - n - 1);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      n += (size_t)r;
    }
    close(p[0]);
    if (buf != NULL)
      buf[n] = '\0';
    *out = buf;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      hnm_msg_die(HNM_EXIT_USAGE, "waitpid: %s", strerror(errno));
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
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

/* The names STAMP lists (NULL-terminated, malloc'ed), or NULL when DIR has
 * no stamp. A stamp this command did not write is refused. */
static char **machine__read_stamp(const char *dir)
{
  char path[4200], line[512];
  snprintf(path, sizeof path, "%s/" STAMP, dir);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    if (errno == ENOENT)
      return NULL;
    hnm_msg_die(HNM_EXIT_USAGE, "-d: %s: %s", path, strerror(errno));
  }
  char **names = calloc(16, sizeof *names);
  size_t n = 0;
  int first = 1;
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (first) {
      if (strcmp(line, STAMP_HEADER) != 0)
        hnm_msg_die(HNM_EXIT_USAGE, "-d: %s was not written by hnm-calibrate machine: give another -d", path);
      first = 0;
      continue;
    }
    for (int i = 0; outputs[i] != NULL && n < 15; i++)
      if (strcmp(line, outputs[i]) == 0)
        names[n++] = strdup(line);
  }
  fclose(f);
  if (first)
    hnm_msg_die(HNM_EXIT_USAGE, "-d: %s was not written by hnm-calibrate machine: give another -d", path);
  return names;
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
 * `run --refine auto` fits every CSV of DIR/data. */
static void machine__prepare_dir(const char *dir)
{
  struct stat st;
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
    hnm_msg_die(HNM_EXIT_USAGE, "-d: '%s' exists and is not a directory", dir);
  char merr[256];
  if (hnm_out_mkdirs(dir, merr, sizeof merr) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "-d: '%s': cannot create it: %s", dir, merr);
  char probe[4200];
  snprintf(probe, sizeof probe, "%s/.hnm-calibrate-machine-XXXXXX", dir);
  int fd = mkstemp(probe);
  if (fd < 0)
    hnm_msg_die(HNM_EXIT_USAGE, "-d: '%s': cannot write in it: %s", dir, strerror(errno));
  close(fd);
  unlink(probe);

  char **mine = machine__read_stamp(dir);
  for (int i = 0; outputs[i] != NULL; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, outputs[i]);
    if (lstat(path, &st) != 0)
      continue;
    int owned = 0;
    for (size_t j = 0; mine != NULL && mine[j] != NULL; j++)
      owned |= strcmp(mine[j], outputs[i]) == 0;
    if (!owned)
      hnm_msg_die(HNM_EXIT_USAGE, "-d: '%s' exists and was not written by hnm-calibrate machine (it would be replaced): move it or "
          "give another -d",
          path);
  }
  for (size_t j = 0; mine != NULL && mine[j] != NULL; j++)
    free(mine[j]);
  free(mine);
  static const char *const stale[] = {"refine.csv", "breakpoints.csv", "refine-first.xml", NULL};
  for (int i = 0; stale[i] != NULL; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/data/%s", dir, stale[i]);
    if (unlink(path) != 0 && errno != ENOENT)
      hnm_msg_die(HNM_EXIT_USAGE, "-d: cannot remove the earlier run's %s: %s", path, strerror(errno));
  }
  char stamp[4200], err[4400];
  snprintf(stamp, sizeof stamp, "%s/" STAMP, dir);
  if (hnm_out_write(stamp, "-d", machine__stamp_write, NULL, err, sizeof err) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", err);
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
  *all_here = 1;
  long line = 0;
  int rc = 0;
  for (char *sv = NULL, *l = strtok_r(text, "\n", &sv); l != NULL && rc == 0; l = strtok_r(NULL, "\n", &sv)) {
    line++;
    if (line == 1) {
      if (strcmp(l, "rank,host,rep,flops,seconds") != 0) {
        snprintf(why, whylen, "line 1: not hostspeed's header: '%.60s'", l);
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
      snprintf(why, whylen, "line %ld: '%.60s': not rank,host,rep,flops,seconds", line, l);
      rc = -1;
      break;
    }
    if (strcmp(host, this_host) != 0)
      *all_here = 0;
    if (n == cap) {
      cap *= 2;
      v = realloc(v, cap * sizeof *v);
      if (v == NULL)
        hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
    }
    v[n++] = flops / seconds;
  }
  if (rc == 0 && n == 0) {
    snprintf(why, whylen, "no measurement");
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

int cal_cmd_machine(int argc, char **argv)
{
  const char *dir = NULL, *mpirun = "mpirun";
  long np = 2, hosts = 0, speed_reps = 5, refine_reps = 5;
  const struct hnm_opt opts[] = {
    {.name = "d", .short_name = 'd', .kind = HNM_OPT_STRING, .arg = "DIR", .help = "output directory (required; created if missing)", .value = &dir},
    {.name = "mpirun", .kind = HNM_OPT_STRING, .arg = "CMD", .def = "mpirun", .help = "the launcher of the machine, split on spaces", .value = &mpirun},
    {.name = "np", .kind = HNM_OPT_LONG, .arg = "N", .def = "2", .help = "ranks of the benchmarks (the point-to-point part uses ranks 0 and 1)", .value = &np, .min = 2, .max = 1000000},
    {.name = "hosts", .kind = HNM_OPT_LONG, .arg = "H", .help = "hosts of the platform (default: -np, or this machine's processors if more)", .value = &hosts, .min = 1, .max = 1000000},
    {.name = "speed-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "5", .help = "repetitions of the host-speed kernel on every rank", .value = &speed_reps, .min = 1, .max = 1000},
    {.name = "refine-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "5", .help = "measurements per size and round when locating breakpoints", .value = &refine_reps, .min = 1, .max = 100000},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate machine", "--mpirun CMD -d DIR [OPTIONS] [-- BENCHMARK-OPTIONS]",
    "Calibrates the machine that CMD runs on, in one command: the point-to-point benchmark\n"
    "(run), its breakpoints to the byte (run --refine auto), the model (fit), the speed of\n"
    "every rank's host (apps/hostspeed); then writes DIR/model.xml, DIR/platform.xml and\n"
    "DIR/hostfile, with which `hnm-run --model DIR/model.xml -platform DIR/platform.xml\n"
    "-hostfile DIR/hostfile -np N PROGRAM` predicts PROGRAM on that machine.",
    "Benchmark options (after --) go to apps/calibrate after the defaults --max 64MiB\n"
    "--sizes 120 --reps 5 --no-contention (the platform has no node limiter to fit).\n"
    "Every file written is listed in DIR/.hnm-calibrate-machine; a file of the same name\n"
    "that an earlier run did not write is never replaced (exit 2, nothing run).\n"
    "Example (this machine): hnm-calibrate machine --mpirun \"mpirun --allow-run-as-root\n"
    "--oversubscribe\" -d here\n",
    NULL, HNM_OPT_LONG_ONLY, NULL};
  char opt_err[HNM_ERRLEN];
  int i = hnm_opt_parse(&cmd, opts, argc, argv, opt_err, sizeof opt_err);
  if (i < 0)
    return i == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", opt_err);
  if (i < argc && strcmp(argv[i - 1], "--") != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "machine: '%s': unexpected argument (benchmark options go after --)", argv[i]);
  if (dir == NULL || *dir == '\0')
    hnm_msg_die(HNM_EXIT_USAGE, "machine: -d DIR is required");
  if (strchr(dir, ' ') != NULL || strchr(dir, ',') != NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "-d: '%s': a blank or ',' in the path cannot be passed to hnm-run's options", dir);
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (hosts == 0)
    hosts = online > np ? online : np;

  /* The launcher, before anything is created. */
  char *line = strdup(mpirun), *sv = NULL;
  char *words[48];
  int nw = 0;
  for (char *t = strtok_r(line, " ", &sv); t != NULL; t = strtok_r(NULL, " ", &sv)) {
    if (nw == 40)
      hnm_msg_die(HNM_EXIT_USAGE, "--mpirun: more than 40 words");
    words[nw++] = t;
  }
  if (nw == 0)
    hnm_msg_die(HNM_EXIT_USAGE, "--mpirun: empty command");
  if (!machine__runnable(words[0]))
    hnm_msg_die(HNM_EXIT_USAGE, "--mpirun: '%s': no such program (on $PATH, or executable)", words[0]);
  char *bench = hnm_home_file(HNM_HOME_APPS "/calibrate-mpi");
  char *speedbench = hnm_home_file(HNM_HOME_APPS "/hostspeed-mpi");
  char *hnm_run = hnm_home_file(HNM_HOME_BIN "/hnm-run");
  if (access(bench, X_OK) != 0 || access(speedbench, X_OK) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "the benchmarks '%s' and '%s' must be built (they need Open MPI's mpicc)", bench, speedbench);
  machine__prepare_dir(dir);

  double t0 = now();
  char data[4200], model[4200], report[4200], speedcsv[4200], platform[4200], hostfile[4200], nps[32], rr[32];
  snprintf(data, sizeof data, "%s/data", dir);
  snprintf(model, sizeof model, "%s/model.xml", dir);
  snprintf(report, sizeof report, "%s/model-report", dir);
  snprintf(speedcsv, sizeof speedcsv, "%s/speed.csv", dir);
  snprintf(platform, sizeof platform, "%s/platform.xml", dir);
  snprintf(hostfile, sizeof hostfile, "%s/hostfile", dir);
  snprintf(nps, sizeof nps, "%ld", np);
  snprintf(rr, sizeof rr, "%ld", refine_reps);

  /* 1. run; 2. run --refine auto: this very program, so that every check
   * and message of those commands applies. */
  char **av = calloc((size_t)argc + 40, sizeof *av);
  int n = 0;
  av[n++] = "/proc/self/exe";
  av[n++] = "run";
  av[n++] = "--mpirun";
  av[n++] = (char *)mpirun;
  av[n++] = "-np";
  av[n++] = nps;
  av[n++] = "-d";
  av[n++] = data;
  if (isatty(2))
    av[n++] = "--progress";
  int common = n;
  av[n++] = "--";
  char *defaults[] = {"--max", "64MiB", "--sizes", "120", "--reps", "5", "--no-contention"};
  for (size_t k = 0; k < sizeof defaults / sizeof *defaults; k++)
    av[n++] = defaults[k];
  for (int k = i; k < argc; k++)
    av[n++] = argv[k];
  av[n] = NULL;
  step(1, t0, "point-to-point benchmark under '%s' (docs/calibration.md)", mpirun);
  int st = machine__spawn(av, NULL);
  if (st != 0) {
    hnm_msg_error("machine: the point-to-point benchmark failed (status %d); its data, if any, is in %s",
            st, data);
    return st == 2 ? 2 : 1;
  }
  step(2, t0, "locating the fitted model's breakpoints to the byte (run --refine auto)%s", "");
  n = common;
  av[n++] = "--refine";
  av[n++] = "auto";
  av[n++] = "--refine-reps";
  av[n++] = rr;
  av[n] = NULL;
  /* --progress is a run option, before the refinement's. */
  if ((st = machine__spawn(av, NULL)) != 0) {
    hnm_msg_error("machine: locating the breakpoints failed (status %d)", st);
    return st == 2 ? 2 : 1;
  }

  /* 3. fit. */
  step(3, t0, "fitting %s", model);
  char *head[] = {"/proc/self/exe", "fit", "-o", model, "--report", report};
  char **fav = cal_csv_args(data, head, 6, "");
  st = machine__spawn(fav, NULL);
  cal_csv_args_free(fav, 6);
  if (st != 0) {
    hnm_msg_error("machine: the fit failed (status %d)", st);
    return st == 2 ? 2 : 1;
  }
  char merr[HNM_ERRLEN];
  hnm_model *m = hnm_model_load(model, merr, sizeof merr);
  if (m == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", merr);
  /* The links: as fast as the fastest segment (unlimited ones aside), and
   * a latency that the model's factors scale (lat-factor = (L - 16/B) /
   * route latency: any positive route latency gives the model's L). */
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
  if (!(bw > 0))
    bw = 1e10; /* every segment relative or unlimited: any link works */
  if (!isfinite(lat))
    lat = 1e-6;

  /* 4. The hosts' speed, every rank at once. */
  step(4, t0, "host speed: apps/hostspeed on every rank under '%s'", mpirun);
  char reps[32];
  snprintf(reps, sizeof reps, "%ld", speed_reps);
  n = 0;
  for (int k = 0; k < nw; k++)
    av[n++] = words[k];
  av[n++] = "-np";
  av[n++] = nps;
  av[n++] = speedbench;
  av[n++] = reps;
  av[n] = NULL;
  char *out = NULL, why[256], err[4400];
  st = machine__spawn(av, &out);
  if (st != 0 || out == NULL) {
    free(out);
    hnm_msg_error("machine: the host-speed benchmark failed (status %d)", st);
    return st == 2 ? 2 : 1;
  }
  char *copy = strdup(out);
  char here[256] = "";
  gethostname(here, sizeof here - 1);
  double speed = 0, here_speed = 0;
  int all_here = 0;
  if (machine__parse_speed(copy, here, &speed, &all_here, why, sizeof why) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "the host-speed benchmark's output: %s", why);
  free(copy);
  struct machine_platform plat = {hosts, speed, 0, bw, lat / 2, "model.xml"};
  if (!all_here) {
    /* Not this machine: time the same binary here, alone (MPI singleton). */
    char *lav[] = {speedbench, reps, NULL};
    char *lout = NULL;
    int all = 0;
    if (machine__spawn(lav, &lout) == 0 && lout != NULL &&
        machine__parse_speed(lout, here, &here_speed, &all, why, sizeof why) == 0)
      plat.here_speed = here_speed;
    else
      hnm_msg_warn("machine: could not time %s on this machine: predictions count its CPU seconds as the "
                   "calibrated hosts' (give hnm-run --cfg=smpi/host-speed:S, S this machine's speed)",
                   speedbench);
    free(lout);
  }

  /* 5. The outputs, together. */
  step(5, t0, "writing %s, its hostfile and speed.csv", platform);
  hnm_out *o[3] = {hnm_out_open(speedcsv, "speed.csv", err, sizeof err), NULL, NULL};
  if (o[0] != NULL)
    o[1] = hnm_out_open(platform, "platform", err, sizeof err);
  if (o[1] != NULL)
    o[2] = hnm_out_open(hostfile, "hostfile", err, sizeof err);
  int ok = o[2] != NULL;
  if (ok) {
    fputs(out, hnm_out_file(o[0]));
    ok = machine__platform_write(hnm_out_file(o[1]), &plat) == 0 &&
         machine__hostfile_write(hnm_out_file(o[2]), &plat) == 0;
  }
  for (int k = 0; ok && k < 3; k++)
    ok = hnm_out_finish(o[k], err, sizeof err) == 0;
  for (int k = 0; k < 3; k++) {
    if (ok)
      ok = hnm_out_commit(o[k], err, sizeof err) == 0;
    else
      hnm_out_abort(o[k]);
  }
  free(out);
  if (!ok)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", err);

  /* Checked as a user will run it: hnm-run validates model, platform and
   * hostfile and prints how computation is counted. */
  n = 0;
  av[n++] = hnm_run;
  av[n++] = "--model";
  av[n++] = model;
  av[n++] = "-platform";
  av[n++] = platform;
  av[n++] = "-hostfile";
  av[n++] = hostfile;
  av[n++] = "-np";
  av[n++] = nps;
  av[n++] = "--explain";
  av[n] = NULL;
  char *explain = NULL;
  if (machine__spawn(av, &explain) != 0 || explain == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "hnm-run refuses what was written (%s, %s, %s): a defect of hnm-calibrate machine", model, platform,
        hostfile);
  const char *comp = strstr(explain, "computation:");
  hnm_msg_info("machine: done in %.0f s: %ld hosts at %.4g flop/s (median of %s), links %.4g B/s, %.3g s;",
               now() - t0, hosts, speed, speedcsv, bw, lat / 2);
  if (comp != NULL)
    fputs(comp, stderr); /* hnm-run --explain's lines, as they are */
  hnm_msg_info("predict with: hnm-run --model %s -platform %s -hostfile %s -np %ld PROGRAM", model, platform,
               hostfile, np);
  free(explain);
  free(av);
  free(line);
  free(bench);
  free(speedbench);
  free(hnm_run);
  return 0;
}
