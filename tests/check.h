/* check.h -- the assertions of hnm's C unit tests (in the style of libuv's
 * test/task.h). Every check counts a pass or prints FILE:LINE, what failed
 * and, for the comparisons, both values, then counts a failure; nothing
 * aborts, so one run reports every mismatch.
 *
 *   CHECK(cond)                 cond is true
 *   CHECK_EQ(got, want)         integers (signed or unsigned) or floating
 *                               values, compared exactly
 *   CHECK_NEAR(got, want, rel)  |got - want| <= rel |want| (got == want
 *                               when want is 0)
 *   CHECK_STREQ(got, want)      strings (NULL compares unequal to any string)
 *   check_at(ok, FILE, LINE, fmt, ...)
 *                               for helpers that check on behalf of a caller:
 *                               counts ok, prints FILE:LINE: and the message
 *                               when !ok
 *
 * Each test's main() ends with `return check_finish();`, which prints
 * "N passed, M failed" (the line ctest readers look for) and returns 1 when
 * a check failed or when no check ran at all: a test that checks nothing
 * fails, it does not pass. Include once, in the test's only translation
 * unit. */
#ifndef HNM_TESTS_CHECK_H
#define HNM_TESTS_CHECK_H

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

__attribute__((format(printf, 4, 5))) static inline int check_at(int ok, const char *file, int line, const char *fmt,
                                                                 ...)
{
  va_list ap;

  if (ok) {
    check_passed++;
    return 1;
  }
  check_failed++;
  fprintf(stderr, "%s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return 0;
}

#define CHECK(cond) check_at((cond) ? 1 : 0, __FILE__, __LINE__, "CHECK failed: %s", #cond)

static inline int check__eq_int(const char *file, int line, const char *a, const char *b, intmax_t got, intmax_t want)
{
  return check_at(got == want, file, line, "CHECK_EQ(%s, %s) failed: got %" PRIdMAX ", want %" PRIdMAX, a, b, got,
                  want);
}

static inline int check__eq_uint(const char *file, int line, const char *a, const char *b, uintmax_t got,
                                 uintmax_t want)
{
  return check_at(got == want, file, line, "CHECK_EQ(%s, %s) failed: got %" PRIuMAX ", want %" PRIuMAX, a, b, got,
                  want);
}

static inline int check__eq_dbl(const char *file, int line, const char *a, const char *b, long double got,
                                long double want)
{
  return check_at(got == want, file, line, "CHECK_EQ(%s, %s) failed: got %.17Lg, want %.17Lg", a, b, got, want);
}

/* The usual arithmetic conversions of got + want pick the comparison: an
 * unsigned operand of the widest rank makes it unsigned, a floating one
 * makes it floating. Each argument is evaluated once. */
#define CHECK_EQ(got, want)                                                                                            \
  _Generic((got) + (want), float                                                                                       \
           : check__eq_dbl, double                                                                                     \
           : check__eq_dbl, long double                                                                                \
           : check__eq_dbl, unsigned int                                                                               \
           : check__eq_uint, unsigned long                                                                             \
           : check__eq_uint, unsigned long long                                                                        \
           : check__eq_uint, default                                                                                   \
           : check__eq_int)(__FILE__, __LINE__, #got, #want, (got), (want))

static inline int check__near(const char *file, int line, const char *a, const char *b, double got, double want,
                              double rel)
{
  double diff = fabs(got - want);
  int ok = want == 0 ? got == 0 : diff <= rel * fabs(want);

  return check_at(ok, file, line, "CHECK_NEAR(%s, %s) failed: got %.17g, want %.17g (relative error %.3g > %g)", a, b,
                  got, want, want == 0 ? diff : diff / fabs(want), rel);
}

#define CHECK_NEAR(got, want, rel) check__near(__FILE__, __LINE__, #got, #want, (got), (want), (rel))

static inline int check__streq(const char *file, int line, const char *a, const char *b, const char *got,
                               const char *want)
{
  int ok = got != NULL && want != NULL && strcmp(got, want) == 0;

  return check_at(ok, file, line, "CHECK_STREQ(%s, %s) failed: got %s%s%s, want %s%s%s", a, b, got ? "\"" : "",
                  got ? got : "NULL", got ? "\"" : "", want ? "\"" : "", want ? want : "NULL", want ? "\"" : "");
}

#define CHECK_STREQ(got, want) check__streq(__FILE__, __LINE__, #got, #want, (got), (want))

/* The exit status of main(): 0 only if at least one check ran and none
 * failed. */
static inline int check_finish(void)
{
  printf("%d passed, %d failed\n", check_passed, check_failed);
  if (check_passed + check_failed == 0) {
    fprintf(stderr, "no check ran: a test that checks nothing fails\n");
    return 1;
  }
  return check_failed != 0;
}

#endif /* HNM_TESTS_CHECK_H */
