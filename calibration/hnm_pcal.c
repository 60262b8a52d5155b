/* hnm_pcal.c -- see hnm_pcal.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_csv.h"
#include "hnm_input.h"
#include "hnm_fit_model.h"
#include "hnm_pcal.h"

#include "hnm_units.h"
#include "hnm_xml.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_ROWS 100000000 /* beyond: not a calibration run */

static int series_push(hnm_pcal_series *s, double k, double y)
{
  return hnm_fit_push(&s->k, &s->y, &s->n, &s->cap, k, y);
}

void hnm_pcal_free(hnm_pcal *p)
{
  for (int i = 0; i < HNM_PCAL_OPS; i++) {
    free(p->op[i].k);
    free(p->op[i].y);
  }
  free(p->bp);
  for (int r = 0; r < 2; r++) {
    free(p->uni[r]);
    free(p->bi[r]);
  }
  memset(p, 0, sizeof *p);
}

/* dir of path ("." if none) into out. */
static void dir_of(const char *path, char *out, size_t cap)
{
  const char *sl = strrchr(path, '/');
  if (sl == NULL)
    snprintf(out, cap, ".");
  else if (sl == path)
    snprintf(out, cap, "/");
  else
    snprintf(out, cap, "%.*s", (int)(sl - path), path);
}

/* NAME next to the config, then under its dirname: 0 and out set, or -1. */
/* Whether NAME has an entry next to the config or under DIRNAME that
 * locate() could not read (a dangling or looping link, no permission):
 * 1 with its path in OUT, else 0. An optional file that is there but
 * unreadable is an error, not an absent file. */
static int unreadable(const char *cdir, const char *dirname, const char *name, char *out, size_t cap)
{
  struct stat st;
  int n;
  if (name[0] == '/')
    n = snprintf(out, cap, "%s", name);
  else
    n = snprintf(out, cap, "%s/%s", cdir, name);
  if (n >= 0 && (size_t)n < cap && lstat(out, &st) == 0)
    return 1;
  if (name[0] == '/' || dirname[0] == '\0')
    return 0;
  if (dirname[0] == '/')
    n = snprintf(out, cap, "%s/%s", dirname, name);
  else
    n = snprintf(out, cap, "%s/%s/%s", cdir, dirname, name);
  return n >= 0 && (size_t)n < cap && lstat(out, &st) == 0;
}

static int locate(const char *cdir, const char *dirname, const char *name, char *out, size_t cap)
{
  if (name[0] == '/') {
    snprintf(out, cap, "%s", name);
    return access(out, R_OK) == 0 ? 0 : -1;
  }
  snprintf(out, cap, "%s/%s", cdir, name);
  if (access(out, R_OK) == 0)
    return 0;
  if (dirname[0] != '\0') {
    if (dirname[0] == '/')
      snprintf(out, cap, "%s/%s", dirname, name);
    else
      snprintf(out, cap, "%s/%s/%s", cdir, dirname, name);
    if (access(out, R_OK) == 0)
      return 0;
  }
  return -1;
}

/* A finite number >= 0 filling the field (surrounding blanks allowed). */
/* One message's time is at most an hour, as in hnm's own measurement
 * files (docs/calibration.md): beyond, a unit mistake or a corrupted file,
 * which would fit a model no network has (x1e300 fit latency 0 s). */
#define PCAL_MAX_DURATION 3600.0 /* seconds */
/* A start is a clock reading: time since the run began, or since 1970 for
 * an MPI_Wtime that reads the wall clock (1.8e9 s in 2027); 1e12 s is
 * 30,000 years. Beyond, a corrupted file (1e300). */
#define PCAL_MAX_START 1e12 /* seconds */

static int number(const char *f, double *v)
{
  char *end;
  while (*f == ' ' || *f == '\t')
    f++;
  errno = 0;
  *v = strtod(f, &end);
  if (end == f)
    return 0;
  while (*end == ' ' || *end == '\t')
    end++;
  return *end == '\0' && errno != ERANGE && isfinite(*v) && *v >= 0;
}

