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
#include "hnm_msg.h"
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
  char *spec = cmp_xstrdup(simclock ? "" : metric + 4);
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
    if (match && cmp_parse_double(fields[vcol], &v) == 0) {
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

/* A finished run whose row waits: a model set's central run is written once
 * every run of its group is done, with the members' band. */
typedef struct {
  int held;
  int have;
  double value, wall;
  long rss;
  const char *status;
  int code;
} cmp_held;

/* An ok row already in the CSV, by key. */
typedef struct {
  char *key;
  const cmp_row *row;
} cmp_done;

static int order_done_key(const void *a, const void *b)
{
  return strcmp(((const cmp_done *)a)->key, ((const cmp_done *)b)->key);
}

/* Is old row R done? Any row with --no-retry, else an ok one; a model set's
 * central row only once it holds the band of all the set's members (its
 * members are then done too). */
static int row_done(const cmp_config *c, const cmp_row *r)
{
  if (c->no_retry)
    return 1;
  if (strcmp(r->f[CMP_COL_STATUS], "ok") != 0)
    return 0;
  if (strcmp(r->f[CMP_COL_MEMBER], "central") != 0)
    return 1;
  for (int m = 0; m < c->models.n; m++)
    if (c->sets[m] != NULL && strcmp(c->models.v[m], r->f[CMP_COL_MODEL]) == 0)
      return atol(r->f[CMP_COL_MEMBERS]) == (long)c->sets[m]->nmembers;
  return 1;
}

/* The band of the members of GROUP (runs[group] is its central run): 0 and
 * *band when every member has a value, else -1. */
static int group_band(const cmp_config *c, const cmp_run *runs, long group, const double *val, cmp_band *band)
{
  size_t n = c->sets[runs[group].model]->nmembers;
  double *v = cmp_xmalloc(n * sizeof *v);
  for (size_t k = 0; k < n; k++) {
    v[k] = val[group + 1 + (long)k];
    if (isnan(v[k])) {
      free(v);
      return -1;
    }
  }
  band->lo = hnm_quantile(v, n, 0.05);
  band->hi = hnm_quantile(v, n, 0.95);
  band->members = (long)n;
  free(v);
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

static void progress(long done, long total, long bad, double t0)
{
  double el = cmp_now_s() - t0;
  char e[32], r[32] = "?";
  fmt_dur(e, sizeof e, el);
  if (done > 0)
    fmt_dur(r, sizeof r, el / (double)done * (double)(total - done));
  hnm_msg_progress("%ld/%ld runs done (%ld not ok), %s elapsed, ~%s remaining", done, total, bad, e, r);
}

/* Before anything runs: let hnm-run validate (--dry-run) one run per
 * platform (its largest -np), so that a platform, hostfile or --sim-opt it refuses stops the
 * sweep with its one-line message instead of failing every run. */
static void sv_release(cmp_strvec *s)
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
    cmp_strvec v = {0};
    cmp_run_argv(c, r, &v);
    cmp_strvec dry = {0};
    cmp_sv_push(&dry, v.v[0]);
    cmp_sv_push(&dry, "--dry-run");
    for (int j = 1; j < v.n; j++)
      cmp_sv_push(&dry, v.v[j]);
    sv_release(&v);
    char errf[] = "/tmp/hnm-compare-XXXXXX";
    int fd = mkstemp(errf);
    if (fd < 0)
      return hnm_msg_error("cannot create a temporary file: %s", strerror(errno));
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
      return hnm_msg_error("cannot run '%s': %s", c->hnm_run, strerror(errno));
    }
    sv_release(&dry);
    char msg[1024] = "";
    ssize_t n = pread(fd, msg, sizeof msg - 1, 0);
    msg[n > 0 ? n : 0] = '\0';
    msg[strcspn(msg, "\n")] = '\0';
    close(fd);
    unlink(errf);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
      return hnm_msg_error("platform %s: %s", c->plats[p].label,
                      *msg ? msg : "hnm-run --dry-run failed");
  }
  return 0;
}

