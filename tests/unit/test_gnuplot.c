/* test_gnuplot.c -- core's gnuplot runner (core/hnm_gnuplot.h), against a
 * stand-in gnuplot on $PATH that records its arguments, writes a line on
 * stderr and exits with $GP_EXIT: the script path reaches gnuplot as one
 * argument whatever it holds (no shell), a failure and a missing gnuplot
 * are one line each, HNM_GNUPLOT_QUIET silences gnuplot's stderr; and the
 * string writer's escapes.
 * Prints "N passed, M failed"; exits non-zero if anything failed. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "hnm_gnuplot.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/hnm-test-gnuplot-XXXXXX";

static int write_file(const char *path, const char *text, mode_t mode)
{
  FILE *f = fopen(path, "w");
  if (f == NULL)
    return -1;
  fputs(text, f);
  return fclose(f) == 0 && chmod(path, mode) == 0 ? 0 : -1;
}

/* The whole content of PATH into buf (at most len - 1 bytes). */
static const char *read_file(const char *path, char *buf, size_t len)
{
  FILE *f = fopen(path, "r");
  size_t n = f != NULL ? fread(buf, 1, len - 1, f) : 0;
  buf[n] = '\0';
  if (f != NULL)
    fclose(f);
  return buf;
}

/* hnm_gnuplot_run with stderr into a file: its return, err, and what gnuplot printed there. */
static int run_captured(const char *script, int flags, char *err, size_t errlen, char *printed, size_t plen)
{
  char path[256];
  snprintf(path, sizeof path, "%s/stderr", dir);
  fflush(stderr);
  int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 2);
  close(fd);
  int rc = hnm_gnuplot_run(script, flags, err, errlen);
  dup2(saved, 2);
  close(saved);
  read_file(path, printed, plen);
  return rc;
}

int main(void)
{
  char path[512], script[512], args[512], want[1024], err[1200], printed[256], buf[1024];
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(path, sizeof path, "%s/gnuplot", dir);
  snprintf(args, sizeof args, "%s/args", dir);
  CHECK(write_file(path, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$GP_ARGS\"\necho 'gnuplot says' >&2\nexit ${GP_EXIT:-0}\n",
                   0755) == 0);
  setenv("PATH", dir, 1);
  setenv("GP_ARGS", args, 1);
  /* A quote, a space and a dollar: a shell would have split or expanded them. */
  snprintf(script, sizeof script, "%s/it's a $plot.gp", dir);

  CHECK(run_captured(script, 0, err, sizeof err, printed, sizeof printed) == 0);
  snprintf(want, sizeof want, "%s\n", script);
  CHECK(strcmp(read_file(args, buf, sizeof buf), want) == 0);
  CHECK(strcmp(printed, "gnuplot says\n") == 0);
  CHECK(run_captured(script, HNM_GNUPLOT_QUIET, err, sizeof err, printed, sizeof printed) == 0);
  CHECK(strcmp(printed, "") == 0);

  setenv("GP_EXIT", "3", 1);
  CHECK(run_captured(script, HNM_GNUPLOT_QUIET, err, sizeof err, printed, sizeof printed) == -1);
  snprintf(want, sizeof want, "gnuplot failed on %s", script);
  CHECK(strcmp(err, want) == 0);
  if (strcmp(err, want) != 0)
    fprintf(stderr, "  got  '%s'\n  want '%s'\n", err, want);
  unsetenv("GP_EXIT");

  unlink(path);
  CHECK(run_captured(script, 0, err, sizeof err, printed, sizeof printed) == -1);
  snprintf(want, sizeof want, "cannot run gnuplot: No such file or directory (install gnuplot-nox; the script is %s)",
           script);
  CHECK(strcmp(err, want) == 0);
  if (strcmp(err, want) != 0)
    fprintf(stderr, "  got  '%s'\n  want '%s'\n", err, want);
  CHECK(strcmp(printed, "") == 0);

  /* Strings: quote and backslash escaped, line breaks and tabs written as escapes. */
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (f != NULL) {
    hnm_gnuplot_string(f, "a\"b\\c\nd\te\r");
    hnm_gnuplot_string(f, "");
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    CHECK(strcmp(buf, "\"a\\\"b\\\\c\\nd\\te\\r\"\"\"") == 0);
    if (strcmp(buf, "\"a\\\"b\\\\c\\nd\\te\\r\"\"\"") != 0)
      fprintf(stderr, "  got  '%s'\n", buf);
  }

  snprintf(path, sizeof path, "%s/stderr", dir);
  unlink(path);
  unlink(args);
  rmdir(dir);
  return check_finish();
}
