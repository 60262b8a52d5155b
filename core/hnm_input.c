/* hnm_input.c -- see hnm_input.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_input.h"

#include "hnm_units.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *input__kind(mode_t m)
{
  if (S_ISDIR(m))
    return "a directory";
  if (S_ISFIFO(m))
    return "a named pipe";
  if (S_ISCHR(m))
    return "a character device";
  if (S_ISBLK(m))
    return "a block device";
  if (S_ISSOCK(m))
    return "a socket";
  return "not a plain file";
}

/* Open PATH read-only and non-blocking; -1 with err unless it is a regular file. */
static int input__open_fd(const char *path, char *err, size_t errlen)
{
  if (path == NULL || *path == '\0') {
    hnm_errf(err, errlen, "empty file name");
    return -1;
  }
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    hnm_errf(err, errlen, "cannot open: %s", strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    hnm_errf(err, errlen, "cannot stat: %s", strerror(errno));
    close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    hnm_errf(err, errlen, "not a regular file (%s)", input__kind(st.st_mode));
    close(fd);
    return -1;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
    hnm_errf(err, errlen, "cannot read: %s", strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

FILE *hnm_input_open(const char *path, char *err, size_t errlen)
{
  int fd = input__open_fd(path, err, errlen);
  if (fd < 0)
    return NULL;
  FILE *f = fdopen(fd, "r");
  if (f == NULL) {
    hnm_errf(err, errlen, "cannot read: %s", strerror(errno));
    close(fd);
  }
  return f;
}

int hnm_input_check(const char *path, char *err, size_t errlen)
{
  int fd = input__open_fd(path, err, errlen);
  if (fd < 0)
    return -1;
  close(fd);
  return 0;
}

long hnm_input_getline(char **line, size_t *cap, FILE *f, size_t max)
{
  size_t n = 0;
  int c;
  while ((c = getc(f)) != EOF) {
    if (n >= max)
      return -2;
    if (n + 2 > *cap) {
      size_t nc = *cap ? 2 * *cap : 256;
      char *nl = realloc(*line, nc);
      if (nl == NULL)
        return -1;
      *line = nl;
      *cap = nc;
    }
    (*line)[n++] = (char)c;
    if (c == '\n')
      break;
  }
  if (n == 0)
    return -1;
  (*line)[n] = '\0';
  return (long)n;
}

int hnm_input_lines_open(hnm_input_lines *r, const char *path, char *err, size_t errlen)
{
  char why[512];
  memset(r, 0, sizeof *r);
  r->path = path;
  r->f = hnm_input_open(path, why, sizeof why);
  if (r->f == NULL) {
    hnm_errf(err, errlen, "%s: %s", path, why);
    return -1;
  }
  return 0;
}

long hnm_input_lines_next(hnm_input_lines *r, char *err, size_t errlen)
{
  long len = hnm_input_getline(&r->line, &r->cap, r->f, HNM_INPUT_MAX_LINE);
  if (len == -1) {
    if (!ferror(r->f))
      return -1;
    hnm_errf(err, errlen, "%s: read error", r->path);
    return -2;
  }
  r->ln++;
  if (len == -2 || (size_t)len != strlen(r->line)) {
    hnm_errf(err, errlen, "%s:%ld: %s", r->path, r->ln,
             len == -2 ? "line longer than 64 KiB (not a measurement file)" : "NUL byte in the line (not text)");
    return -2;
  }
  if (len == 0 || r->line[len - 1] != '\n') {
    hnm_errf(err, errlen, "%s:%ld: truncated line (no end of line)", r->path, r->ln);
    return -2;
  }
  r->line[--len] = '\0';
  if (len > 0 && r->line[len - 1] == '\r')
    r->line[--len] = '\0';
  return len;
}

void hnm_input_lines_close(hnm_input_lines *r)
{
  if (r->f != NULL)
    fclose(r->f);
  free(r->line);
  memset(r, 0, sizeof *r);
}
