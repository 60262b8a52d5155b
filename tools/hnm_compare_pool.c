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
#include "hnm_error.h"
#include "hnm_msg.h"
#include "hnm_opt.h"
#include "hnm_out.h"
#include "hnm_csv.h"
#include "hnm_proc.h"
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

static int validate_with_hnm_run(const cmp_config *c, const cmp_run *runs, long nruns, char *err, size_t errlen)
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
    if (fd < 0) {
      hnm_errf(err, errlen, "cannot create a temporary file: %s", strerror(errno));
      return HNM_EXIT_FAILURE;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
      /* The check dies with hnm-compare (hnm_proc.h). */
      hnm_proc_child_setup(parent, SIGKILL);
      dup2(fd, 2);
      int nul = open("/dev/null", O_WRONLY);
      if (nul >= 0)
        dup2(nul, 1);
      execvp(dry.v[0], dry.v);
      _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0) {
      hnm_errf(err, errlen, "cannot run '%s': %s", c->hnm_run, strerror(errno));
      close(fd);
      unlink(errf);
      return HNM_EXIT_FAILURE;
    }
    sv_release(&dry);
    char msg[1024] = "";
    ssize_t n = pread(fd, msg, sizeof msg - 1, 0);
    msg[n > 0 ? n : 0] = '\0';
    msg[strcspn(msg, "\n")] = '\0';
    close(fd);
    unlink(errf);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      hnm_errf(err, errlen, "platform %s: %s", c->plats[p].label, *msg ? msg : "hnm-run --dry-run failed");
      return HNM_EXIT_USAGE;
    }
  }
  return 0;
}

/* The state of one sweep (static in cmp_cmd_run(): it lives until exit,
 * whatever the path). */
typedef struct {
  cmp_config c;
  cmp_run *runs;
  long nruns;
  cmp_rowvec old; /* the rows already in -o */
  int no_eol;
  cmp_done *done;
  long ndone;
  /* A model set's runs: the members' values (old ok rows, then this run's),
   * how many runs of each group are still to do, the held central rows. */
  double *val;
  long *pending;
  cmp_held *held;
  long *todo, ntodo, mine;
  FILE *csv;
  int wide;
  cmp_slot *slots;
  long next, active, finished, bad;
  int write_failed, tty, show;
  double t0, last_progress;
} pool__sweep;

/* Resume: the keys that already have an ok row; the runs of this task
 * still to do. */
static void pool__plan(pool__sweep *w)
{
  const cmp_config *c = &w->c;
  w->done = cmp_xmalloc((size_t)(w->old.n + 1) * sizeof *w->done);
  for (long k = 0; k < w->old.n; k++)
    if (row_done(c, &w->old.v[k]))
      w->done[w->ndone++] = (cmp_done){cmp_row_key(&w->old.v[k]), &w->old.v[k]};
  qsort(w->done, (size_t)w->ndone, sizeof *w->done, order_done_key);
  w->val = cmp_xmalloc((size_t)(w->nruns + 1) * sizeof *w->val);
  w->pending = cmp_xmalloc((size_t)(w->nruns + 1) * sizeof *w->pending);
  w->held = cmp_xmalloc((size_t)(w->nruns + 1) * sizeof *w->held);
  w->todo = cmp_xmalloc((size_t)(w->nruns + 1) * sizeof *w->todo);
  for (long k = 0; k < w->nruns; k++) {
    const cmp_run *r = &w->runs[k];
    w->val[k] = NAN;
    /* A set's runs go with their central run's task: its band needs them all. */
    if (r->group % c->tasks != c->task)
      continue;
    w->mine++;
    cmp_done probe = {r->key, NULL};
    const cmp_done *d = bsearch(&probe, w->done, (size_t)w->ndone, sizeof *w->done, order_done_key);
    if (d == NULL) {
      w->todo[w->ntodo++] = k;
      if (r->member >= 0)
        w->pending[r->group]++;
    } else if (r->member > 0 && strcmp(d->row->f[CMP_COL_STATUS], "ok") == 0) {
      cmp_parse_double(d->row->f[CMP_COL_TIME], &w->val[k]);
    }
  }
}

