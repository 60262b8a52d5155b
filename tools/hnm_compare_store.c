/* hnm-compare: the result CSV store. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "hnm_model.h"

#include "hnm_input.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "hnm_compare_store.h"
#include "hnm_error.h"
#include "hnm_msg.h"
#include "hnm_csv.h"
#include "hnm_compare_util.h"
#include "hnm_compare_grid.h"

/* The status column's words (cmp_write_row() writes no other). */
static const char *const store__status[] = {"ok", "failed", "signal", "timeout", "nometric", NULL};

static int store__known_status(const char *s)
{
  for (int i = 0; store__status[i] != NULL; i++)
    if (strcmp(s, store__status[i]) == 0)
      return 1;
  return 0;
}

/* NULL when the numeric columns of R are what cmp_write_row() writes, else
 * "COLUMN: 'VALUE' reason" (a static buffer). */
static const char *store__bad_number(const cmp_row *r)
{
  static char why[256];
  long l;
  double d;
  const char *v = NULL, *col = NULL, *reason = NULL;
  if (cmp_parse_long(r->f[CMP_COL_NP], 1, 100000000, &l) != 0)
    v = r->f[CMP_COL_NP], col = "np", reason = "is not a process count";
  else if (r->f[CMP_COL_TIME][0] != '\0' && (cmp_parse_double(r->f[CMP_COL_TIME], &d) != 0 || d < 0))
    v = r->f[CMP_COL_TIME], col = "time_s", reason = "is not a time";
  else if (r->f[CMP_COL_TIME][0] == '\0' && strcmp(r->f[CMP_COL_STATUS], "ok") == 0)
    v = r->f[CMP_COL_TIME], col = "time_s", reason = "is empty in an ok row";
  else if (cmp_parse_double(r->f[CMP_COL_WALL], &d) != 0 || d < 0)
    v = r->f[CMP_COL_WALL], col = "wall_s", reason = "is not a time";
  else if (cmp_parse_long(r->f[CMP_COL_EXIT], -2147483648L, 2147483647L, &l) != 0)
    v = r->f[CMP_COL_EXIT], col = "exit_code", reason = "is not an exit status";
  if (v == NULL)
    return NULL;
  snprintf(why, sizeof why, "%s: '%.120s' %s", col, v, reason);
  return why;
}

/* Read FILE (which must start with the CMP_HEADER or CMP_HEADER_SETS line)
 * into ROWS (the columns a CMP_HEADER file lacks are empty strings).
 * MISSING_OK: a missing or empty file is no rows. *NO_EOL (when not NULL):
 * set to 1 when the file's last line, a complete row or the header, has no
 * end of line. A last line without end of line that is not a complete row
 * (an interrupted write) is refused as such. Returns 0, or -1 with
 * "FILE:LINE: ..." in err (bad input). */