static char *trim(char *s)
{
  while (*s == ' ' || *s == '\t')
    s++;
  size_t l = strlen(s);
  while (l > 0 && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\r'))
    s[--l] = '\0';
  return s;
}

/* Split LINE with core's CSV reader (hnm_csv.h) into WANT fields; 0, or -1
 * with "FILE:LN: N field(s), expected WANT (WHAT)" in err (or the quoting
 * at fault). */
static int split(char *line, char **f, int want, const char *file, long ln, const char *what, char *err,
                 size_t errlen)
{
  int n = hnm_csv_split(line, f, want);
  if (n < 0)
    hnm_errf(err, errlen, "%s:%ld: a quoted field is not closed, or text follows its closing quote", file, ln);
  else if (n != want)
    hnm_errf(err, errlen, "%s:%ld: %d field(s), expected %d (%s)", file, ln, n, want, what);
  return n == want ? 0 : -1;
}

/* ------------------------------------------------------------ config -- */

static int read_config(hnm_pcal *p, char *dirname, size_t dcap, char *bpname, size_t bcap, char *err, size_t errlen)
{
  hnm_xml_doc doc;
  if (hnm_xml_read(p->config, &doc, err, errlen) != 0) {
    hnm_xml_free(&doc);
    return -1;
  }
  int rc = -1;
  if (strcmp(doc.e[0].name, "config") != 0) {
    hnm_errf(err, errlen, "%s:%ld: root element is not <config> (a platform-calibration configuration)", p->config,
             doc.e[0].line);
    goto out;
  }
  p->eager = p->detached = p->exp_bw = p->exp_lat = -1;
  long have_prefix = 0;
  for (size_t i = 1; i < doc.n; i++) {
    const hnm_xml_elem *n = &doc.e[i];
    if (n->depth != 1)
      continue;
    const char *name = n->name, *val = hnm_xml_attr(n, "value");
    long line = n->line;
    double *num = strcmp(name, "eager_threshold") == 0      ? &p->eager
                  : strcmp(name, "detached_threshold") == 0 ? &p->detached
                  : strcmp(name, "expected_bandwidth") == 0 ? &p->exp_bw
                  : strcmp(name, "expected_latency") == 0   ? &p->exp_lat
                                                            : NULL;
    int is_string = strcmp(name, "prefix") == 0 || strcmp(name, "dirname") == 0 || strcmp(name, "breakpoints_file") == 0;
    if ((num != NULL || is_string) && val == NULL) {
      hnm_errf(err, errlen, "%s:%ld: %s: no value attribute", p->config, line, name);
      goto out;
    }
    if (num != NULL) {
      if (!number(val, num)) {
        hnm_errf(err, errlen, "%s:%ld: %s: '%s' is not a non-negative number", p->config, line, name, val);
        goto out;
      }
      if ((num == &p->eager || num == &p->detached) && (*num != floor(*num) || *num > 2147483647.0)) {
        hnm_errf(err, errlen, "%s:%ld: %s: '%s' is not a whole number of bytes (SMPI keeps an int)",
                 p->config, line, name, val);
        goto out;
      }
    } else if (strcmp(name, "prefix") == 0) {
      if (*val == '\0' || strlen(val) >= sizeof p->prefix || strchr(val, '/') != NULL) {
        hnm_errf(err, errlen, "%s:%ld: prefix: '%s' is empty, too long or has a '/'", p->config, line, val);
        goto out;
      }
      snprintf(p->prefix, sizeof p->prefix, "%s", val);
      have_prefix = line;
    } else if (strcmp(name, "dirname") == 0)
      snprintf(dirname, dcap, "%s", val);
    else if (strcmp(name, "breakpoints_file") == 0)
      snprintf(bpname, bcap, "%s", val);
  }
  if (!have_prefix) {
    hnm_errf(err, errlen, "%s:%ld: prefix: missing (<prefix value=\"NAME\"/> names NAME_PingPong.csv ...)",
             p->config, doc.e[0].line);
    goto out;
  }
  if (p->eager >= 0 && p->detached >= 0 && p->eager > p->detached) {
    hnm_errf(err, errlen, "%s: eager_threshold: %.0f > detached_threshold %.0f (SMPI refuses it)", p->config,
             p->eager, p->detached);
    goto out;
  }
  rc = 0;
out:
  hnm_xml_free(&doc);
  return rc;
}

/* ------------------------------------------------------- breakpoints -- */

static int read_breakpoints(hnm_pcal *p, char *err, size_t errlen)
{
  char why[512];
  FILE *f = hnm_input_open(p->bp_file, why, sizeof why);
  if (f == NULL) {
    hnm_errf(err, errlen, "%s: %s", p->bp_file, why);
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  long len;
  long ln = 0;
  int rc = -1, header = 0;
  size_t bcap = 0;
  while ((len = hnm_input_getline(&line, &cap, f, HNM_INPUT_MAX_LINE)) != -1) {
    ln++;
    if (len == -2 || (size_t)len != strlen(line)) {
      hnm_errf(err, errlen, "%s:%ld: %s", p->bp_file, ln,
               len == -2 ? "line longer than 64 KiB (not a breakpoints file)" : "NUL byte in the line (not text)");
      goto out;
    }
    /* Hand-written: the last line may lack its end of line (the bundled
     * files do), blank lines are skipped -- but the header comes first,
     * before any other line. */
    if (len > 0 && line[len - 1] == '\n')
      line[--len] = '\0';
    char *t = trim(line);
    if (*t == '\0')
      continue;
    char *fl[2];
    if (!header) {
      if (split(t, fl, 2, p->bp_file, ln, "", err, errlen) != 0 || strcmp(trim(fl[0]), "Limit") != 0 ||
          strcmp(trim(fl[1]), "Name") != 0) {
        hnm_errf(err, errlen, "%s:%ld: header is not 'Limit, Name'", p->bp_file, ln);
        goto out;
      }
      header = 1;
      continue;
    }
    if (split(t, fl, 2, p->bp_file, ln, "LIMIT, NAME", err, errlen) != 0)
      goto out;
    double v;
    if (!number(fl[0], &v) || v != floor(v) || v < 1 || v > 2147483647.0) {
      hnm_errf(err, errlen, "%s:%ld: Limit: '%s' is not a whole number of bytes >= 1", p->bp_file, ln,
               trim(fl[0]));
      goto out;
    }
    if (p->nbp > 0 && v <= p->bp[p->nbp - 1]) {
      hnm_errf(err, errlen, "%s:%ld: Limit: %.0f is not above the previous limit %.0f (out of order)",
               p->bp_file, ln, v, p->bp[p->nbp - 1]);
      goto out;
    }
    if (p->nbp == bcap) {
      bcap = bcap ? 2 * bcap : 16;
      double *nb = realloc(p->bp, bcap * sizeof *nb);
      if (nb == NULL) {
        hnm_errf(err, errlen, "out of memory");
        goto out;
      }
      p->bp = nb;
    }
    p->bp[p->nbp++] = v;
  }
  if (ferror(f)) {
    hnm_errf(err, errlen, "%s: read error", p->bp_file);
    goto out;
  }
  if (ln == 0) {
    hnm_errf(err, errlen, "%s:1: empty file (expected the header 'Limit, Name')", p->bp_file);
    goto out;
  }
  rc = 0;
out:
  free(line);
  fclose(f);
  return rc;
}

/* ------------------------------------------------------------- CSVs -- */

/* One measurement file: rows OP,SIZE,START,DURATION with OP in ops[].
 * row(ctx, which, size, start, duration, line) consumes each. */
typedef int (*row_fn)(hnm_pcal *p, int which, double size, double start, double dur, const char *file, long line,
                      char *err, size_t errlen);

static int read_measurements(hnm_pcal *p, const char *path, const char *const *ops, int nops, row_fn row, char *err,
                             size_t errlen)
{
  hnm_input_lines r;
  if (hnm_input_lines_open(&r, path, err, errlen) != 0)
    return -1;
  long len;
  long rows = 0;
  int rc = -1;
  while ((len = hnm_input_lines_next(&r, err, errlen)) >= 0) {
    char *fl[4];
    if (split(r.line, fl, 4, path, r.ln, "OPERATION,SIZE,START,DURATION", err, errlen) != 0)
      goto out;
    int which = 0;
    char *op = trim(fl[0]);
    while (which < nops && strcmp(op, ops[which]) != 0)
      which++;
    if (which == nops) {
      hnm_errf(err, errlen, "%s:%ld: operation: '%s' is not %s%s%s", path, r.ln, op, ops[0],
               nops > 1 ? " or " : "", nops > 1 ? ops[1] : "");
      goto out;
    }
    static const char *const names[4] = {"operation", "size", "start", "duration"};
    double v[4];
    for (int i = 1; i < 4; i++)
      if (!number(fl[i], &v[i])) {
        hnm_errf(err, errlen, "%s:%ld: %s: '%s' is not a non-negative number", path, r.ln, names[i],
                 trim(fl[i]));
        goto out;
      }
    if (v[1] != floor(v[1]) || v[1] > 2147483647.0) {
      hnm_errf(err, errlen, "%s:%ld: size: '%s' is not a whole number of bytes (an int)", path, r.ln,
               trim(fl[1]));
      goto out;
    }
    if (v[3] > PCAL_MAX_DURATION) {
      hnm_errf(err, errlen, "%s:%ld: duration: %s s is above %g s (not the time of one message)", path, r.ln,
               trim(fl[3]), PCAL_MAX_DURATION);
      goto out;
    }
    if (v[2] > PCAL_MAX_START) {
      hnm_errf(err, errlen, "%s:%ld: start: %s s is above %g s (not a clock reading)", path, r.ln, trim(fl[2]),
               PCAL_MAX_START);
      goto out;
    }
    if (++rows > MAX_ROWS) {
      hnm_errf(err, errlen, "%s:%ld: more than %d rows", path, r.ln, MAX_ROWS);
      goto out;
    }
    if (row(p, which, v[1], v[2], v[3], path, r.ln, err, errlen) != 0)
      goto out;
  }
  if (len == -2)
    goto out;
  if (rows == 0) {
    hnm_errf(err, errlen, "%s:%ld: no measurements", path, r.ln > 0 ? r.ln : 1);
    goto out;
  }
  rc = 0;
out:
  hnm_input_lines_close(&r);
  return rc;
}

/* PingPong: an MPI_Send row, then the MPI_Recv row of the same round trip
 * (same size and start); the pending send is kept in p->pp_*. */

static int pingpong_row(hnm_pcal *p, int which, double size, double start, double dur, const char *file, long line,
                        char *err, size_t errlen)
{
  if (which == 0) {
    if (p->pp_pending) {
      hnm_errf(err, errlen, "%s:%ld: MPI_Send row where the MPI_Recv row of the previous round trip belongs", file,
               line);
      return -1;
    }
    p->pp_pending = 1;
    p->pp_size = size;
    p->pp_start = start;
    p->pp_send = dur;
    return 0;
  }
  if (!p->pp_pending || p->pp_size != size || p->pp_start != start) {
    hnm_errf(err, errlen,
             "%s:%ld: MPI_Recv row that does not follow the MPI_Send row of its round trip (same size and start)",
             file, line);
    return -1;
  }
  p->pp_pending = 0;
  hnm_pcal_series *s = &p->op[HNM_PCAL_SEND], *r = &p->op[HNM_PCAL_PINGPONG];
  if (series_push(s, size, p->pp_send) != 0 || series_push(r, size, p->pp_send + dur) != 0) {
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  s->line = r->line = line;
  return 0;
}

static int store_row(hnm_pcal *p, int op, double size, double dur, long line, char *err, size_t errlen)
{
  hnm_pcal_series *s = &p->op[op];
  if (series_push(s, size, dur) != 0) {
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  s->line = line;
  return 0;
}

static int single_row_recv(hnm_pcal *p, int which, double size, double start, double dur, const char *file,
                           long line, char *err, size_t errlen)
{
  (void)which, (void)start, (void)file;
  return store_row(p, HNM_PCAL_RECV, size, dur, line, err, errlen);
}

static int single_row_isend(hnm_pcal *p, int which, double size, double start, double dur, const char *file,
                            long line, char *err, size_t errlen)
{
  (void)which, (void)start, (void)file;
  return store_row(p, HNM_PCAL_ISEND, size, dur, line, err, errlen);
}

/* ------------------------------------------------------- saturation -- */

struct sat_row {
  int rank;
  double size, start, dur; /* bytes, ms, ms */
};

/* Rows of one load_*.csv; *n rows, ranks 0..*maxrank. 1 if the file is
 * absent, 0 read, -1 error. */
static int read_sat(const char *path, const char *opname, struct sat_row **rows, size_t *n, int *maxrank, char *err,
                    size_t errlen)
{
  hnm_input_lines r;
  if (hnm_input_lines_open(&r, path, NULL, 0) != 0) /* a regular file, never blocking */
    return 1;
  size_t rcap = 0;
  long len;
  int rc = -1;
  *rows = NULL;
  *n = 0;
  *maxrank = -1;
  while ((len = hnm_input_lines_next(&r, err, errlen)) >= 0) {
    char *fl[5];
    if (split(r.line, fl, 5, path, r.ln, "RANK,OPERATION,COUNT,START,DURATION", err, errlen) != 0)
      goto out;
    if (strcmp(trim(fl[1]), opname) != 0) {
      hnm_errf(err, errlen, "%s:%ld: operation: '%s' is not %s", path, r.ln, trim(fl[1]), opname);
      goto out;
    }
    double v[5];
    static const char *const names[5] = {"rank", "operation", "count", "start", "duration"};
    for (int i = 0; i < 5; i++)
      if (i != 1 && !number(fl[i], &v[i])) {
        hnm_errf(err, errlen, "%s:%ld: %s: '%s' is not a non-negative number", path, r.ln, names[i],
                 trim(fl[i]));
        goto out;
      }
    if (v[0] != floor(v[0]) || v[0] > 1e6 || v[2] != floor(v[2]) || v[2] < 1) {
      hnm_errf(err, errlen, "%s:%ld: fields 'rank' and 'count' must be whole, count >= 1", path, r.ln);
      goto out;
    }
    if (v[3] > PCAL_MAX_START * 1e3) {
      hnm_errf(err, errlen, "%s:%ld: start: %s ms is above %g s (not a clock reading)", path, r.ln, trim(fl[3]),
               PCAL_MAX_START);
      goto out;
    }
    if (v[4] > PCAL_MAX_DURATION * 1e3) {
      hnm_errf(err, errlen, "%s:%ld: duration: %s ms is above %g s (not the time of one message)", path, r.ln,
               trim(fl[4]), PCAL_MAX_DURATION);
      goto out;
    }
    if (*n == rcap) {
      rcap = rcap ? 2 * rcap : 64;
      struct sat_row *nr = realloc(*rows, rcap * sizeof *nr);
      if (nr == NULL) {
        hnm_errf(err, errlen, "out of memory");
        goto out;
      }
      *rows = nr;
    }
    (*rows)[(*n)++] = (struct sat_row){(int)v[0], v[2], v[3], v[4]};
    if ((int)v[0] > *maxrank)
      *maxrank = (int)v[0];
  }
  if (len == -2)
    goto out;
  if (*n == 0) {
    hnm_errf(err, errlen, "%s:1: no measurements", path);
    goto out;
  }
  rc = 0;
out:
  hnm_input_lines_close(&r);
  if (rc != 0) { /* a refusal: the rows read so far are the caller's no more */
    free(*rows);
    *rows = NULL;
    *n = 0;
  }
  return rc;
}

/* The first step's rows of `rank` (runs = rows of that rank in the first
 * step): durations in seconds into *out. */
static int first_step(const struct sat_row *rows, size_t n, int rank, size_t runs, double **out, size_t *nout,
                      double *size)
{
  *out = malloc((runs ? runs : 1) * sizeof **out);
  if (*out == NULL)
    return -1;
  *nout = 0;
  for (size_t i = 0; i < n && *nout < runs; i++)
    if (rows[i].rank == rank) {
      (*out)[(*nout)++] = rows[i].dur * 1e-3;
      *size = rows[i].size;
    }
  return 0;
}

static int read_saturation(hnm_pcal *p, const char *cdir, char *err, size_t errlen)
{
  static const char *const subdirs[2] = {"../saturation", "saturation"};
  for (int d = 0; d < 2; d++) {
    char send[4400], diff[4400];
    snprintf(send, sizeof send, "%s/%s/load_send.csv", cdir, subdirs[d]);
    snprintf(diff, sizeof diff, "%s/%s/load_sendrecv_diff.csv", cdir, subdirs[d]);
    struct sat_row *rs = NULL, *rd = NULL;
    size_t ns = 0, nd = 0;
    int ms, md;
    int a = read_sat(send, "MPI_Send", &rs, &ns, &ms, err, errlen);
    if (a < 0)
      return -1;
    if (a > 0)
      continue;
    int b = read_sat(diff, "MPI_Sendrecv", &rd, &nd, &md, err, errlen);
    if (b != 0) {
      free(rs);
      if (b < 0)
        return -1;
      continue;
    }
    /* N ranks, half = N/2; rank 0 is active in all `half` steps of
     * load_send, so NB_RUNS = its rows / half; in load_sendrecv_diff the
     * steps are the odd x < half. */
    int N = ms + 1, half = N / 2, odd = half / 2;
    size_t r0 = 0, d0 = 0;
    for (size_t i = 0; i < ns; i++)
      r0 += rs[i].rank == 0;
    for (size_t i = 0; i < nd; i++)
      d0 += rd[i].rank == 0;
    if (N < 4 || md + 1 != N || half < 2 || odd < 1 || r0 % (size_t)half != 0 || d0 % (size_t)odd != 0) {
      /* Name the file at fault: load_send.csv sets the pattern. */
      int diff_bad = N >= 4 && half >= 2 && r0 % (size_t)half == 0 && (md + 1 != N || odd < 1 || d0 % (size_t)odd != 0);
      hnm_errf(err, errlen, "%s: ranks and rows do not match alltoall_loadtest's pattern (%d ranks, %zu rows of rank 0)",
               diff_bad ? diff : send, diff_bad ? md + 1 : N, diff_bad ? d0 : r0);
      free(rs);
      free(rd);
      return -1;
    }
    size_t runs = r0 / (size_t)half, druns = d0 / (size_t)odd;
    double sz = 0, sz2 = 0;
    int ok = first_step(rs, ns, 0, runs, &p->uni[0], &p->nuni[0], &sz) == 0 &&
             first_step(rs, ns, half, runs, &p->uni[1], &p->nuni[1], &sz) == 0 &&
             first_step(rd, nd, 0, druns, &p->bi[0], &p->nbi[0], &sz2) == 0 &&
             first_step(rd, nd, half, druns, &p->bi[1], &p->nbi[1], &sz2) == 0;
    free(rs);
    free(rd);
    if (!ok) {
      hnm_errf(err, errlen, "out of memory");
      return -1;
    }
    if (sz != sz2 || p->nuni[0] == 0 || p->nuni[1] == 0 || p->nbi[0] == 0 || p->nbi[1] == 0) {
      hnm_errf(err, errlen, "%s: load_send.csv and load_sendrecv_diff.csv disagree on the message size or lack rows",
               send);
      return -1;
    }
    p->sat_size = sz;
    p->have_sat = 1;
    snprintf(p->sat_file, sizeof p->sat_file, "%s", diff);
    return 0;
  }
  return 0;
}

int hnm_pcal_load(const char *config, hnm_pcal *p, char *err, size_t errlen)
{
  memset(p, 0, sizeof *p);
  if (strlen(config) >= sizeof p->config) {
    hnm_errf(err, errlen, "%s: path too long", config);
    return -1;
  }
  snprintf(p->config, sizeof p->config, "%s", config);
  if (access(config, R_OK) != 0) {
    hnm_errf(err, errlen, "%s: cannot open: %s", config, strerror(errno));
    return -1;
  }
  char dirname[4096] = "", bpname[4096] = "", cdir[4096];
  if (read_config(p, dirname, sizeof dirname, bpname, sizeof bpname, err, errlen) != 0)
    return -1;
  dir_of(config, cdir, sizeof cdir);
  if (bpname[0] != '\0') {
    if (locate(cdir, dirname, bpname, p->bp_file, sizeof p->bp_file) != 0) {
      hnm_errf(err, errlen, "%s: breakpoints_file: %s not found next to the config nor under its dirname '%s'",
               config, bpname, dirname);
      return -1;
    }
    if (read_breakpoints(p, err, errlen) != 0)
      return -1;
  }
  static const char *const files[3] = {"PingPong", "Recv", "Isend"};
  static const char *const pp_ops[2] = {"MPI_Send", "MPI_Recv"};
  static const char *const recv_ops[1] = {"MPI_Recv"};
  static const char *const isend_ops[1] = {"MPI_Isend"};
  for (int i = 0; i < 3; i++) {
    char name[512], path[4096];
    snprintf(name, sizeof name, "%s_%s.csv", p->prefix, files[i]);
    if (locate(cdir, dirname, name, path, sizeof path) != 0) {
      if (i == 2 && unreadable(cdir, dirname, name, path, sizeof path)) {
        int e = access(path, R_OK) == 0 ? 0 : errno;
        hnm_errf(err, errlen, "%s: cannot read: %s", path, strerror(e != 0 ? e : EACCES));
        return -1;
      }
      if (i == 2)
        continue; /* MPI_Isend is optional for hnm */
      hnm_errf(err, errlen, "%s: prefix: %s not found next to the config nor under its dirname '%s'", config,
               name, dirname);
      return -1;
    }
    int rc;
    if (i == 0) {
      p->pp_pending = 0;
      rc = read_measurements(p, path, pp_ops, 2, pingpong_row, err, errlen);
      if (rc == 0 && p->pp_pending) {
        hnm_errf(err, errlen, "%s:%ld: the last MPI_Send row has no MPI_Recv row", path,
                 p->op[HNM_PCAL_SEND].line + 1);
        rc = -1;
      }
      snprintf(p->op[HNM_PCAL_SEND].file, sizeof p->op[0].file, "%s", path);
      snprintf(p->op[HNM_PCAL_PINGPONG].file, sizeof p->op[0].file, "%s", path);
    } else {
      int which = i == 1 ? HNM_PCAL_RECV : HNM_PCAL_ISEND;
      rc = read_measurements(p, path, i == 1 ? recv_ops : isend_ops, 1, i == 1 ? single_row_recv : single_row_isend,
                             err, errlen);
      snprintf(p->op[which].file, sizeof p->op[0].file, "%s", path);
    }
    if (rc != 0)
      return -1;
  }
  return read_saturation(p, cdir, err, errlen);
}
