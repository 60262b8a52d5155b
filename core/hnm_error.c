/* hnm_error.c -- filling an error message (hnm_error.h). */
#include "hnm_error.h"

#include <stdarg.h>
#include <stdio.h>

void hnm_verrf(char *err, size_t errlen, const char *fmt, va_list ap)
{
  if (err == NULL || errlen == 0)
    return;
  vsnprintf(err, errlen, fmt, ap);
}

void hnm_errf(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  hnm_verrf(err, errlen, fmt, ap);
  va_end(ap);
}

int hnm_fail(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  hnm_verrf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

int hnm_fail_status(int status, char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;

  va_start(ap, fmt);
  hnm_verrf(err, errlen, fmt, ap);
  va_end(ap);
  return status;
}
