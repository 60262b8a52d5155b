/* hnm_model_set.c -- model sets (hnm_model_set.h). */
#define _POSIX_C_SOURCE 200809L
#include "hnm_model_set.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hnm_model_impl.h"

/* Members beyond this are refused: a bootstrap of a million models is a
 * mistake, and the set is read whole before anything runs. */
#define SET__MAX_MEMBERS 100000

/* SPEC split at the overrides (the first ':' after the last '/', as
 * hnm_model_parse_spec() does): *path (allocated, trailing '/' removed) and
 * *opts (inside spec, NULL if none). -1 when out of memory. */
static int set__split(const char *spec, char **path, const char **opts)
{
  const char *slash = strrchr(spec, '/');
  /* A trailing '/' is part of the directory's name, not where the
   * overrides may start: look for the last '/' followed by something. */
  size_t len = strlen(spec);
  while (slash != NULL && slash[1] == '\0') {
    const char *p = slash;
    slash = NULL;
    while (p > spec) {
      p--;
      if (*p == '/') {
        slash = p;
        break;
      }
    }
  }
  const char *colon = strchr(slash != NULL ? slash : spec, ':');
  size_t n = colon != NULL ? (size_t)(colon - spec) : len;
  *opts = colon != NULL ? colon + 1 : NULL;
  *path = malloc(n + 1);
  if (*path == NULL)
    return -1;
  memcpy(*path, spec, n);
  (*path)[n] = '\0';
  while (n > 1 && (*path)[n - 1] == '/')
    (*path)[--n] = '\0';
  return 0;
}

int hnm_model_set_is(const char *spec)
{
  char *path;
  const char *opts;
  struct stat st;
  if (spec == NULL || *spec == '\0' || set__split(spec, &path, &opts) != 0)
    return 0;
  size_t n = strlen(path);
  /* A bare word is a bundled model's name even if a directory of that name
   * happens to be in the current directory. */
  int is = (n >= 4 && strcmp(path + n - 4, ".set") == 0) ||
           (strchr(spec, '/') != NULL && stat(path, &st) == 0 && S_ISDIR(st.st_mode));
  free(path);
  return is;
}

/* "member-DIGITS.xml" with at least 3 digits: its number (>= 0), or -1 if
 * NAME is not spelled so. */
static long set__member_number(const char *name)
{
  if (strncmp(name, "member-", 7) != 0)
    return -1;
  const char *d = name + 7;
  size_t nd = 0;
  long v = 0;
  while (isdigit((unsigned char)d[nd])) {
    if (v > SET__MAX_MEMBERS)
      return -1;
    v = v * 10 + (d[nd] - '0');
    nd++;
  }
  if (nd < 3 || strcmp(d + nd, ".xml") != 0)
    return -1;
  return v;
}

static int set__is_member_like(const char *name)
{
  size_t n = strlen(name);
  return strncmp(name, "member-", 7) == 0 && n >= 4 && strcmp(name + n - 4, ".xml") == 0;
}

void hnm_model_set_free(hnm_model_set *s)
{
  if (s == NULL)
    return;
  for (size_t i = 0; s->specs != NULL && i <= s->nmembers; i++)
    free(s->specs[i]);
  for (size_t i = 0; s->files != NULL && i <= s->nmembers; i++)
    free(s->files[i]);
  free(s->specs);
  free(s->files);
  free(s->dir);
  free(s);
}

/* DIR/FILE[:OPTS], allocated. */
static char *set__spec(const char *dir, const char *file, const char *opts)
{
  size_t n = strlen(dir) + strlen(file) + (opts ? strlen(opts) : 0) + 3;
  char *s = malloc(n);
  if (s != NULL)
    snprintf(s, n, "%s/%s%s%s", dir, file, opts ? ":" : "", opts ? opts : "");
  return s;
}

/* Second pass of hnm_model_set_open(): every model loads, with the
 * overrides OPTS (NULL: none). -1 with err filled. */
static int set__load_members(hnm_model_set *s, const char *spec, const char *opts, char *err, size_t errlen)
{
  for (size_t k = 0; k <= s->nmembers; k++) {
    s->specs[k] = set__spec(s->dir, s->files[k], opts);
    if (s->specs[k] == NULL)
      return hnm_fail(err, errlen, "model set '%s': out of memory", spec);
    hnm_model *m = hnm_model_parse_spec(s->specs[k], err, errlen);
    if (m == NULL) {
      /* An override's message names the key, not the file: name it. */
      char file[4096], msg[HNM_ERRLEN];
      snprintf(file, sizeof file, "%s/%s", s->dir, s->files[k]);
      if (err != NULL && errlen > 0 && strncmp(err, file, strlen(file)) != 0) {
        snprintf(msg, sizeof msg, "%s", err);
        hnm_errf(err, errlen, "%s: %s", file, msg);
      }
      return -1;
    }
    hnm_model_free(m);
  }
  return 0;
}

