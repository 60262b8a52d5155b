/* hnm_msg.c -- "PROG: message" on stderr (hnm_msg.h). */
#include "hnm_msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *msg__prog = "hnm";

void hnm_msg_init(const char *prog)
{
  msg__prog = prog;
}

const char *hnm_msg_prog(void)
{
  return msg__prog;
}

static void msg__print(const char *tag, const char *fmt, va_list ap)
{
  fprintf(stderr, "%s: %s", msg__prog, tag);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

int hnm_msg_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  msg__print("", fmt, ap);
  va_end(ap);
  return HNM_EXIT_USAGE;
}

int hnm_msg_verror(const char *fmt, va_list ap)
{
  msg__print("", fmt, ap);
  return HNM_EXIT_USAGE;
}

void hnm_msg_warn(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  msg__print("warning: ", fmt, ap);
  va_end(ap);
}

void hnm_msg_info(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  msg__print("", fmt, ap);
  va_end(ap);
}

void hnm_msg_die(int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  msg__print("", fmt, ap);
  va_end(ap);
  exit(status);
}