int cmp_cmd_run(int argc, char **argv)
{
  /* The grid lives until the process exits (static: whatever the path). */
  static cmp_config c;
  int rc = cmp_parse_run(argc, argv, 2, &c, NULL);
  if (rc != 0)
    return rc < 0 ? 0 : rc;
  static cmp_run *runs;
  long nruns = cmp_enumerate(&c, &runs);

  /* Resume: the keys that already have an ok row. */
  static cmp_rowvec old;
  int no_eol = 0;
  /* One run of hnm-compare per CSV at a time: a second would run every
   * missing point again beside the first (cmp_store_lock()). */
  if (!c.dry_run && cmp_store_lock(c.out, -1) != 0)
    return 2;
  if ((rc = cmp_store_read_existing(c.out, &old, &no_eol)) != 0)
    return rc;
  static cmp_done *done;
  done = cmp_xmalloc((size_t)(old.n + 1) * sizeof *done);
  long ndone = 0;
  for (long k = 0; k < old.n; k++)
    if (row_done(&c, &old.v[k]))
      done[ndone++] = (cmp_done){cmp_row_key(&old.v[k]), &old.v[k]};
  qsort(done, (size_t)ndone, sizeof *done, order_done_key);

  /* A model set's runs: the members' values (old ok rows, then this run's),
   * how many runs of each group are still to do, the held central rows. */
  static double *val;
  static long *pending;
  static cmp_held *held;
  val = cmp_xmalloc((size_t)(nruns + 1) * sizeof *val);
  pending = calloc((size_t)nruns + 1, sizeof *pending);
  held = calloc((size_t)nruns + 1, sizeof *held);
  if (pending == NULL || held == NULL)
    return hnm_msg_error("out of memory");
  static long *todo;
  todo = cmp_xmalloc((size_t)(nruns + 1) * sizeof *todo);
  long ntodo = 0, mine = 0;
  for (long k = 0; k < nruns; k++) {
    val[k] = NAN;
    /* A set's runs go with their central run's task: its band needs them all. */
    if (runs[k].group % c.tasks != c.task)
      continue;
    mine++;
    cmp_done probe = {runs[k].key, NULL};
    const cmp_done *d = bsearch(&probe, done, (size_t)ndone, sizeof *done, order_done_key);
    if (d == NULL) {
      todo[ntodo++] = k;
      if (runs[k].member >= 0)
        pending[runs[k].group]++;
    } else if (runs[k].member > 0 && strcmp(d->row->f[CMP_COL_STATUS], "ok") == 0) {
      cmp_parse_double(d->row->f[CMP_COL_TIME], &val[k]);
    }
  }

  if (c.dry_run) {
    printf("# %ld runs in the grid, %ld in this task, %ld already ok, %ld to run\n", nruns, mine, mine - ntodo,
           ntodo);
    for (long k = 0; k < ntodo; k++) {
      cmp_strvec v = {0};
      cmp_run_argv(&c, &runs[todo[k]], &v);
      printf("%ld:", runs[todo[k]].index);
      for (int j = 0; j < v.n; j++) {
        fputc(' ', stdout);
        cmp_put_shell(stdout, v.v[j]);
      }
      fputc('\n', stdout);
    }
    return 0;
  }

  /* Validated before anything is created. */
  if (ntodo > 0 && (rc = validate_with_hnm_run(&c, runs, nruns)) != 0)
    return rc;
  char merr[256];
  if (hnm_out_mkdirs(c.log_dir, merr, sizeof merr) != 0)
    return hnm_msg_error("--log-dir: '%s': cannot create: %s", c.log_dir, merr);
  /* The CSV's layout: the one it has, or the wide one for a grid with a
   * model set; a narrow CSV is not widened in place. */
  struct stat ost;
  int fresh = stat(c.out, &ost) != 0 || !S_ISREG(ost.st_mode) || ost.st_size == 0;
  int wide = fresh ? c.has_sets : old.wide;
  if (c.has_sets && !wide)
    return hnm_msg_error("-o: '%s' has the columns of a CSV without model sets (" CMP_HEADER "); a model set's runs need "
                    "4 more: write them to another file, or convert it with hnm-compare merge -o NEW.csv %s",
                    c.out, c.out);
  FILE *csv = cmp_store_open_append(c.out, no_eol, wide);
  if (csv == NULL)
    return 2;
  if (cmp_store_lock(c.out, fileno(csv)) != 0) {
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
  cmp_slot *slots = cmp_xmalloc((size_t)c.workers * sizeof *slots);
  long next = 0, active = 0, finished = 0, bad = 0;
  int write_failed = 0;
  double t0 = cmp_now_s(), last_progress = 0;
  if (show)
    progress(0, ntodo, 0, t0);
  while ((next < ntodo || active > 0) && !interrupted) {
    while (active < c.workers && next < ntodo) {
      const cmp_run *r = &runs[todo[next]];
      cmp_strvec v = {0};
      cmp_run_argv(&c, r, &v);
      size_t n = strlen(c.log_dir) + 40;
      char *outf = cmp_xmalloc(n), *errf = cmp_xmalloc(n);
      snprintf(outf, n, "%s/%ld.out", c.log_dir, r->index);
      snprintf(errf, n, "%s/%ld.err", c.log_dir, r->index);
      fflush(NULL);
      pid_t pid = fork();
      if (pid < 0)
        return hnm_msg_error("cannot fork: %s", strerror(errno));
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
        hnm_msg_error("cannot execute '%s': %s", v.v[0], strerror(errno));
        _exit(127);
      }
      setpgid(pid, pid);
      cmp_watch_add(pid);
      for (long s = 0; s < c.workers; s++)
        if (slots[s].pid == 0) {
          slots[s] = (cmp_slot){pid, todo[next], cmp_now_s(), 0, 0};
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
    double t = cmp_now_s();
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
          char *outf = cmp_xmalloc(n), *errf = cmp_xmalloc(n);
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
        int wrc = 0;
        if (r->member == 0) {
          held[r->index] = (cmp_held){1, have, value, wall, ru.ru_maxrss, status, code};
        } else {
          wrc = cmp_write_row(csv, &c, r, have, value, wall, ru.ru_maxrss, status, code, wide, NULL);
          if (r->member > 0 && have && strcmp(status, "ok") == 0)
            val[r->index] = value;
        }
        /* The last run of a set's group: its central row, with the band. */
        if (r->member >= 0 && --pending[r->group] == 0 && held[r->group].held) {
          const cmp_held *h = &held[r->group];
          cmp_band band;
          int banded = group_band(&c, runs, r->group, val, &band) == 0;
          wrc |= cmp_write_row(csv, &c, &runs[r->group], h->have, h->value, h->wall, h->rss, h->status, h->code, wide,
                           banded ? &band : NULL);
        }
        if (wrc != 0 && !write_failed) {
          write_failed = 1;
          hnm_msg_error("-o: '%s': write error: %s (the sweep goes on; rows are lost)", c.out, strerror(errno));
        }
        finished++;
        if (strcmp(status, "ok") != 0) {
          bad++;
          char member[48] = "";
          if (r->member >= 0)
            snprintf(member, sizeof member, " %s", c.sets[r->model]->files[r->member]);
          hnm_msg_error("run %ld (model %s%s, platform %s, np %ld, args '%s'): %s (%d); see %s/%ld.err", r->index,
                        cmp_run_model(&c, r), member, cmp_run_platform(&c, r), r->np, c.args.v[r->argset], status, code,
                        c.log_dir, r->index);
        }
        slots[s].pid = 0;
        active--;
        if (show)
          progress(finished, ntodo, bad, t0);
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
      progress(finished, ntodo, bad, t0);
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
    hnm_msg_info("interrupted; %ld runs recorded in %s, re-run to resume", finished, c.out);
    return 128 + interrupted;
  }
  hnm_msg_progress_end();
  if (fclose(csv) != 0 && !write_failed) {
    write_failed = 1;
    hnm_msg_error("-o: '%s': write error: %s", c.out, strerror(errno));
  }
  return bad > 0 || write_failed ? 1 : 0;
}
