/* hnm-compare run: validation by hnm-run --dry-run, then a pool of child
 * process groups (--workers), each with a timeout, its exit status, peak
 * memory and metric, one CSV row per finished run. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "hnm_compare_watch.h"
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
#include "hnm_compare_pool.h"
#include "hnm_compare_watch.h"
#include "hnm_out.h"
#include "hnm_csv.h"
#include "hnm_compare_util.h"
#include "hnm_compare_grid.h"
#include "hnm_compare_store.h"

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
    hnm_csv_chomp(line);
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
    int n = hnm_csv_split(line, fields, 255);
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

/* Before anything runs: let hnm-run validate (--dry-run) one run per
 * platform (its largest -np), so that a platform, hostfile or --sim-opt it refuses stops the
 * sweep with its one-line message instead of failing every run. */
static void sv_release(strvec *s)
{
  for (int i = 0; i < s->n; i++)
    free(s->v[i]);
  free(s->v);
  memset(s, 0, sizeof *s);
}

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
    sv_release(&v);
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
      return cmp_fail("cannot run '%s': %s", c->hnm_run, strerror(errno));
    }
    sv_release(&dry);
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

int cmd_run(int argc, char **argv)
{
  /* The grid lives until the process exits (static: whatever the path). */
  static cmp_config c;
  int rc = parse_run(argc, argv, 2, &c, NULL);
  if (rc != 0)
    return rc < 0 ? 0 : rc;
  static cmp_run *runs;
  long nruns = enumerate(&c, &runs);

  /* Resume: the keys that already have an ok row. */
  static rowvec old;
  int no_eol = 0;
  /* One run of hnm-compare per CSV at a time: a second would run every
   * missing point again beside the first (store_lock()). */
  if (!c.dry_run && store_lock(c.out, -1) != 0)
    return 2;
  if ((rc = store_read_existing(c.out, &old, &no_eol)) != 0)
    return rc;
  static char **done;
  done = xmalloc((size_t)(old.n + 1) * sizeof *done);
  long ndone = 0;
  for (long k = 0; k < old.n; k++)
    if (c.no_retry || strcmp(old.v[k].f[C_STATUS], "ok") == 0)
      done[ndone++] = row_key(&old.v[k]);
  qsort(done, (size_t)ndone, sizeof *done, cmp_str);

  static long *todo;
  todo = xmalloc((size_t)(nruns + 1) * sizeof *todo);
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

  /* Validated before anything is created. */
  if (ntodo > 0 && (rc = validate_with_hnm_run(&c, runs, nruns)) != 0)
    return rc;
  if (hnm_out_mkdirs(c.log_dir) != 0)
    return cmp_fail("--log-dir: '%s': cannot create: %s", c.log_dir, strerror(errno));
  FILE *csv = store_open_append(c.out, no_eol);
  if (csv == NULL)
    return 2;
  if (store_lock(c.out, fileno(csv)) != 0) {
    fclose(csv);
    return 2;
  }
  /* Runs die with hnm-compare, even on SIGKILL (hnm_compare_watch.h). */
  cmp_watch_start();

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
  int write_failed = 0;
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
        cmp_watch_child();
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
      cmp_watch_add(pid);
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
        cmp_watch_del(p);
        double value = 0;
        int have = 0;
        if (strcmp(status, "ok") == 0) {
          size_t n = strlen(c.log_dir) + 40;
          char *outf = xmalloc(n), *errf = xmalloc(n);
          snprintf(outf, n, "%s/%ld.out", c.log_dir, r->index);
          snprintf(errf, n, "%s/%ld.err", c.log_dir, r->index);
          /* auto: the program's csv:time_s if it prints one, else the
           * simulated clock (mpirun: the wall time). */
          int is_auto = strcmp(c.metric, "auto") == 0;
          if (is_auto)
            have = extract_metric("csv:time_s", outf, errf, &value) == 0;
          if (!have && r->model < 0 && (is_auto || strcmp(c.metric, "simclock") == 0)) {
            value = wall;
            have = 1;
          } else if (!have) {
            have = extract_metric(is_auto ? "simclock" : c.metric, outf, errf, &value) == 0;
          }
          if (!have)
            status = "nometric";
          free(outf);
          free(errf);
        }
        if (write_row(csv, &c, r, have, value, wall, ru.ru_maxrss, status, code) != 0 && !write_failed) {
          write_failed = 1;
          fprintf(stderr, "%shnm-compare: -o: '%s': write error: %s (the sweep goes on; rows are lost)\n",
                  tty ? "\r\033[K" : "", c.out, strerror(errno));
        }
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
  if (fclose(csv) != 0 && !write_failed) {
    write_failed = 1;
    fprintf(stderr, "hnm-compare: -o: '%s': write error: %s\n", c.out, strerror(errno));
  }
  return bad > 0 || write_failed ? 1 : 0;
}
