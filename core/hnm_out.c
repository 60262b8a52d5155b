/* hnm_out.c -- output files written through a temporary + rename, or
 * written through when they are not regular files (hnm_out.h). */
#define _POSIX_C_SOURCE 200809L
#include "hnm_out.h"
#include "hnm_units.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

struct hnm_out {
  FILE *fp;
  char *what;   /* "-o", for messages */
  char *path;   /* as the user wrote it, for messages */
  char *target; /* rename destination: path with symbolic links followed; NULL when through */
  char *tmp;    /* the temporary file we created; NULL when through */
  int finished;
  hnm_out *next_pending; /* the list of outputs with a temporary (out__pending) */
};

/* Every output whose temporary exists, so that a tool leaving through
 * exit() on an error found later (after this output was opened) leaves no
 * temporary behind: out__atexit() removes them. Tools are single-threaded. */
static hnm_out *out__pending;

static void out__atexit(void)
{
  for (hnm_out *o = out__pending; o != NULL; o = o->next_pending)
    if (o->tmp != NULL)
      unlink(o->tmp);
  out__pending = NULL;
}

static void out__track(hnm_out *o)
{
  static int registered;
  if (!registered && atexit(out__atexit) == 0)
    registered = 1;
  o->next_pending = out__pending;
  out__pending = o;
}

static void out__untrack(hnm_out *o)
{
  for (hnm_out **p = &out__pending; *p != NULL; p = &(*p)->next_pending)
    if (*p == o) {
      *p = o->next_pending;
      return;
    }
}

static char *out__strdup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d != NULL)
    memcpy(d, s, n);
  return d;
}

/* The directory part of PATH ("." when none), newly allocated. */
static char *out__dirname(const char *path)
{
  const char *slash = strrchr(path, '/');
  if (slash == NULL)
    return out__strdup(".");
  if (slash == path)
    return out__strdup("/");
  char *d = malloc((size_t)(slash - path) + 1);
  if (d != NULL) {
    memcpy(d, path, (size_t)(slash - path));
    d[slash - path] = '\0';
  }
  return d;
}

/* PATH with every symbolic link followed to the final name, which may not
 * exist yet (a dangling link is written through to its target). NULL with
 * errno on failure (ELOOP after 40 links). */
static char *out__resolve(const char *path)
{
  char *cur = out__strdup(path);
  for (int depth = 0; cur != NULL && depth < 40; depth++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
      return cur;
    char link[4096];
    ssize_t n = readlink(cur, link, sizeof link - 1);
    if (n < 0)
      return cur;
    link[n] = '\0';
    char *next;
    if (link[0] == '/') {
      next = out__strdup(link);
    } else {
      char *dir = out__dirname(cur);
      next = dir == NULL ? NULL : malloc(strlen(dir) + strlen(link) + 2);
      if (next != NULL)
        sprintf(next, "%s/%s", dir, link);
      free(dir);
    }
    free(cur);
    cur = next;
  }
  if (cur != NULL) {
    free(cur);
    errno = ELOOP;
  }
  return NULL;
}

static int out__is_stdout(const struct stat *st)
{
  struct stat so;
  return fstat(STDOUT_FILENO, &so) == 0 && so.st_dev == st->st_dev && so.st_ino == st->st_ino;
}

static void out__free(hnm_out *o)
{
  out__untrack(o);
  free(o->what);
  free(o->path);
  free(o->target);
  free(o->tmp);
  free(o);
}

static hnm_out *out__fail(hnm_out *o, int fd, char *err, size_t errlen, const char *reason)
{
  hnm_errf(err, errlen, "%s: '%s': %s", o->what, o->path, reason);
  if (fd >= 0)
    close(fd);
  if (o->tmp != NULL)
    unlink(o->tmp);
  out__free(o);
  return NULL;
}

hnm_out *hnm_out_open(const char *path, const char *what, char *err, size_t errlen)
{
  hnm_out *o = calloc(1, sizeof *o);
  if (o == NULL || (o->what = out__strdup(what)) == NULL ||
      (o->path = out__strdup(path != NULL ? path : "-")) == NULL) {
    if (o != NULL)
      out__free(o);
    hnm_errf(err, errlen, "%s: out of memory", what);
    return NULL;
  }
  int fd = -1, exists = 0;
  struct stat st;
  if (strcmp(o->path, "-") == 0) {
    fd = dup(STDOUT_FILENO);
    goto opened;
  }
  if (o->path[0] == '\0')
    return out__fail(o, fd, err, errlen, "empty file name");
  if (stat(o->path, &st) == 0)
    exists = 1;
  else if (errno != ENOENT)
    return out__fail(o, fd, err, errlen, strerror(errno));
  if (exists && S_ISDIR(st.st_mode))
    return out__fail(o, fd, err, errlen, "is a directory");
  if (exists && (!S_ISREG(st.st_mode) || strncmp(o->path, "/dev/", 5) == 0 || strncmp(o->path, "/proc/", 6) == 0 ||
                 out__is_stdout(&st))) {
    /* Not ours to replace: write through. */
    if (out__is_stdout(&st))
      fd = dup(STDOUT_FILENO);
    else
      fd = open(o->path, O_WRONLY | O_NOCTTY | (S_ISREG(st.st_mode) ? O_TRUNC : 0));
  } else {
    /* A regular file, or nothing yet: a temporary beside the final target. */
    o->target = out__resolve(o->path);
    if (o->target == NULL)
      return out__fail(o, fd, err, errlen, strerror(errno));
    char *dir = out__dirname(o->target);
    const char *base = strrchr(o->target, '/') ? strrchr(o->target, '/') + 1 : o->target;
    o->tmp = dir == NULL ? NULL : malloc(strlen(dir) + strlen(base) + 16);
    if (o->tmp == NULL) {
      free(dir);
      return out__fail(o, fd, err, errlen, "out of memory");
    }
    sprintf(o->tmp, "%s/.%s.XXXXXX", dir, base);
    free(dir);
    fd = mkstemp(o->tmp);
    if (fd >= 0)
      out__track(o);
    if (fd < 0) {
      int e = errno;
      free(o->tmp);
      o->tmp = NULL; /* not created: nothing to remove */
      char reason[512];
      snprintf(reason, sizeof reason, "cannot create: %s", strerror(e));
      return out__fail(o, fd, err, errlen, reason);
    }
    mode_t mode;
    if (exists) {
      mode = st.st_mode & 07777;
    } else {
      mode_t um = umask(0);
      umask(um);
      mode = 0666 & ~um;
    }
    if (fchmod(fd, mode) != 0)
      return out__fail(o, fd, err, errlen, strerror(errno));
  }
opened:
  if (fd < 0)
    return out__fail(o, fd, err, errlen, strerror(errno));
  o->fp = fdopen(fd, "w");
  if (o->fp == NULL)
    return out__fail(o, fd, err, errlen, strerror(errno));
  return o;
}

