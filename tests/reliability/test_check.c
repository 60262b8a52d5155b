/* Unit tests of hnm-run's input checks (tools/hnm_check.h) and of the
 * non-blocking input opener (core/hnm_input.h): exact accept/refuse
 * decisions at every boundary (INT_MAX, HOST:N limits, empty lines). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "hnm_check.h"
#include "hnm_input.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *host_names[] = {"a", "b", "n-0", "node:1"}; /* sorted */
static const hnm_platform_info info = {host_names, 4, 0, 0};

static long slots_of(const char *text)
{
  hnm_error err;
  long slots = -1;
  if (hnm_check_hostfile_text("h", text, strlen(text), &info, &slots, &err) != 0)
    return -1;
  return slots;
}

static int np_ok(const char *s, long want)
{
  hnm_error err;
  long np = 0;
  return hnm_check_np(s, &np, &err) == 0 && np == want;
}

static int np_refused(const char *s)
{
  hnm_error err;
  long np = 0;
  return hnm_check_np(s, &np, &err) != 0 && strstr(err.msg, "-np '") != NULL;
}

int main(void)
{
  /* -np: decimal digits, 1 .. INT_MAX. */
  CHECK(np_ok("1", 1));
  CHECK(np_ok("2", 2));
  CHECK(np_ok("2147483647", 2147483647L));
  CHECK(np_ok("007", 7));
  CHECK(np_refused("0"));
  CHECK(np_refused("2147483648"));
  CHECK(np_refused("99999999999999999999"));
  CHECK(np_refused("-1"));
  CHECK(np_refused("+2"));
  CHECK(np_refused("2.5"));
  CHECK(np_refused("1e3"));
  CHECK(np_refused("abc"));
  CHECK(np_refused(""));
  CHECK(np_refused(" 2"));
  CHECK(np_refused("2 "));

  /* Hostfiles: capacity, empty lines, HOST:N (split at the last colon). */
  CHECK(slots_of("a\n") == 1);
  CHECK(slots_of("a") == 1); /* no final newline */
  CHECK(slots_of("a\nb\n") == 2);
  CHECK(slots_of("a\n\n\nb\n\n") == 2);
  CHECK(slots_of("a:1\n") == 1);
  CHECK(slots_of("a:3\nb:2\n") == 5);
  CHECK(slots_of("a:1048576\n") == 1048576);
  CHECK(slots_of("a:1048577\n") == -1);
  CHECK(slots_of("node:1\n") == -1);   /* host "node", N = 1: not a host */
  CHECK(slots_of("node:1:2\n") == 2);  /* host "node:1", N = 2 */
  CHECK(slots_of("a:0\n") == -1);
  CHECK(slots_of("a:\n") == -1);
  CHECK(slots_of(":3\n") == -1);
  CHECK(slots_of("a:+1\n") == -1);
  CHECK(slots_of("a:-1\n") == -1);
  CHECK(slots_of("a:1.5\n") == -1);
  CHECK(slots_of("a:x\n") == -1);
  CHECK(slots_of("") == -1);
  CHECK(slots_of("\n\n") == -1);
  CHECK(slots_of(" a\n") == -1);
  CHECK(slots_of("a \n") == -1);
  CHECK(slots_of("a\tb\n") == -1);
  CHECK(slots_of(" \n") == -1);
  CHECK(slots_of("a\r\n") == -1);
  CHECK(slots_of("c\n") == -1);
  CHECK(slots_of("A\n") == -1);
  /* INT_MAX ranks in all, not one more. */
  {
    long per = 1048576, full = INT_MAX / per, rest = INT_MAX % per;
    char *buf = calloc((size_t)(full + 4) * 16, 1);
    size_t n = 0;
    CHECK(buf != NULL);
    for (long i = 0; buf && i < full; i++)
      n += (size_t)sprintf(buf + n, "a:1048576\n");
    if (buf) {
      n += (size_t)sprintf(buf + n, "b:%ld\n", rest);
      CHECK(slots_of(buf) == INT_MAX);
      sprintf(buf + n, "a\n");
      CHECK(slots_of(buf) == -1);
    }
    free(buf);
  }
  /* Messages name the file and line. */
  {
    hnm_error err;
    long slots;
    const char *t = "a\n\nfoo\n";
    CHECK(hnm_check_hostfile_text("hosts.txt", t, strlen(t), &info, &slots, &err) != 0);
    CHECK(strcmp(err.msg, "hosts.txt:3: host 'foo' is not in the platform") == 0);
    /* NUL bytes: not a text file. */
    CHECK(hnm_check_hostfile_text("bin", "a\0b\n", 4, &info, &slots, &err) != 0);
    /* Without platform information, any name is a host. */
    CHECK(hnm_check_hostfile_text("h", "zz:2\n", 5, NULL, &slots, &err) == 0 && slots == 2);
  }

  /* hnm_input: regular files only, never blocking. */
  {
    char dir[] = "/tmp/hnm-test-check-XXXXXX", path[256], err[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    CHECK(hnm_input_check(path, err, sizeof err) != 0 && strcmp(err, "not a regular file (a named pipe)") == 0);
    CHECK(hnm_input_open(path, err, sizeof err) == NULL);
    unlink(path);
    CHECK(hnm_input_check(dir, err, sizeof err) != 0 && strcmp(err, "not a regular file (a directory)") == 0);
    CHECK(hnm_input_check("/dev/null", err, sizeof err) != 0 &&
          strcmp(err, "not a regular file (a character device)") == 0);
    CHECK(hnm_input_check("", err, sizeof err) != 0);
    snprintf(path, sizeof path, "%s/missing", dir);
    CHECK(hnm_input_check(path, err, sizeof err) != 0 && strncmp(err, "cannot open: ", 13) == 0);
    snprintf(path, sizeof path, "%s/file", dir);
    FILE *w = fopen(path, "w");
    CHECK(w != NULL && fputs("x\n", w) >= 0 && fclose(w) == 0);
    FILE *r = hnm_input_open(path, err, sizeof err);
    char line[8] = "";
    CHECK(r != NULL && fgets(line, sizeof line, r) != NULL && strcmp(line, "x\n") == 0);
    if (r)
      fclose(r);
    unlink(path);
    rmdir(dir);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