hnm_model_set *hnm_model_set_open(const char *spec, char *err, size_t errlen)
{
  hnm_model_set *s = calloc(1, sizeof *s);
  const char *opts = NULL;
  char **names = NULL; /* indexed by member number, 1..max */
  long max = 0;
  size_t cap = 0;
  DIR *d = NULL;
  if (s == NULL || set__split(spec, &s->dir, &opts) != 0)
    goto oom;
  if (opts != NULL && *opts == '\0') {
    hnm_errf(err, errlen, "--model: '%s': missing overrides after ':'", spec);
    goto err;
  }
  d = opendir(s->dir);
  if (d == NULL && errno == ENOENT && strchr(s->dir, '/') == NULL) {
    /* A bare NAME.set: a bundled set, beside the bundled models. */
    size_t n = strlen(hnm_model_dir()) + strlen(s->dir) + 2;
    char *bundled = malloc(n);
    if (bundled == NULL)
      goto oom;
    snprintf(bundled, n, "%s/%s", hnm_model_dir(), s->dir);
    d = opendir(bundled);
    if (d != NULL) {
      free(s->dir);
      s->dir = bundled;
    } else {
      free(bundled);
      errno = ENOENT;
    }
  }
  if (d == NULL) {
    hnm_errf(err, errlen, "model set '%s': %s (a model set is a directory holding central.xml and "
                "member-001.xml ...)", s->dir, strerror(errno));
    goto err;
  }
  /* First pass: the members' numbers, refused names, duplicates. */
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!set__is_member_like(e->d_name))
      continue;
    long k = set__member_number(e->d_name);
    if (k < 1 || k > SET__MAX_MEMBERS) {
      hnm_errf(err, errlen, "%s/%s: not a member's name (member-NNN.xml, N from 1, at least 3 digits, at most %d members)",
                  s->dir, e->d_name, SET__MAX_MEMBERS);
      goto err;
    }
    if ((size_t)k >= cap) {
      size_t ncap = cap ? cap : 64;
      while (ncap <= (size_t)k)
        ncap *= 2;
      char **nn = realloc(names, ncap * sizeof *nn);
      if (nn == NULL)
        goto oom;
      memset(nn + cap, 0, (ncap - cap) * sizeof *nn);
      names = nn;
      cap = ncap;
    }
    if (names[k] != NULL) {
      hnm_errf(err, errlen, "%s/%s: member %ld given twice (also %s)", s->dir, e->d_name, k, names[k]);
      goto err;
    }
    names[k] = model__strdup(e->d_name);
    if (names[k] == NULL)
      goto oom;
    if (k > max)
      max = k;
  }
  closedir(d);
  d = NULL;
  if (max == 0) {
    hnm_errf(err, errlen, "model set '%s': no member (member-001.xml ...; a set needs at least one)", s->dir);
    goto err;
  }
  for (long k = 1; k <= max; k++)
    if (names[k] == NULL) {
      hnm_errf(err, errlen, "%s/member-%03ld.xml: missing (members are numbered 1..N without gaps; the set has "
                  "%s)", s->dir, k, names[max]);
      goto err;
    }
  s->nmembers = (size_t)max;
  s->specs = calloc(s->nmembers + 1, sizeof *s->specs);
  s->files = calloc(s->nmembers + 1, sizeof *s->files);
  if (s->specs == NULL || s->files == NULL)
    goto oom;
  s->files[0] = model__strdup("central.xml");
  if (s->files[0] == NULL)
    goto oom;
  for (long k = 1; k <= max; k++) {
    s->files[k] = names[k];
    names[k] = NULL;
  }
  if (set__load_members(s, spec, opts, err, errlen) != 0)
    goto err;
  free(names);
  return s;
oom:
  hnm_errf(err, errlen, "model set '%s': out of memory", spec);
err:
  if (d != NULL)
    closedir(d);
  for (size_t k = 0; k < cap; k++)
    free(names[k]);
  free(names);
  hnm_model_set_free(s);
  return NULL;
}

static int set__cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double hnm_quantile(double *v, size_t n, double p)
{
  if (n == 0)
    return NAN;
  qsort(v, n, sizeof *v, set__cmp_double);
  double h = (double)(n - 1) * p;
  size_t lo = (size_t)floor(h);
  if (lo + 1 >= n)
    return v[n - 1];
  return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}
