/* libFuzzer target: hnm-run's hostfile check (run_check_hostfile_text)
 * against a fixed host list, and its -np parser. Refusals are fine; a
 * crash, a sanitizer report, or an accepted hostfile whose capacity is not
 * in [1, INT_MAX] is a failure. */
#include "hnm_check.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *names[] = {"a", "n-0", "n-1", "node-0", "x:y"};
static const run_platform_info info = {names, 5, 0, 0};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char err[HNM_ERRLEN];
  long slots = 0;
  if (run_check_hostfile_text("fuzz.hosts", (const char *)data, size, &info, &slots, err, sizeof err) == 0 &&
      (slots < 1 || slots > INT_MAX))
    abort();
  char *s = malloc(size + 1);
  if (s == NULL)
    return 0;
  memcpy(s, data, size);
  s[size] = '\0';
  long np = 0;
  if (run_check_np(s, &np, err, sizeof err) == 0 && (np < 1 || np > INT_MAX))
    abort();
  free(s);
  return 0;
}
