/* hnm_out.c -- output files written through a temporary + rename, or
 * written through when they are not regular files (hnm_out.h). */
#define _GNU_SOURCE /* fopencookie */
#include "hnm_out.h"
#include "hnm_units.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

struct hnm_out {
  FILE *fp;
  int fd;       /* what fp writes to */
  int werr;     /* errno of the first failed write (a stream's error flag forgets it) */
  char *what;   /* "-o", for messages */
  char *path;   /* as the user wrote it, for messages */
  char *target; /* rename destination: path with symbolic links followed; NULL when through */
  char *tmp;    /* the temporary file we created; NULL when through */
  int finished;
  hnm_out *next_pending; /* the list of outputs with a temporary (out__pending) */
};

/* Output directories not committed yet (hnm_out_dir_open()): removed at exit. */
struct hnm_out_dir {
  char *what, *path; /* the final directory, as the user wrote it */
  char *tmp;         /* the temporary directory beside it */
  char **made;       /* missing parents of path we created, outermost first */
  size_t nmade;
  hnm_out_dir *next_pending;
};
static hnm_out_dir *out__dirs;
static void out__dir_remove(hnm_out_dir *d);

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
  for (hnm_out_dir *d = out__dirs; d != NULL; d = d->next_pending)
    out__dir_remove(d);
  out__dirs = NULL;
}

/* The entries of directory DIR unlinked, with system calls only (no
 * opendir(), which allocates): async-signal-safe. */
static void out__signal_empty_dir(const char *dir)
{
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return;
  char buf[4096] __attribute__((aligned(8)));
  long n;
  while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
    for (long off = 0; off < n;) {
      /* struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name */
      unsigned short reclen;
      memcpy(&reclen, buf + off + 16, sizeof reclen);
      const char *name = buf + off + 19;
      if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
        unlinkat(fd, name, 0);
      off += reclen;
    }
  close(fd);
}

void hnm_out_signal_cleanup(void)
{
  for (hnm_out *o = out__pending; o != NULL; o = o->next_pending) {
    const char *t = o->tmp;
    if (t != NULL)
      unlink(t);
  }
  for (hnm_out_dir *d = out__dirs; d != NULL; d = d->next_pending) {
    const char *t = d->tmp;
    if (t != NULL) {
      out__signal_empty_dir(t);
      rmdir(t);
    }
    for (size_t i = d->nmade; i > 0; i--)
      if (d->made[i - 1] != NULL)
        rmdir(d->made[i - 1]);
  }
}

static void out__register(void)
{
  static int registered;
  if (!registered && atexit(out__atexit) == 0)
    registered = 1;
}

static void out__track(hnm_out *o)
{
  out__register();
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

static ssize_t out__cookie_write(void *cookie, const char *buf, size_t size)
{
  hnm_out *o = cookie;
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(o->fd, buf + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (o->werr == 0)
        o->werr = n < 0 ? errno : ENOSPC;
      return done > 0 ? (ssize_t)done : -1;
    }
    done += (size_t)n;
  }
  return (ssize_t)done;
}

