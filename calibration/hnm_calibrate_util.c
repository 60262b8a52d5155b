/* hnm-calibrate: the operations of the benchmark, messages, mkdir -p. */
#define _POSIX_C_SOURCE 200809L
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
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hnm_calibrate_util.h"

const char *const cal_op_names[CAL_OP_COUNT] = HNM_BENCH_OP_NAMES;

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
  pid_t pid = fork();
  if (pid < 0) {
    hnm_errf(err, errlen, "fork: %s", strerror(errno));
    goto fail;
  }
  if (pid == 0) {
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
      hnm_errf(err, errlen, "waitpid: %s", strerror(errno));
      goto fail;
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
