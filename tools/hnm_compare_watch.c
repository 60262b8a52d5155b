/* hnm_compare_watch.c -- see hnm_compare_watch.h. */
#define _GNU_SOURCE /* pipe2 */
#include "hnm_compare_watch.h"
#include "hnm_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int watch__fd = -1; /* write end, close-on-exec; -1: no watchdog */

/* The watchdog: reads "+PGID\n" and "-PGID\n" until end of file, then
 * kills what is left. Signals that end hnm-compare (a terminal's ^C
 * reaches the whole foreground group) must not end it first. */
static void watch__loop(int rfd)
{
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  pid_t *g = NULL;
  size_t n = 0, cap = 0;
  char buf[4096], word[32];
  size_t wl = 0;
  ssize_t got;
  while ((got = read(rfd, buf, sizeof buf)) != 0) {
    if (got < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (ssize_t i = 0; i < got; i++) {
      if (buf[i] != '\n') {
        if (wl < sizeof word - 1)
          word[wl++] = buf[i];
        continue;
      }
      word[wl] = '\0';
      wl = 0;
      long v = strtol(word + 1, NULL, 10);
      if (v <= 1)
        continue;
      if (word[0] == '+') {
        if (n == cap) {
          size_t nc = cap ? 2 * cap : 64;
          pid_t *ng = realloc(g, nc * sizeof *ng);
          if (ng == NULL)
            continue;
          g = ng;
          cap = nc;
        }
        g[n++] = (pid_t)v;
      } else {
        for (size_t k = 0; k < n; k++)
          if (g[k] == (pid_t)v) {
            g[k] = g[--n];
            break;
          }
      }
    }
  }
  for (size_t k = 0; k < n; k++)
    kill(-g[k], SIGTERM);
  if (n > 0) {
    struct timespec t = {1, 0};
    nanosleep(&t, NULL);
    for (size_t k = 0; k < n; k++)
      kill(-g[k], SIGKILL);
  }
  _exit(0);
}

int cmp_watch_start(void)
{
  if (watch__fd >= 0)
    return 0;
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0)
    return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    return -1;
  }
  if (pid == 0) {
    /* Nothing of hnm-compare's but the pipe: above all not the lock on the
     * CSV (cmp_store_lock()), which would outlive hnm-compare by the time the
     * watchdog takes to see the end of the pipe. */
    long maxfd = sysconf(_SC_OPEN_MAX);
    for (int fd = 3; fd < (maxfd > 0 && maxfd < 65536 ? maxfd : 1024); fd++)
      if (fd != p[0])
        close(fd);
    /* Its own group: a kill of a run's group or of hnm-compare's does not
     * reach it. */
    setpgid(0, 0);
    watch__loop(p[0]);
  }
  close(p[0]);
  watch__fd = p[1];
  return 0;
}

static void watch__send(char sign, pid_t pgid)
{
  if (watch__fd < 0)
    return;
  char line[32];
  int n = snprintf(line, sizeof line, "%c%ld\n", sign, (long)pgid);
  if (write(watch__fd, line, (size_t)n) != n) {
    close(watch__fd);
    watch__fd = -1;
  }
}

void cmp_watch_add(pid_t pgid)
{
  watch__send('+', pgid);
}

void cmp_watch_del(pid_t pgid)
{
  watch__send('-', pgid);
}

void cmp_watch_child(pid_t parent)
{
  hnm_proc_child_setup(parent, SIGKILL);
}