int cmp_read_rows_tail(const char *file, int ord, cmp_rowvec *rows, int missing_ok, int *no_eol, char *err,
                       size_t errlen)
{
  if (no_eol != NULL)
    *no_eol = 0;
  /* A regular file only: a FIFO would block, a device stream forever. */
  if (missing_ok && access(file, F_OK) != 0 && errno == ENOENT)
    return 0;
  char why[512];
  FILE *f = hnm_input_open(file, why, sizeof why);
  if (f == NULL)
    return hnm_fail(err, errlen, "cannot read '%s': %s", file, why);
  char *line = NULL;
  size_t cap = 0;
  long ln = 0;
  int rc = 0, ncols = CMP_NCOLS_PLAIN;
  long len;
  while ((len = hnm_input_getline(&line, &cap, f, HNM_INPUT_MAX_LINE)) >= 0 || len == -2) {
    ln++;
    if (len == -2 || (size_t)len != strlen(line)) {
      rc = hnm_fail(err, errlen, "%s:%ld: %s", file, ln, len == -2 ? "line longer than 64 KiB (not hnm-compare's CSV)"
                                                       : "NUL byte in the line (not hnm-compare's CSV)");
      break;
    }
    int partial = len > 0 && line[len - 1] != '\n';
    const char *tail = partial ? " (the last line has no end of line: an interrupted write? remove or complete it)" : "";
    hnm_csv_chomp(line);
    if (ln == 1) {
      if (strcmp(line, CMP_HEADER_SETS) == 0) {
        ncols = CMP_NCOLS;
        rows->wide = 1;
      } else if (strcmp(line, CMP_HEADER) != 0) {
        rc = hnm_fail(err, errlen,
                      "%s:1: header is not hnm-compare's (" CMP_HEADER "[,member,band_lo,band_hi,members])%s", file,
                      tail);
        break;
      }
      if (partial && no_eol != NULL)
        *no_eol = 1;
      continue;
    }
    if (line[0] == '\0')
      continue;
    cmp_row r = {.buf = cmp_xstrdup(line), .file = file, .ord = ord, .line = ln};
    int n = hnm_csv_split(r.buf, r.f, ncols);
    if (n != ncols) {
      rc = hnm_fail(err, errlen, "%s:%ld: %d fields, expected %d%s", file, ln, n < 0 ? 0 : n, ncols, tail);
      free(r.buf);
      break;
    }
    for (int k = ncols; k < CMP_NCOLS; k++)
      r.f[k] = r.buf + strlen(r.buf); /* "" */
    long idx;
    if (cmp_parse_long(r.f[CMP_COL_INDEX], 0, 1L << 40, &idx) != 0) {
      rc = hnm_fail(err, errlen, "%s:%ld: index: '%s' is not a whole number%s", file, ln, r.f[CMP_COL_INDEX], tail);
      free(r.buf);
      break;
    }
    if (!store__known_status(r.f[CMP_COL_STATUS])) {
      rc = hnm_fail(err, errlen, "%s:%ld: status: '%s' is not one of ok, failed, signal, timeout, nometric%s", file, ln,
                    r.f[CMP_COL_STATUS], tail);
      free(r.buf);
      break;
    }
    /* The numbers, here where the file and line are known: a value that
     * cmp_write_row() cannot have written is this file's fault, not a conflict
     * with another file's row found later (merge). */
    const char *bad = store__bad_number(&r);
    if (bad != NULL) {
      rc = hnm_fail(err, errlen, "%s:%ld: %s%s", file, ln, bad, tail);
      free(r.buf);
      break;
    }
    if (partial && no_eol != NULL)
      *no_eol = 1;
    if (rows->n == rows->cap) {
      rows->cap = rows->cap ? 2 * rows->cap : 64;
      rows->v = cmp_xrealloc(rows->v, (size_t)rows->cap * sizeof *rows->v);
    }
    rows->v[rows->n++] = r;
  }
  if (ln == 0 && rc == 0 && !missing_ok)
    rc = hnm_fail(err, errlen, "%s:1: empty file (no header)", file);
  free(line);
  fclose(f);
  return rc;
}

int cmp_read_rows(const char *file, int ord, cmp_rowvec *rows, int missing_ok, char *err, size_t errlen)
{
  return cmp_read_rows_tail(file, ord, rows, missing_ok, NULL, err, errlen);
}

/* run -o: the rows already in OUT, for resuming. Only a regular file is
 * read (a device or FIFO given as -o is written through, never read); a
 * directory is refused. *NO_EOL as cmp_read_rows_tail(). Returns 0, or -1
 * with err (bad input). */
int cmp_store_read_existing(const char *out, cmp_rowvec *rows, int *no_eol, char *err, size_t errlen)
{
  struct stat st;
  *no_eol = 0;
  if (stat(out, &st) != 0)
    return errno == ENOENT ? 0 : hnm_fail(err, errlen, "-o: '%s': %s", out, strerror(errno));
  if (S_ISDIR(st.st_mode))
    return hnm_fail(err, errlen, "-o: '%s': is a directory", out);
  if (!S_ISREG(st.st_mode))
    return 0;
  return cmp_read_rows_tail(out, 0, rows, 1, no_eol, err, errlen);
}

/* The one append path of run -o, after cmp_store_read_existing() accepted the
 * file: a missing or empty file gets the header, a last line without end of
 * line gets one, then rows are appended (cmp_write_row() flushes each). A
 * device or FIFO is written through (the header, then rows). The header is
 * flushed here, so that an unwritable target (/dev/full) is an error before
 * anything runs. Returns 0 with *CSV the stream; HNM_EXIT_USAGE when OUT
 * cannot be opened, HNM_EXIT_FAILURE when the write fails, with err. */
