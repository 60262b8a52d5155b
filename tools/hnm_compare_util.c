/* hnm-compare: small helpers shared by its commands. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "hnm_model.h"

#include <errno.h>
#include <setjmp.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "hnm_compare_util.h"
#include "hnm_msg.h"

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */

jmp_buf cmp_oom;

void *cmp_xmalloc(size_t n)
{
  void *p = calloc(1, n ? n : 1);
  if (p == NULL)
    longjmp(cmp_oom, 1);
  return p;
}

void *cmp_xrealloc(void *p, size_t n)
{
  p = realloc(p, n ? n : 1);
  if (p == NULL)
    longjmp(cmp_oom, 1);
  return p;
}

char *cmp_xstrdup(const char *s)
{
  char *d = cmp_xmalloc(strlen(s) + 1);
  memcpy(d, s, strlen(s) + 1);
  return d;
}

double cmp_now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cmp_sv_push(cmp_strvec *s, const char *x)
{
  if (s->n + 1 >= s->cap) {
    s->cap = s->cap ? 2 * s->cap : 8;
    s->v = cmp_xrealloc(s->v, (size_t)s->cap * sizeof *s->v);
  }
  s->v[s->n++] = x ? cmp_xstrdup(x) : NULL;
  s->v[s->n] = NULL;
}

/* Split TEXT on blanks (no quoting: an argument set is a list of words). */
void cmp_sv_split(cmp_strvec *s, const char *text)
{
  const char *p = text;
  while (*p) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (!*p)
      break;
    const char *e = p;
    while (*e && *e != ' ' && *e != '\t')
      e++;
    char *w = cmp_xmalloc((size_t)(e - p) + 1);
    memcpy(w, p, (size_t)(e - p));
    cmp_sv_push(s, w);
    free(w);
    p = e;
  }
}

/* Shell-quote S for a script line or a dry-run listing. */
void cmp_put_shell(FILE *f, const char *s)
{
  int safe = *s != '\0';
  for (const char *p = s; *p; p++)
    if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') || ('0' <= *p && *p <= '9') || strchr("-_./=:,+%@", *p)))
      safe = 0;
  if (safe) {
    fputs(s, f);
    return;
  }
  fputc('\'', f);
  for (const char *p = s; *p; p++)
    if (*p == '\'')
      fputs("'\\''", f);
    else
      fputc(*p, f);
  fputc('\'', f);
}

/* S whole as a number: a decimal long in [MIN, MAX] / a finite double. 0,
 * or -1 (nothing stored). */
int cmp_parse_long(const char *s, long min, long max, long *out)
{
  char *e;
  errno = 0;
  long v = strtol(s, &e, 10);
  if (e == s || *e != '\0' || errno != 0 || v < min || v > max)
    return -1;
  *out = v;
  return 0;
}

int cmp_parse_double(const char *s, double *out)
{
  char *e;
  errno = 0;
  double v = strtod(s, &e);
  if (e == s || *e != '\0' || errno != 0 || !isfinite(v))
    return -1;
  *out = v;
  return 0;
}

