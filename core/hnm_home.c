/* hnm_home.c -- where hnm's own files are (hnm_home.h). */
#define _GNU_SOURCE /* dladdr */
#include "hnm_home.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* How many ancestors of the code's directory may hold share/hnm: bin/ (1),
 * libexec/hnm/ or build/tests/X (2), one more for safety. */
#define HOME__MAX_UP 3

static char home__dir[PATH_MAX];
static int home__state; /* 0: not computed, 1: found, -1: not found */

static int home__is_dir(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Strips the last component of path ("/a/b" -> "/a", "/a" -> "/"). */
static void home__dirname(char *path)
{
  char *slash = strrchr(path, '/');
  if (slash == NULL)
    path[0] = '\0';
  else if (slash == path)
    path[1] = '\0';
  else
    *slash = '\0';
}

/* The file of the running code: this shared library if the module is linked
 * into one, else the executable. Absolute, symlinks resolved; 0 or -1. The
 * address asked about is a static function's, which no other object can
 * interpose. */
static int home__code_file(char *out, size_t len)
{
  Dl_info info;
  if (dladdr((void *)&home__dirname, &info) != 0 && info.dli_fname != NULL &&
      (strstr(info.dli_fname, ".so.") != NULL ||
       (strlen(info.dli_fname) > 3 && strcmp(info.dli_fname + strlen(info.dli_fname) - 3, ".so") == 0))) {
    char resolved[PATH_MAX];
    if (realpath(info.dli_fname, resolved) != NULL && strlen(resolved) < len) {
      strcpy(out, resolved);
      return 0;
    }
  }
  ssize_t n = readlink("/proc/self/exe", out, len - 1);
  if (n <= 0 || (size_t)n >= len - 1)
    return -1;
  out[n] = '\0';
  return 0;
}

static void home__compute(void)
{
  const char *env = getenv("HNM_HOME");
  home__state = -1;
  if (env != NULL && *env != '\0') {
    size_t n = strlen(env);
    while (n > 1 && env[n - 1] == '/')
      n--;
    if (n < sizeof home__dir) {
      memcpy(home__dir, env, n);
      home__dir[n] = '\0';
      home__state = 1;
    }
    return;
  }
  char dir[PATH_MAX];
  if (home__code_file(dir, sizeof dir) != 0)
    return;
  home__dirname(dir); /* the code's directory */
  for (int up = 0; up < HOME__MAX_UP && strcmp(dir, "/") != 0; up++) {
    char probe[PATH_MAX + 16];
    home__dirname(dir);
    snprintf(probe, sizeof probe, "%s/share/hnm", strcmp(dir, "/") == 0 ? "" : dir);
    if (home__is_dir(probe)) {
      snprintf(home__dir, sizeof home__dir, "%s", dir);
      home__state = 1;
      return;
    }
  }
}

const char *hnm_home(void)
{
  if (home__state == 0)
    home__compute();
  return home__state == 1 ? home__dir : NULL;
}

char *hnm_home_file(const char *rel)
{
  const char *home = hnm_home();
  if (home == NULL)
    home = "$HNM_HOME";
  else if (strcmp(home, "/") == 0)
    home = "";
  size_t n = strlen(home) + strlen(rel) + 2;
  char *path = malloc(n);
  if (path != NULL)
    snprintf(path, n, "%s/%s", home, rel);
  return path;
}

int hnm_home_path(char *buf, size_t len, const char *rel)
{
  const char *home = hnm_home();
  if (home == NULL) {
    snprintf(buf, len,
             "cannot find hnm's files (no share/hnm next to the running program); set HNM_HOME to the "
             "installation prefix");
    return -1;
  }
  int n = snprintf(buf, len, "%s/%s", strcmp(home, "/") == 0 ? "" : home, rel);
  if (n < 0 || (size_t)n >= len) {
    snprintf(buf, len, "HNM_HOME '%s' is too long", home);
    return -1;
  }
  return 0;
}
