/* hnm-compare slurm (array job script) and merge (per-task CSVs into one). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "hnm_model.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
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
#include "hnm_compare_slurm.h"
#include "hnm_opt.h"
#include "hnm_out.h"
#include "hnm_compare_util.h"
#include "hnm_msg.h"
#include "hnm_compare_grid.h"
#include "hnm_compare_store.h"
#include "hnm_compare_sjob.h"

/* ------------------------------------------------------------------------ */
/* slurm                                                                     */

/* The command's --submit and --attach (hnm_compare_sjob.c), once the
 * script is written (--submit): the exit status; prints the error. */
static int cmp_cmd_slurm_jobs(const cmp_config *c, const cmp_slurm_opts *sl, const cmp_run *runs, long nruns,
                              const char *stem)
{
  char err[HNM_ERRLEN];
  if (sl->attach == NULL)
    hnm_msg_info("%s: %ld runs in %ld array tasks; per-task CSVs %s.task-I.csv", sl->script, nruns, c->tasks, stem);
  int st = cmp_sjob_run(c, sl, runs, nruns, stem, err, sizeof err);
  if (st == HNM_EXIT_OK || err[0] == '\0')
    return st;
  return st == HNM_EXIT_USAGE ? hnm_msg_error("%s", err) : hnm_msg_failure("%s", err);
}

/* PATH with its directory resolved (the file itself need not exist), into
 * BUF: "DIR/BASE"; PATH itself when its directory does not resolve. */
static void slurm__place(const char *path, char *buf, size_t len)
{
  const char *slash = strrchr(path, '/');
  char dir[4096], real[PATH_MAX];
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
  if (realpath(dir, real) == NULL)
    snprintf(buf, len, "%s", path);
  else
    snprintf(buf, len, "%s/%s", real, slash ? slash + 1 : path);
}

/* Whether NAME is "BASE.task-I.csv" or "BASE.task-I.log" with I < TASKS:
 * I, else -1; *WHAT: "CSV" or "Slurm log". */
static long slurm__task_of(const char *name, const char *base, long tasks, const char **what)
{
  size_t bl = strlen(base);
  if (strncmp(name, base, bl) != 0 || strncmp(name + bl, ".task-", 6) != 0 || name[bl + 6] < '0' || name[bl + 6] > '9')
    return -1;
  char *end;
  errno = 0;
  long t = strtol(name + bl + 6, &end, 10);
  if (errno != 0 || t >= tasks || (strcmp(end, ".csv") != 0 && strcmp(end, ".log") != 0))
    return -1;
  *what = strcmp(end, ".csv") == 0 ? "CSV" : "Slurm log";
  return t;
}

/* The files the job writes when it runs, beside -o and the script: task
 * I's CSV (STEM.task-I.csv) and Slurm's log of it (STEM.task-I.log), for I
 * in 0 .. TASKS-1. None may be an input (hnm_out_not_input()), nor the
 * script (which the tasks run). Only those that exist can be an input:
 * STEM's directory is read once, not a name per task (there may be a
 * million tasks). 0, or -1 with the line in err. */
static int slurm__task_outputs(const char *stem, long tasks, const char *script, char *err, size_t errlen)
{
  const char *slash = strrchr(stem, '/'), *base = slash ? slash + 1 : stem, *what;
  char dir[4096];
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - stem) + 1 : 1, slash ? stem : ".");
  DIR *d = opendir(dir);
  for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
    long t = slurm__task_of(e->d_name, base, tasks, &what);
    if (t < 0)
      continue;
    char name[4200], label[96];
    snprintf(name, sizeof name, "%s%s", stem, e->d_name + strlen(base));
    snprintf(label, sizeof label, "-o (task %ld's %s)", t, what);
    if (hnm_out_not_input(name, label, err, errlen) != 0) {
      closedir(d);
      return -1;
    }
  }
  if (d != NULL)
    closedir(d);
  if (script == NULL) /* --attach: no script written */
    return 0;
  /* The script named like a task's file (compared by name: it may not
   * exist yet). */
  char sp[PATH_MAX + 4200], tp[PATH_MAX + 4200];
  slurm__place(script, sp, sizeof sp);
  slurm__place(stem, tp, sizeof tp);
  const char *ss = strrchr(sp, '/'), *ts = strrchr(tp, '/');
  long t = -1;
  if (ss != NULL && ts != NULL && ss - sp == ts - tp && strncmp(sp, tp, (size_t)(ss - sp)) == 0)
    t = slurm__task_of(ss + 1, ts + 1, tasks, &what);
  if (t >= 0)
    return hnm_fail(err, errlen, "--script: '%s' is task %ld's %s: the job would overwrite its own script", script, t,
                    what);
  return 0;
}