/* --dry-run: the runs to do, in shell syntax. */
static void pool__dry_run(const pool__sweep *w)
{
  printf("# %ld runs in the grid, %ld in this task, %ld already ok, %ld to run\n", w->nruns, w->mine,
         w->mine - w->ntodo, w->ntodo);
  for (long k = 0; k < w->ntodo; k++) {
    cmp_strvec v = {0};
    cmp_run_argv(&w->c, &w->runs[w->todo[k]], &v);
    printf("%ld:", w->runs[w->todo[k]].index);
    for (int j = 0; j < v.n; j++) {
      fputc(' ', stdout);
      cmp_put_shell(stdout, v.v[j]);
    }
    fputc('\n', stdout);
    sv_release(&v);
  }
}

/* -o: none of the inputs, and a file the sweep can append to, lock and
 * read back: a FIFO (or socket) would block it for ever. A device is
 * written through (/dev/stdout). 0, or -1 with err. */
static int pool__check_csv(const char *out, char *err, size_t errlen)
{
  struct stat st;
  if (stat(out, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
    return hnm_out_regular(out, "-o", err, errlen);
  if (hnm_out_check(out, "-o", err, errlen) != 0)
    return -1;
  if (stat(out, &st) == 0 && access(out, W_OK) != 0)
    return hnm_fail(err, errlen, "-o: '%s': cannot append: %s", out, strerror(errno));
  return 0;
}

/* --log-dir, before it is made: none of the inputs, and a directory that
 * exists or whose nearest existing parent is a directory we may write in.
 * *TOP: the outermost directory that mkdir -p will create (allocated; NULL
 * when LOG_DIR exists). 0, or -1 with err. */
static int pool__check_log_dir(const char *log_dir, char **top, char *err, size_t errlen)
{
  struct stat st;
  *top = NULL;
  if (hnm_out_not_input(log_dir, "--log-dir", err, errlen) != 0)
    return -1;
  if (*log_dir == '\0')
    return hnm_fail(err, errlen, "--log-dir: '': cannot create: empty name");
  char *p = cmp_xstrdup(log_dir);
  size_t l = strlen(p);
  while (l > 1 && p[l - 1] == '/')
    p[--l] = '\0';
  const char *reason = NULL;
  while (reason == NULL && stat(p, &st) != 0) {
    if (errno != ENOENT)
      reason = strerror(errno);
    free(*top);
    *top = cmp_xstrdup(p);
    char *slash = strrchr(p, '/');
    if (slash == NULL)
      strcpy(p, ".");
    else
      slash[slash == p] = '\0';
  }
  if (reason == NULL && !S_ISDIR(st.st_mode))
    reason = strerror(ENOTDIR);
  else if (reason == NULL && access(p, W_OK | X_OK) != 0)
    reason = strerror(errno);
  free(p);
  if (reason == NULL)
    return 0;
  free(*top);
  *top = NULL;
  return hnm_fail(err, errlen, "--log-dir: '%s': cannot create: %s", log_dir, reason);
}

/* A refusal after mkdir -p LOG_DIR: the directories it made, from LOG_DIR
 * up to TOP, removed when still empty (nothing else is removed). */
static void pool__unmake_log_dir(const char *log_dir, const char *top)
{
  if (top == NULL)
    return;
  char *p = cmp_xstrdup(log_dir);
  while (rmdir(p) == 0 && strcmp(p, top) != 0) {
    char *slash = strrchr(p, '/');
    if (slash == NULL || slash == p)
      break;
    *slash = '\0';
  }
  free(p);
}

/* Every check of a run that creates nothing, --dry-run's too: hnm-run's
 * checks, the CSV's layout, -o and --log-dir. *TOP as pool__check_log_dir().
 * 0, or HNM_EXIT_USAGE / HNM_EXIT_FAILURE with err. */
static int pool__check(pool__sweep *w, char **top, char *err, size_t errlen)
{
  const cmp_config *c = &w->c;
  int rc;
  if (w->ntodo > 0 && (rc = validate_with_hnm_run(c, w->runs, w->nruns, err, errlen)) != 0)
    return rc;
  /* The CSV's layout: the one it has, or the wide one for a grid with a
   * model set; a narrow CSV is not widened in place. */
  struct stat ost;
  int fresh = stat(c->out, &ost) != 0 || !S_ISREG(ost.st_mode) || ost.st_size == 0;
  w->wide = fresh ? c->has_sets : w->old.wide;
  if (c->has_sets && !w->wide) {
    hnm_errf(err, errlen,
             "-o: '%s' has the columns of a CSV without model sets (" CMP_HEADER "); a model set's runs need "
             "4 more: write them to another file, or convert it with hnm-compare merge -o NEW.csv %s",
             c->out, c->out);
    return HNM_EXIT_USAGE;
  }
  if (pool__check_csv(c->out, err, errlen) != 0 || pool__check_log_dir(c->log_dir, top, err, errlen) != 0)
    return HNM_EXIT_USAGE;
  return 0;
}

/* Before anything runs: every check (pool__check()), then the log
 * directory made, the CSV opened (its header written) and locked; on a
 * refusal nothing is left behind. 0, or HNM_EXIT_USAGE / HNM_EXIT_FAILURE
 * with err. */
static int pool__prepare(pool__sweep *w, char *err, size_t errlen)
{
  const cmp_config *c = &w->c;
  char *top = NULL, merr[256];
  int rc = pool__check(w, &top, err, errlen);
  if (rc != 0)
    return rc;
  if (hnm_out_mkdirs(c->log_dir, merr, sizeof merr) != 0) {
    hnm_errf(err, errlen, "--log-dir: '%s': cannot create: %s", c->log_dir, merr);
    pool__unmake_log_dir(c->log_dir, top);
    free(top);
    return HNM_EXIT_USAGE;
  }
  if ((rc = cmp_store_open_append(c->out, w->no_eol, w->wide, &w->csv, err, errlen)) == 0 &&
      cmp_store_lock(c->out, fileno(w->csv), err, errlen) != 0) {
    fclose(w->csv);
    rc = HNM_EXIT_USAGE;
  }
  if (rc != 0)
    pool__unmake_log_dir(c->log_dir, top);
  free(top);
  return rc;
}

/* Start the next run to do in a free slot: 0, or HNM_EXIT_FAILURE with err
 * (fork). */
static int pool__start(pool__sweep *w, char *err, size_t errlen)
{
  const cmp_config *c = &w->c;
  const cmp_run *r = &w->runs[w->todo[w->next]];
  cmp_strvec v = {0};
  cmp_run_argv(c, r, &v);
  size_t n = strlen(c->log_dir) + 40;
  char *outf = cmp_xmalloc(n), *errf = cmp_xmalloc(n);
  snprintf(outf, n, "%s/%ld.out", c->log_dir, r->index);
  snprintf(errf, n, "%s/%ld.err", c->log_dir, r->index);
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    hnm_errf(err, errlen, "cannot fork: %s", strerror(errno));
    return HNM_EXIT_FAILURE;
  }
  if (pid == 0) {
    setpgid(0, 0);
    cmp_watch_child(parent);
    FILE *o = freopen(outf, "w", stdout), *e = freopen(errf, "w", stderr);
    if (o == NULL || e == NULL)
      _exit(126);
    FILE *nul = freopen("/dev/null", "r", stdin);
    (void)nul;
    execvp(v.v[0], v.v);
    /* The run's own error, into its log (this child is the run, not the tool). */
    hnm_msg_print(NULL, HNM_MSG_ERROR, "cannot execute '%s': %s", v.v[0], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  cmp_watch_add(pid);
  for (long s = 0; s < c->workers; s++)
    if (w->slots[s].pid == 0) {
      w->slots[s] = (cmp_slot){pid, w->todo[w->next], cmp_now_s(), 0, 0};
      break;
    }
  w->active++;
  w->next++;
  sv_release(&v);
  free(outf);
  free(errf);
  return 0;
}

/* The metric of ok run R (auto: the program's csv:time_s if it prints one,
 * else the simulated clock; mpirun: the wall time): 1 and *value, or 0. */
static int pool__metric(const cmp_config *c, const cmp_run *r, double wall, double *value)
{
  size_t n = strlen(c->log_dir) + 40;
  char *outf = cmp_xmalloc(n), *errf = cmp_xmalloc(n);
  snprintf(outf, n, "%s/%ld.out", c->log_dir, r->index);
  snprintf(errf, n, "%s/%ld.err", c->log_dir, r->index);
  int have = 0;
  int is_auto = strcmp(c->metric, "auto") == 0;
  if (is_auto)
    have = extract_metric("csv:time_s", outf, errf, value) == 0;
  if (!have && r->model < 0 && (is_auto || strcmp(c->metric, "simclock") == 0)) {
    *value = wall;
    have = 1;
  } else if (!have) {
    have = extract_metric(is_auto ? "simclock" : c->metric, outf, errf, value) == 0;
  }
  free(outf);
  free(errf);
  return have;
}

/* Run SLOT ended with wait status ST at time T: its row (a model set's
 * central row is held until its group is done). *WFAIL: 1 when a row could
 * not be written, *WERRNO then its errno. Returns 0, or HNM_EXIT_FAILURE with err
 * when the run is not ok. */
static int pool__reap(pool__sweep *w, long slot, int st, const struct rusage *ru, double t, int *wfail, int *werrno,
                      char *err, size_t errlen)
{
  const cmp_config *c = &w->c;
  cmp_slot *sl = &w->slots[slot];
  pid_t p = sl->pid;
  const cmp_run *r = &w->runs[sl->run];
  double wall = t - sl->t0;
  int code = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
  const char *status = WIFEXITED(st) ? (code == 0 ? "ok" : "failed") : "signal";
  if (sl->killed)
    status = "timeout";
  /* The group may still hold stragglers (children of the leader). */
  kill(-p, SIGKILL);
  cmp_watch_del(p);
  double value = 0;
  int have = 0;
  if (strcmp(status, "ok") == 0 && !(have = pool__metric(c, r, wall, &value)))
    status = "nometric";
  int wrc = 0;
  if (r->member == 0) {
    w->held[r->index] = (cmp_held){1, have, value, wall, ru->ru_maxrss, status, code};
  } else {
    wrc = cmp_write_row(w->csv, c, r, have, value, wall, ru->ru_maxrss, status, code, w->wide, NULL);
    if (r->member > 0 && have && strcmp(status, "ok") == 0)
      w->val[r->index] = value;
  }
  /* The last run of a set's group: its central row, with the band. */
  if (r->member >= 0 && --w->pending[r->group] == 0 && w->held[r->group].held) {
    const cmp_held *h = &w->held[r->group];
    cmp_band band;
    int banded = group_band(c, w->runs, r->group, w->val, &band) == 0;
    wrc |= cmp_write_row(w->csv, c, &w->runs[r->group], h->have, h->value, h->wall, h->rss, h->status, h->code,
                         w->wide, banded ? &band : NULL);
  }
  *wfail = wrc != 0;
  *werrno = errno;
  sl->pid = 0;
  w->active--;
  w->finished++;
  if (strcmp(status, "ok") == 0)
    return 0;
  char member[48] = "";
  if (r->member >= 0)
    snprintf(member, sizeof member, " %s", c->sets[r->model]->files[r->member]);
  hnm_errf(err, errlen, "run %ld (model %s%s, platform %s, np %ld, args '%s'): %s (%d); see %s/%ld.err", r->index,
           cmp_run_model(c, r), member, cmp_run_platform(c, r), r->np, c->args.v[r->argset], status, code, c->log_dir,
           r->index);
  return HNM_EXIT_FAILURE;
}

/* The timeouts: SIGTERM to a run's group past --timeout, SIGKILL 2 s later. */
static void pool__timeouts(pool__sweep *w, double t)
{
  for (long s = 0; s < w->c.workers; s++) {
    cmp_slot *sl = &w->slots[s];
    if (sl->pid == 0 || w->c.timeout <= 0)
      continue;
    if (!sl->killed && t - sl->t0 > w->c.timeout) {
      kill(-sl->pid, SIGTERM);
      sl->killed = 1;
      sl->kill_t = t;
    } else if (sl->killed == 1 && t - sl->kill_t > 2) {
      kill(-sl->pid, SIGKILL);
      sl->killed = 2;
    }
  }
}

/* Interrupted: the runs killed, the CSV closed (its rows are flushed). */
static void pool__stop(pool__sweep *w)
{
  for (long s = 0; s < w->c.workers; s++)
    if (w->slots[s].pid != 0) {
      kill(-w->slots[s].pid, SIGKILL);
      waitpid(w->slots[s].pid, NULL, 0);
    }
  fclose(w->csv);
}

int cmp_cmd_run(int argc, char **argv)
{
  /* The sweep lives until the process exits (static: whatever the path). */
  static pool__sweep w;
  const cmp_config *c = &w.c;
  char err[HNM_ERRLEN];
  int rc = cmp_parse_run(argc, argv, 2, &w.c, NULL, err, sizeof err);
  if (rc != 0)
    return rc == HNM_OPT_DONE ? HNM_EXIT_OK : rc == HNM_EXIT_FAILURE ? hnm_msg_failure("%s", err) : hnm_msg_error("%s", err);
  /* -o is none of the inputs and no FIFO: checked before it is read. */
  if (pool__check_csv(c->out, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  w.nruns = cmp_enumerate(c, &w.runs);
  /* One run of hnm-compare per CSV at a time: a second would run every
   * missing point again beside the first (cmp_store_lock()). */
  if (!c->dry_run && cmp_store_lock(c->out, -1, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  if (cmp_store_read_existing(c->out, &w.old, &w.no_eol, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  pool__plan(&w);
  if (c->dry_run) {
    /* What a run would refuse, refused; nothing created. */
    char *top = NULL;
    if ((rc = pool__check(&w, &top, err, sizeof err)) != 0)
      return rc == HNM_EXIT_USAGE ? hnm_msg_error("%s", err) : hnm_msg_failure("%s", err);
    free(top);
    pool__dry_run(&w);
    return 0;
  }
  if ((rc = pool__prepare(&w, err, sizeof err)) != 0)
    return rc == HNM_EXIT_USAGE ? hnm_msg_error("%s", err) : hnm_msg_failure("%s", err);
  /* Runs die with hnm-compare, even on SIGKILL (hnm_compare_watch.h). */
  cmp_watch_start();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);

  w.tty = isatty(2);
  w.show = w.tty || c->progress;
  w.slots = cmp_xmalloc((size_t)c->workers * sizeof *w.slots);
  w.t0 = cmp_now_s();
  if (w.show)
    progress(0, w.ntodo, 0, w.t0);
  while ((w.next < w.ntodo || w.active > 0) && !interrupted) {
    while (w.active < c->workers && w.next < w.ntodo)
      if (pool__start(&w, err, sizeof err) != 0)
        return hnm_msg_failure("%s", err);
    int st, wfail, werrno;
    struct rusage ru;
    pid_t p = wait4(-1, &st, WNOHANG, &ru);
    double t = cmp_now_s();
    if (p > 0) {
      long s = 0;
      while (s < c->workers && w.slots[s].pid != p)
        s++;
      if (s == c->workers)
        continue;
      int not_ok = pool__reap(&w, s, st, &ru, t, &wfail, &werrno, err, sizeof err) != 0;
      if (wfail && !w.write_failed) {
        w.write_failed = 1;
        hnm_msg_failure("-o: '%s': write error: %s (the sweep goes on; rows are lost)", c->out, strerror(werrno));
      }
      if (not_ok) {
        w.bad++;
        hnm_msg_failure("%s", err);
      }
      if (w.show)
        progress(w.finished, w.ntodo, w.bad, w.t0);
      w.last_progress = t;
      continue;
    }
    pool__timeouts(&w, t);
    if (w.show && w.tty && t - w.last_progress >= 1) {
      progress(w.finished, w.ntodo, w.bad, w.t0);
      w.last_progress = t;
    }
    struct timespec nap = {0, 20000000};
    nanosleep(&nap, NULL);
  }
  if (interrupted) {
    pool__stop(&w);
    hnm_msg_info("interrupted; %ld runs recorded in %s, re-run to resume", w.finished, c->out);
    return 128 + interrupted;
  }
  hnm_msg_progress_end();
  if (fclose(w.csv) != 0 && !w.write_failed) {
    w.write_failed = 1;
    hnm_msg_failure("-o: '%s': write error: %s", c->out, strerror(errno));
  }
  return w.bad > 0 || w.write_failed ? 1 : 0;
}