int cmp_store_open_append(const char *out, int no_eol, int wide, FILE **csvp, char *err, size_t errlen)
{
  struct stat st;
  int fresh = stat(out, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0;
  FILE *csv = fopen(out, "a");
  if (csv == NULL) {
    hnm_errf(err, errlen, "-o: '%s': cannot append: %s", out, strerror(errno));
    return HNM_EXIT_USAGE;
  }
  errno = 0;
  if ((fresh && fputs(wide ? CMP_HEADER_SETS "\n" : CMP_HEADER "\n", csv) == EOF) || (!fresh && no_eol && fputc('\n', csv) == EOF) ||
      fflush(csv) != 0) {
    int e = errno;
    fclose(csv);
    hnm_errf(err, errlen, "-o: '%s': write error%s%s", out, e ? ": " : "", e ? strerror(e) : "");
    return HNM_EXIT_FAILURE;
  }
  *csvp = csv;
  return 0;
}

int cmp_store_lock(const char *out, int fd, char *err, size_t errlen)
{
  static int locked = -1;
  if (locked >= 0)
    return 0;
  if (fd < 0) {
    struct stat st;
    if (stat(out, &st) != 0 || !S_ISREG(st.st_mode))
      return 0;
    fd = open(out, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
      return 0; /* cmp_store_read_existing() says why */
  } else {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
      return 0;
    fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK)
      return hnm_fail(err, errlen,
                      "-o: '%s': another hnm-compare run is writing it (locked); let it end, then run again to "
                      "resume",
                      out);
    return 0; /* a file system without locks: go on unlocked */
  }
  locked = fd;
  return 0;
}

char *cmp_row_key(const cmp_row *r)
{
  return cmp_make_key(r->f[CMP_COL_PROGRAM], r->f[CMP_COL_ARGS], r->f[CMP_COL_MODEL], r->f[CMP_COL_PLATFORM], r->f[CMP_COL_NP], r->f[CMP_COL_METRIC],
                  r->f[CMP_COL_OPTIONS], r->f[CMP_COL_MEMBER]);
}

int cmp_order_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmp_write_row(FILE *csv, const cmp_config *c, const cmp_run *r, int have_time, double time_s, double wall,
              long rss, const char *status, int code, int wide, const cmp_band *band)
{
  fprintf(csv, "%ld,", r->index);
  hnm_csv_put(csv, c->program);
  fputc(',', csv);
  hnm_csv_put(csv, c->args.v[r->argset]);
  fputc(',', csv);
  hnm_csv_put(csv, cmp_run_model(c, r));
  fputc(',', csv);
  hnm_csv_put(csv, cmp_run_platform(c, r));
  fprintf(csv, ",%ld,", r->np);
  hnm_csv_put(csv, c->metric);
  fputc(',', csv);
  hnm_csv_put(csv, cmp_run_options(c, r));
  fputc(',', csv);
  if (have_time)
    fprintf(csv, "%.17g", time_s);
  fprintf(csv, ",%.3f,%ld,%s,%d", wall, rss, status, code);
  if (wide) {
    char member[32];
    cmp_run_member(c, r, member, sizeof member);
    fprintf(csv, ",%s,", member);
    if (band != NULL)
      fprintf(csv, "%.17g,%.17g,%ld", band->lo, band->hi, band->members);
    else
      fputs(",,", csv);
  }
  fputc('\n', csv);
  return fflush(csv) != 0 || ferror(csv) ? -1 : 0;
}

/* ------------------------------------------------------------------------ */
/* merge                                                                     */

typedef struct {
  char *key;
  long idx; /* index in rows */
  long order;
} keyed;

static int order_keyed(const void *a, const void *b)
{
  const keyed *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  if (c != 0)
    return c;
  return x->order < y->order ? -1 : x->order > y->order;
}

static int order_row_index(const void *a, const void *b)
{
  const cmp_row *x = *(cmp_row *const *)a, *y = *(cmp_row *const *)b;
  long i = atol(x->f[CMP_COL_INDEX]), j = atol(y->f[CMP_COL_INDEX]);
  if (i != j)
    return i < j ? -1 : 1;
  if (x->ord != y->ord)
    return x->ord < y->ord ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

void cmp_put_row(FILE *f, const cmp_row *r, int wide)
{
  for (int k = 0; k < (wide ? CMP_NCOLS : CMP_NCOLS_PLAIN); k++) {
    if (k)
      fputc(',', f);
    hnm_csv_put(f, r->f[k]);
  }
  fputc('\n', f);
}

/* Per key, the row kept: within one file the last row wins (a resumed sweep
 * appends its re-runs); across files an ok row wins over a non-ok one; two ok
 * rows from different files are duplicates when their time_s are equal and a
 * conflict otherwise. Rows of different keys with the same index in two
 * files mean the files come from different grids: a conflict too. (Within
 * one file they are legitimate: a CSV resumed with a grown or changed grid
 * holds runs numbered by several grids.) */
static void keyed_free(keyed *k, long n)
{
  for (long i = 0; i < n; i++)
    free(k[i].key);
  free(k);
}

int cmp_select_rows(cmp_rowvec *rows, cmp_row ***out, long *nout, long *dups, char *err, size_t errlen)
{
  keyed *k = cmp_xmalloc((size_t)(rows->n + 1) * sizeof *k);
  for (long i = 0; i < rows->n; i++)
    k[i] = (keyed){cmp_row_key(&rows->v[i]), i, i};
  qsort(k, (size_t)rows->n, sizeof *k, order_keyed);
  cmp_row **sel = cmp_xmalloc((size_t)(rows->n + 1) * sizeof *sel);
  long n = 0;
  *dups = 0;
  for (long i = 0; i < rows->n;) {
    long j = i;
    cmp_row *best = NULL;
    while (j < rows->n && strcmp(k[j].key, k[i].key) == 0) {
      cmp_row *r = &rows->v[k[j].idx];
      if (best == NULL) {
        best = r;
      } else if (best->ord == r->ord) {
        best = r; /* later in the same file */
      } else {
        int bok = strcmp(best->f[CMP_COL_STATUS], "ok") == 0, rok = strcmp(r->f[CMP_COL_STATUS], "ok") == 0;
        if (bok && rok) {
          if (strcmp(best->f[CMP_COL_TIME], r->f[CMP_COL_TIME]) != 0) {
            int rc = hnm_fail(err, errlen, "%s:%ld: time_s %s conflicts with %s:%ld (time_s %s) for the same run", r->file,
                              r->line, r->f[CMP_COL_TIME], best->file, best->line, best->f[CMP_COL_TIME]);
            keyed_free(k, rows->n);
            free(sel);
            return rc;
          }
          (*dups)++;
        } else if (rok) {
          best = r;
        } else if (!bok) {
          best = r;
        }
      }
      j++;
    }
    sel[n++] = best;
    i = j;
  }
  keyed_free(k, rows->n);
  qsort(sel, (size_t)n, sizeof *sel, order_row_index);
  for (long i = 1; i < n; i++)
    if (strcmp(sel[i]->f[CMP_COL_INDEX], sel[i - 1]->f[CMP_COL_INDEX]) == 0 && sel[i]->ord != sel[i - 1]->ord) {
      /* The first column of the run's key that differs: the field to look at. */
      static const int key_cols[] = {CMP_COL_PROGRAM, CMP_COL_ARGS, CMP_COL_MODEL, CMP_COL_PLATFORM, CMP_COL_NP, CMP_COL_METRIC, CMP_COL_OPTIONS, CMP_COL_MEMBER};
      static const char *const key_names[] = {"program", "args", "model", "platform", "np", "metric", "options",
                                              "member"};
      int c = 0;
      while (c < 7 && strcmp(sel[i]->f[key_cols[c]], sel[i - 1]->f[key_cols[c]]) == 0)
        c++;
      int rc = hnm_fail(err, errlen, "%s:%ld: index %s is another run in %s:%ld (%s '%.80s', not '%.80s': CSVs of different "
                        "grids?)",
                        sel[i]->file, sel[i]->line, sel[i]->f[CMP_COL_INDEX], sel[i - 1]->file, sel[i - 1]->line,
                        key_names[c], sel[i]->f[key_cols[c]], sel[i - 1]->f[key_cols[c]]);
      free(sel);
      return rc;
    }
  *out = sel;
  *nout = n;
  return 0;
}
