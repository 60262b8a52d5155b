/* hnm-compare slurm --submit / --attach: submit the array tasks that have
 * runs without an ok row, watch the job, merge the per-task CSVs into -o.
 *
 * Slurm is asked through its commands (sbatch --parsable, squeue, scontrol,
 * scancel, sacct), each run without a shell. The array elements' states come
 * from `squeue --states=all -r` (a finished job stays listed for Slurm's
 * MinJobAge, 300 s by default), their exit codes from `scontrol show job`;
 * when squeue no longer knows the job, from sacct where accounting works. A
 * task's CSV rows are the runs' truth: a task Slurm reports COMPLETED that
 * left runs without an ok row still leaves those runs missing. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "hnm_compare_sjob.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "hnm_error.h"
#include "hnm_msg.h"
#include "hnm_compare_store.h"
#include "hnm_compare_slurm.h"

/* ------------------------------------------------------------------------ */
/* Checks of the options, before anything is written or submitted           */

/* Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S. Seconds, or -1. */
long cmp_sjob_time_s(const char *s)
{
  long part[4];
  int n = 0, day = 0;
  const char *p = s;
  long d = 0;
  const char *dash = strchr(s, '-');
  if (dash != NULL) {
    if (dash == s)
      return -1;
    for (const char *q = s; q < dash; q++)
      if (!isdigit((unsigned char)*q) || q - s > 6)
        return -1;
    d = strtol(s, NULL, 10);
    day = 1;
    p = dash + 1;
  }
  for (;;) {
    if (n == 3 || !isdigit((unsigned char)*p))
      return -1;
    char *end;
    errno = 0;
    part[n] = strtol(p, &end, 10);
    if (errno != 0 || end - p > 7)
      return -1;
    n++;
    p = end;
    if (*p == '\0')
      break;
    if (*p != ':')
      return -1;
    p++;
  }
  if (day) /* D-H, D-H:M, D-H:M:S */
    return d * 86400 + part[0] * 3600 + (n > 1 ? part[1] * 60 : 0) + (n > 2 ? part[2] : 0);
  if (n == 1)
    return part[0] * 60;
  if (n == 2)
    return part[0] * 60 + part[1];
  return part[0] * 3600 + part[1] * 60 + part[2];
}

/* A Slurm name (partition, account): letters, digits, _ . - , only. */
static int sjob_name_ok(const char *s)
{
  if (*s == '\0' || strlen(s) > 200)
    return 0;
  for (const char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && strchr("_.-,", *p) == NULL)
      return 0;
  return 1;
}