FILE *hnm_out_file(hnm_out *o)
{
  return o->fp;
}

int hnm_out_is_through(const hnm_out *o)
{
  return o->tmp == NULL;
}

int hnm_out_finish(hnm_out *o, char *err, size_t errlen)
{
  if (o->finished)
    return 0;
  o->finished = 1;
  errno = 0;
  int bad = fflush(o->fp) != 0 || ferror(o->fp);
  int e = errno;
  if (!bad && o->tmp != NULL && fsync(fileno(o->fp)) != 0) {
    bad = 1;
    e = errno;
  }
  if (fclose(o->fp) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  o->fp = NULL;
  if (bad) {
    hnm_errf(err, errlen, "%s: '%s': write error%s%s", o->what, o->path, e ? ": " : "", e ? strerror(e) : "");
    return -1;
  }
  return 0;
}

int hnm_out_commit(hnm_out *o, char *err, size_t errlen)
{
  int rc = hnm_out_finish(o, err, errlen);
  if (rc == 0 && o->tmp != NULL && rename(o->tmp, o->target) != 0) {
    hnm_errf(err, errlen, "%s: '%s': %s", o->what, o->path, strerror(errno));
    rc = -1;
  }
  if (rc == 0) {
    free(o->tmp);
    o->tmp = NULL;
  }
  hnm_out_abort(o);
  return rc;
}

void hnm_out_abort(hnm_out *o)
{
  if (o == NULL)
    return;
  if (o->fp != NULL)
    fclose(o->fp);
  if (o->tmp != NULL)
    unlink(o->tmp);
  out__free(o);
}

int hnm_out_check(const char *path, const char *what, char *err, size_t errlen)
{
  struct stat st;
  const char *reason = NULL;
  char *target = NULL, *dir = NULL;
  if (path == NULL || strcmp(path, "-") == 0)
    return 0;
  if (*path == '\0')
    reason = "empty file name";
  else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    reason = "is a directory";
  else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    reason = access(path, W_OK) != 0 ? strerror(errno) : NULL;
  else if ((target = out__resolve(path)) == NULL)
    reason = strerror(errno);
  else if ((dir = out__dirname(target)) == NULL)
    reason = "out of memory";
  else if (stat(dir, &st) != 0)
    reason = strerror(errno);
  else if (!S_ISDIR(st.st_mode))
    reason = strerror(ENOTDIR);
  else if (access(dir, W_OK | X_OK) != 0)
    reason = strerror(errno);
  if (reason != NULL)
    hnm_errf(err, errlen, "%s: '%s': %s%s", what, path, dir != NULL ? "cannot create: " : "", reason);
  free(target);
  free(dir);
  return reason == NULL ? 0 : -1;
}

int hnm_out_same_file(const char *a, const char *b)
{
  struct stat sa, sb;
  if (a == NULL || b == NULL || strcmp(a, "-") == 0 || strcmp(b, "-") == 0 || stat(a, &sa) != 0 ||
      stat(b, &sb) != 0)
    return 0;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int hnm_out_write(const char *path, const char *what, int (*fn)(FILE *f, void *ctx), void *ctx, char *err,
                  size_t errlen)
{
  hnm_out *o = hnm_out_open(path, what, err, errlen);
  if (o == NULL)
    return -1;
  if (fn(hnm_out_file(o), ctx) != 0) {
    int e = errno;
    hnm_errf(err, errlen, "%s: '%s': write error%s%s", what, path ? path : "-", e ? ": " : "", e ? strerror(e) : "");
    hnm_out_abort(o);
    return -1;
  }
  return hnm_out_commit(o, err, errlen);
}

int hnm_out_mkdirs(const char *dir, char *err, size_t errlen)
{
  if (dir == NULL || *dir == '\0') {
    hnm_errf(err, errlen, "%s", strerror(ENOENT));
    return -1;
  }
  char *d = out__strdup(dir);
  if (d == NULL) {
    hnm_errf(err, errlen, "%s", strerror(ENOMEM));
    return -1;
  }
  for (char *p = d + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(d, 0777) != 0 && errno != EEXIST) {
        hnm_errf(err, errlen, "%s", strerror(errno));
        free(d);
        return -1;
      }
      *p = '/';
    }
  int rc = 0;
  if (mkdir(d, 0777) != 0 && errno != EEXIST) {
    hnm_errf(err, errlen, "%s", strerror(errno));
    rc = -1;
  }
  free(d);
  return rc;
}
