/* hnm_run_set.c -- hnm-run under a model set (hnm_run_set.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "hnm_run_set.h"
#include "hnm_msg.h"
#include "hnm_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The last "Simulated time: X" of FILE (SimGrid 3.32's print_time_analysis,
 * smpi_utils.cpp, "%g" so 6 significant digits), and the last non-empty
 * line of it in LAST. 0, or -1 if there is none. */
static int set__read_err(const char *file, double *t, char *last, size_t lastlen)
{
  FILE *f = fopen(file, "r");
  if (f == NULL)
    return -1;
  char *line = NULL;
  size_t cap = 0;
  int found = 0;
  last[0] = '\0';
  while (getline(&line, &cap, f) >= 0) {
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] != '\0')
      snprintf(last, lastlen, "%s", line);
    const char *p = strstr(line, "Simulated time: ");
    if (p != NULL) {
      char *e;
      double v = strtod(p + 16, &e);
      if (e != p + 16) {
        *t = v;
        found = 1;
      }
    }
  }
  free(line);
  fclose(f);
  return found ? 0 : -1;
}

/* Copy FILE to stderr (the central run's messages, after it ended). */
static void set__replay(const char *file)
{
  FILE *f = fopen(file, "r");
  if (f == NULL)
    return;
  char buf[8192];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    fwrite(buf, 1, n, stderr);
  fclose(f);
  fflush(stderr);
}

/* One run: ARGS with $HNM_MODEL = SPEC; stdout to OUT (NULL: ours), stderr
 * to ERR. Returns the wait status, or -1 if it could not be started. */
static int set__run_one(char **args, const char *spec, const char *out, const char *err)
{
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    /* smpirun dies with hnm-run, and the simulator with smpirun
     * (hnm-run's --die-with-parent heads the wrapper): a SIGKILL to
     * hnm-run leaves nothing running. */
    char self[32];
    snprintf(self, sizeof self, "%ld", (long)getpid());
    if (hnm_proc_child_setup(parent, SIGKILL) != 0 || setenv("HNM_RUN_SMPIRUN", self, 1) != 0)
      _exit(126);
    int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int fo = out != NULL ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600) : 1;
    int fi = out != NULL ? open("/dev/null", O_RDONLY) : 0;
    if (fe < 0 || fo < 0 || fi < 0 || dup2(fe, 2) < 0 || dup2(fo, 1) < 0 || dup2(fi, 0) < 0)
      _exit(126);
    if (setenv("HNM_MODEL", spec, 1) != 0)
      _exit(126);
    execvp(args[0], args);
    /* Into the run's own stderr (the file ERR), which the parent shows or
     * quotes like any run's last line. */
    dprintf(2, "%s: cannot run %s: %s (install simgrid)\n", hnm_msg_prog(), args[0], strerror(errno));
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      return -1;
  return st;
}

int run_set(const hnm_model_set *set, char **args, char *err, size_t errlen)
{
  char dir[] = "/tmp/hnm-run-set-XXXXXX";
  if (mkdtemp(dir) == NULL) {
    hnm_errf(err, errlen, "cannot create a temporary directory: %s", strerror(errno));
    return HNM_EXIT_FAILURE;
  }
  size_t n = set->nmembers + 1;
  double *t = malloc(n * sizeof *t), *members = malloc(n * sizeof *members);
  char out[sizeof dir + 32], errfile[sizeof dir + 32], last[1024];
  int rc = 0;
  if (t == NULL || members == NULL) {
    hnm_errf(err, errlen, "out of memory");
    rc = HNM_EXIT_FAILURE;
    goto done;
  }
  for (size_t k = 0; k < n && rc == 0; k++) {
    snprintf(out, sizeof out, "%s/%zu.out", dir, k);
    snprintf(errfile, sizeof errfile, "%s/%zu.err", dir, k);
    int st = set__run_one(args, set->specs[k], k == 0 ? NULL : out, errfile);
    int run_errno = errno;
    if (k == 0)
      set__replay(errfile);
    int have = set__read_err(errfile, &t[k], last, sizeof last) == 0;
    if (st == -1) {
      rc = HNM_EXIT_FAILURE;
      hnm_errf(err, errlen, "%s/%s: cannot start smpirun: %s", set->dir, set->files[k], strerror(run_errno));
    } else if (WIFSIGNALED(st)) {
      rc = 128 + WTERMSIG(st);
      hnm_errf(err, errlen, "%s/%s: the run ended by signal %d (%s)", set->dir, set->files[k], WTERMSIG(st), last);
    } else if (WEXITSTATUS(st) != 0) {
      rc = WEXITSTATUS(st);
      hnm_errf(err, errlen, "%s/%s: the run failed with exit status %d (%s)", set->dir, set->files[k], rc, last);
    } else if (!have) {
      rc = HNM_EXIT_FAILURE;
      hnm_errf(err, errlen, "%s/%s: the run printed no simulated time (%s)", set->dir, set->files[k], last);
    } else {
      hnm_msg_info("run %zu/%zu (%s): simulated time %.6g s", k + 1, n, set->files[k], t[k]);
      fflush(stderr);
    }
    unlink(out);
    unlink(errfile);
  }
  if (rc == 0) {
    memcpy(members, t + 1, set->nmembers * sizeof *members);
    double lo = hnm_quantile(members, set->nmembers, 0.05);
    double hi = hnm_quantile(members, set->nmembers, 0.95);
    printf("model set %s: central %.6g s, 5-95%% [%.6g, %.6g] s over %zu members\n", set->dir, t[0], lo, hi,
           set->nmembers);
    /* A failed standard output is reported once, at exit (hnm_msg.h). */
    if (fflush(stdout) != 0)
      rc = HNM_EXIT_FAILURE;
  }
done:
  rmdir(dir);
  free(t);
  free(members);
  return rc;
}