int cmp_sjob_check(const cmp_slurm_opts *sl, char *err, size_t errlen)
{
  if (sl->partition != NULL && !sjob_name_ok(sl->partition))
    return hnm_fail(err, errlen, "--partition: '%s' is not a partition name (letters, digits, _ . - ,)", sl->partition);
  if (sl->account != NULL && !sjob_name_ok(sl->account))
    return hnm_fail(err, errlen, "--account: '%s' is not an account name (letters, digits, _ . - ,)", sl->account);
  if (sl->time != NULL) {
    long t = cmp_sjob_time_s(sl->time);
    if (t < 0)
      return hnm_fail(err, errlen, "--time: '%s' is not a Slurm time limit (M, M:S, H:M:S, D-H, D-H:M, D-H:M:S)", sl->time);
    if (t == 0)
      return hnm_fail(err, errlen, "--time: '%s' is zero", sl->time);
  }
  if (sl->mem != NULL) {
    const char *p = sl->mem;
    while (isdigit((unsigned char)*p))
      p++;
    int ok = p != sl->mem && p - sl->mem <= 12 && (*p == '\0' || (strchr("KMGTkmgt", *p) != NULL && p[1] == '\0'));
    if (!ok || strtol(sl->mem, NULL, 10) == 0)
      return hnm_fail(err, errlen, "--mem: '%s' is not a memory size (N[K|M|G|T], N > 0)", sl->mem);
  }
  if (sl->attach != NULL) {
    const char *p = sl->attach;
    while (isdigit((unsigned char)*p))
      p++;
    if (p == sl->attach || *p != '\0' || p - sl->attach > 12 || strtol(sl->attach, NULL, 10) == 0)
      return hnm_fail(err, errlen, "--attach: '%s' is not a Slurm job id (a positive whole number)", sl->attach);
    if (sl->submit)
      return hnm_fail(err, errlen, "--attach: watches a job submitted before; not with --submit");
    if (sl->no_wait)
      return hnm_fail(err, errlen, "--no-wait: goes with --submit, not --attach");
  }
  if (sl->no_wait && !sl->submit)
    return hnm_fail(err, errlen, "--no-wait: goes with --submit");
  if (sl->cancel_on_interrupt && !sl->submit && sl->attach == NULL)
    return hnm_fail(err, errlen, "--cancel-on-interrupt: goes with --submit or --attach");
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Slurm's commands                                                          */

/* Run ARGV (no shell) with its stdout and stderr captured into *OUT
 * (allocated, NUL-terminated). The exit status (0..255), 256 + signal, or
 * -1 with errno when it could not be started (ENOENT: not installed). */
static int sjob_capture(char *const argv[], char **out)
{
  int pfd[2], efd[2];
  *out = NULL;
  if (pipe(pfd) != 0)
    return -1;
  if (pipe(efd) != 0) {
    close(pfd[0]);
    close(pfd[1]);
    return -1;
  }
  fcntl(efd[1], F_SETFD, FD_CLOEXEC);
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(pfd[0]), close(pfd[1]), close(efd[0]), close(efd[1]);
    errno = e;
    return -1;
  }
  if (pid == 0) {
    signal(SIGINT, SIG_IGN); /* Ctrl-C is hnm-compare's to handle */
    dup2(pfd[1], 1);
    dup2(pfd[1], 2);
    close(pfd[0]);
    close(pfd[1]);
    close(efd[0]);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0)
      dup2(null, 0);
    execvp(argv[0], argv);
    int e = errno;
    (void)!write(efd[1], &e, sizeof e);
    _exit(127);
  }
  close(pfd[1]);
  close(efd[1]);
  size_t len = 0, cap = 4096;
  char *buf = cmp_xmalloc(cap);
  for (;;) {
    if (len + 1024 > cap)
      buf = cmp_xrealloc(buf, cap *= 2);
    ssize_t n = read(pfd[0], buf + len, cap - len - 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    len += (size_t)n;
  }
  buf[len] = '\0';
  close(pfd[0]);
  int e = 0;
  ssize_t en;
  while ((en = read(efd[0], &e, sizeof e)) < 0 && errno == EINTR)
    ;
  close(efd[0]);
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      free(buf);
      return -1;
    }
  if (en == (ssize_t)sizeof e) {
    free(buf);
    errno = e;
    return -1;
  }
  *out = buf;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 256 + WTERMSIG(st);
}

/* The first line of TEXT, for a message. */
static const char *sjob_line(char *text)
{
  if (text == NULL)
    return "";
  char *nl = strchr(text, '\n');
  if (nl != NULL)
    *nl = '\0';
  return text;
}

/* One array element as Slurm reports it. */
typedef struct {
  long task;
  char state[32];
  char exit[16]; /* "code:signal", or "" when unknown */
} sjob_elem;

static int sjob_terminal(const char *state)
{
  static const char *const live[] = {"PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED",
                                     "RESIZING", "SIGNALING", "STAGE_OUT", "REQUEUE_HOLD", "REQUEUE_FED",
                                     "RESV_DEL_HOLD", "STOPPED", "UNKNOWN", NULL};
  for (int i = 0; live[i] != NULL; i++)
    if (strcmp(state, live[i]) == 0)
      return 0;
  return 1;
}

static void sjob_set(sjob_elem *el, long ntasks, long task, const char *state, const char *exit)
{
  if (task < 0 || task >= ntasks)
    return;
  if (state != NULL) {
    snprintf(el[task].state, sizeof el[task].state, "%.31s", state);
    /* sacct writes "CANCELLED by 0". */
    char *sp = strchr(el[task].state, ' ');
    if (sp != NULL)
      *sp = '\0';
  }
  if (exit != NULL)
    snprintf(el[task].exit, sizeof el[task].exit, "%.15s", exit);
}

/* The states of job JOB's elements into EL (indexed by task; others left
 * as they are): 1 when squeue or sacct knows the job, 0 when neither does,
 * -1 when squeue cannot be run (err). */
