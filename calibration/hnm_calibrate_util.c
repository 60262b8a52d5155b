/* hnm-calibrate: the operations of the benchmark, messages, mkdir -p. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_units.h"

#include <dirent.h>
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

const char *const cal_op_names[CAL_OP_COUNT] = HNM_BENCH_OP_NAMES;

char **cal_csv_args(const char *dir, char *const *head, size_t n0, const char *what)
{
  DIR *d = opendir(dir);
  if (d == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "%s%s: %s", what, dir, strerror(errno));
  size_t cap = n0 + 16, n = n0;
  char **av = calloc(cap, sizeof *av);
  if (av == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  memcpy(av, head, n0 * sizeof *av);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t l = strlen(e->d_name);
    if (l < 5 || strcmp(e->d_name + l - 4, ".csv") != 0)
      continue;
    if (n + 2 >= cap) {
      cap *= 2;
      av = realloc(av, cap * sizeof *av);
      if (av == NULL)
        hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
    }
    size_t pl = strlen(dir) + l + 2;
    av[n] = malloc(pl);
    if (av[n] == NULL)
      hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
    snprintf(av[n++], pl, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  av[n] = NULL;
  return av;
}

void cal_csv_args_free(char **av, size_t n0)
{
  for (size_t i = n0; av[i] != NULL; i++)
    free(av[i]);
  free(av);
}
