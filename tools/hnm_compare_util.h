/* hnm-compare: small helpers (messages, allocation, string vectors, CSV and
 * shell quoting, number parsing, mkdir -p). */
#ifndef HNM_COMPARE_UTIL_H
#define HNM_COMPARE_UTIL_H

#include <stdio.h>
#include <stddef.h>

/* A growable array of strings. */
typedef struct {
  char **v;
  int n, cap;
} strvec;

int cmp_fail(const char *fmt, ...);
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
double now_s(void);
void sv_push(strvec *s, const char *x);
void sv_split(strvec *s, const char *text);
void put_shell(FILE *f, const char *s);
int parse_long(const char *s, long min, long max, long *out);
int parse_double(const char *s, double *out);

#endif
