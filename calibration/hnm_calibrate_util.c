/* hnm-calibrate: the operations of the benchmark, messages, mkdir -p. */
#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_units.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hnm_calibrate_util.h"
#include "hnm_out.h"
#include "hnm_proc.h"

const char *const cal_op_names[CAL_OP_COUNT] = HNM_BENCH_OP_NAMES;

/* ---- signals ------------------------------------------------------------ */

/* The process group of the child cal_spawn() waits for (0: none), and the
 * signal that ends the command (0: none yet). */
static volatile sig_atomic_t cal__child, cal__signal;
static const int cal__signals[] = {SIGINT, SIGTERM, SIGHUP};

/* The temporaries removed (hnm_out_signal_cleanup()), then SIG again with
 * its default action: the command ends as the signal says (status 128 +
 * SIG in a shell), as it would have without a handler. */
static void cal__die(int sig)
{
  hnm_out_signal_cleanup();
  signal(sig, SIG_DFL);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  sigprocmask(SIG_UNBLOCK, &s, NULL);
  raise(sig);
}

/* With a child running: the signal goes to its whole group (launcher,
 * ranks, hnm-run, smpimain), and cal_spawn() ends the command once the
 * child is reaped; a child still there 5 s later gets SIGKILL (SIGALRM).
 * Without one: the command ends now. */
static void cal__on_signal(int sig)
{
  if (sig == SIGALRM) {
    if (cal__child > 0)
      kill(-(pid_t)cal__child, SIGKILL);
    return;
  }
  if (cal__child <= 0) {
    cal__die(sig);
    return;
  }
  if (cal__signal == 0)
    cal__signal = sig;
  kill(-(pid_t)cal__child, sig);
  alarm(5);
}

