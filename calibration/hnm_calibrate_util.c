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
#include "hnm_msg.h"

const char *const op_names[OP_COUNT] = HNM_BENCH_OP_NAMES;

void die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  hnm_msg_verror(fmt, ap);
  va_end(ap);
  exit(2);
}

