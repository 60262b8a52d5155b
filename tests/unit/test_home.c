/* test_home.c -- hnm_home (core/hnm_home.h): the home is $HNM_HOME (trailing
 * '/' dropped, "/" kept) or the nearest ancestor of the running program's
 * directory that has share/hnm -- for this test, build/tests/unit, the build
 * tree (HNM_TEST_BUILD_DIR), two levels up. hnm_home() caches its answer,
 * so each case runs in a child process.
 * Prints "N passed, M failed"; exits non-zero if anything failed. */
#define _DEFAULT_SOURCE /* realpath */
#include "check.h"
#include "hnm_home.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef HNM_TEST_BUILD_DIR
#error "compile with -DHNM_TEST_BUILD_DIR=\"<build tree>\""
#endif

/* Runs case_fn in a child with $HNM_HOME = home (NULL: unset); the child's
 * checks are reported by its exit status (0: all passed). */
static void in_child(const char *home, int (*case_fn)(void), const char *what)
{
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    if (home != NULL)
      setenv("HNM_HOME", home, 1);
    else
      unsetenv("HNM_HOME");
    _exit(case_fn());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
    fprintf(stderr, "case failed: %s\n", what);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int same(const char *got, const char *want)
{
  if (got != NULL && strcmp(got, want) == 0)
    return 1;
  fprintf(stderr, "got '%s', want '%s'\n", got ? got : "(null)", want);
  return 0;
}

static int case_env_trailing_slashes(void)
{
  char buf[64];
  char *file = hnm_home_file(HNM_HOME_PLUGIN);
  int ok = same(hnm_home(), "/opt/hnm") && hnm_home_path(buf, sizeof buf, HNM_HOME_MODELS) == 0 &&
           same(buf, "/opt/hnm/share/hnm/models") && same(file, "/opt/hnm/lib/libhnm.so");
  free(file);
  return !ok;
}

static int case_env_root(void)
{
  char buf[64];
  return !(same(hnm_home(), "/") && hnm_home_path(buf, sizeof buf, HNM_HOME_APPS "/calibrate") == 0 &&
           same(buf, "/libexec/hnm/calibrate"));
}

static int case_env_too_small_buffer(void)
{
  char buf[12]; /* "/opt/hnm/bin" needs 13 bytes */
  return !(hnm_home_path(buf, sizeof buf, HNM_HOME_BIN) == -1 && strstr(buf, "HNM_HOME") != NULL);
}

/* The build tree as the running program sees it (symlinks resolved). */
static const char *build_dir(void)
{
  static char real[4096];
  return realpath(HNM_TEST_BUILD_DIR, real) != NULL ? real : HNM_TEST_BUILD_DIR;
}

static int case_found_from_program(void)
{
  char buf[4200], want[4200];
  snprintf(want, sizeof want, "%s/share/hnm/platforms", build_dir());
  return !(same(hnm_home(), build_dir()) && hnm_home_path(buf, sizeof buf, HNM_HOME_PLATFORMS) == 0 &&
           same(buf, want) && access(buf, R_OK) == 0);
}

static int case_empty_env_is_unset(void)
{
  return !same(hnm_home(), build_dir());
}

int main(void)
{
  in_child("/opt/hnm//", case_env_trailing_slashes, "HNM_HOME=/opt/hnm//");
  in_child("/", case_env_root, "HNM_HOME=/");
  in_child("/opt/hnm", case_env_too_small_buffer, "path longer than the buffer");
  in_child(NULL, case_found_from_program, "no HNM_HOME: found from build/tests/unit");
  in_child("", case_empty_env_is_unset, "HNM_HOME empty");
  return check_finish();
}
