/* hnm_gnuplot.c -- gnuplot, run and fed (hnm_gnuplot.h). */
#define _POSIX_C_SOURCE 200809L
#include "hnm_gnuplot.h"
#include "hnm_error.h"
#include "hnm_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int hnm_gnuplot_run(const char *script, int flags, char *err, size_t errlen)
{
  char *argv[] = {"gnuplot", (char *)script, NULL};
  int st = 0, ex[2], e = 0;
  /* Why exec failed, from the child through a close-on-exec pipe. */
  if (pipe(ex) != 0 || fcntl(ex[1], F_SETFD, FD_CLOEXEC) != 0) {
    hnm_errf(err, errlen, "cannot run gnuplot: %s (the script is %s)", strerror(errno), script);
    return -1;
  }
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid == 0) {
    /* gnuplot dies with the tool, even a tool killed by SIGKILL. */
    close(ex[0]);
    if (hnm_proc_child_setup(parent, SIGKILL) != 0)
      e = errno;
    if (e == 0 && (flags & HNM_GNUPLOT_QUIET) != 0) {
      int nul = open("/dev/null", O_WRONLY);
      if (nul < 0 || dup2(nul, 2) < 0)
        e = errno;
    }
    if (e == 0) {
      execvp("gnuplot", argv);
      e = errno;
    }
    ssize_t w = write(ex[1], &e, sizeof e);
    (void)w;
    _exit(127);
  }
  close(ex[1]);
  if (pid < 0) {
    close(ex[0]);
    hnm_errf(err, errlen, "cannot run gnuplot: %s (the script is %s)", strerror(errno), script);
    return -1;
  }
  ssize_t r;
  while ((r = read(ex[0], &e, sizeof e)) < 0 && errno == EINTR)
    ;
  close(ex[0]);
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      hnm_errf(err, errlen, "gnuplot failed on %s", script);
      return -1;
    }
  if (r == (ssize_t)sizeof e && e != 0) {
    hnm_errf(err, errlen, "cannot run gnuplot: %s (install gnuplot-nox; the script is %s)", strerror(e), script);
    return -1;
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    hnm_errf(err, errlen, "gnuplot failed on %s", script);
    return -1;
  }
  return 0;
}

int hnm_gnuplot_png_written(const char *png, const char *what, char *err, size_t errlen)
{
  /* The last 8 bytes of every PNG: the IEND chunk's type and CRC. */
  static const unsigned char iend[8] = {'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
  unsigned char tail[8];
  struct stat st;
  int fd = open(png, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  /* No file: gnuplot could not open it, and said so with a failure of its
   * own (hnm_gnuplot_run()), or was told to draw nothing into it. */
  if (fd < 0 && errno == ENOENT)
    return 0;
  if (fd < 0) {
    hnm_errf(err, errlen, "%s: '%s': %s", what, png, strerror(errno));
    return -1;
  }
  int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 8 &&
           pread(fd, tail, sizeof tail, st.st_size - 8) == (ssize_t)sizeof tail && memcmp(tail, iend, 8) == 0;
  close(fd);
  if (!ok) {
    hnm_errf(err, errlen, "%s: '%s': write error: gnuplot left an incomplete PNG (a full disk?)", what, png);
    return -1;
  }
  return 0;
}

void hnm_gnuplot_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '\n' || *s == '\r' || *s == '\t') {
      fputc('\\', f);
      fputc(*s == '\n' ? 'n' : *s == '\r' ? 'r' : 't', f);
      continue;
    }
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}