static int sjob_poll(const char *job, sjob_elem *el, long ntasks, char *err, size_t errlen)
{
  char *out;
  char *sq[] = {"squeue", "--states=all", "-r", "-h", "-j", (char *)job, "-o", "%K %T", NULL};
  int st = sjob_capture(sq, &out);
  if (st < 0)
    return hnm_fail(err, errlen, "cannot run squeue: %s", strerror(errno));
  int known = 0;
  if (st == 0 && out[0] != '\0') {
    /* An element squeue no longer lists is gone (one cancelled while
     * pending leaves no record): its earlier state does not stand. */
    for (long t = 0; t < ntasks; t++)
      el[t].state[0] = '\0';
    char *save, *line;
    for (line = strtok_r(out, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
      char state[32];
      long t;
      if (sscanf(line, "%ld %31s", &t, state) == 2) {
        sjob_set(el, ntasks, t, state, NULL);
        known = 1;
      }
    }
  }
  free(out);
  if (known)
    return 1;
  /* Purged from the controller (or never known): accounting, if any. */
  char *sa[] = {"sacct", "-n", "-P", "-X", "-j", (char *)job, "-o", "JobID,State,ExitCode", NULL};
  st = sjob_capture(sa, &out);
  if (st == 0 && out != NULL) {
    char *save, *line;
    for (line = strtok_r(out, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
      char *us = strchr(line, '_'), *b1 = strchr(line, '|');
      char *b2 = b1 ? strchr(b1 + 1, '|') : NULL;
      if (us == NULL || b1 == NULL || b2 == NULL || us > b1 || !isdigit((unsigned char)us[1]))
        continue;
      *b1 = *b2 = '\0';
      sjob_set(el, ntasks, strtol(us + 1, NULL, 10), b1 + 1, b2 + 1);
      known = 1;
    }
  }
  free(out);
  return known;
}

/* Exit codes of the elements (scontrol show job: one line per element). */
static void sjob_exit_codes(const char *job, sjob_elem *el, long ntasks)
{
  char *out;
  char *sc[] = {"scontrol", "show", "job", "-o", (char *)job, NULL};
  if (sjob_capture(sc, &out) != 0) {
    free(out);
    return;
  }
  char *save, *line;
  for (line = strtok_r(out, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
    char *t = strstr(line, " ArrayTaskId="), *x = strstr(line, " ExitCode=");
    if (t == NULL || x == NULL || !isdigit((unsigned char)t[13]))
      continue;
    char *end;
    long task = strtol(t + 13, &end, 10);
    if (*end != ' ' && *end != '\0')
      continue; /* a range of pending elements */
    char code[16];
    if (sscanf(x + 10, "%15[0-9:]", code) == 1)
      sjob_set(el, ntasks, task, NULL, code);
  }
  free(out);
}

static int sjob_scancel(const char *job)
{
  char *out;
  char *sc[] = {"scancel", (char *)job, NULL};
  int st = sjob_capture(sc, &out);
  if (st != 0)
    hnm_msg_warn("scancel %s: %s", job, st < 0 ? strerror(errno) : sjob_line(out));
  free(out);
  return st;
}

/* ------------------------------------------------------------------------ */
/* The sweep's rows                                                          */

/* The per-task CSV of task T. */
static void sjob_task_csv(const char *stem, long t, char *buf, size_t len)
{
  snprintf(buf, len, "%s.task-%ld.csv", stem, t);
}

/* Data rows of FILE (lines after the header), 0 when it does not exist. */
static long sjob_count_rows(const char *file)
{
  FILE *f = fopen(file, "r");
  if (f == NULL)
    return 0;
  long n = 0;
  int ch;
  while ((ch = getc(f)) != EOF)
    n += ch == '\n';
  fclose(f);
  return n > 0 ? n - 1 : 0;
}

/* done[i] = 1 for the grid indices with an ok row of their own run in a
 * per-task CSV; wall[i] the largest wall_s recorded for run i (any status,
 * -1 when none). 0, or -1 with err (a CSV that cannot be read). */
static int sjob_done(const cmp_run *runs, long nruns, const char *stem, long ntasks, char *done, double *wall,
                     char *err, size_t errlen)
{
  memset(done, 0, (size_t)nruns);
  for (long i = 0; i < nruns; i++)
    wall[i] = -1;
  for (long t = 0; t < ntasks; t++) {
    char file[4200];
    sjob_task_csv(stem, t, file, sizeof file);
    /* The rows stay reachable until exit (read once or twice). */
    static cmp_rowvec rows;
    long from = rows.n;
    int no_eol = 0;
    if (cmp_read_rows_tail(file, 0, &rows, 1, &no_eol, err, errlen) != 0)
      return -1;
    for (long k = from; k < rows.n; k++) {
      cmp_row *r = &rows.v[k];
      long i;
      if (cmp_parse_long(r->f[CMP_COL_INDEX], 0, nruns - 1, &i) != 0)
        continue;
      char *key = cmp_row_key(r);
      int same = strcmp(key, runs[i].key) == 0;
      free(key);
      if (!same)
        continue;
      if (strcmp(r->f[CMP_COL_STATUS], "ok") == 0)
        done[i] = 1;
      double w;
      if (cmp_parse_double(r->f[CMP_COL_WALL], &w) == 0 && w > wall[i])
        wall[i] = w;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Watching                                                                  */

static volatile sig_atomic_t sjob_interrupted;

static void sjob_on_sigint(int sig)
{
  (void)sig;
  sjob_interrupted = 1;
}

/* Ask on the terminal whether to cancel JOB: 1 yes, 0 no. */
static int sjob_ask_cancel(const char *job)
{
  hnm_msg_progress_end();
  fputs(hnm_msg_prog(), stderr); /* a question, not a message: no newline */
  fputs(": interrupted: cancel job ", stderr);
  fputs(job, stderr);
  fputs(" (scancel)? [y/N] ", stderr);
  fflush(stderr);
  char line[64];
  sjob_interrupted = 0;
  if (fgets(line, sizeof line, stdin) == NULL)
    return 0;
  return line[0] == 'y' || line[0] == 'Y';
}

static void sjob_sleep(double s)
{
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  nanosleep(&ts, NULL); /* SIGINT cuts it short */
}

/* Merge the per-task CSVs that exist into OUT: merge's exit status. */
static int sjob_merge(const char *out, const char *stem, long ntasks)
{
  static cmp_strvec av;
  cmp_sv_push(&av, hnm_msg_prog());
  cmp_sv_push(&av, "merge");
  cmp_sv_push(&av, "-o");
  cmp_sv_push(&av, out);
  int n = 0;
  for (long t = 0; t < ntasks; t++) {
    char file[4200];
    sjob_task_csv(stem, t, file, sizeof file);
    if (access(file, F_OK) == 0) {
      cmp_sv_push(&av, file);
      n++;
    }
  }
  if (n == 0) {
    hnm_msg_note("no task wrote a CSV: nothing merged into %s", out);
    return 0;
  }
  cmp_sv_push(&av, NULL);
  av.n--;
  return cmp_cmd_merge(av.n, av.v);
}

/* Grid indices in IDX (count N) as "0 3 5-9", truncated past 40 ranges. */
static void sjob_put_ranges(FILE *f, const long *idx, long n)
{
  long ranges = 0;
  for (long k = 0; k < n;) {
    long j = k;
    while (j + 1 < n && idx[j + 1] == idx[j] + 1)
      j++;
    if (++ranges > 40) {
      fprintf(f, " ...");
      break;
    }
    if (j == k)
      fprintf(f, " %ld", idx[k]);
    else
      fprintf(f, " %ld-%ld", idx[k], idx[j]);
    k = j + 1;
  }
}

/* Name the tasks of JOB that ended other than COMPLETED (with VANISHED,
 * also those submitted that squeue no longer lists): their number. */
static long sjob_failed_tasks(const sjob_elem *el, const char *in_job, long nt, const char *job, const char *stem,
                              int vanished)
{
  long nfail = 0;
  for (long t = 0; t < nt; t++) {
    if (in_job[t] && el[t].state[0] == '\0' && vanished) {
      /* Submitted, then gone from the queue with no record: an element
       * cancelled while pending leaves none (nor in squeue --states=all). */
      nfail++;
      hnm_msg_print(NULL, HNM_MSG_NOTE, "task %ld (job %s_%ld): CANCELLED while pending (no longer in Slurm's queue), log %s.task-%ld.log",
                    t, job, t, stem, t);
      continue;
    }
    if (!in_job[t] || el[t].state[0] == '\0' || strcmp(el[t].state, "COMPLETED") == 0 || !sjob_terminal(el[t].state))
      continue;
    nfail++;
    hnm_msg_print(NULL, HNM_MSG_NOTE, "task %ld (job %s_%ld): %s, exit code %s, log %s.task-%ld.log", t, job, t,
                  el[t].state, el[t].exit[0] ? el[t].exit : "unknown", stem, t);
  }
  return nfail;
}

/* Watch JOB (its elements: the tasks with in_job[t], and those squeue
 * lists), then merge and summarize. The exit status of the command. */
static int sjob_watch(const cmp_config *c, const cmp_slurm_opts *sl, const cmp_run *runs, long nruns,
                      const char *stem, const char *job, char *in_job, int attach, char *err, size_t errlen)
{
  long nt = c->tasks;
  sjob_elem *el = cmp_xmalloc((size_t)nt * sizeof *el);
  for (long t = 0; t < nt; t++) {
    el[t].task = t;
    el[t].state[0] = el[t].exit[0] = '\0';
  }
  struct sigaction sa = {0}, old_int;
  sa.sa_handler = sjob_on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  int first = 1, gone = 0, interrupted = 0;
  char last[256] = "";
  for (;;) {
    int k = sjob_poll(job, el, nt, err, errlen);
    if (k < 0) {
      sigaction(SIGINT, &old_int, NULL);
      return HNM_EXIT_FAILURE;
    }
    if (k == 0 && first && attach) {
      sigaction(SIGINT, &old_int, NULL);
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--attach: Slurm knows no job %s (squeue and sacct)", job);
    }
    first = 0;
    if (k == 0) {
      gone = 1; /* purged, and no accounting: the CSVs tell the rest */
      break;
    }
    long pend = 0, run = 0, ok = 0, bad = 0, rows = 0;
    int all_ended = 1;
    for (long t = 0; t < nt; t++) {
      char file[4200];
      sjob_task_csv(stem, t, file, sizeof file);
      rows += sjob_count_rows(file);
      if (el[t].state[0] == '\0')
        continue;
      in_job[t] = 1;
      if (!sjob_terminal(el[t].state))
        all_ended = 0;
      if (strcmp(el[t].state, "PENDING") == 0)
        pend++;
      else if (!sjob_terminal(el[t].state))
        run++;
      else if (strcmp(el[t].state, "COMPLETED") == 0)
        ok++;
      else
        bad++;
    }
    char line[256];
    snprintf(line, sizeof line, "job %s: %ld pending, %ld running, %ld done, %ld failed; %ld of %ld rows written", job,
             pend, run, ok, bad, rows, nruns);
    if (strcmp(line, last) != 0) {
      hnm_msg_progress("%s", line);
      snprintf(last, sizeof last, "%s", line);
    }
    if (all_ended)
      break;
    if (sjob_interrupted) {
      sjob_interrupted = 0;
      interrupted = 1;
      int cancel = sl->cancel_on_interrupt || (isatty(0) && isatty(2) && sjob_ask_cancel(job));
      if (!cancel) {
        hnm_msg_progress_end();
        hnm_msg_note("job %s left running; watch it again with the same command and --attach %s instead of --submit",
                     job, job);
        break;
      }
      sjob_scancel(job); /* then watched until Slurm has ended every element */
    }
    sjob_sleep(sl->poll);
  }
  sigaction(SIGINT, &old_int, NULL);
  hnm_msg_progress_end();
  if (!gone)
    sjob_exit_codes(job, el, nt);

  int mrc = sjob_merge(c->out, stem, nt);
  char *done = cmp_xmalloc((size_t)nruns);
  double *wall = cmp_xmalloc((size_t)nruns * sizeof *wall);
  if (sjob_done(runs, nruns, stem, nt, done, wall, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  long *miss = cmp_xmalloc((size_t)(nruns + 1) * sizeof *miss);
  long nmiss = 0;
  for (long i = 0; i < nruns; i++)
    if (!done[i])
      miss[nmiss++] = i;
  long nfail = sjob_failed_tasks(el, in_job, nt, job, stem, !gone && !interrupted);
  if (nmiss > 0) {
    hnm_msg_print(NULL, HNM_MSG_NOTE, "%ld of %ld runs have no ok row; re-run this command with --submit to resubmit their tasks",
                  nmiss, nruns);
    char *list = NULL;
    size_t listlen = 0;
    FILE *mf = open_memstream(&list, &listlen);
    if (mf != NULL) {
      sjob_put_ranges(mf, miss, nmiss);
      fclose(mf);
    }
    hnm_msg_print(NULL, HNM_MSG_NOTE, "missing grid indices:%s", list ? list : " (out of memory)");
    free(list);
  }
  hnm_msg_info("job %s: %ld failed tasks%s; %ld of %ld runs ok in %s", job, nfail, interrupted ? " (interrupted)" : "",
               nruns - nmiss, nruns, c->out);
  if (mrc != 0)
    return mrc;
  return nmiss > 0 || nfail > 0 || interrupted ? HNM_EXIT_FAILURE : HNM_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* Submitting                                                                */

int cmp_sjob_run(const cmp_config *c, const cmp_slurm_opts *sl, const cmp_run *runs, long nruns, const char *stem,
                 char *err, size_t errlen)
{
  err[0] = '\0';
  long nt = c->tasks;
  char *in_job = cmp_xmalloc((size_t)nt);
  memset(in_job, 1, (size_t)nt);
  if (sl->attach != NULL) { /* the job's elements: those squeue lists */
    memset(in_job, 0, (size_t)nt);
    return sjob_watch(c, sl, runs, nruns, stem, sl->attach, in_job, 1, err, errlen);
  }

  /* The tasks with a run that has no ok row yet. */
  char *done = cmp_xmalloc((size_t)nruns + 1);
  double *wall = cmp_xmalloc(((size_t)nruns + 1) * sizeof *wall);
  if (sjob_done(runs, nruns, stem, nt, done, wall, err, errlen) != 0)
    return HNM_EXIT_USAGE; /* a per-task CSV that is not hnm-compare's */
  memset(in_job, 0, (size_t)nt);
  long todo = 0, ntodo = 0;
  long worst = -1;
  for (long i = 0; i < nruns; i++) {
    if (done[i])
      continue;
    todo++;
    long t = runs[i].group % nt;
    ntodo += !in_job[t];
    in_job[t] = 1;
    if (wall[i] >= 0 && (worst < 0 || wall[i] > wall[worst]))
      worst = i;
  }
  if (todo == 0) {
    hnm_msg_info("all %ld runs have an ok row: nothing to submit", nruns);
    return sjob_merge(c->out, stem, nt);
  }
  if (sl->time != NULL && worst >= 0 && wall[worst] > (double)cmp_sjob_time_s(sl->time))
    hnm_msg_warn("--time %s (%ld s) is shorter than a recorded run of grid index %ld (%.1f s wall)", sl->time,
                 cmp_sjob_time_s(sl->time), worst, wall[worst]);

  /* --array=LIST[%N]: the tasks to run, as ranges. */
  size_t cap = (size_t)ntodo * 24 + 64, len = 0;
  char *arr = cmp_xmalloc(cap);
  len += (size_t)snprintf(arr, cap, "--array=");
  for (long t = 0; t < nt;) {
    if (!in_job[t]) {
      t++;
      continue;
    }
    long u = t;
    while (u + 1 < nt && in_job[u + 1])
      u++;
    len += (size_t)snprintf(arr + len, cap - len, len > 8 ? ",%ld" : "%ld", t);
    if (u > t)
      len += (size_t)snprintf(arr + len, cap - len, "-%ld", u);
    t = u + 1;
  }
  if (sl->throttle > 0)
    snprintf(arr + len, cap - len, "%%%ld", sl->throttle);
  char *sb[] = {"sbatch", "--parsable", arr, (char *)sl->script, NULL};
  char *out;
  int st = sjob_capture(sb, &out);
  if (st < 0) {
    if (errno == ENOENT)
      return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "--submit: sbatch is not installed (not on PATH); the script %s is written", sl->script);
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "--submit: cannot run sbatch: %s", strerror(errno));
  }
  if (st != 0) {
    int rc = hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "--submit: sbatch %s failed (exit status %d): %s", sl->script, st, sjob_line(out));
    free(out);
    return rc;
  }
  /* "JOBID" or "JOBID;CLUSTER". */
  char job[32];
  size_t k = 0;
  while (k < sizeof job - 1 && isdigit((unsigned char)out[k]))
    job[k] = out[k], k++;
  job[k] = '\0';
  if (k == 0) {
    int rc = hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "--submit: sbatch printed no job id: '%s'", sjob_line(out));
    free(out);
    return rc;
  }
  free(out);
  printf("%s\n", job);
  hnm_msg_flush_stdout();
  hnm_msg_info("job %s: %ld of %ld tasks submitted (%s), %ld runs to do", job, ntodo, nt, arr + 8, todo);
  if (sl->no_wait)
    return HNM_EXIT_OK;
  return sjob_watch(c, sl, runs, nruns, stem, job, in_job, 0, err, errlen);
}