int cmp_cmd_slurm(int argc, char **argv)
{
  /* What the command parses lives until the process exits (static:
   * reachable whatever the path, no leak at exit under LeakSanitizer). */
  static cmp_config c;
  static cmp_slurm_opts sl;
  char err[HNM_ERRLEN];
  int rc = cmp_parse_run(argc, argv, 2, &c, &sl, err, sizeof err);
  if (rc != 0)
    return rc == HNM_OPT_DONE ? HNM_EXIT_OK : rc == HNM_EXIT_FAILURE ? hnm_msg_failure("%s", err) : hnm_msg_error("%s", err);
  if (c.tasks < 1 || (sl.script == NULL && sl.attach == NULL))
    return hnm_msg_error("slurm needs --tasks N and --script JOB.sh");
  if (cmp_sjob_check(&sl, err, sizeof err) != 0) /* before anything is written */
    return hnm_msg_error("%s", err);
  for (int i = 0; i < c.raw.n; i++) /* --dry-run: no job script */
    if (strcmp(c.raw.v[i], "--dry-run") == 0)
      return hnm_msg_error("slurm: --dry-run makes no sense in a job script");
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return hnm_msg_failure("cannot find hnm-compare's own path: %s", strerror(errno));
  self[n] = '\0';
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) == NULL)
    return hnm_msg_failure("cannot get the current directory: %s", strerror(errno));
  static cmp_run *runs;
  long nruns = cmp_enumerate(&c, &runs);
  /* The per-task CSV: OUT without .csv, then .task-I.csv. */
  size_t ol = strlen(c.out);
  static char *stem;
  stem = cmp_xstrdup(c.out);
  if (ol > 4 && strcmp(stem + ol - 4, ".csv") == 0)
    stem[ol - 4] = '\0';

  /* The outputs are none of the inputs (cmp_parse_run() registered them):
   * -o, the merge's target, and the script, opened before anything is
   * created. */
  char oerr[1024];
  if (hnm_out_not_input(c.out, "-o", oerr, sizeof oerr) != 0 ||
      slurm__task_outputs(stem, c.tasks, sl.script, oerr, sizeof oerr) != 0)
    return hnm_msg_error("%s", oerr);
  if (sl.attach != NULL) /* the job's script is written and submitted */
    return cmp_cmd_slurm_jobs(&c, &sl, runs, nruns, stem);
  hnm_out *script = hnm_out_open(sl.script, "--script", oerr, sizeof oerr);
  if (script == NULL)
    return hnm_msg_error("%s", oerr);
  /* Slurm opens --output before the script runs: its directory must exist. */
  char *dir = cmp_xstrdup(stem);
  if (strrchr(dir, '/') != NULL) {
    *strrchr(dir, '/') = '\0';
    char merr[256];
    if (*dir != '\0' && hnm_out_mkdirs(dir, merr, sizeof merr) != 0) {
      hnm_out_abort(script);
      int st = hnm_msg_error("-o: cannot create the directory '%s': %s", dir, merr);
      free(dir);
      return st;
    }
  }
  free(dir);
  int through = hnm_out_is_through(script);
  FILE *f = hnm_out_file(script);
  fprintf(f, "#!/bin/bash\n");
  fprintf(f, "# Generated by hnm-compare slurm: %ld runs split into %ld array tasks\n", nruns, c.tasks);
  fprintf(f, "# (task I runs the grid indices equal to I modulo %ld). Submit with\n", c.tasks);
  fprintf(f, "#   sbatch %s\n# then, when every task is done, combine the per-task CSVs:\n#   ", sl.script);
  cmp_put_shell(f, self);
  fprintf(f, " merge -o ");
  cmp_put_shell(f, c.out);
  for (long t = 0; t < c.tasks && t < 8; t++) {
    char name[4200];
    snprintf(name, sizeof name, "%s.task-%ld.csv", stem, t);
    fputc(' ', f);
    cmp_put_shell(f, name);
  }
  fprintf(f, "%s\n", c.tasks > 8 ? " ..." : "");
  fprintf(f, "# Re-submitting resumes: each task skips its runs already ok in its CSV.\n");
  fprintf(f, "#SBATCH --job-name=hnm-compare\n#SBATCH --array=0-%ld", c.tasks - 1);
  if (sl.throttle > 0)
    fprintf(f, "%%%ld", sl.throttle);
  fprintf(f, "\n#SBATCH --ntasks=1\n");
  if (sl.partition != NULL)
    fprintf(f, "#SBATCH --partition=%s\n", sl.partition);
  if (sl.account != NULL)
    fprintf(f, "#SBATCH --account=%s\n", sl.account);
  if (sl.time != NULL)
    fprintf(f, "#SBATCH --time=%s\n", sl.time);
  if (sl.mem != NULL)
    fprintf(f, "#SBATCH --mem=%s\n", sl.mem);
  fprintf(f, "#SBATCH --output=%s.task-%%a.log\n", stem);
  for (int i = 0; i < sl.sbatch.n; i++)
    fprintf(f, "#SBATCH %s\n", sl.sbatch.v[i]);
  fprintf(f, "set -eu\ncd ");
  cmp_put_shell(f, cwd);
  fprintf(f, "\ntask=${SLURM_ARRAY_TASK_ID:?run this script with sbatch (or set SLURM_ARRAY_TASK_ID)}\n");
  fprintf(f, "exec ");
  cmp_put_shell(f, self);
  fprintf(f, " run");
  for (int i = 0; i < c.raw.n; i++) {
    fputc(' ', f);
    cmp_put_shell(f, c.raw.v[i]);
  }
  fprintf(f, " --task \"$task\" --tasks %ld -o ", c.tasks);
  cmp_put_shell(f, stem);
  fprintf(f, ".task-\"$task\".csv --");
  fputc(' ', f);
  cmp_put_shell(f, c.program);
  for (int i = 0; i < c.base_args.n; i++) {
    fputc(' ', f);
    cmp_put_shell(f, c.base_args.v[i]);
  }
  fputc('\n', f);
  if (hnm_out_commit(script, oerr, sizeof oerr) != 0)
    return hnm_msg_failure("%s", oerr);
  if (!through && chmod(sl.script, 0755) != 0)
    return hnm_msg_failure("--script: '%s': %s", sl.script, strerror(errno));
  if (sl.submit)
    return cmp_cmd_slurm_jobs(&c, &sl, runs, nruns, stem);
  printf("%s: %ld runs in %ld array tasks; per-task CSVs %s.task-I.csv\n", sl.script, nruns, c.tasks, stem);
  return 0;
}