static int out__cookie_close(void *cookie)
{
  hnm_out *o = cookie;
  int rc = close(o->fd);
  o->fd = -1;
  return rc;
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
  /* A file of an output directory not committed yet: messages name its
   * final place, not the temporary. */
  for (hnm_out_dir *d = out__dirs; d != NULL && path != NULL; d = d->next_pending) {
    size_t l = strlen(d->tmp);
    if (strncmp(path, d->tmp, l) == 0 && path[l] == '/') {
      char *shown = malloc(strlen(d->path) + strlen(path + l) + 1);
      if (shown != NULL) {
        sprintf(shown, "%s%s", d->path, path + l);
        free(o->path);
        o->path = shown;
      }
      break;
    }
  }
  const char *real = path != NULL ? path : "-";
  int fd = -1, exists = 0;
  struct stat st;
  if (strcmp(real, "-") == 0) {
    fd = dup(STDOUT_FILENO);
    goto opened;
  }
  if (real[0] == '\0')
    return out__fail(o, fd, err, errlen, "empty file name");
  if (hnm_out_not_input(real, o->what, err, errlen) != 0) {
    out__free(o);
    return NULL;
  }
  if (stat(real, &st) == 0)
    exists = 1;
  else if (errno != ENOENT)
    return out__fail(o, fd, err, errlen, strerror(errno));
  if (exists && S_ISDIR(st.st_mode))
    return out__fail(o, fd, err, errlen, "is a directory");
  if (exists && (!S_ISREG(st.st_mode) || strncmp(real, "/dev/", 5) == 0 || strncmp(real, "/proc/", 6) == 0 ||
                 out__is_stdout(&st))) {
    /* Not ours to replace: write through. A named pipe is opened without
     * blocking (no reader: ENXIO, said as such, rather than a tool that
     * hangs), then written with blocking writes. */
    if (out__is_stdout(&st))
      fd = dup(STDOUT_FILENO);
    else
      fd = open(real, O_WRONLY | O_NOCTTY | (S_ISREG(st.st_mode) ? O_TRUNC : 0) | (S_ISFIFO(st.st_mode) ? O_NONBLOCK : 0));
    if (fd < 0 && S_ISFIFO(st.st_mode) && errno == ENXIO)
      return out__fail(o, fd, err, errlen, "a named pipe without a reader");
    if (fd >= 0 && S_ISFIFO(st.st_mode))
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  } else {
    /* A regular file, or nothing yet: a temporary beside the final target. */
    o->target = out__resolve(real);
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
  /* A stream of our own over fd, so that the reason of a failed write
   * (ENOSPC, EFBIG, EIO) is kept for the message, whoever wrote (libxml2's
   * writer calls fwrite and loses errno). */
  static const cookie_io_functions_t io = {.write = out__cookie_write, .close = out__cookie_close};
  o->fd = fd;
  o->fp = fopencookie(o, "w", io);
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
  int e = o->werr ? o->werr : errno;
  if (!bad && o->tmp != NULL && fsync(o->fd) != 0) {
    bad = 1;
    e = errno;
  }
  if (fclose(o->fp) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  o->fp = NULL;
  if (bad) {
    if (strcmp(o->path, "-") == 0)
      hnm_errf(err, errlen, "standard output: write error%s%s", e ? ": " : "", e ? strerror(e) : "");
    else
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
    char *t = o->tmp;
    o->tmp = NULL; /* first: hnm_out_signal_cleanup() may read it at any time */
    free(t);
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

/* ---- the inputs (hnm_out_input) ---------------------------------------- */

struct out_input {
  dev_t dev;
  ino_t ino;
  char *path, *what;
};
static struct out_input *out__inputs;
static size_t out__ninputs, out__capinputs;

int hnm_out_input(const char *path, const char *input, char *err, size_t errlen)
{
  struct stat st;
  if (path == NULL || strcmp(path, "-") == 0 || stat(path, &st) != 0)
    return 0;
  if (out__ninputs == out__capinputs) {
    size_t cap = out__capinputs != 0 ? 2 * out__capinputs : 8;
    struct out_input *grown = realloc(out__inputs, cap * sizeof *grown);
    if (grown == NULL) {
      hnm_errf(err, errlen, "%s: out of memory", input);
      return -1;
    }
    out__inputs = grown;
    out__capinputs = cap;
  }
  struct out_input *in = &out__inputs[out__ninputs];
  if ((in->path = out__strdup(path)) == NULL || (in->what = out__strdup(input)) == NULL) {
    free(in->path);
    hnm_errf(err, errlen, "%s: out of memory", input);
    return -1;
  }
  in->dev = st.st_dev;
  in->ino = st.st_ino;
  out__ninputs++;
  return 0;
}

int hnm_out_not_input(const char *path, const char *what, char *err, size_t errlen)
{
  struct stat st;
  if (path == NULL || strcmp(path, "-") == 0 || out__ninputs == 0 || stat(path, &st) != 0)
    return 0;
  for (size_t i = 0; i < out__ninputs; i++)
    if (out__inputs[i].dev == st.st_dev && out__inputs[i].ino == st.st_ino) {
      hnm_errf(err, errlen, "%s: '%s' is %s '%s': writing it would destroy it", what, path, out__inputs[i].what,
               out__inputs[i].path);
      return -1;
    }
  return 0;
}

void hnm_out_inputs_clear(void)
{
  for (size_t i = 0; i < out__ninputs; i++) {
    free(out__inputs[i].path);
    free(out__inputs[i].what);
  }
  free(out__inputs);
  out__inputs = NULL;
  out__ninputs = out__capinputs = 0;
}

int hnm_out_regular(const char *path, const char *what, char *err, size_t errlen)
{
  struct stat st;
  if (hnm_out_check(path, what, err, errlen) != 0)
    return -1;
  if (path != NULL && strcmp(path, "-") != 0 && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    hnm_errf(err, errlen, "%s: '%s': not a regular file (%s)", what, path,
             S_ISFIFO(st.st_mode) ? "a FIFO would block" : "a device or socket cannot take it");
    return -1;
  }
  return 0;
}

int hnm_out_check(const char *path, const char *what, char *err, size_t errlen)
{
  struct stat st;
  const char *reason = NULL;
  char *target = NULL, *dir = NULL;
  if (path == NULL || strcmp(path, "-") == 0)
    return 0;
  if (hnm_out_not_input(path, what, err, errlen) != 0)
    return -1;
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
    int e = o->werr ? o->werr : errno;
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

/* ---- output directories ------------------------------------------------- */

static void out__dir_free(hnm_out_dir *d)
{
  for (hnm_out_dir **p = &out__dirs; *p != NULL; p = &(*p)->next_pending)
    if (*p == d) {
      *p = d->next_pending;
      break;
    }
  for (size_t i = 0; i < d->nmade; i++)
    free(d->made[i]);
  free(d->made);
  free(d->what);
  free(d->path);
  free(d->tmp);
  free(d);
}

/* The temporary and what was written into it (files only: the tool writes
 * no subdirectory; one would stay, and so would the temporary), then the
 * parents we made, innermost first, when empty. */
static void out__dir_remove(hnm_out_dir *d)
{
  if (d->tmp != NULL) {
    DIR *dir = opendir(d->tmp);
    if (dir != NULL) {
      for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
          continue;
        char *p = malloc(strlen(d->tmp) + strlen(e->d_name) + 2);
        if (p != NULL) {
          sprintf(p, "%s/%s", d->tmp, e->d_name);
          unlink(p);
          free(p);
        }
      }
      closedir(dir);
    }
    rmdir(d->tmp);
    char *t = d->tmp;
    d->tmp = NULL; /* first: hnm_out_signal_cleanup() may read it at any time */
    free(t);
  }
  while (d->nmade > 0) {
    rmdir(d->made[d->nmade - 1]);
    free(d->made[--d->nmade]);
  }
}

static hnm_out_dir *out__dir_fail(hnm_out_dir *d, char *err, size_t errlen, const char *reason, int e)
{
  hnm_errf(err, errlen, "%s: '%s': %s%s%s", d->what, d->path, reason, e ? ": " : "", e ? strerror(e) : "");
  out__dir_remove(d);
  out__dir_free(d);
  return NULL;
}

hnm_out_dir *hnm_out_dir_open(const char *path, const char *what, char *err, size_t errlen)
{
  hnm_out_dir *d = calloc(1, sizeof *d);
  if (d == NULL || (d->what = out__strdup(what)) == NULL || (d->path = out__strdup(path)) == NULL ||
      (d->made = calloc(strlen(path) + 1, sizeof *d->made)) == NULL) {
    if (d != NULL)
      free(d->what), free(d->path), free(d);
    hnm_errf(err, errlen, "%s: out of memory", what);
    return NULL;
  }
  /* Tracked from the start: an exit() anywhere below removes what we made. */
  out__register();
  d->next_pending = out__dirs;
  out__dirs = d;
  struct stat st;
  if (*path == '\0')
    return out__dir_fail(d, err, errlen, "empty directory name", 0);
  if (hnm_out_not_input(path, what, err, errlen) != 0) {
    out__dir_remove(d);
    out__dir_free(d);
    return NULL;
  }
  if (stat(path, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return out__dir_fail(d, err, errlen, "exists and is not a directory", 0);
    if (access(path, W_OK | X_OK) != 0)
      return out__dir_fail(d, err, errlen, "cannot write into it", errno);
  } else if (errno != ENOENT) {
    return out__dir_fail(d, err, errlen, "cannot create", errno);
  }
  /* The missing parents, outermost first (each one recorded: ours to remove). */
  char *parent = out__dirname(path);
  if (parent == NULL)
    return out__dir_fail(d, err, errlen, "out of memory", 0);
  for (char *p = parent + 1;; p++) {
    if (*p != '/' && *p != '\0')
      continue;
    char c = *p;
    *p = '\0';
    if (mkdir(parent, 0777) == 0) {
      d->made[d->nmade] = out__strdup(parent);
      if (d->made[d->nmade] != NULL)
        d->nmade++;
    } else if (errno != EEXIST) {
      int e = errno;
      free(parent);
      return out__dir_fail(d, err, errlen, "cannot create", e);
    }
    *p = c;
    if (c == '\0')
      break;
  }
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  d->tmp = malloc(strlen(parent) + strlen(base) + 16);
  if (d->tmp == NULL) {
    free(parent);
    return out__dir_fail(d, err, errlen, "out of memory", 0);
  }
  sprintf(d->tmp, "%s/.%s.XXXXXX", parent, *base ? base : "dir");
  free(parent);
  if (mkdtemp(d->tmp) == NULL) {
    int e = errno;
    free(d->tmp);
    d->tmp = NULL; /* not created: nothing to remove */
    return out__dir_fail(d, err, errlen, "cannot create", e);
  }
  /* mkdtemp's 0700, widened to what mkdir would have made. */
  mode_t um = umask(0);
  umask(um);
  chmod(d->tmp, 0777 & ~um);
  return d;
}

const char *hnm_out_dir_path(const hnm_out_dir *d)
{
  return d->tmp;
}

int hnm_out_dir_commit(hnm_out_dir *d, char *err, size_t errlen)
{
  struct stat st;
  int rc = 0;
  if (stat(d->path, &st) != 0) {
    if (rename(d->tmp, d->path) == 0) {
      char *t = d->tmp;
      d->tmp = NULL;
      free(t);
      out__dir_free(d); /* the parents hold the directory now: kept */
      return 0;
    }
    hnm_errf(err, errlen, "%s: '%s': %s", d->what, d->path, strerror(errno));
    rc = -1;
  }
  /* PATH exists: each file moves in, replacing its namesake. Checked
   * first, so that nothing moves when one of them cannot. */
  DIR *dir = rc == 0 ? opendir(d->tmp) : NULL;
  if (rc == 0 && dir == NULL) {
    hnm_errf(err, errlen, "%s: '%s': %s", d->what, d->path, strerror(errno));
    rc = -1;
  }
  for (int pass = 0; rc == 0 && pass < 2; pass++) {
    rewinddir(dir);
    for (struct dirent *e; rc == 0 && (e = readdir(dir)) != NULL;) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
        continue;
      char *from = malloc(strlen(d->tmp) + strlen(e->d_name) + 2),
           *to = malloc(strlen(d->path) + strlen(e->d_name) + 2);
      if (from == NULL || to == NULL) {
        hnm_errf(err, errlen, "%s: out of memory", d->what);
        rc = -1;
      } else {
        sprintf(from, "%s/%s", d->tmp, e->d_name);
        sprintf(to, "%s/%s", d->path, e->d_name);
        if (pass == 0 && lstat(to, &st) == 0 && S_ISDIR(st.st_mode)) {
          hnm_errf(err, errlen, "%s: '%s': is a directory", d->what, to);
          rc = -1;
        } else if (pass == 1 && rename(from, to) != 0) {
          hnm_errf(err, errlen, "%s: '%s': %s", d->what, to, strerror(errno));
          rc = -1;
        }
      }
      free(from);
      free(to);
    }
  }
  if (dir != NULL)
    closedir(dir);
  if (rc == 0) /* PATH existed: we made no parent of it */
    while (d->nmade > 0)
      free(d->made[--d->nmade]);
  out__dir_remove(d);
  out__dir_free(d);
  return rc;
}

void hnm_out_dir_abort(hnm_out_dir *d)
{
  if (d == NULL)
    return;
  out__dir_remove(d);
  out__dir_free(d);
}
