/* hnm_msg.c -- "PROG: message" on stderr (hnm_msg.h). */
#include "hnm_msg.h"

#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HNM_MSG__REASON 1024

static const char *msg__prog = "hnm";
static int msg__errors;   /* error messages printed so far */
static int msg__progress; /* a progress line stands on the terminal, without its newline */
static int msg__stdout_errno; /* errno of the first failed flush of hnm_msg_flush_stdout() */

int hnm_msg_option_error(const char *option, const char *fmt, ...)
{
  char reason[HNM_MSG__REASON];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  return hnm_msg_error("%s: %s", option, reason);
}

int hnm_msg_flush_stdout(void)
{
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout))
    return 0;
  if (msg__stdout_errno == 0)
    msg__stdout_errno = errno;
  return -1;
}

/* At exit, standard output is flushed and closed and its errors reported
 * (a full disk, /dev/full, a closed descriptor): output that did not reach
 * its place is failed work, exit 1 with one line -- unless an error was
 * already reported, whose status stands. */
static void msg__close_stdout_at_exit(void)
{
  errno = 0;
  int bad = fflush(stdout) != 0 || ferror(stdout);
  int e = errno ? errno : msg__stdout_errno;
  if (fclose(stdout) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  if (bad && e != EBADF) {
    if (msg__errors == 0)
      fprintf(stderr, "%s: standard output: write error%s%s\n", msg__prog, e ? ": " : "", e ? strerror(e) : "");
    fflush(stderr);
    _exit(HNM_EXIT_FAILURE);
  }
}

void hnm_msg_init(const char *prog)
{
  static int registered;
  msg__prog = prog;
  if (!registered && atexit(msg__close_stdout_at_exit) == 0)
    registered = 1;
}

const char *hnm_msg_prog(void)
{
  return msg__prog;
}

/* Before any line: a standing progress line is erased. */
static void msg__fresh_line(void)
{
  if (msg__progress) {
    fputs("\r\033[K", stderr);
    msg__progress = 0;
  }
}

static void msg__print(const char *prog, const char *tag, const char *fmt, va_list ap)
{
  msg__fresh_line();
  fprintf(stderr, "%s: %s", prog, tag);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

/* An error is one line whatever its parts hold (a reason from a library
 * may end with or contain a newline): newlines and other control
 * characters become blanks, trailing blanks are dropped. */
static void msg__print_line(const char *prog, const char *fmt, va_list ap)
{
  char small[2048], *buf = small;
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(small, sizeof small, fmt, aq);
  va_end(aq);
  if (n >= (int)sizeof small && (buf = malloc((size_t)n + 1)) != NULL)
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
  else if (n >= (int)sizeof small)
    buf = small;
  if (n < 0)
    small[0] = '\0';
  size_t len = strlen(buf);
  for (size_t i = 0; i < len; i++)
    if ((unsigned char)buf[i] < 0x20 && buf[i] != '\t')
      buf[i] = ' ';
  while (len > 0 && buf[len - 1] == ' ')
    buf[--len] = '\0';
  msg__fresh_line();
  fprintf(stderr, "%s: %s\n", prog, buf);
  if (buf != small)
    free(buf);
  msg__errors++;
}

static void msg__progress_line(const char *prog, const char *fmt, va_list ap)
{
  if (!isatty(STDERR_FILENO)) {
    msg__print(prog, "", fmt, ap);
    return;
  }
  fprintf(stderr, "\r%s: ", prog);
  vfprintf(stderr, fmt, ap);
  fputs("\033[K", stderr);
  fflush(stderr);
  msg__progress = 1;
}

void hnm_msg_vprint(const char *prog, enum hnm_msg_level level, const char *fmt, va_list ap)
{
  if (prog == NULL)
    prog = msg__prog;
  switch (level) {
    case HNM_MSG_ERROR:
      msg__print_line(prog, fmt, ap);
      break;
    case HNM_MSG_WARNING:
      msg__print(prog, "warning: ", fmt, ap);
      break;
    case HNM_MSG_NOTE:
      msg__print(prog, "note: ", fmt, ap);
      break;
    case HNM_MSG_INFO:
      msg__print(prog, "", fmt, ap);
      break;
    case HNM_MSG_PROGRESS:
      msg__progress_line(prog, fmt, ap);
      break;
  }
}

void hnm_msg_print(const char *prog, enum hnm_msg_level level, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  hnm_msg_vprint(prog, level, fmt, ap);
  va_end(ap);
}

int hnm_msg_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  msg__print_line(msg__prog, fmt, ap);
  va_end(ap);
  return HNM_EXIT_USAGE;
}

int hnm_msg_verror(const char *fmt, va_list ap)
{
  msg__print_line(msg__prog, fmt, ap);
  return HNM_EXIT_USAGE;
}

void hnm_msg_progress_end(void)
{
  if (msg__progress) {
    fputc('\n', stderr);
    msg__progress = 0;
  }
}

int hnm_msg_failure(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  msg__print_line(msg__prog, fmt, ap);
  va_end(ap);
  return HNM_EXIT_FAILURE;
}