int cmp_cmd_merge(int argc, char **argv)
{
  const char *out = NULL;
  /* The inputs and rows live until the process exits (static: whatever the path). */
  static cmp_strvec in;
  const struct hnm_opt opts[] = {
    {.name = "out", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "OUT.csv", .help = "the merged CSV", .value = &out},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {"hnm-compare merge", "-o OUT.csv IN.csv...",
                                  "Rows of the per-task CSVs sorted by index; duplicates dropped; conflicting ok rows\n"
                                  "or two runs with one index (different grids) refused.",
                                  NULL, NULL, 0, NULL};
  char err[HNM_ERRLEN];
  int first = hnm_opt_parse(&cmd, opts, argc - 1, argv + 1, err, sizeof err);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", err);
  for (int i = first + 1; i < argc; i++)
    cmp_sv_push(&in, argv[i]);
  if (out == NULL || in.n == 0)
    return hnm_msg_error("merge needs -o OUT.csv and at least one input CSV");
  /* The merged file replaces OUT: never one of the inputs. */
  for (long i = 0; i < in.n; i++)
    if (hnm_out_same_file(out, in.v[i]))
      return hnm_msg_error("-o: '%s' is the input file %s", out, in.v[i]);
  static cmp_rowvec rows;
  for (int i = 0; i < in.n; i++) {
    for (int j = 0; j < i; j++)
      if (strcmp(in.v[i], in.v[j]) == 0)
        return hnm_msg_error("merge: '%s' given twice", in.v[i]);
    if (cmp_read_rows(in.v[i], i, &rows, 0, err, sizeof err) != 0)
      return hnm_msg_error("%s", err);
  }
  static cmp_row **sel;
  long n, dups;
  if (cmp_select_rows(&rows, &sel, &n, &dups, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  char oerr[1024];
  hnm_out *o = hnm_out_open(out, "-o", oerr, sizeof oerr);
  if (o == NULL)
    return hnm_msg_error("%s", oerr);
  FILE *f = hnm_out_file(o);
  fprintf(f, "%s\n", rows.wide ? CMP_HEADER_SETS : CMP_HEADER);
  long bad = 0;
  for (long i = 0; i < n; i++) {
    cmp_put_row(f, sel[i], rows.wide);
    bad += strcmp(sel[i]->f[CMP_COL_STATUS], "ok") != 0;
  }
  if (hnm_out_commit(o, oerr, sizeof oerr) != 0)
    return hnm_msg_failure("%s", oerr); /* failed work: nothing of it written */
  hnm_msg_info("merge: %ld runs (%ld not ok) from %d files into %s; %ld duplicates dropped", n, bad, in.n, out, dups);
  return 0;
}
