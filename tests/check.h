/* check.h -- the one assertion macro of hnm's C unit tests.
 * CHECK(cond) counts a pass or prints FILE:LINE and the condition and counts
 * a failure; each test's main() ends by printing "N passed, M failed" (the
 * line ctest readers look for) and returning failed != 0. Include once, in
 * the test's only translation unit. */
#ifndef HNM_TESTS_CHECK_H
#define HNM_TESTS_CHECK_H

#include <stdio.h>

static int passed, failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      passed++;                                                                \
    } else {                                                                   \
      failed++;                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#endif /* HNM_TESTS_CHECK_H */
