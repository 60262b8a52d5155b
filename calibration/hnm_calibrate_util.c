/* hnm-calibrate: the operations of the benchmark, messages, mkdir -p. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_units.h"

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

const char *const op_names[OP_COUNT] = {"send", "recv", "pingpong", "isend", "irecv"};

void die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, PROG ": ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(2);
}

/* mkdir -p: 0, or -1 with errno. */
int mkdir_p(const char *path)
{
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
      *p = '/';
    }
  if (mkdir(buf, 0777) != 0 && errno != EEXIST)
    return -1;
  return 0;
}
