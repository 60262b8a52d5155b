/* hnm_calibrate_set.c -- see hnm_calibrate_set.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_set.h"

#include "hnm_out.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SET_MARKER ".hnm-set"

int cal_set_path(const char *out, char *dir, size_t cap)
{
  size_t l = strlen(out);
  if (l > 4 && strcmp(out + l - 4, ".xml") == 0)
    l -= 4;
  int w = snprintf(dir, cap, "%.*s.set", (int)l, out);
  return w < 0 || (size_t)w >= cap ? -1 : 0;
}

/* A name the set itself holds: the marker, central.xml, member-NNN.xml
 * (3 digits or more). */
static int set__own(const char *name)
{
  if (strcmp(name, SET_MARKER) == 0 || strcmp(name, "central.xml") == 0)
    return 1;
  if (strncmp(name, "member-", 7) != 0)
    return 0;
  size_t d = strspn(name + 7, "0123456789");
  return d >= 3 && strcmp(name + 7 + d, ".xml") == 0;
}

int cal_set_check(const char *dir, char *err, size_t errlen)
{
  struct stat st;
  if (lstat(dir, &st) != 0) {
    if (errno == ENOENT)
      return 0;
    hnm_errf(err, errlen, "--bootstrap: '%s': %s", dir, strerror(errno));
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    hnm_errf(err, errlen, "--bootstrap: '%s' exists and is not a model set directory: remove it or choose another -o",
             dir);
    return -1;
  }
  char marker[4200];
  snprintf(marker, sizeof marker, "%s/" SET_MARKER, dir);
  if (lstat(marker, &st) != 0 || !S_ISREG(st.st_mode)) {
    hnm_errf(err, errlen,
             "--bootstrap: '%s' exists and was not written by hnm-calibrate fit --bootstrap (no " SET_MARKER
             " in it): remove it or choose another -o",
             dir);
    return -1;
  }
  DIR *d = opendir(dir);
  if (d == NULL) {
    hnm_errf(err, errlen, "--bootstrap: '%s': %s", dir, strerror(errno));
    return -1;
  }
  int rc = 0;
  for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && !set__own(e->d_name)) {
      hnm_errf(err, errlen, "--bootstrap: '%s' holds '%s', which hnm-calibrate did not write: move it away first",
               dir, e->d_name);
      rc = -1;
    }
  closedir(d);
  return rc;
}

/* Remove the set's own files from DIR, then DIR itself (anything else in
 * it stays, and so does DIR). */
static void set__remove(const char *dir)
{
  DIR *d = opendir(dir);
  if (d == NULL)
    return;
  char p[4400];
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (set__own(e->d_name)) {
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      unlink(p);
    }
  closedir(d);
  rmdir(dir);
}

static int set__model(const char *dir, const char *file, const hnm_model *m, char *err, size_t errlen)
{
  char p[4400];
  snprintf(p, sizeof p, "%s/%s", dir, file);
  hnm_out *o = hnm_out_open(p, "--bootstrap", err, errlen);
  if (o == NULL)
    return -1;
  char e[HNM_ERRLEN];
  if (hnm_model_write(m, hnm_out_file(o), e, sizeof e) != 0) {
    hnm_out_abort(o);
    hnm_errf(err, errlen, "--bootstrap: '%s': %s", p, e);
    return -1;
  }
  return hnm_out_commit(o, err, errlen);
}

static int set__marker(FILE *f, void *ctx)
{
  return fprintf(f, "hnm model set: central.xml and %zu members, written by hnm-calibrate fit --bootstrap\n",
                 *(const size_t *)ctx) < 0 ? -1 : 0;
}

int cal_set_write(const char *dir, const hnm_model *central, hnm_model *const *members, size_t n, char *err,
              size_t errlen)
{
  if (cal_set_check(dir, err, errlen) != 0)
    return -1;
  char tmp[4200], old[4200], p[4400];
  if (snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", dir) >= (int)sizeof tmp || mkdtemp(tmp) == NULL) {
    hnm_errf(err, errlen, "--bootstrap: '%s': cannot create a directory beside it: %s", dir, strerror(errno));
    return -1;
  }
  /* mkdtemp's 0700, widened to what mkdir would have made. */
  mode_t mask = umask(0);
  umask(mask);
  chmod(tmp, 0777 & ~mask);
  int rc = set__model(tmp, "central.xml", central, err, errlen);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    char name[64];
    snprintf(name, sizeof name, "member-%03zu.xml", i + 1);
    rc = set__model(tmp, name, members[i], err, errlen);
  }
  snprintf(p, sizeof p, "%s/" SET_MARKER, tmp);
  if (rc == 0)
    rc = hnm_out_write(p, "--bootstrap", set__marker, &n, err, errlen);
  struct stat st;
  int had = rc == 0 && lstat(dir, &st) == 0;
  if (rc == 0 && had) {
    /* An empty directory is what rename() replaces: the old set moves
     * there, the new one into place, then the old set's files go. */
    if (snprintf(old, sizeof old, "%s.oldXXXXXX", dir) >= (int)sizeof old || mkdtemp(old) == NULL ||
        rename(dir, old) != 0) {
      hnm_errf(err, errlen, "--bootstrap: '%s': cannot move the previous set aside: %s", dir, strerror(errno));
      rmdir(old);
      rc = -1;
    }
  }
  if (rc == 0 && rename(tmp, dir) != 0) {
    hnm_errf(err, errlen, "--bootstrap: '%s': cannot rename the new set into place: %s", dir, strerror(errno));
    if (had)
      rename(old, dir);
    rc = -1;
  }
  if (rc != 0) {
    set__remove(tmp);
    return -1;
  }
  if (had)
    set__remove(old);
  return 0;
}