void cal_signals_init(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = cal__on_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof cal__signals / sizeof *cal__signals; i++)
    sigaddset(&sa.sa_mask, cal__signals[i]);
  for (size_t i = 0; i < sizeof cal__signals / sizeof *cal__signals; i++) {
    struct sigaction old;
    /* A signal ignored by whoever started us (nohup) stays ignored. */
    if (sigaction(cal__signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
      sigaction(cal__signals[i], &sa, NULL);
  }
  sigaction(SIGALRM, &sa, NULL);
}

/* In the child, before exec: its own process group (the one the signals
 * go to), the default actions back, and death with this process
 * (SIGTERM when it ends, even by SIGKILL). PARENT: our pid. */
static void cal__child_setup(pid_t parent)
{
  setpgid(0, 0);
  signal(SIGALRM, SIG_DFL);
  /* SIGINT, SIGTERM, SIGHUP back to their defaults; SIGTERM, raised now
   * if we are already gone, delivered once the mask below is lifted. */
  hnm_proc_child_setup(parent, SIGTERM);
  /* Out of the terminal's foreground group, a read of the terminal would
   * stop the child (SIGTTIN; mpirun forwards its stdin to rank 0): nothing
   * it runs reads standard input, as in hnm-compare's runs. */
  int nul = open("/dev/null", O_RDONLY);
  if (nul >= 0 && nul != 0) {
    dup2(nul, 0);
    close(nul);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Signals held while a child is forked and recorded (SET: the old mask). */
static void cal__block(sigset_t *old)
{
  sigset_t s;
  sigemptyset(&s);
  for (size_t i = 0; i < sizeof cal__signals / sizeof *cal__signals; i++)
    sigaddset(&s, cal__signals[i]);
  sigprocmask(SIG_BLOCK, &s, old);
}

/* Everything FD gives until its end, NUL-terminated (malloc'ed), at most
 * 64 MiB; NULL when memory runs out. */
static char *cal__read_all(int fd)
{
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap);
  for (ssize_t r; buf != NULL;) {
    if (cap - n < 4096) {
      char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL; /* bounded: 64 MiB */
      if (nb == NULL) {
        free(buf);
        return NULL;
      }
      buf = nb;
      cap *= 2;
    }
    r = read(fd, buf + n, cap - n - 1);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    n += (size_t)r;
  }
  if (buf != NULL)
    buf[n] = '\0';
  return buf;
}

char **cal_csv_args(const char *dir, char *const *head, size_t n0, const char *what, char *err, size_t errlen)
{
  DIR *d = opendir(dir);
  if (d == NULL) {
    hnm_errf(err, errlen, "%s%s: %s", what, dir, strerror(errno));
    return NULL;
  }
  size_t cap = n0 + 16, n = n0;
  char **av = calloc(cap, sizeof *av);
  if (av == NULL)
    goto oom;
  memcpy(av, head, n0 * sizeof *av);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t l = strlen(e->d_name);
    if (l < 5 || strcmp(e->d_name + l - 4, ".csv") != 0)
      continue;
    if (n + 2 >= cap) {
      char **grown = realloc(av, cap * 2 * sizeof *av);
      if (grown == NULL)
        goto oom;
      av = grown;
      cap *= 2;
    }
    size_t pl = strlen(dir) + l + 2;
    av[n] = malloc(pl);
    if (av[n] == NULL)
      goto oom;
    snprintf(av[n++], pl, "%s/%s", dir, e->d_name);
    av[n] = NULL;
  }
  closedir(d);
  av[n] = NULL;
  return av;
oom:
  closedir(d);
  if (av != NULL) {
    av[n] = NULL;
    cal_csv_args_free(av, n0);
  }
  hnm_errf(err, errlen, "out of memory");
  return NULL;
}

int cal_spawn(char **av, int search, int null_stdout, char **out, int *status, char *err, size_t errlen)
{
  int p[2] = {-1, -1}, ex[2] = {-1, -1};
  if ((out != NULL && pipe(p) != 0) || pipe(ex) != 0 || fcntl(ex[1], F_SETFD, FD_CLOEXEC) != 0) {
    hnm_errf(err, errlen, "pipe: %s", strerror(errno));
    goto fail;
  }
  fflush(NULL);
  sigset_t old;
  pid_t parent = getpid();
  cal__block(&old);
  pid_t pid = fork();
  if (pid < 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    hnm_errf(err, errlen, "fork: %s", strerror(errno));
    goto fail;
  }
  if (pid == 0) {
    cal__child_setup(parent);
    close(ex[0]);
    if (out != NULL) {
      dup2(p[1], 1);
      close(p[0]);
      close(p[1]);
    } else if (null_stdout) {
      int nul = open("/dev/null", O_WRONLY);
      if (nul >= 0)
        dup2(nul, 1);
    }
    if (search)
      execvp(av[0], av);
    else
      execv(av[0], av);
    /* The parent reads why exec failed and reports it. */
    int e = errno;
    ssize_t w = write(ex[1], &e, sizeof e);
    (void)w;
    _exit(127);
  }
  setpgid(pid, pid); /* as the child does: whichever runs first */
  cal__child = pid;
  sigprocmask(SIG_SETMASK, &old, NULL);
  close(ex[1]);
  ex[1] = -1;
  if (out != NULL) {
    close(p[1]);
    p[1] = -1;
    *out = cal__read_all(p[0]);
    close(p[0]);
    p[0] = -1;
  }
  int e = 0, st;
  ssize_t r;
  while ((r = read(ex[0], &e, sizeof e)) < 0 && errno == EINTR)
    ;
  close(ex[0]);
  ex[0] = -1;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      cal__child = 0;
      hnm_errf(err, errlen, "waitpid: %s", strerror(errno));
      goto fail;
    }
  cal__child = 0;
  if (cal__signal != 0) {
    /* Interrupted: the child and its group are gone; so do we. */
    kill(-pid, SIGKILL);
    cal__die(cal__signal);
  }
  if (r == (ssize_t)sizeof e) {
    hnm_errf(err, errlen, "%s: %s", av[0], strerror(e));
    goto fail;
  }
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  return 0;
fail:
  for (int i = 0; i < 2; i++) {
    if (p[i] >= 0)
      close(p[i]);
    if (ex[i] >= 0)
      close(ex[i]);
  }
  if (out != NULL && *out != NULL) {
    free(*out);
    *out = NULL;
  }
  return -1;
}

void cal_csv_args_free(char **av, size_t n0)
{
  for (size_t i = n0; av[i] != NULL; i++)
    free(av[i]);
  free(av);
}

const char *cal_np_option(const char *launcher)
{
  const char *base = strrchr(launcher, '/');
  base = base != NULL ? base + 1 : launcher;
  return strcmp(base, "srun") == 0 ? "-n" : "-np";
}
