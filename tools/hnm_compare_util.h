/* hnm-compare: small helpers (allocation that never returns NULL, string
 * vectors, shell quoting, number parsing, a monotonic clock). */
#ifndef HNM_COMPARE_UTIL_H
#define HNM_COMPARE_UTIL_H

#include <setjmp.h>
#include <stdio.h>
#include <stddef.h>

/* A growable array of strings. */
typedef struct {
  char **v;
  int n, cap;
} cmp_strvec;

/* Out of memory: cmp_xmalloc(), cmp_xrealloc(), cmp_xstrdup() and what
 * allocates through them (string vectors, keys, the grid) neither print nor
 * exit: they longjmp() to cmp_oom, which main() sets before it runs a
 * command; main() then prints "out of memory" and exits 1 (failed work).
 * Nothing is allocated by them before main() sets it. */
extern jmp_buf cmp_oom;
void *cmp_xmalloc(size_t n);
void *cmp_xrealloc(void *p, size_t n);
char *cmp_xstrdup(const char *s);
double cmp_now_s(void);
void cmp_sv_push(cmp_strvec *s, const char *x);
void cmp_sv_split(cmp_strvec *s, const char *text);
void cmp_put_shell(FILE *f, const char *s);
int cmp_parse_long(const char *s, long min, long max, long *out);
int cmp_parse_double(const char *s, double *out);

#endif
