/* hostile.c -- the hostile-input campaign of the reliability suite.
 *
 *   hnm_hostile [--cases N] [--seed S] [--case K] [--sanitize] [--keep] [--verbose] WORKDIR
 *
 * Every tool gets bad input: the regression cases (one per defect found by
 * earlier campaigns, each with the exit status and the message it must
 * give), then N generated cases (default 2,000) drawn from a fixed seed:
 * seed files of each tool mutated (a number replaced by NaN, inf, 1e300, a
 * 20-digit integer, ...; a line dropped, doubled, cut, a NUL or a blank
 * line first, a 70 KB line), files replaced by a named pipe, a directory,
 * /dev/zero, a dangling symbolic link or a loop, outputs pointed at the
 * inputs (directly, or a derived name linked to one), at /dev/full, at a
 * missing directory or at a named pipe nobody reads, option values mutated,
 * and hnm-run given --cfg=hnm/ settings SimGrid would abort on or whose
 * output is an input.
 * Each case runs in a directory of its own, in a process group of its own,
 * under a CPU limit (20 s, RLIMIT_CPU), a wall-time limit (120 s: a hang),
 * RLIMIT_AS (not under ASan, which reserves terabytes) and RLIMIT_FSIZE
 * (a case's own small one makes writes fail with EFBIG), and must:
 *   - end by itself within the time limit, not by a signal (but for the
 *     cases the harness kills on purpose);
 *   - exit with a status the case allows (2 for bad input, with exactly one
 *     line on stderr matching the case's pattern when it has one, and
 *     nothing on stdout);
 *   - when it refuses (exit 2), name in that line what
 *     the case damaged: the input file, and for a file of lines the line
 *     (the exact one when the damage breaks its line; some line of the file
 *     and the column when a number was replaced, which may still parse and
 *     break a relation between rows), for an XML file a line and the
 *     attribute of a replaced number; the option whose value was replaced;
 *     the output (an input, /dev/full, a missing directory) and the reason;
 *   - leave no process running, in its group or out of it (the harness is a
 *     child subreaper: orphans become its children);
 *   - peak at most MAX_RSS of resident memory (wait4's ru_maxrss, the
 *     largest of the tool and the children it waited for);
 *   - leave every input as it was (type, size, modification time, content)
 *     and create nothing but its declared outputs -- nothing at all when it
 *     refuses;
 *   - print no sanitizer report.
 * Replay one case with --case K (its files are kept under WORKDIR).
 * Environment: HNM_RUN, HNM_COMPARE, HNM_CALIBRATE, HNM_PLATFORM, HNM_ROUTE,
 * HNM_LINKPLOT, HNM_HOSTS (the tools), DATA (tests/data), PROG (an MPI
 * program for hnm-run's --dry-run), HNM_EXIT_PROG (optional: exit_prog.c,
 * whose argument says how it ends: ok, abort (MPI_Abort(comm, 7)),
 * deadlock; the cases that run a simulation are skipped without it).
 * Exit status: 0 all cases held; 1 a case failed (each failure one line).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RSS_KB (1024L * 1024L) /* 1 GiB: the documented bound for an input under 1 MB */
#define MAX_AS_BYTES (3UL << 30)   /* address space of a case (not under ASan) */
#define MAX_FSIZE (64L << 20)      /* no case writes more than 64 MiB to one file */
#define CASE_SECONDS 20            /* CPU time of one case (RLIMIT_CPU): the documented bound */
#define CASE_WALL_SECONDS 120      /* wall time of one case: a hang, on a machine perhaps 10x loaded */

/* ---- inputs ---------------------------------------------------------------- */

enum kind { K_REG, K_FIFO, K_DIR, K_LINK, K_DEVZERO, K_LOOP, K_DANGLING, K_SPARSE, K_EXEC };

struct infile {
  char *name;   /* relative to the case directory */
  char *text;   /* K_REG content; K_LINK target */
  size_t len;
  enum kind kind;
  const char *cols; /* a file of lines: its columns, SEP-separated ("op,size,start,duration"); NULL: none */
  char sep;
  int xml;          /* an XML file: its messages give a line (libxml2's, SimGrid's or ours) */
};

struct kase {
  char name[160];
  char *argv[40];
  int argc;
  struct infile in[12];
  int nin;
  char *outs[8]; /* declared outputs; "X*" matches every name starting with X */
  int nout;
  unsigned exits;    /* allowed exit statuses: bit s for status s (s < 32) */
  char *re;          /* extended regex the last stderr line must match (NULL: any) */
  char *out_re;      /* extended regex a line of stdout must match (NULL: any) */
  char *why[4];      /* extended regexes the last stderr line of a refusal (exit 2 or 3) must all match:
                        the file, line and field (or option) the case damaged */
  int nwhy;
  long fsize;        /* RLIMIT_FSIZE of the case, SIGXFSZ ignored (a write fails with EFBIG); 0: MAX_FSIZE */
  int lock_input;    /* the harness holds an exclusive flock on in[0] while the case runs */
  int kill_ms;       /* the harness SIGKILLs the tool (its pid alone) after this many ms; 0: never */
  int stdout_full;   /* stdout is /dev/full */
  int simulates;     /* runs a simulation: skipped in the sanitizer build */
  int check_devnull; /* /dev/null must still be a character device after it */
};

static const char *env_or(const char *name, const char *dflt)
{
  const char *v = getenv(name);
  return v != NULL && *v ? v : dflt;
}

static char *xstrdup(const char *s)
{
  char *d = strdup(s);
  if (d == NULL) {
    perror("hnm_hostile");
    exit(1);
  }
  return d;
}

static char *xfmt(const char *fmt, ...)
{
  va_list ap;
  char *s;
  va_start(ap, fmt);
  if (vasprintf(&s, fmt, ap) < 0) {
    perror("hnm_hostile");
    exit(1);
  }
  va_end(ap);
  return s;
}

static void k_init(struct kase *k, const char *name)
{
  memset(k, 0, sizeof *k);
  snprintf(k->name, sizeof k->name, "%s", name);
  k->exits = 1u << 2;
}

static void k_arg(struct kase *k, const char *a)
{
  if (k->argc < 38)
    k->argv[k->argc++] = xstrdup(a);
}

static void k_args(struct kase *k, ...)
{
  va_list ap;
  va_start(ap, k);
  for (const char *a; (a = va_arg(ap, const char *)) != NULL;)
    k_arg(k, a);
  va_end(ap);
}

static struct infile *k_in(struct kase *k, const char *name, const char *text, size_t len, enum kind kind)
{
  struct infile *f = &k->in[k->nin++];
  f->name = xstrdup(name);
  f->kind = kind;
  f->len = len;
  if (text != NULL) {
    f->text = malloc(len + 1);
    memcpy(f->text, text, len);
    f->text[len] = '\0';
  }
  return f;
}

static void k_text(struct kase *k, const char *name, const char *text)
{
  k_in(k, name, text, strlen(text), K_REG);
}

static void k_out(struct kase *k, const char *pattern)
{
  k->outs[k->nout++] = xstrdup(pattern);
}

static void k_free(struct kase *k)
{
  for (int i = 0; i < k->argc; i++)
    free(k->argv[i]);
  for (int i = 0; i < k->nin; i++)
    free(k->in[i].name), free(k->in[i].text);
  for (int i = 0; i < k->nout; i++)
    free(k->outs[i]);
  for (int i = 0; i < k->nwhy; i++)
    free(k->why[i]);
  free(k->re);
  free(k->out_re);
}

/* S with the characters special in an extended regex escaped. */
static char *re_escape(const char *s)
{
  char *o = malloc(2 * strlen(s) + 1), *p = o;
  for (; *s; s++) {
    if (strchr(".[]()*+?{}|^$\\", *s) != NULL)
      *p++ = '\\';
    *p++ = *s;
  }
  *p = '\0';
  return o;
}

/* A requirement on the one line of a refusal (printf-like: an extended regex). */
static void k_why(struct kase *k, const char *fmt, ...)
{
  va_list ap;
  char *s;
  va_start(ap, fmt);
  if (vasprintf(&s, fmt, ap) < 0)
    exit(1);
  va_end(ap);
  if (k->nwhy < 4)
    k->why[k->nwhy++] = s;
  else
    free(s);
}

static struct infile *k_find(struct kase *k, const char *name)
{
  for (int i = 0; i < k->nin; i++)
    if (strcmp(k->in[i].name, name) == 0)
      return &k->in[i];
  return NULL;
}

/* ---- seeds --------------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "hnm_hostile: cannot read seed %s: %s\n", path, strerror(errno));
    exit(1);
  }
  char *b = NULL;
  size_t n = 0, cap = 0, got;
  do {
    if (n + 65536 > cap)
      b = realloc(b, cap = 2 * cap + 65536);
    got = fread(b + n, 1, cap - n - 1, f);
    n += got;
  } while (got > 0);
  fclose(f);
  b[n] = '\0';
  *len = n;
  return b;
}

static const char *DATA;
static char *seed_p2p, *seed_probe, *seed_cont, *seed_result, *seed_load_torus, *seed_load_df, *seed_load_ft,
  *seed_pairs, *seed_config, *seed_plat, *seed_hosts, *seed_model, *seed_bp, *seed_pcal_cfg, *seed_pcal_pp,
  *seed_pcal_recv, *seed_pcal_isend, *seed_sat_send, *seed_sat_diff;

static void seeds_make(void)
{
  /* p2p: three repetitions of powers of two, a line per operation. */
  size_t cap = 1 << 16, n = 0;
  seed_p2p = malloc(cap);
  n += (size_t)snprintf(seed_p2p + n, cap - n, "op,size,start,duration\n");
  for (long k = 1; k <= 4194304; k *= 4)
    for (int r = 0; r < 3; r++)
      n += (size_t)snprintf(seed_p2p + n, cap - n, "send,%ld,0,%.9g\nrecv,%ld,0,%.9g\npingpong,%ld,0,%.9g\n", k,
                            1e-6 + (double)k * 1e-10, k, 2e-6 + (double)k * 1e-10, k,
                            2 * (2e-5 + 3e-6 + (double)k * 1.2e-9));
  seed_probe = xstrdup("size,delay,send,recv,pingpong\n1,0.001,1e-06,2e-06,4.6e-05\n65536,0.001,1e-05,2e-05,0.0002\n");
  seed_cont = xstrdup("pairs,mode,size,rank,duration\n1,uni,1048576,0,0.0011\n1,uni,1048576,1,0.0011\n"
                      "1,bi,1048576,0,0.0015\n1,bi,1048576,1,0.0015\n");
  seed_result = xstrdup(
    "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code\n"
    "0,/bin/true,--k 4,graphene,two,2,simclock,--cfg=smpi/simulate-computation:no,0.0113863,0.349,7011,ok,0\n"
    "1,/bin/true,--k 4,fluid,two,2,simclock,--cfg=smpi/simulate-computation:no,0.0123,0.35,7012,ok,0\n"
    "2,/bin/true,--k 4,graphene,two,4,simclock,--cfg=smpi/simulate-computation:no,0.0213,0.36,7013,ok,0\n"
    "3,/bin/true,--k 4,fluid,two,4,simclock,--cfg=smpi/simulate-computation:no,0.0223,0.37,7014,ok,0\n");
  const char *H = "link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util\n";
  seed_load_torus = xfmt("%sl0,torus,0,0,1,1e9,100,0.5,0.25,0.5\nl1,torus,0,1,2,1e9,100,0.5,0.5,0.75\n"
                         "l2,torus,1,2,3,1e9,100,0.5,0.125,1\nl3,node-up,0,-1,-1,1e9,10,0.1,0.01,0.02\n",
                         H);
  seed_load_df = xfmt("%sg0,global,0,1,0,1e9,100,0.5,0.25,0.5\ng1,global,1,0,0,1e9,100,0.5,0.5,0.75\n"
                      "r0,local,0,1,2,1e9,100,0.5,0.125,1\nr1,local,1,0,1,1e9,100,0.5,0.3,0.4\n",
                      H);
  seed_load_ft = xfmt("%sf0,fattree-up,0,0,1,1e9,100,0.5,0.25,0.5\nf1,fattree-down,0,1,0,1e9,100,0.5,0.5,0.75\n"
                      "f2,fattree-up,1,2,3,1e9,100,0.5,0.125,1\n",
                      H);
  seed_pairs = xstrdup("# src dst bytes\n0 5 8MiB\n1 6 1MiB\n2 7 4096\n3 100 65536\n");
  seed_config = xstrdup("<?xml version=\"1.0\"?>\n<config>\n"
                        "  <prop id=\"smpi/os\" value=\"0:1e-06:1e-10;1420:2e-06:2e-10\"/>\n"
                        "  <prop id=\"smpi/or\" value=\"0:1e-06:1e-10\"/>\n"
                        "  <prop id=\"smpi/ois\" value=\"0:1e-06:1e-10\"/>\n"
                        "  <prop id=\"smpi/bw-factor\" value=\"0:0.5;1420:0.8;65536:0.9\"/>\n"
                        "  <prop id=\"smpi/lat-factor\" value=\"0:1.5;1420:2;65536:3\"/>\n"
                        "  <prop id=\"smpi/async-small-thresh\" value=\"65536\"/>\n"
                        "  <prop id=\"smpi/send-is-detached-thresh\" value=\"327680\"/>\n"
                        "</config>\n");
  /* The files of tests/data. */
#define PCAL "platform-calibration/plafrim_15_06_16/"
  static const struct {
    char **seed;
    const char *path; /* under DATA */
  } files[] = {
    {&seed_plat, "platforms/two.xml"},
    {&seed_hosts, "platforms/two.hosts"},
    {&seed_model, "models/hybrid-limiter15.xml"},
    {&seed_pcal_cfg, PCAL "calibration/testplatform.xml"},
    {&seed_bp, PCAL "calibration/testplatform_breakpoints"},
    {&seed_pcal_pp, PCAL "calibration/testplatform_PingPong.csv"},
    {&seed_pcal_recv, PCAL "calibration/testplatform_Recv.csv"},
    {&seed_pcal_isend, PCAL "calibration/testplatform_Isend.csv"},
    {&seed_sat_send, PCAL "saturation/load_send.csv"},
    {&seed_sat_diff, PCAL "saturation/load_sendrecv_diff.csv"},
  };
#undef PCAL
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    size_t len;
    char *p = xfmt("%s/%s", DATA, files[i].path);
    *files[i].seed = slurp(p, &len);
    free(p);
  }
}

/* ---- the random source (fixed seed: the same cases every run) ------------------- */

static uint64_t rng_state;

static uint64_t rng(void)
{
  uint64_t x = rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static size_t rnd(size_t n)
{
  return n == 0 ? 0 : (size_t)(rng() % n);
}

/* ---- mutations --------------------------------------------------------------- */

static const char *const hostile_numbers[] = {
  "nan",  "NaN",   "inf",   "-inf",  "infinity", "1e300", "-1e300", "1e-300", "-1",   "0",     "-0",
  "1e5",  "1e12",  "4611686018427387904",         "99999999999999999999", "2147483648",     "-2147483649",
  "0x10", "1,5",   "",      " ",     "abc",       "1e",    "+",      "1e308", "1e309", "5e-324", "nanGBps",
  "infGBps", "nanns", "1e300s", "-1us", "0GBps", "18446744073709551616",
};
#define NHOSTILE (sizeof hostile_numbers / sizeof *hostile_numbers)

#define NOWHERE ((size_t)-1)

/* The line of buf (len bytes) that holds offset at: [*start, *end), its end
 * of line included (*end = len on a last line without one). */
static void line_around(const char *buf, size_t len, size_t at, size_t *start, size_t *end)
{
  size_t s = at;
  while (s > 0 && buf[s - 1] != '\n')
    s--;
  const char *e = memchr(buf + s, '\n', len - s);
  *start = s;
  *end = e ? (size_t)(e - buf) + 1 : len;
}

/* Every mutation is one text_splice: o = buf[0, from) + ins (k bytes, not in o)
 * + buf[to, len), from <= to <= len; returns the length of o. */
static size_t text_splice(char *o, const char *buf, size_t len, size_t from, size_t to, const char *ins, size_t k)
{
  memcpy(o, buf, from);
  memcpy(o + from, ins, k);
  memcpy(o + from + k, buf + to, len - to);
  return from + k + len - to;
}

/* Text mutation of buf (len bytes): returns a new buffer, *out_len, and a
 * word describing it; *pos: the offset of the damage when it lies on one
 * line (the same offset in both buffers), NOWHERE when the whole file is
 * affected (a line dropped, doubled, the end cut); *slack: 1 when the
 * refusal may name the next line instead (a byte became an end of line). */
static char *mutate(const char *buf, size_t len, size_t *out_len, const char **what, size_t *pos, int *slack)
{
  static char long_line[70001];
  char *o = malloc(2 * len + sizeof long_line); /* the largest text_splice: a line doubled, or 70 KB */
  int m = (int)rnd(12);
  size_t at = rnd(len + 1);
  *pos = NOWHERE;
  *slack = 0;
  switch (m) {
    case 0:
    case 1:
    case 2:
    case 3: { /* a number replaced by a hostile value */
      *what = "number";
      size_t starts[4096], ns = 0;
      for (size_t i = 0; i < len && ns < 4096; i++)
        if ((buf[i] >= '0' && buf[i] <= '9') && (i == 0 || !(buf[i - 1] >= '0' && buf[i - 1] <= '9') ))
          if (i == 0 || buf[i - 1] != '.')
            starts[ns++] = i;
      if (ns == 0) {
        *out_len = text_splice(o, buf, len, len, len, "", 0);
        break;
      }
      size_t s = starts[rnd(ns)], e = s;
      while (e < len && (strchr("0123456789.eE+-", buf[e]) != NULL))
        e++;
      /* What follows the number stays: 1GBps -> nanGBps. */
      const char *h = hostile_numbers[rnd(NHOSTILE)];
      *pos = s;
      *out_len = text_splice(o, buf, len, s, e, h, strlen(h));
      break;
    }
    case 4: { /* a line dropped */
      *what = "drop-line";
      size_t s, e;
      line_around(buf, len, at, &s, &e);
      *out_len = text_splice(o, buf, len, s, e, "", 0);
      break;
    }
    case 5: { /* a line doubled */
      *what = "double-line";
      size_t s, e;
      line_around(buf, len, at, &s, &e);
      *out_len = text_splice(o, buf, len, e, e, buf + s, e - s);
      break;
    }
    case 6: /* cut short */
      *what = "truncate";
      *out_len = text_splice(o, buf, len, at, len, "", 0);
      break;
    case 7: /* a blank line or a NUL line first */
      *what = rnd(2) ? "blank-first" : "nul-first";
      *pos = 0;
      *out_len = text_splice(o, buf, len, 0, 0, (*what)[0] == 'b' ? " \n" : "\0\n", 2);
      break;
    case 8: { /* a byte replaced */
      *what = "byte";
      static const char bytes[] = {'\0', '\n', ',', '"', '<', '>', '&', '\r', ' ', '\xff', ';', ':', '='};
      *out_len = text_splice(o, buf, len, len, len, "", 0);
      if (len > 0) {
        size_t b = rnd(len);
        o[b] = bytes[rnd(sizeof bytes)];
        /* An end of line made or unmade: the damage spans two lines. */
        *pos = buf[b] == '\n' && b > 0 ? b - 1 : b;
        *slack = o[b] == '\n' || buf[b] == '\n';
      }
      break;
    }
    case 9: /* a 70 KB line */
      *what = "long-line";
      *pos = at;
      for (size_t i = 0; i + 1 < sizeof long_line; i++)
        long_line[i] = "1234567,"[i % 8];
      long_line[sizeof long_line - 1] = '\n';
      *out_len = text_splice(o, buf, len, at, at, long_line, sizeof long_line);
      break;
    case 10: /* the header (first line) damaged */
      *what = "header";
      *out_len = text_splice(o, buf, len, len, len, "", 0);
      if (len > 2) {
        size_t b = rnd(strcspn(buf, "\n") + 1);
        *slack = buf[b] == '\n'; /* the header's end of line: joined to line 2 */
        o[b] = 'X';
        *pos = 0;
      }
      break;
    default: { /* a field or attribute duplicated in place */
      *what = "dup-field";
      *pos = at;
      size_t s = at;
      while (s > 0 && buf[s - 1] != ',' && buf[s - 1] != ' ' && buf[s - 1] != '\n')
        s--;
      size_t e = at;
      while (e < len && buf[e] != ',' && buf[e] != ' ' && buf[e] != '\n')
        e++;
      /* The separator the field had after it (a comma at the end), then the field again. */
      char *field = malloc(e - s + 1);
      field[0] = (e < len && buf[e] == ' ') ? ' ' : ',';
      memcpy(field + 1, buf + s, e - s);
      *out_len = text_splice(o, buf, len, e, e, field, e - s + 1);
      free(field);
      break;
    }
  }
  /* Terminated, as every file text here is: the expectations search it
   * with strstr (attribute_at); the sizes above leave room for the byte. */
  o[*out_len] = '\0';
  return o;
}

/* ---- case templates ---------------------------------------------------------- */

static const char *T_RUN, *T_COMPARE, *T_CALIBRATE, *T_PLATFORM, *T_ROUTE, *T_LINKPLOT, *T_HOSTS, *T_PROG;

/* Seed case of template t (inputs intact), exit 0 expected with these
 * outputs; main file name (the one to mutate) in *mainf. */
enum {
  T_FIT, T_FIT_CONT, T_PCAL, T_IMPORT, T_EXPORT, T_MAP, T_DIST, T_PLATFORM_T, T_ROUTE_T, T_HOSTS_T, T_RUN_PLAT,
  T_RUN_HOSTFILE, T_RUN_MODEL, T_MERGE, T_PLOT, T_CCOMPARE, NTEMPLATES
};
static const char *const template_names[NTEMPLATES] = {
  "calibrate-fit", "calibrate-fit-contention", "calibrate-pcal", "calibrate-import", "calibrate-export",
  "linkplot-map", "linkplot-dist", "platform", "route", "hosts", "run-platform", "run-hostfile", "run-model",
  "compare-merge", "compare-plot", "calibrate-compare"};
/* Relative weight of each (cheap tools more often). */
static const int template_weight[NTEMPLATES] = {8, 4, 3, 8, 6, 10, 6, 8, 6, 6, 8, 6, 8, 8, 8, 5};

/* hnm-calibrate import of cfg.xml, its model written to out. */
static void import_args(struct kase *k, const char *out)
{
  k_args(k, T_CALIBRATE, "import", "cfg.xml", "--bandwidth", "1GBps", "--latency", "1us", "-o", out, NULL);
}

static void template_case(struct kase *k, int t, const char **mainf)
{
  *mainf = NULL;
  k->exits = 1u << 0;
  switch (t) {
    case T_FIT:
    case T_FIT_CONT:
      k_text(k, "p2p.csv", seed_p2p);
      k_text(k, "probe.csv", seed_probe);
      k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", NULL);
      if (t == T_FIT_CONT) {
        k_text(k, "contention.csv", seed_cont);
        k_arg(k, "contention.csv");
      }
      k_args(k, "-o", "m.xml", "--no-plots", NULL);
      k_out(k, "m.xml"), k_out(k, "m-report*");
      *mainf = t == T_FIT_CONT ? "contention.csv" : rnd(3) ? "p2p.csv" : "probe.csv";
      break;
    case T_PCAL:
      k_text(k, "pc/testplatform.xml", seed_pcal_cfg);
      k_text(k, "pc/testplatform_breakpoints", seed_bp);
      k_text(k, "pc/testplatform_PingPong.csv", seed_pcal_pp);
      k_text(k, "pc/testplatform_Recv.csv", seed_pcal_recv);
      k_text(k, "pc/testplatform_Isend.csv", seed_pcal_isend);
      k_args(k, T_CALIBRATE, "fit", "--platform-calibration", "pc/testplatform.xml", "-o", "m.xml", "--no-plots",
             NULL);
      k_out(k, "m.xml"), k_out(k, "m-report*");
      {
        static const char *const f[] = {"pc/testplatform.xml", "pc/testplatform_breakpoints",
                                        "pc/testplatform_PingPong.csv", "pc/testplatform_Recv.csv",
                                        "pc/testplatform_Isend.csv"};
        *mainf = f[rnd(5)];
      }
      break;
    case T_IMPORT:
      k_text(k, "cfg.xml", seed_config);
      import_args(k, "m.xml");
      k_out(k, "m.xml");
      *mainf = "cfg.xml";
      break;
    case T_EXPORT:
      k_text(k, "model.xml", seed_model);
      k_args(k, T_CALIBRATE, "export", "model.xml", "--bandwidth", "1GBps", "--latency", "1us", NULL);
      *mainf = "model.xml";
      break;
    case T_MAP: {
      const char *s = rnd(3) == 0 ? seed_load_torus : rnd(2) ? seed_load_df : seed_load_ft;
      k_text(k, "load.csv", s);
      k_args(k, T_LINKPLOT, "map", "load.csv", "-o", "map", NULL);
      k_out(k, "map.dat"), k_out(k, "map.gp");
      *mainf = "load.csv";
      break;
    }
    case T_DIST:
      k_text(k, "a.csv", seed_load_torus);
      k_text(k, "b.csv", seed_load_df);
      k_args(k, T_LINKPLOT, "dist", "-o", "d", "A=a.csv", "B=b.csv", NULL);
      k_out(k, "d-cdf.dat"), k_out(k, "d-hist.dat"), k_out(k, "d.gp");
      *mainf = rnd(2) ? "a.csv" : "b.csv";
      break;
    case T_PLATFORM_T: {
      static const char *const fam[][6] = {{"torus", "--dims", "4x3x2", "--bw", "10GBps", "--lat"},
                                           {"fattree", "--levels", "2", "--bw", "10GBps", "--lat"},
                                           {"cluster", "--cabinets", "2", "--nodes", "4", "--lat"},
                                           {"dragonfly", "--preset", "dragonfly-MM", "--scale", "0.01", "--lat"}};
      int f = (int)rnd(4);
      k_args(k, T_PLATFORM, fam[f][0], fam[f][1], fam[f][2], fam[f][3], fam[f][4], fam[f][5], "100ns", "-o", "p.xml",
             "--hostfile", "p.hosts", NULL);
      k_out(k, "p.xml"), k_out(k, "p.hosts");
      k->exits |= 1u << 2; /* a family's own options may not exist: refused */
      break;
    }
    case T_ROUTE_T:
      k_text(k, "pairs.txt", seed_pairs);
      k_args(k, T_ROUTE, "--shape", "4x4x4x4x2", "--pattern-file", "pairs.txt", "--k", "2", "--csv", NULL);
      *mainf = "pairs.txt";
      break;
    case T_HOSTS_T:
      k_text(k, "p.xml", seed_plat);
      k_args(k, T_HOSTS, "p.xml", NULL);
      k->exits |= 1u << 1; /* hnm-hosts: 2 = a platform refused, 1 = stdout */
      *mainf = "p.xml";
      break;
    case T_RUN_PLAT:
    case T_RUN_HOSTFILE:
      k_text(k, "p.xml", seed_plat);
      k_text(k, "p.hosts", seed_hosts);
      k_args(k, T_RUN, "--dry-run", "-platform", "p.xml", "-hostfile", "p.hosts", "-np", "2", T_PROG, NULL);
      *mainf = t == T_RUN_PLAT ? "p.xml" : "p.hosts";
      break;
    case T_RUN_MODEL:
      k_text(k, "model.xml", seed_model);
      k_args(k, T_RUN, "--model", "model.xml", "--explain", NULL);
      *mainf = "model.xml";
      break;
    case T_MERGE:
      k_text(k, "r1.csv", seed_result);
      k_text(k, "r2.csv", seed_result);
      k_args(k, T_COMPARE, "merge", "-o", "out.csv", "r1.csv", "r2.csv", NULL);
      k_out(k, "out.csv");
      *mainf = rnd(2) ? "r1.csv" : "r2.csv";
      break;
    case T_CCOMPARE:
      k_text(k, "real.csv", seed_p2p);
      k_text(k, "sim.csv", seed_p2p);
      k_args(k, T_CALIBRATE, "compare", "real.csv", "hybrid=sim.csv", NULL);
      *mainf = rnd(2) ? "real.csv" : "sim.csv";
      break;
    case T_PLOT:
      k_text(k, "r.csv", seed_result);
      k_args(k, T_COMPARE, "plot", "r.csv", "-o", "pl", NULL);
      k_out(k, "pl*");
      *mainf = "r.csv";
      break;
  }
}

/* What each seed file is: its columns when it is a file of lines (the
 * refusal of a damaged line names FILE:LINE, and the column of a damaged
 * number), or XML (FILE:LINE, and the attribute of a damaged number). */
static void describe_inputs(struct kase *k)
{
  static const struct {
    const char *suffix, *cols;
    char sep;
    int xml;
  } kinds[] = {
    {"p2p.csv", "op,size,start,duration", ',', 0},
    {"real.csv", "op,size,start,duration", ',', 0},
    {"sim.csv", "op,size,start,duration", ',', 0},
    {"probe.csv", "size,delay,send,recv,pingpong", ',', 0},
    {"contention.csv", "pairs,mode,size,rank,duration", ',', 0},
    {"load.csv", "link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util", ',', 0},
    {"a.csv", "link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util", ',', 0},
    {"b.csv", "link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util", ',', 0},
    {"r.csv", "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code", ',', 0},
    {"r1.csv", "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code", ',', 0},
    {"r2.csv", "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code", ',', 0},
    {"_breakpoints", "limit,name", ',', 0},
    {"_PingPong.csv", "operation,size,start,duration", ',', 0},
    {"_Recv.csv", "operation,size,start,duration", ',', 0},
    {"_Isend.csv", "operation,size,start,duration", ',', 0},
    {"pairs.txt", "src,dst,bytes", ' ', 0},
    {"p.hosts", "host", '\n', 0},
    {".xml", NULL, 0, 1},
  };
  for (int i = 0; i < k->nin; i++)
    for (size_t j = 0; j < sizeof kinds / sizeof *kinds; j++) {
      size_t l = strlen(k->in[i].name), s = strlen(kinds[j].suffix);
      if (l >= s && strcmp(k->in[i].name + l - s, kinds[j].suffix) == 0) {
        k->in[i].cols = kinds[j].cols;
        k->in[i].sep = kinds[j].sep;
        k->in[i].xml = kinds[j].xml;
        break;
      }
    }
}

/* The name of column COL of COLS (a static buffer), "" past the last. */
static const char *column_name(const char *cols, int col)
{
  static char name[64];
  const char *c = cols;
  for (int i = 0; i < col && c != NULL; i++)
    if ((c = strchr(c, ',')) != NULL)
      c++;
  if (c == NULL)
    return "";
  snprintf(name, sizeof name, "%.*s", (int)strcspn(c, ","), c);
  return name;
}

/* The attribute whose value holds offset POS of TEXT (a static buffer), ""
 * when POS is not inside an attribute value. */
static const char *attribute_at(const char *text, size_t pos)
{
  static char name[128];
  size_t q = pos;
  while (q > 0 && text[q - 1] != '"' && text[q - 1] != '\n' && text[q - 1] != '>')
    q--;
  if (q < 2 || text[q - 1] != '"' || text[q - 2] != '=')
    return "";
  size_t e = q - 2, b = e;
  while (b > 0 && (strchr("-_:", text[b - 1]) != NULL || (text[b - 1] >= 'a' && text[b - 1] <= 'z') ||
                   (text[b - 1] >= 'A' && text[b - 1] <= 'Z') || (text[b - 1] >= '0' && text[b - 1] <= '9')))
    b--;
  /* The tag it belongs to: the XML declaration's version is not a field of
   * the format (libxml2 says what is wrong with it); a <prop>'s value is
   * the field its id names, <NAME value="..."/>'s the element's NAME. */
  size_t t = b;
  while (t > 0 && text[t - 1] != '<')
    t--;
  if (t > 0 && text[t] == '?')
    return "";
  if (e - b == 5 && strncmp(text + b, "value", 5) == 0) {
    const char *id = strstr(text + t, " id=\"");
    if (id != NULL && (size_t)(id - text) < b) {
      snprintf(name, sizeof name, "%.*s", (int)strcspn(id + 5, "\""), id + 5);
      return name;
    }
    snprintf(name, sizeof name, "%.*s", (int)strcspn(text + t, " \t\n/>"), text + t);
    return name;
  }
  snprintf(name, sizeof name, "%.*s", (int)(e - b), text + b);
  return name;
}

/* What the one line of a refusal of generated case K must name, for a
 * damaged input F (mutated at POS, or NOWHERE: the whole file). */
static void expect_file(struct kase *k, const struct infile *f, size_t pos, int slack, const char *what)
{
  const char *base = strrchr(f->name, '/') ? strrchr(f->name, '/') + 1 : f->name;
  char *eb = re_escape(base);
  if (pos == NOWHERE || (f->cols == NULL && !f->xml)) {
    k_why(k, "%s", eb);
  } else if (f->xml) {
    /* XML: a line (where the parser noticed), the attribute of a number.
     * A platform still valid but without a host the hostfile names is a
     * refusal of the hostfile's line that names the platform. */
    k_why(k, "(%s:[0-9]+|the platform '%s')", eb, eb);
    const char *attr = strcmp(what, "number") == 0 ? attribute_at(f->text, pos) : "";
    if (*attr) {
      char *ea = re_escape(attr);
      k_why(k, "(%s|the platform '%s')", ea, eb);
      free(ea);
    }
  } else if (strcmp(what, "number") == 0) {
    /* A number replaced may still parse, and break a relation between
     * rows found on another line: a line of this file, and the column
     * (unless the line's fields are what is wrong: "1,5" adds one). A row
     * that is missing has no line: "FILE: no row with COLUMN ...". */
    k_why(k, "(%s:[0-9]+([^0-9]|$)|%s: no row with )", eb, eb);
    size_t ls = pos;
    while (ls > 0 && f->text[ls - 1] != '\n')
      ls--;
    int col = 0;
    for (size_t i = ls; i < pos; i++)
      col += f->text[i] == f->sep;
    if (f->sep != '\n')
      k_why(k, "(%s|field|line longer)", column_name(f->cols, col));
  } else {
    /* The rest breaks the line it touches: that line (or the next one,
     * when an end of line was made or unmade). */
    long line = 1;
    for (size_t i = 0; i < pos && i < f->len; i++)
      line += f->text[i] == '\n';
    if (slack)
      k_why(k, "%s:(%ld|%ld)([^0-9]|$)", eb, line, line + 1);
    else
      k_why(k, "%s:%ld([^0-9]|$)", eb, line);
  }
  free(eb);
}

/* Replace argument A (exact) by B. */
static int k_replace_arg(struct kase *k, const char *a, const char *b)
{
  for (int i = 1; i < k->argc; i++)
    if (strcmp(k->argv[i], a) == 0) {
      free(k->argv[i]);
      k->argv[i] = xstrdup(b);
      return 1;
    }
  return 0;
}

/* Whether A is one of the case's arguments (k_replace_arg() can replace it). */
static int k_has_arg(const struct kase *k, const char *a)
{
  for (int i = 1; i < k->argc; i++)
    if (strcmp(k->argv[i], a) == 0)
      return 1;
  return 0;
}

/* Generated case number i. */
static void generated_case(struct kase *k, long i)
{
  int total = 0;
  for (int t = 0; t < NTEMPLATES; t++)
    total += template_weight[t];
  int pick = (int)rnd((size_t)total), t = 0;
  while (pick >= template_weight[t])
    pick -= template_weight[t++];
  const char *mainf;
  char name[160];
  snprintf(name, sizeof name, "gen-%ld-%s", i, template_names[t]);
  k_init(k, name);
  template_case(k, t, &mainf);
  describe_inputs(k);
  k->exits |= 1u << 2;
  const char *what = "intact";
  int r = (int)rnd(100);
  struct infile *f = mainf ? k_find(k, mainf) : NULL;
  if ((t == T_RUN_PLAT || t == T_RUN_HOSTFILE) && r < 6) {
    /* A setting of the plugin's that SimGrid would abort on, or whose
     * output is an input: hnm-run refuses it first. */
    static const char *const cfgs[][2] = {
      {"--cfg=hnm/seed:1,5", "hnm/seed takes one value"},
      {"--cfg=hnm/seed:1 5", "hnm/seed takes one value"},
      {"--cfg=hnm/sede:1", "hnm has no setting hnm/sede"},
      {"--cfg=hnm/verbose", "hnm/verbose has no value"},
      {"--cfg=hnm/seed:", "hnm/seed takes a whole number"},
      {"--cfg=hnm/seed:18446744073709551616", "hnm/seed takes a whole number"},
      {"--cfg=hnm/link-load:p.xml", "'p\\.xml' is the platform"},
      {"--cfg=hnm/link-load:p.hosts", "'p\\.hosts' is the hostfile"},
    };
    size_t c = rnd(sizeof cfgs / sizeof *cfgs);
    k_arg(k, cfgs[c][0]);
    k_why(k, "%s", cfgs[c][1]);
    k->exits = 1u << 2;
    what = "cfg";
  } else if (f == NULL || r < 12) {
    /* Option values: a number of the command line replaced. */
    int cand[40], nc = 0;
    for (int a = 1; a < k->argc; a++)
      if (k->argv[a][0] >= '0' && k->argv[a][0] <= '9')
        cand[nc++] = a;
    if (nc > 0) {
      int a = cand[rnd((size_t)nc)];
      const char *h = hostile_numbers[rnd(NHOSTILE)];
      char *unit = k->argv[a] + strspn(k->argv[a], "0123456789.x");
      char *v = xfmt("%s%s", h, rnd(2) ? unit : "");
      free(k->argv[a]);
      k->argv[a] = v;
      what = "option";
      /* Refused: the option is named (every number follows one). */
      char *eo = re_escape(k->argv[a - 1]);
      k_why(k, "%s", eo);
      free(eo);
    }
  } else if (r < 80) {
    size_t n, pos;
    int slack;
    char *m = mutate(f->text, f->len, &n, &what, &pos, &slack);
    free(f->text);
    f->text = m;
    f->len = n;
    expect_file(k, f, pos, slack, what);
  } else if (r < 90) {
    static const enum kind kinds[] = {K_FIFO, K_DIR, K_DEVZERO, K_LOOP, K_DANGLING, K_SPARSE};
    static const char *const kind_names[] = {"fifo", "dir", "devzero", "loop", "dangling", "sparse"};
    int c = (int)rnd(6);
    f->kind = kinds[c];
    what = kind_names[c];
    expect_file(k, f, NOWHERE, 0, what);
  } else if (k->nout > 0 && strchr(k->outs[0], '*') == NULL && k_has_arg(k, k->outs[0])) {
    /* An output pointed at an input (directly or through a link), at
     * /dev/full, or into a missing directory: one the command line names
     * (hnm-linkplot's come from its -o PREFIX, and stay as they are). */
    int c = (int)rnd(5);
    const char *out = k->outs[0];
    /* The refusal names the output as given (and, for an input, says so). */
    if (c == 0) {
      k_replace_arg(k, out, mainf);
      what = "out=in";
      char *e = re_escape(mainf);
      k_why(k, "'%s' is the input file", e);
      free(e);
    } else if (c == 1) {
      k_in(k, "link-to-input", mainf, strlen(mainf), K_LINK);
      k_replace_arg(k, out, "link-to-input");
      what = "out=link-to-in";
      k_why(k, "'link-to-input' is the input file");
    } else if (c == 2) {
      k_replace_arg(k, out, "/dev/full");
      what = "out=/dev/full";
      k_why(k, "'/dev/full': write error: No space left on device$");
      k->exits = 1u << 1; /* failed work, not bad input */
    } else if (c == 3) {
      k_replace_arg(k, out, "missing/dir/out");
      what = "out-missing-dir";
      k_why(k, "'missing/dir/out': cannot create: No such file or directory$");
    } else {
      /* A named pipe in the output's place, nobody reading it: written
       * through, so refused (2) or failed (1), never waited on for ever. */
      k_in(k, out, NULL, 0, K_FIFO);
      what = "out=fifo";
      char *e = re_escape(out);
      k_why(k, "'%s'", e);
      free(e);
      k->exits = 1u << 1 | 1u << 2;
    }
  } else if (k->nout > 0 && strchr(k->outs[0], '*') == NULL) {
    /* An output the command line does not name (hnm-linkplot's, from -o
     * PREFIX): a link to /dev/full in its place, a write that fails; or a
     * link to the input, refused by core's writer. */
    char *e = re_escape(k->outs[0]);
    if (mainf != NULL && rnd(2) == 0) {
      k_in(k, k->outs[0], mainf, strlen(mainf), K_LINK);
      what = "out-link=input";
      char *ei = re_escape(mainf);
      k_why(k, "'%s' is .*'%s': writing it would destroy it$", e, ei);
      free(ei);
    } else {
      k_in(k, k->outs[0], "/dev/full", strlen("/dev/full"), K_LINK);
      what = "out-link=/dev/full";
      k_why(k, "'%s': write error: No space left on device$", e);
      k->exits = 1u << 1; /* failed work, not bad input */
    }
    free(e);
  } else if (k->argc > 0 && strcmp(k->argv[0], T_LINKPLOT) == 0) {
    /* hnm-linkplot writes nothing on standard output: no write to fail. */
  } else {
    k->stdout_full = 1;
    what = "stdout=/dev/full";
    k_why(k, "standard output: write error: No space left on device$");
    k->exits = 1u << 1; /* failed work, not bad input */
  }
  size_t l = strlen(k->name);
  snprintf(k->name + l, sizeof k->name - l, "-%s%s%s", what, mainf ? ":" : "", mainf ? mainf : "");
}

/* ---- regression cases ------------------------------------------------------------ */

static int nregress;

#define MAX_REGRESS 400 /* room for every regression case (reg() stops beyond) */

static struct kase *reg(struct kase *all, const char *name, const char *re)
{
  if (nregress == MAX_REGRESS) {
    fprintf(stderr, "hnm_hostile: more than %d regression cases: raise MAX_REGRESS\n", MAX_REGRESS);
    exit(1);
  }
  struct kase *k = &all[nregress++];
  k_init(k, name);
  if (re != NULL)
    k->re = xstrdup(re);
  /* A failed write is failed work (exit 1), not bad input. */
  if (re != NULL && strstr(re, "write error") != NULL)
    k->exits = 1u << 1;
  return k;
}

static int regression_cases(struct kase *all)
{
  struct kase *k;
  char *big;
  nregress = 0;
  const char *LH = "link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util\n";

  /* hnm-linkplot map on one row: D*N overflow and heap write; a = 1e12 (1.9
   * GB written); cells beyond the bound; inf-to-int. */
  static const struct {
    const char *name, *re, *row;
  } map_rows[] = {
    {"linkplot-DxN-overflow", "load.csv:2: a: '4611686018427387904' is not a whole number",
     "l,torus,4611686018427387904,3,1,1e9,1,1,0.5,0.5"},
    {"linkplot-a-1e12", "load.csv:2: a: '1000000000000' is not a whole number",
     "l,torus,1000000000000,3,1,1e9,1,1,0.5,0.5"},
    {"linkplot-cells", "load.csv: 1000001 dimensions of 1000001 hosts: more than [0-9]+ cells",
     "l,torus,1000000,1000000,1,1e9,1,1,0.5,0.5"},
    {"linkplot-global-cells", "load.csv: [0-9]+ groups of [0-9]+ routers: more than [0-9]+ cells",
     "l,global,1048576,1048576,1,1e9,1,1,0.5,0.5"},
    {"linkplot-inf", "load.csv:2: mean_util: 'inf' is not a finite number", "l,torus,0,1,2,1e9,1,1,inf,0.5"},
  };
  for (size_t i = 0; i < sizeof map_rows / sizeof *map_rows; i++) {
    k = reg(all, map_rows[i].name, map_rows[i].re);
    big = xfmt("%s%s\n", LH, map_rows[i].row);
    k_text(k, "load.csv", big), free(big);
    k_args(k, T_LINKPLOT, "map", "load.csv", "-o", "map", NULL);
  }
  /* dist: inf-to-int; a utilisation of 1e300 is refused
   * (platforms/hnm_linkload_csv.h's ranges). */
  k = reg(all, "linkplot-dist-1e300", "^hnm-linkplot: a\\.csv:2: mean_util: '1e300' is not in \\[0, 1000\\]");
  big = xfmt("%sl,torus,0,1,2,1e9,1,1,1e300,1e300\n", LH);
  k_text(k, "a.csv", big), free(big);
  k_args(k, T_LINKPLOT, "dist", "-o", "d", "A=a.csv", NULL);
  k = reg(all, "linkplot-out-is-input", "^hnm-linkplot: -o: 'map\\.dat' is LOAD\\.csv 'map\\.dat': writing it would destroy it$");
  k_text(k, "map.dat", seed_load_torus);
  k_args(k, T_LINKPLOT, "map", "map.dat", "-o", "map", NULL);
  k = reg(all, "linkplot-no-args", "a command is needed");
  k_args(k, T_LINKPLOT, NULL);

  /* hnm-calibrate import: notes beyond 4 KiB (55 unknown props); FIFO; gzip bomb; -o = input. */
  k = reg(all, "import-many-notes", NULL);
  {
    size_t cap = 1 << 16, n = 0;
    big = malloc(cap);
    n += (size_t)snprintf(big + n, cap - n, "<config>\n");
    for (int i = 0; i < 120; i++)
      n += (size_t)snprintf(big + n, cap - n, "<prop id=\"unknown/prop-with-a-long-name-%03d\" value=\"1\"/>\n", i);
    snprintf(big + n, cap - n, "</config>\n");
  }
  k_text(k, "cfg.xml", big), free(big);
  import_args(k, "m.xml");
  k->exits = 1u << 0;
  k_out(k, "m.xml");
  k = reg(all, "import-fifo", "cfg.xml: not a regular file \\(a named pipe\\)");
  k_in(k, "cfg.xml", NULL, 0, K_FIFO);
  import_args(k, "m.xml");
  k = reg(all, "import-gzip", "cfg.xml:1: a compressed file");
  k_in(k, "cfg.xml", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10, K_REG);
  import_args(k, "m.xml");
  k = reg(all, "import-many-elements", "cfg.xml: more than 100000 elements");
  {
    size_t n = 0, cap = 8 + 4 * 150000 + 16;
    big = malloc(cap);
    n += (size_t)sprintf(big, "<config>");
    for (int i = 0; i < 150000; i++)
      memcpy(big + n, "<a/>", 4), n += 4;
    n += (size_t)sprintf(big + n, "</config>\n");
    k_in(k, "cfg.xml", big, n, K_REG);
    free(big);
  }
  import_args(k, "m.xml");
  k = reg(all, "import-out-is-input", "'cfg.xml' is the input file cfg.xml");
  k_text(k, "cfg.xml", seed_config);
  import_args(k, "cfg.xml");
  k = reg(all, "import-libxml2-one-line", "cfg.xml:[0-9]+: not well-formed XML");
  k_text(k, "cfg.xml", "<config><prop id=\"x\" value=\"1\"/>\n<oops\n");
  import_args(k, "m.xml");

  /* fit: -o = a measurement file (directly, through a link); --report ''. */
  k = reg(all, "fit-out-is-input", "-o: 'p2p.csv' is the input file p2p.csv");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "p2p.csv", "--no-plots", NULL);
  k = reg(all, "fit-out-is-link-to-input", "-o: 'l.csv' is the input file p2p.csv");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_in(k, "l.csv", "p2p.csv", 7, K_LINK);
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "l.csv", "--no-plots", NULL);
  k = reg(all, "fit-report-empty", "--report.*empty");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", "--report", "", "--no-plots", NULL);
  k = reg(all, "fit-contention-1e300", "contention.csv:2: fields 'pairs' and 'rank'");
  k_text(k, "p2p.csv", seed_p2p);
  k_text(k, "contention.csv", "pairs,mode,size,rank,duration\n1e300,uni,1048576,0,0.0011\n");
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "contention.csv", "-o", "m.xml", "--no-plots", NULL);
  k = reg(all, "fit-unwritable-report-no-temporaries", "--report: 'ro/r': cannot create");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_in(k, "ro", "/proc/self", 10, K_LINK); /* a directory nothing can be created in */
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", "--report", "ro/r", "--no-plots", NULL);

  /* fit --platform-calibration: durations x1e300, a single 1e5 s, the breakpoints header, sparse file, FIFO. */
  const char *pcal_files[5][2] = {{"pc/testplatform.xml", seed_pcal_cfg},
                                  {"pc/testplatform_breakpoints", seed_bp},
                                  {"pc/testplatform_PingPong.csv", seed_pcal_pp},
                                  {"pc/testplatform_Recv.csv", seed_pcal_recv},
                                  {"pc/testplatform_Isend.csv", seed_pcal_isend}};
#define PCAL_CASE(NAME, RE)                                                                                            \
  k = reg(all, NAME, RE);                                                                                              \
  for (int i = 0; i < 5; i++)                                                                                          \
    k_text(k, pcal_files[i][0], pcal_files[i][1]);                                                                     \
  k_args(k, T_CALIBRATE, "fit", "--platform-calibration", "pc/testplatform.xml", "-o", "m.xml", "--no-plots", NULL)
  PCAL_CASE("pcal-x1e300", "testplatform_PingPong.csv:[0-9]+: duration: .* is above 3600 s");
  {
    struct infile *f = k_find(k, "pc/testplatform_PingPong.csv");
    size_t cap = f->len * 2 + 1000, n = 0;
    char *o = malloc(cap);
    /* Every duration (the last field) times 1e300. */
    for (char *line = f->text; *line;) {
      char *e = strchr(line, '\n');
      size_t ll = e ? (size_t)(e - line) : strlen(line);
      char *c = memrchr(line, ',', ll);
      memcpy(o + n, line, c != NULL ? (size_t)(c - line) + 1 : ll);
      n += c != NULL ? (size_t)(c - line) + 1 : ll;
      if (c != NULL)
        n += (size_t)sprintf(o + n, "%.6g", strtod(c + 1, NULL) * 1e300);
      o[n++] = '\n';
      line += ll + (e ? 1 : 0);
    }
    free(f->text);
    f->text = o;
    f->len = n;
  }
  PCAL_CASE("pcal-one-1e5s", "testplatform_Recv.csv:1: duration: 1e5 s is above 3600 s");
  {
    struct infile *f = k_find(k, "pc/testplatform_Recv.csv");
    char *e = strchr(f->text, '\n'), *c = memrchr(f->text, ',', (size_t)(e - f->text));
    char *o = xfmt("%.*s,1e5%s", (int)(c - f->text), f->text, e);
    free(f->text);
    f->text = o;
    f->len = strlen(o);
  }
  PCAL_CASE("pcal-breakpoints-blank-first", "testplatform_breakpoints:2: header is not 'Limit, Name'");
  {
    struct infile *f = k_find(k, "pc/testplatform_breakpoints");
    char *o = xfmt("\n1420, Small\n%s", f->text);
    free(f->text);
    f->text = o;
    f->len = strlen(o);
  }
  PCAL_CASE("pcal-breakpoints-nul-first", "testplatform_breakpoints:1: NUL byte");
  {
    struct infile *f = k_find(k, "pc/testplatform_breakpoints");
    char *o = malloc(f->len + 2);
    o[0] = '\0', o[1] = '\n';
    memcpy(o + 2, f->text, f->len);
    free(f->text);
    f->text = o;
    f->len += 2;
  }
  PCAL_CASE("pcal-breakpoints-sparse-1GB", "testplatform_breakpoints:1: line longer than 64 KiB");
  k_find(k, "pc/testplatform_breakpoints")->kind = K_SPARSE;
  PCAL_CASE("pcal-config-fifo", "testplatform.xml: not a regular file \\(a named pipe\\)");
  k_find(k, "pc/testplatform.xml")->kind = K_FIFO;
  PCAL_CASE("pcal-config-gzip", "testplatform.xml:1: a compressed file");
  {
    struct infile *f = k_find(k, "pc/testplatform.xml");
    free(f->text);
    f->text = malloc(4);
    memcpy(f->text, "\x1f\x8b\x08\x00", 4);
    f->len = 4;
  }
  PCAL_CASE("pcal-out-is-config", "-o: 'pc/testplatform.xml' is the input file");
  k_replace_arg(k, "m.xml", "pc/testplatform.xml");
  PCAL_CASE("pcal-decade-table-not-before-refusal", "-o: 'missing/m.xml': cannot create");
  k_replace_arg(k, "m.xml", "missing/m.xml");
  PCAL_CASE("pcal-saturation-diff-named", "load_sendrecv_diff.csv: ranks and rows do not match");
  k_text(k, "pc/saturation/load_send.csv", seed_sat_send);
  {
    /* The diff file with one rank more than load_send's. */
    char *o = xfmt("%s%d,MPI_Sendrecv,1,0,1\n", seed_sat_diff, 999);
    k_text(k, "pc/saturation/load_sendrecv_diff.csv", o);
    free(o);
  }

  /* A compressed model: refused, not inflated. */
  k = reg(all, "run-model-gzip", "model.xml:1: model file: a compressed file");
  k_in(k, "model.xml", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10, K_REG);
  k_args(k, T_RUN, "--model", "model.xml", "--explain", NULL);

  /* Per-size residual tables: a NaN quantile, and two tables of one size
   * (the second's line and attribute named). */
  k = reg(all, "run-model-table-nan", "model.xml:6: residuals attribute 'quantiles': quantile 2 'nan'");
  k_text(k, "model.xml",
         "<?xml version=\"1.0\"?>\n<hnm-model name=\"t\" version=\"1\">\n<protocol async=\"none\" detached=\"none\"/>\n"
         "<segments>\n<segment upto=\"inf\" lat-factor=\"1\" bw-factor=\"1\">\n<residuals size=\"8\" quantiles=\"1 nan\"/>\n"
         "</segment>\n</segments>\n</hnm-model>\n");
  k_args(k, T_RUN, "--model", "model.xml", "--explain", NULL);
  k = reg(all, "run-model-table-duplicate", "model.xml:7: residuals attribute 'size': 8 bytes is not greater");
  k_text(k, "model.xml",
         "<?xml version=\"1.0\"?>\n<hnm-model name=\"t\" version=\"1\">\n<protocol async=\"none\" detached=\"none\"/>\n"
         "<segments>\n<segment upto=\"inf\" lat-factor=\"1\" bw-factor=\"1\">\n<residuals size=\"8\" quantiles=\"1 2\"/>\n"
         "<residuals size=\"8\" quantiles=\"1 2\"/>\n</segment>\n</segments>\n</hnm-model>\n");
  k_args(k, T_RUN, "--model", "model.xml", "--explain", NULL);

  /* export: a 3,001-segment model exported whole (no 64 KiB cut). */
  k = reg(all, "export-3001-segments", NULL);
  {
    size_t cap = 3001 * 200 + 1000, n = 0;
    big = malloc(cap);
    n += (size_t)snprintf(big + n, cap - n,
                          "<?xml version=\"1.0\"?>\n<hnm-model name=\"big\" version=\"1\">\n<protocol async=\"65536\" "
                          "detached=\"327680\"/>\n<sharing contention=\"maxmin\" crosstraffic=\"off\"/>\n<segments "
                          "route=\"any\">\n");
    for (int i = 0; i < 3000; i++)
      n += (size_t)snprintf(big + n, cap - n,
                            "<segment upto=\"%d\" lat-factor=\"%.6f\" bw-factor=\"%.6f\" send-o=\"%.6fus\" "
                            "isend-o=\"1us\" recv-o=\"%.6fus\"/>\n",
                            i * 10 + 10, 1 + i * 1e-4, 0.5 + i * 1e-5, 1 + i * 1e-3, 2 + i * 1e-3);
    snprintf(big + n, cap - n, "<segment upto=\"inf\" lat-factor=\"4.0\" bw-factor=\"0.94\"/>\n</segments>\n</hnm-model>\n");
  }
  k_text(k, "model.xml", big), free(big);
  k_args(k, T_CALIBRATE, "export", "model.xml", NULL);
  k->exits = 1u << 0;
  k->out_re = xstrdup("smpi/os\" value=\"[^\"]*;30000:"); /* the last segment's key: nothing cut */
  k = reg(all, "export-stdout-full", "standard output: write error");
  k_text(k, "model.xml", seed_model);
  k_args(k, T_CALIBRATE, "export", "model.xml", "--bandwidth", "1GBps", "--latency", "1us", NULL);
  k->stdout_full = 1;

  /* Platforms: NaN and infinite values refused before simulating. */
  static const char *const bad_values[][2] = {{"latency=\"nanns\" bandwidth=\"1GBps\"", "latency: 'nanns'"},
                                              {"latency=\"1us\" bandwidth=\"infGBps\"", "bandwidth: 'infGBps'"},
                                              {"latency=\"1us\" bandwidth=\"nanGBps\"", "bandwidth: 'nanGBps'"},
                                              {"latency=\"-1us\" bandwidth=\"1GBps\"", "latency: '-1us'"}};
  for (int i = 0; i < 4; i++) {
    char name[64];
    snprintf(name, sizeof name, "run-platform-value-%d", i);
    char *re = xfmt("p.xml:6: %s", bad_values[i][1]);
    k = reg(all, name, re);
    free(re);
    big = xfmt("<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n<host id=\"n-0\" speed=\"1Gf\"/><host "
               "id=\"n-1\" speed=\"1Gf\"/>\n<link id=\"l\" %s/>\n<route src=\"n-0\" dst=\"n-1\"><link_ctn "
               "id=\"l\"/></route>\n</zone></platform>\n",
               bad_values[i][0]);
    k_text(k, "p.xml", big), free(big);
    k_args(k, T_RUN, "--dry-run", "-platform", "p.xml", "-np", "2", T_PROG, NULL);
  }
  k = reg(all, "run-cluster-speed-nan", "c.xml:3: speed: 'nanf'");
  k_text(k, "c.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                     "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"0-1\" "
                     "speed=\"nanf\" bw=\"1GBps\" lat=\"1us\"/></platform>\n");
  k_args(k, T_RUN, "--dry-run", "-platform", "c.xml", "-np", "2", T_PROG, NULL);

  /* hnm-run: routed torus of 10^8 hosts bounded before allocating; program path; link-load path. */
  k = reg(all, "run-routed-10000x10000", "t.txt': shape: 100000000 hosts, more than");
  k_text(k, "t.txt", "hnm-routed-platform 1\nfamily torus\nrouting valiant\nseed 1\nshape 10000,10000\nbw "
                     "10000000000\nlat 1e-07\nsharing SPLITDUPLEX\nloopback-bw 6000000000\nloopback-lat 0\nspeed "
                     "1000000000\ncores 1\n");
  k_args(k, T_RUN, "--dry-run", "-platform", "t.txt", "-np", "2", T_PROG, NULL);
  k = reg(all, "run-program-missing", "^hnm-run: program '/nonexistent': No such file or directory$");
  k_args(k, T_RUN, "--dry-run", "-np", "2", "/nonexistent", NULL);
  k = reg(all, "run-program-not-executable", "program 'prog': not executable");
  k_text(k, "prog", "#!/bin/sh\n");
  k_args(k, T_RUN, "--dry-run", "-np", "2", "./prog", NULL);
  k_replace_arg(k, "./prog", "prog");
  k->re = (free(k->re), xstrdup("program 'prog': not found in \\$PATH"));
  k = reg(all, "run-link-load-missing-dir", "--link-load: 'nodir/l.csv': cannot create");
  k_args(k, T_RUN, "--dry-run", "--link-load", "nodir/l.csv", "-np", "2", T_PROG, NULL);
  k = reg(all, "run-link-load-directory", "--link-load: 'd': is a directory");
  k_in(k, "d", NULL, 0, K_DIR);
  k_args(k, T_RUN, "--dry-run", "--link-load", "d", "-np", "2", T_PROG, NULL);
  k = reg(all, "run-link-load-is-platform", "--link-load: 'p.xml' is the platform 'p.xml'");
  k_text(k, "p.xml", seed_plat);
  k_args(k, T_RUN, "--dry-run", "--link-load", "p.xml", "-platform", "p.xml", "-np", "2", T_PROG, NULL);
  k = reg(all, "run-link-load-loop", "--link-load: 'loop': ");
  k_in(k, "loop", NULL, 0, K_LOOP);
  k_args(k, T_RUN, "--dry-run", "--link-load", "loop", "-np", "2", T_PROG, NULL);
  k = reg(all, "run-explain-stdout-full", "^hnm-run: standard output: write error");
  k_args(k, T_RUN, "--explain", NULL);
  k->stdout_full = 1;
  k = reg(all, "run-dry-run-stdout-full", "^hnm-run: standard output: write error");
  k_args(k, T_RUN, "--dry-run", "-np", "2", T_PROG, NULL);
  k->stdout_full = 1;
  k = reg(all, "calibrate-run-help-two-dashes", NULL);
  k_args(k, T_CALIBRATE, "run", "--help", NULL);
  k->exits = 1u << 0;
  k->out_re = xstrdup("^      --np N ");

  /* hnm-run's real runs: link-load through links and devices, exit statuses. */
  const char *xprog = getenv("HNM_EXIT_PROG");
  if (xprog != NULL && *xprog) {
    k = reg(all, "run-mpi-abort-7", "^hnm: the program called MPI_Abort with error code 7 \\(exit status 7\\)$");
    k_args(k, T_RUN, "-np", "2", xprog, "abort", NULL);
    k->exits = 1u << 7;
    k->simulates = 1;
    k = reg(all, "run-deadlock", "^hnm: the simulation ended in a deadlock");
    k_args(k, T_RUN, "-np", "2", xprog, "deadlock", NULL);
    k->exits = 1u << 1;
    k->simulates = 1;
    k = reg(all, "run-link-load-symlink-kept", NULL);
    k_in(k, "l.csv", "target.csv", 10, K_LINK);
    k_args(k, T_RUN, "--link-load", "l.csv", "-np", "2", xprog, "ok", NULL);
    k->exits = 1u << 0;
    k->simulates = 1;
    k_out(k, "target.csv");
    k = reg(all, "run-link-load-dangling-dir", NULL);
    k_in(k, "l.csv", "sub/target.csv", 14, K_LINK);
    k_in(k, "sub", NULL, 0, K_DIR);
    k_args(k, T_RUN, "--link-load", "l.csv", "-np", "2", xprog, "ok", NULL);
    k->exits = 1u << 0;
    k->simulates = 1;
    k_out(k, "sub/target.csv");
    k = reg(all, "run-link-load-dev-null", NULL);
    k_args(k, T_RUN, "--link-load", "/dev/null", "-np", "2", xprog, "ok", NULL);
    k->exits = 1u << 0;
    k->simulates = 1;
    k->check_devnull = 1;
    k = reg(all, "run-link-load-dev-full", "^hnm: --link-load: '/dev/full': write error");
    k_args(k, T_RUN, "--link-load", "/dev/full", "-np", "2", xprog, "ok", NULL);
    k->exits = 1u << 1;
    k->simulates = 1;
    /* An unwritable place refused before simulating, by the real run too. */
    k = reg(all, "run-link-load-missing-dir-real-run", "^hnm-run: --link-load: 'nodir/l\\.csv': cannot create");
    k_args(k, T_RUN, "--link-load", "nodir/l.csv", "-np", "2", xprog, "ok", NULL);
    k->simulates = 1;
    /* A named pipe nobody reads: written through if it could be, never
     * replaced, and no hang waiting for a reader. */
    k = reg(all, "run-link-load-fifo-no-reader", "^hnm: --link-load: '[^']*/f': a named pipe without a reader");
    k_in(k, "f", NULL, 0, K_FIFO);
    k_args(k, T_RUN, "--link-load", "f", "-np", "2", xprog, "ok", NULL);
    k->exits = 1u << 1;
    k->simulates = 1;
  }

  /* hnm-hosts and hnm-compare: named pipes, /dev/zero, stdout full. */
  k = reg(all, "hosts-fifo", "p.xml: not a regular file");
  k_in(k, "p.xml", NULL, 0, K_FIFO);
  k_args(k, T_HOSTS, "p.xml", NULL);
  static const struct {
    const char *name, *re, *file;
    enum kind kind;
    const char *argv[4]; /* of hnm-compare */
  } special[] = {
    {"compare-plot-devzero", "'z.csv': not a regular file \\(a character device\\)", "z.csv", K_DEVZERO,
     {"plot", "z.csv", "-o", "pl"}},
    {"compare-plot-fifo", "'f.csv': not a regular file \\(a named pipe\\)", "f.csv", K_FIFO,
     {"plot", "f.csv", "-o", "pl"}},
    {"compare-merge-fifo", "'f.csv': not a regular file \\(a named pipe\\)", "f.csv", K_FIFO,
     {"merge", "-o", "out.csv", "f.csv"}},
    {"compare-merge-sparse", "s.csv:1: line longer than 64 KiB", "s.csv", K_SPARSE,
     {"merge", "-o", "out.csv", "s.csv"}},
  };
  for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
    k = reg(all, special[i].name, special[i].re);
    k_in(k, special[i].file, NULL, 0, special[i].kind);
    k_arg(k, T_COMPARE);
    for (int j = 0; j < 4; j++)
      k_arg(k, special[i].argv[j]);
  }
  k = reg(all, "compare-help-stdout-full", "standard output: write error");
  k_args(k, T_COMPARE, "--help", NULL);
  k->stdout_full = 1;
  /* A failed write, of a file or of standard output: exit 2, one line
   * naming it with the reason, nothing left. RLIMIT_FSIZE makes a write past
   * it fail with EFBIG: a full disk without filling one. */
  k = reg(all, "platform-stdout-full", "^hnm-platform: standard output: write error: No space left on device$");
  k_args(k, T_PLATFORM, "torus", "--dims", "2x2", NULL);
  k->stdout_full = 1;
  k = reg(all, "route-stdout-full", "^hnm-route: standard output: write error: No space left on device$");
  k_text(k, "pairs.txt", seed_pairs);
  k_args(k, T_ROUTE, "--shape", "4x4x4x4x2", "--pattern-file", "pairs.txt", "--k", "2", "--csv", NULL);
  k->stdout_full = 1;
  k = reg(all, "platform-latency-above-1s", "^hnm-platform: --lat: '1e300s' is above 1 s");
  k_args(k, T_PLATFORM, "torus", "--dims", "2x2", "--lat", "1e300s", NULL);
  k = reg(all, "platform-dev-full", "^hnm-platform: -o: '/dev/full': write error: No space left on device$");
  k_args(k, T_PLATFORM, "torus", "--dims", "2x2", "-o", "/dev/full", NULL);
  k = reg(all, "platform-write-fails",
          "^hnm-platform: (-o: 'p\\.xml'|--hostfile: 'p\\.hosts'): write error: File too large$");
  k_args(k, T_PLATFORM, "torus", "--dims", "8x8x8", "-o", "p.xml", "--hostfile", "p.hosts", NULL);
  k->fsize = 4096;
  k = reg(all, "route-paths-dev-full", "^hnm-route: --paths: '/dev/full': write error: No space left on device$");
  k_text(k, "pairs.txt", seed_pairs);
  k_args(k, T_ROUTE, "--shape", "4x4x4x4x2", "--pattern-file", "pairs.txt", "--k", "2", "--paths", "/dev/full", NULL);
  k = reg(all, "route-paths-write-fails", "^hnm-route: --paths: 'paths\\.txt': write error: File too large$");
  k_text(k, "pairs.txt", seed_pairs);
  k_args(k, T_ROUTE, "--shape", "4x4x4x4x2", "--pattern-file", "pairs.txt", "--k", "2", "--paths", "paths.txt", NULL);
  k->fsize = 512;
  k = reg(all, "fit-model-dev-full", "^hnm-calibrate: -o: '/dev/full': write error: No space left on device$");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "/dev/full", "--report", "r", "--no-plots", NULL);
  k = reg(all, "compare-merge-write-fails", "^hnm-compare: -o: 'out\\.csv': write error: File too large$");
  {
    /* 60 rows: more than the limit. */
    char *rows = xstrdup(seed_result);
    for (int i = 4; i < 60; i++) {
      char *more = xfmt("%s%d,/bin/true,--k 4,graphene,two,%d,simclock,-,0.01,0.3,7000,ok,0\n", rows, i, 2 * i + 8);
      free(rows);
      rows = more;
    }
    k_text(k, "r1.csv", rows);
    free(rows);
  }
  k_args(k, T_COMPARE, "merge", "-o", "out.csv", "r1.csv", NULL);
  k->fsize = 2048;
  k = reg(all, "compare-merge-out-is-input", "-o: 'r1\\.csv' is the input file r1\\.csv");
  k_text(k, "r1.csv", seed_result);
  k_args(k, T_COMPARE, "merge", "-o", "r1.csv", "r1.csv", NULL);

  /* fit --report: written whole or not at all, beside what was there. */
  k = reg(all, "fit-report-write-fails-nothing-partial",
          "^hnm-calibrate: --report: 'a/b/r/[a-z]+\\.(dat|gp|txt|xml)': write error: File too large$");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", "--report", "a/b/r", NULL);
  k->fsize = 4096; /* the model (1 KB) and report.txt (4 KB) fit, pingpong.dat does not */
  k = reg(all, "fit-report-into-existing-dir-fails", "--report: 'r/[a-z]+\\.(dat|gp|txt|xml)': write error");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_text(k, "r/keep.txt", "the user's, not the tool's\n");
  k_text(k, "r/report.txt", "an earlier report\n");
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", "--report", "r", NULL);
  k->fsize = 4096;
  k = reg(all, "fit-report-into-existing-dir", NULL);
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  /* Empty: a directory with other files and no report.txt is not hnm's
   * (fit-report-not-hnm-dir below); one with report.txt would
   * see it replaced, which this harness counts as a changed input. */
  k_in(k, "r", NULL, 0, K_DIR);
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", "--report", "r", NULL);
  k->exits = 1u << 0;
  k_out(k, "m.xml"), k_out(k, "r/*");
  k = reg(all, "fit-report-is-a-file", "^hnm-calibrate: --report: 'rf': exists and is not a directory$");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe), k_text(k, "rf", "a file\n");
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", "--report", "rf", NULL);

  /* import: docs/model-format.md's ranges where the line and option are known. */
  k = reg(all, "import-overhead-above-1s", "^hnm-calibrate: cfg\\.xml:2: smpi/os: chunk 1: time 100000 s is above 1 s");
  k_text(k, "cfg.xml", "<config>\n<prop id=\"smpi/os\" value=\"0:1e5:1e-10\"/>\n</config>\n");
  import_args(k, "m.xml");
  k = reg(all, "import-bw-factor-times-bandwidth",
          "^hnm-calibrate: cfg\\.xml:2: smpi/bw-factor: chunk 1: factor 1000000 times --bandwidth 1000000000000000Bps is above 1e20Bps");
  k_text(k, "cfg.xml", "<config>\n<prop id=\"smpi/bw-factor\" value=\"0:1e6\"/>\n</config>\n");
  k_args(k, T_CALIBRATE, "import", "cfg.xml", "--bandwidth", "1PBps", "--latency", "1us", "-o", "m.xml", NULL);
  k = reg(all, "import-latency-option-above-1s", "^hnm-calibrate: --latency: 2s is above 1 s");
  k_text(k, "cfg.xml", seed_config);
  k_args(k, T_CALIBRATE, "import", "cfg.xml", "--bandwidth", "1GBps", "--latency", "2s", "-o", "m.xml", NULL);
  k = reg(all, "import-long-path-many-notes", NULL);
  {
    /* The notes name the file: a 1,000-byte path and 40 unknown props. */
    char dir[1100] = "";
    for (int i = 0; i < 4; i++)
      snprintf(dir + strlen(dir), sizeof dir - strlen(dir), "%0240d/", i);
    char *name = xfmt("%scfg.xml", dir), *text = xstrdup("<config>\n");
    for (int i = 0; i < 40; i++) {
      char *more = xfmt("%s<prop id=\"unknown/%d\" value=\"1\"/>\n", text, i);
      free(text);
      text = more;
    }
    char *end = xfmt("%s</config>\n", text);
    k_text(k, name, end);
    k_args(k, T_CALIBRATE, "import", name, "--bandwidth", "1GBps", "--latency", "1us", "-o", "m.xml", NULL);
    free(name), free(text), free(end);
  }
  k->exits = 1u << 0;
  k_out(k, "m.xml");

  /* hnm-compare run: one writer per CSV; its runs die with it. */
  k = reg(all, "compare-run-locked", "^hnm-compare: -o: 'r\\.csv': another hnm-compare run is writing it \\(locked\\)");
  k_text(k, "r.csv", seed_result);
  k_args(k, T_COMPARE, "run", "--hnm-run", "/bin/true", "--np", "2,4", "--log-dir", "logs", "-o", "r.csv", "--",
         "/bin/true", NULL);
  k->lock_input = 1;
  k = reg(all, "compare-run-sigkill-no-orphans", NULL);
  {
    /* A stand-in hnm-run whose run is a grandchild (as smpirun's ranks):
     * the watchdog, not PR_SET_PDEATHSIG, is what ends it. */
    static const char fake[] = "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = --dry-run ] && exit 0; done\nsleep 60 &\nwait\n";
    k_in(k, "fake-run", fake, sizeof fake - 1, K_EXEC);
  }
  k_args(k, T_COMPARE, "run", "--hnm-run", "./fake-run", "--np", "2,4", "--workers", "2", "--log-dir", "logs", "-o",
         "k.csv", "--", "/bin/true", NULL);
  k->kill_ms = 2500;
  k_out(k, "k.csv"), k_out(k, "logs*");

  /* Found by other seeds: a value that parses and means nothing. */
  k = reg(all, "route-bytes-1e300", "^hnm-route: pairs\\.txt:4: bytes: '1e300' is above 2\\^53 B");
  k_text(k, "pairs.txt", "# src dst bytes\n0 5 8MiB\n1 6 1MiB\n2 7 1e300\n");
  k_args(k, T_ROUTE, "--shape", "4x4x4x4x2", "--pattern-file", "pairs.txt", "--k", "2", "--csv", NULL);
  static const char cluster_fmt[] =
    "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"0-1\" "
    "speed=\"%s\" bw=\"%s\" lat=\"1us\"/></platform>\n";
  k = reg(all, "run-speed-infinite-with-its-unit", "c\\.xml:3: speed: '1e300Gf' is out of the range of a double");
  big = xfmt(cluster_fmt, "1e300Gf", "1GBps");
  k_text(k, "c.xml", big), free(big);
  k_args(k, T_RUN, "--dry-run", "-platform", "c.xml", "-np", "2", T_PROG, NULL);
  k = reg(all, "hosts-simgrid-refusal-names-attribute", "^hnm-hosts: c\\.xml:3: bw: '1eGbps': unknown unit");
  big = xfmt(cluster_fmt, "1Gf", "1eGbps");
  k_text(k, "c.xml", big), free(big);
  k_args(k, T_HOSTS, "c.xml", NULL);
  k = reg(all, "fit-contention-missing-row", "^hnm-calibrate: contention\\.csv: no row with pairs 1, mode bi, rank 0");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_text(k, "contention.csv", "pairs,mode,size,rank,duration\n1,uni,1048576,0,0.0011\n1,uni,1048576,1,0.0011\n");
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "contention.csv", "-o", "m.xml", "--no-plots", NULL);

  /* No argument: one line (not the usage), exit 2, for every tool. */
  {
    const char *tools[][2] = {{"run", T_RUN},           {"compare", T_COMPARE}, {"calibrate", T_CALIBRATE},
                              {"platform", T_PLATFORM}, {"route", T_ROUTE},     {"hosts", T_HOSTS}};
    for (int i = 0; i < 6; i++) {
      char name[64];
      snprintf(name, sizeof name, "%s-no-args", tools[i][0]);
      k = reg(all, name, NULL);
      k_args(k, tools[i][1], NULL);
    }
  }

  /* Readers, model files, platform generators, hnm-hosts: the
   * attribute's own line in a tag of several lines, a kilobyte-long
   * enumerated value, whole numbers a double or a long cannot hold, the
   * generators' ranges, the link-load columns' ranges. */
  {
    static const char mhead[] = "<?xml version=\"1.0\"?>\n<hnm-model name=\"t\" version=\"1\">\n";
    static const char mseg[] = "<segments>\n<segment upto=\"inf\" lat-factor=\"1\" bw-factor=\"1\"/>\n</segments>\n";
    k = reg(all, "model-detached-2^53+1", "^hnm-run: .*model\\.xml:3: protocol attribute 'detached': "
                                         "'9007199254740993' is too large \\(at most 9007199254740992 bytes\\)");
    big = xfmt("%s<protocol async=\"none\" detached=\"9007199254740993\"/>\n%s</hnm-model>\n", mhead, mseg);
    k_text(k, "model.xml", big), free(big);
    k_args(k, T_RUN, "--model", "model.xml", "--explain", NULL);
    k = reg(all, "model-pack-cost-attribute-line", "model\\.xml:9: pack-cost attribute 'pack-c0': '1e300s'");
    big = xfmt("%s<protocol async=\"none\" detached=\"none\"/>\n%s<pack use=\"interpreted\">\n"
               "<pack-cost style=\"interpreted\" class=\"vector\"\n"
               "  pack-c0=\"1e300s\" pack-per-block=\"1ns\" pack-per-byte=\"1ps\"\n"
               "  unpack-c0=\"0s\" unpack-per-block=\"1ns\" unpack-per-byte=\"1ps\"/>\n</pack>\n</hnm-model>\n",
               mhead, mseg);
    k_text(k, "model.xml", big), free(big);
    k_args(k, T_RUN, "--model", "model.xml", "--explain", NULL);
    k = reg(all, "model-enumerated-1000-chars", "\"x{40}\\.\\.\\.\" for attribute contention of sharing");
    char *value = xfmt("%01000d", 0);
    memset(value, 'x', 1000);
    big = xfmt("%s<protocol async=\"none\" detached=\"none\"/>\n<sharing contention=\"%s\"/>\n%s</hnm-model>\n",
               mhead, value, mseg);
    free(value);
    k_text(k, "model.xml", big), free(big);
    k_args(k, T_RUN, "--model", "model.xml", "--explain", NULL);
    k = reg(all, "model-seed-2^64", "key 'seed': '18446744073709551616' is out of range");
    k_args(k, T_RUN, "--model", "graphene:seed=18446744073709551616", "--explain", NULL);
    k = reg(all, "option-2^63-out-of-range", "^hnm-route: --k: '9223372036854775808' is not in 1 \\.\\. 1000$");
    k_args(k, T_ROUTE, "--shape", "512", "--pattern", "subset", "--k", "9223372036854775808", NULL);
    static const char *const plat_bad[][3] = {
      {"--bw", "1e300Bps", "--bw: '1e300Bps' is above 1e\\+15Bps"},
      {"--loopback-bw", "1e20Bps", "--loopback-bw: '1e20Bps' is above 1e\\+15Bps"},
      {"--speed", "1e300f", "--speed: '1e300f' is above 1e\\+18f"},
      {"--limiter", "1e300", "--limiter: '1e300' is not 0 nor in 1e-06 \\.\\. 1e\\+06"},
    };
    for (size_t i = 0; i < sizeof plat_bad / sizeof *plat_bad; i++) {
      char name[64];
      snprintf(name, sizeof name, "platform-range%s", plat_bad[i][0] + 1);
      big = xfmt("^hnm-platform: %s \\(", plat_bad[i][2]);
      k = reg(all, name, big);
      free(big);
      k_args(k, T_PLATFORM, "torus", "--dims", "2x2", plat_bad[i][0], plat_bad[i][1], "-o", "p.xml", NULL);
    }
    k = reg(all, "platform-range-cabinet-bw", "^hnm-platform: --cabinet-bw: '1e300Bps' is above 1e\\+15Bps");
    k_args(k, T_PLATFORM, "cluster", "--cabinet-bw", "1e300Bps", "-o", "p.xml", NULL);
    k = reg(all, "route-range-bw", "^hnm-route: --bw: 1e\\+300Bps is above 1e\\+15Bps");
    k_args(k, T_ROUTE, "--shape", "512", "--pattern", "subset", "--bw", "1e300Bps", NULL);
    static const char *const load_bad[][3] = {
      {"linkplot-bandwidth-inf", "l,torus,0,1,2,inf,1,1,0.5,0.5", "bandwidth_Bps: 'inf' is not a finite number"},
      {"linkplot-busy-1e300", "l,torus,0,1,2,1e9,1,1e300,0.5,0.5", "busy_s: '1e300' is not in \\[0, 1e\\+12\\]"},
      {"linkplot-bytes-negative", "l,torus,0,1,2,1e9,-1,1,0.5,0.5", "bytes: '-1' is not in \\[0, "},
      {"linkplot-peak-1e300", "l,torus,0,1,2,1e9,1,1,0.5,1e300", "peak_util: '1e300' is not in \\[0, 1000\\]"},
    };
    for (size_t i = 0; i < sizeof load_bad / sizeof *load_bad; i++) {
      big = xfmt("^hnm-linkplot: load\\.csv:2: %s", load_bad[i][2]);
      k = reg(all, load_bad[i][0], big);
      free(big);
      big = xfmt("%s%s\n", LH, load_bad[i][1]);
      k_text(k, "load.csv", big), free(big);
      k_args(k, T_LINKPLOT, "map", "load.csv", "-o", "map", NULL);
    }
  }

  /* hnm-run: --cfg=hnm/... checked before SimGrid sees it (it
   * aborted: SIGABRT, exit 134), even with --dry-run; no output onto an
   * input, whichever way the link-load file is named; a rank's exit(3)
   * gives 3; a SIGKILL to hnm-run leaves no simulator running. */
  static const char *const run_cfgs[][3] = {
    {"run-cfg-seed-comma", "--cfg=hnm/seed:1,5", "^hnm-run: '--cfg=hnm/seed:1,5': hnm/seed takes one value"},
    {"run-cfg-seed-blank", "--cfg=hnm/seed:1 5", "^hnm-run: '--cfg=hnm/seed:1 5': hnm/seed takes one value"},
    {"run-cfg-misspelled", "--cfg=hnm/sede:1", "hnm has no setting hnm/sede \\(did you mean hnm/seed\\?\\)$"},
    {"run-cfg-no-value", "--cfg=hnm/verbose", "'--cfg=hnm/verbose': hnm/verbose has no value"},
    {"run-cfg-seed-empty", "--cfg=hnm/seed:", "'--cfg=hnm/seed:': hnm/seed takes a whole number"},
    {"run-cfg-seed-2^64", "--cfg=hnm/seed:18446744073709551616", "hnm/seed takes a whole number"},
    {"run-cfg-link-load-empty", "--cfg=hnm/link-load:", "hnm/link-load takes a file name"},
  };
  for (size_t i = 0; i < sizeof run_cfgs / sizeof *run_cfgs; i++) {
    k = reg(all, run_cfgs[i][0], run_cfgs[i][2]);
    k_args(k, T_RUN, "--dry-run", "-np", "2", T_PROG, run_cfgs[i][1], NULL);
  }
  k = reg(all, "run-cfg-link-load-is-platform",
          "^hnm-run: --cfg=hnm/link-load: 'p\\.xml' is the platform 'p\\.xml': writing it would destroy it$");
  k_text(k, "p.xml", seed_plat);
  k_args(k, T_RUN, "-platform", "p.xml", "-np", "2", "--cfg=hnm/link-load:p.xml", T_PROG, NULL);
  k = reg(all, "run-env-link-load-is-hostfile", "^hnm-run: \\$HNM_LINK_LOAD: 'p\\.hosts' is the hostfile");
  k_text(k, "p.xml", seed_plat), k_text(k, "p.hosts", seed_hosts);
  k_args(k, "/usr/bin/env", "HNM_LINK_LOAD=p.hosts", T_RUN, "-platform", "p.xml", "-hostfile", "p.hosts", "-np", "2",
         T_PROG, NULL);
  if (xprog != NULL && *xprog) {
    k = reg(all, "run-rank-exit-3", NULL);
    k_args(k, T_RUN, "-np", "2", xprog, "exit3", NULL);
    k->exits = 1u << 3;
    k->simulates = 1;
    k = reg(all, "run-sigkill-no-simulator-left", NULL);
    k_args(k, T_RUN, "-np", "2", xprog, "forever", NULL);
    k->kill_ms = 2500;
    k->simulates = 1;
  }

  /* hnm-calibrate: options that meant nothing (a size no double
   * holds, a control character in the name, a malformed breakpoint list),
   * -o and --report on one name, a report into a directory not hnm's, -d a
   * FIFO, platform-calibration's start times and a dangling Isend CSV. */
  {
    static const struct {
      const char *name, *re, *opt, *val;
    } fit_opts[] = {
      {"fit-protocol-1e300", "^hnm-calibrate: --protocol: '1e300': not a whole number of bytes from 0 to 2\\^53",
       "--protocol", "1e300,1e300"},
      {"fit-protocol-2p53-plus-1",
       "^hnm-calibrate: --protocol: '9007199254740993': not a whole number of bytes from 0 to 2\\^53", "--protocol",
       "1000,9007199254740993"},
      {"fit-name-control-character", "^hnm-calibrate: --name: a control character \\(byte 0x01\\)", "--name", "a\001b"},
      {"fit-breakpoints-empty-item", "^hnm-calibrate: --breakpoints: '1,,2': an empty size", "--breakpoints", "1,,2"},
      {"fit-breakpoints-decreasing", "^hnm-calibrate: --breakpoints: '2,1': the sizes must increase", "--breakpoints",
       "2,1"},
      {"fit-breakpoints-empty", "^hnm-calibrate: --breakpoints: '': an empty size", "--breakpoints", ""},
      {"fit-breakpoints-comma", "^hnm-calibrate: --breakpoints: ',': an empty size", "--breakpoints", ","},
      {"fit-breakpoints-1e300", "^hnm-calibrate: --breakpoints: '1e300': not a whole number of bytes from 0 to 2\\^53",
       "--breakpoints", "1e300"},
      {"fit-breakpoints-2p53-plus-1",
       "^hnm-calibrate: --breakpoints: '9007199254740993': not a whole number of bytes from 0 to 2\\^53",
       "--breakpoints", "9007199254740993"},
    };
    for (size_t i = 0; i < sizeof fit_opts / sizeof *fit_opts; i++) {
      k = reg(all, fit_opts[i].name, fit_opts[i].re);
      k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
      k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", "--no-plots", fit_opts[i].opt,
             fit_opts[i].val, NULL);
    }
  }
  k = reg(all, "fit-report-is-out", "^hnm-calibrate: --report: 'out\\.xml' is also -o");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "out.xml", "--report", "out.xml", "--no-plots", NULL);
  k = reg(all, "fit-report-not-hnm-dir", "^hnm-calibrate: --report: 'r' is a directory that is not empty and holds no report\\.txt");
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_text(k, "r/keep.txt", "the user's, not the tool's\n");
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", "--report", "r", "--no-plots", NULL);
  k = reg(all, "calibrate-run-d-fifo", "^hnm-calibrate: -d: 'fifo' exists and is not a directory$");
  k_in(k, "fifo", NULL, 0, K_FIFO);
  k_args(k, T_CALIBRATE, "run", "--mpirun", "/bin/false", "--bench", "/bin/true", "-d", "fifo", NULL);
  PCAL_CASE("pcal-start-1e300", "testplatform_Recv\\.csv:1: start: 1e300 s is above 1e\\+12 s");
  {
    /* The first row's start (third field) replaced by 1e300. */
    struct infile *f = k_find(k, "pc/testplatform_Recv.csv");
    char *c1 = strchr(f->text, ','), *c2 = strchr(c1 + 1, ','), *c3 = strchr(c2 + 1, ',');
    char *o = xfmt("%.*s,1e300%s", (int)(c2 - f->text), f->text, c3);
    free(f->text);
    f->text = o;
    f->len = strlen(o);
  }
  PCAL_CASE("pcal-isend-dangling", "testplatform_Isend\\.csv: cannot read: No such file or directory$");
  k_find(k, "pc/testplatform_Isend.csv")->kind = K_DANGLING;
  PCAL_CASE("pcal-isend-loop", "testplatform_Isend\\.csv: cannot read: Too many levels of symbolic links$");
  {
    /* A link to itself (K_LOOP names the path from the case's directory). */
    struct infile *f = k_find(k, "pc/testplatform_Isend.csv");
    free(f->text);
    f->text = xstrdup("testplatform_Isend.csv");
    f->kind = K_LINK;
  }
  /* Sanitizer cases (the campaign's --sanitize run): the rows read before a
   * refused saturation row were leaked; --bootstrap copied an operation
   * with no rows (isend here) from NULL. */
  PCAL_CASE("pcal-saturation-bad-row-freed", "load_send\\.csv:3: start: 'nan' is not a non-negative number$");
  {
    const char *l2 = strchr(seed_sat_send, '\n'), *l3 = l2 != NULL ? strchr(l2 + 1, '\n') : NULL;
    char *o = xfmt("%.*s\n0,MPI_Send,1,nan,1\n", (int)(l3 - seed_sat_send), seed_sat_send);
    k_text(k, "pc/saturation/load_send.csv", o), free(o);
  }
  k = reg(all, "fit-bootstrap-operation-without-rows", NULL);
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "--bootstrap", "2", "-o", "m.xml", "--no-plots", NULL);
  k->exits = 1u << 0;
  k_out(k, "m.xml"), k_out(k, "m-report*"), k_out(k, "m.set*");

  /* Outputs onto inputs and FIFOs (hnm-route, hnm-compare,
   * hnm-linkplot): every output, derived names included, checked against
   * the registered inputs (hnm_out_input); a PNG gnuplot opens, and
   * compare's CSV, never a FIFO; a refusal creates nothing; --dry-run
   * checks what a run checks. */
  k = reg(all, "i38-route-paths-is-pattern-file",
          "^hnm-route: --paths: 'p\\.txt' is --pattern-file 'p\\.txt': writing it would destroy it$");
  k_text(k, "p.txt", "0 1 8MiB\n");
  k_args(k, T_ROUTE, "--shape", "512", "--pattern-file", "p.txt", "--k", "2", "--paths", "p.txt", NULL);
  k = reg(all, "i38-compare-slurm-script-is-platform",
          "^hnm-compare: --script: 'two\\.xml' is --platform 'two\\.xml': writing it would destroy it$");
  k_text(k, "two.xml", seed_plat), k_text(k, "two.hosts", seed_hosts);
  k_args(k, T_COMPARE, "slurm", "--tasks", "2", "--script", "two.xml", "--platform", "two.xml", "--np", "2", "-o",
         "sub/s.csv", "--", "/bin/true", NULL);
  k = reg(all, "i38-compare-run-out-is-hostfile",
          "^hnm-compare: -o: 'h\\.csv' is --platform's hostfile 'two\\.hosts': writing it would destroy it$");
  k_text(k, "two.xml", seed_plat), k_text(k, "two.hosts", seed_hosts);
  k_in(k, "h.csv", "two.hosts", strlen("two.hosts"), K_LINK);
  k_args(k, T_COMPARE, "run", "--hnm-run", "/bin/true", "--platform", "two.xml", "--np", "2", "--log-dir", "logs",
         "-o", "h.csv", "--", "/bin/true", NULL);
  k = reg(all, "i38-compare-run-out-fifo", "^hnm-compare: -o: 'o\\.csv': not a regular file \\(a FIFO would block\\)$");
  k_text(k, "two.xml", seed_plat), k_text(k, "two.hosts", seed_hosts);
  k_in(k, "o.csv", NULL, 0, K_FIFO);
  k_args(k, T_COMPARE, "run", "--hnm-run", "/bin/true", "--platform", "two.xml", "--np", "2", "--log-dir", "logs",
         "-o", "o.csv", "--", "/bin/true", NULL);
  k = reg(all, "i38-compare-run-refusal-no-log-dir",
          "^hnm-compare: -o: 'd\\.csv': cannot create: No such file or directory$");
  k_text(k, "two.xml", seed_plat), k_text(k, "two.hosts", seed_hosts);
  k_in(k, "d.csv", NULL, 0, K_DANGLING);
  k_args(k, T_COMPARE, "run", "--hnm-run", "/bin/true", "--platform", "two.xml", "--np", "2", "--log-dir", "logs/sub",
         "-o", "d.csv", "--", "/bin/true", NULL);
  k = reg(all, "i38-compare-dry-run-runs-hnm-run-checks", "^hnm-compare: platform bad: hnm-run: platform file 'bad\\.xml'");
  k_text(k, "bad.xml", "<?xml version=\"1.0\"?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n</platform>\n");
  k_text(k, "bad.hosts", seed_hosts);
  k_args(k, T_COMPARE, "run", "--dry-run", "--hnm-run", T_RUN, "--platform", "bad.xml", "--np", "2", "-o", "r.csv",
         "--", T_PROG, NULL);
  k = reg(all, "i38-compare-plot-png-link-to-input",
          "^hnm-compare: -o: 'X-time\\.png' is IN\\.csv 'r\\.csv': writing it would destroy it$");
  k_text(k, "r.csv", seed_result);
  k_in(k, "X-time.png", "r.csv", strlen("r.csv"), K_LINK);
  k_args(k, T_COMPARE, "plot", "r.csv", "-o", "X", NULL);
  k = reg(all, "i38-compare-plot-png-fifo", "^hnm-compare: -o: 'X-time\\.png': not a regular file \\(a FIFO would block\\)$");
  k_text(k, "r.csv", seed_result);
  k_in(k, "X-time.png", NULL, 0, K_FIFO);
  k_args(k, T_COMPARE, "plot", "r.csv", "-o", "X", NULL);
  k = reg(all, "i38-compare-plot-empty-prefix", "^hnm-compare: -o: empty PREFIX");
  k_text(k, "r.csv", seed_result);
  k_args(k, T_COMPARE, "plot", "r.csv", "-o", "", NULL);
  k = reg(all, "i38-linkplot-png-fifo", "^hnm-linkplot: -o: 'map\\.png': not a regular file \\(a FIFO would block\\)$");
  k_text(k, "load.csv", seed_load_torus);
  k_in(k, "map.png", NULL, 0, K_FIFO);
  k_args(k, T_LINKPLOT, "map", "load.csv", "-o", "map", NULL);
  k = reg(all, "i38-linkplot-png-dev-full",
          "^hnm-linkplot: -o: 'map\\.png': not a regular file \\(a device or socket cannot take it\\)$");
  k_text(k, "load.csv", seed_load_torus);
  k_in(k, "map.png", "/dev/full", strlen("/dev/full"), K_LINK);
  k_args(k, T_LINKPLOT, "map", "load.csv", "-o", "map", NULL);
  k = reg(all, "i38-linkplot-hist-png-link-to-input",
          "^hnm-linkplot: -o: 'd-hist\\.png' is LOAD\\.csv 'b\\.csv': writing it would destroy it$");
  k_text(k, "a.csv", seed_load_torus), k_text(k, "b.csv", seed_load_df);
  k_in(k, "d-hist.png", "b.csv", strlen("b.csv"), K_LINK);
  k_args(k, T_LINKPLOT, "dist", "-o", "d", "A=a.csv", "B=b.csv", NULL);

  /* The space form of smpirun's --cfg and --log, which smpirun does not
   * take (before the program, hnm-run's unknown option; after it, the
   * program's arguments): one line that says where the setting goes. */
  k = reg(all, "i38-run-cfg-space-form",
          "^hnm-run: --cfg: the setting goes after '=', as smpirun takes it \\(--cfg=hnm/link-load:p\\.xml\\)$");
  k_text(k, "p.xml", seed_plat);
  k_args(k, T_RUN, "--cfg", "hnm/link-load:p.xml", "-platform", "p.xml", "-np", "2", T_PROG, NULL);
  k = reg(all, "i38-run-log-space-form", "^hnm-run: --log: the setting goes after '='");
  k_args(k, T_RUN, "--dry-run", "-np", "2", "--log", "xbt_cfg.thres:warning", T_PROG, NULL);
  /* A model name that is not UTF-8: written through, it broke the model
   * file (a lone last byte: "internal error: the fitted model does not
   * load", exit 1) or changed the name (stray bytes as references, exit
   * 0). Refused, for fit and import. */
  static const struct {
    const char *name, *value, *re;
  } names[] = {
    {"i38-fit-name-cut-utf8", "caf\303", "^hnm-calibrate: --name: byte 0xc3 at offset 3 is not UTF-8"},
    {"i38-fit-name-latin1", "a\377\376b", "^hnm-calibrate: --name: byte 0xff at offset 1 is not UTF-8"},
    {"i38-fit-name-surrogate", "a\355\240\200", "^hnm-calibrate: --name: byte 0xed at offset 1 is not UTF-8"},
    {"i38-fit-name-overlong", "\300\257", "^hnm-calibrate: --name: byte 0xc0 at offset 0 is not UTF-8"},
  };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    k = reg(all, names[i].name, names[i].re);
    k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
    k_args(k, T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", "--no-plots", "--name", names[i].value, NULL);
  }
  k = reg(all, "i38-import-name-latin1", "^hnm-calibrate: --name: byte 0xe9 at offset 3 is not UTF-8");
  k_text(k, "cfg.xml", seed_config);
  k_args(k, T_CALIBRATE, "import", "cfg.xml", "--bandwidth", "1GBps", "--latency", "1us", "--name", "caf\351", "-o",
         "m.xml", NULL);
  /* gnuplot dies with the tool that runs it, even one killed by SIGKILL
   * (hnm_proc_child_setup() before exec): a gnuplot of the case's own,
   * found first on PATH, that would sleep for 30 s. */
  static const char sleepy[] = "#!/bin/sh\nexec sleep 30\n";
  k = reg(all, "i38-linkplot-sigkill-no-gnuplot-left", NULL);
  k_text(k, "load.csv", seed_load_torus);
  k_in(k, "gnuplot", sleepy, sizeof sleepy - 1, K_EXEC);
  k_args(k, "/usr/bin/env", "PATH=.:/usr/bin:/bin", T_LINKPLOT, "map", "load.csv", "-o", "map", NULL);
  k->kill_ms = 1500;
  k_out(k, "map*");
  k = reg(all, "i38-compare-plot-sigkill-no-gnuplot-left", NULL);
  k_text(k, "r.csv", seed_result);
  k_in(k, "gnuplot", sleepy, sizeof sleepy - 1, K_EXEC);
  k_args(k, "/usr/bin/env", "PATH=.:/usr/bin:/bin", T_COMPARE, "plot", "r.csv", "-o", "X", NULL);
  k->kill_ms = 1500;
  k_out(k, "X*");
  k = reg(all, "i38-fit-report-sigkill-no-gnuplot-left", NULL);
  k_text(k, "p2p.csv", seed_p2p), k_text(k, "probe.csv", seed_probe);
  k_in(k, "gnuplot", sleepy, sizeof sleepy - 1, K_EXEC);
  k_args(k, "/usr/bin/env", "PATH=.:/usr/bin:/bin", T_CALIBRATE, "fit", "p2p.csv", "probe.csv", "-o", "m.xml", NULL);
  k->kill_ms = 1500;
  k_out(k, "m.xml"), k_out(k, "m-report*"), k_out(k, ".m*");

  /* hnm-compare slurm: the files the job writes when it runs (task I's
   * CSV and Slurm log, OUT.task-I.csv and .log) are outputs too: none an
   * input (a platform named like one, a hostfile linked from one), nor
   * the script itself. */
  k = reg(all, "i38-compare-slurm-task-csv-is-platform",
          "^hnm-compare: -o \\(task 0's CSV\\): 's\\.task-0\\.csv' is --platform 's\\.task-0\\.csv': writing it would "
          "destroy it$");
  k_text(k, "s.task-0.csv", seed_plat), k_text(k, "two.hosts", seed_hosts);
  k_args(k, T_COMPARE, "slurm", "--tasks", "2", "--script", "run.sh", "--platform", "s.task-0.csv:two.hosts", "--np",
         "2", "-o", "s.csv", "--", "/bin/true", NULL);
  k = reg(all, "i38-compare-slurm-task-log-links-to-hostfile",
          "^hnm-compare: -o \\(task 1's Slurm log\\): 's\\.task-1\\.log' is --platform's hostfile 'two\\.hosts'");
  k_text(k, "two.xml", seed_plat), k_text(k, "two.hosts", seed_hosts);
  k_in(k, "s.task-1.log", "two.hosts", strlen("two.hosts"), K_LINK);
  k_args(k, T_COMPARE, "slurm", "--tasks", "2", "--script", "run.sh", "--platform", "two.xml", "--np", "2", "-o",
         "s.csv", "--", "/bin/true", NULL);
  k = reg(all, "i38-compare-slurm-script-is-task-csv",
          "^hnm-compare: --script: '\\./s\\.task-1\\.csv' is task 1's CSV: the job would overwrite its own script$");
  k_text(k, "two.xml", seed_plat), k_text(k, "two.hosts", seed_hosts);
  k_args(k, T_COMPARE, "slurm", "--tasks", "2", "--script", "./s.task-1.csv", "--platform", "two.xml", "--np", "2",
         "-o", "s.csv", "--", "/bin/true", NULL);

  /* $HNM_LINK_TOPOLOGY that the plugin cannot parse (it fell back to the
   * link names in silence, exit 0) is refused with the link-load file. */
  k = reg(all, "i38-run-env-link-topology-garbage",
          "^hnm-run: \\$HNM_LINK_TOPOLOGY: 'TORUS x' is not TOPOLOGY PARAMETERS");
  k_text(k, "p.xml", seed_plat), k_text(k, "p.hosts", seed_hosts);
  k_args(k, "/usr/bin/env", "HNM_LINK_TOPOLOGY=TORUS x", T_RUN, "--dry-run", "--link-load", "l.csv", "-platform", "p.xml",
         "-hostfile", "p.hosts", "-np", "2", T_PROG, NULL);
  return nregress;
}

/* ---- running a case ---------------------------------------------------------- */

struct entry {
  char *path;
  mode_t mode;
  off_t size;
  struct timespec mtime;
  uint64_t hash;
  char *link;
};

static struct entry *snap;
static size_t nsnap, capsnap;
static size_t snap_root_len;

static uint64_t file_hash(const char *path)
{
  uint64_t h = 1469598103934665603ULL;
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0)
    return 0;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (64L << 20)) {
    close(fd);
    return (uint64_t)st.st_size;
  }
  char b[65536];
  ssize_t n;
  while ((n = read(fd, b, sizeof b)) > 0)
    for (ssize_t i = 0; i < n; i++)
      h = (h ^ (unsigned char)b[i]) * 1099511628211ULL;
  close(fd);
  return h;
}

static int snap_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)flag, (void)ftw;
  if (strlen(path) <= snap_root_len)
    return 0;
  if (nsnap == capsnap)
    snap = realloc(snap, (capsnap = capsnap ? 2 * capsnap : 64) * sizeof *snap);
  struct entry *e = &snap[nsnap++];
  memset(e, 0, sizeof *e);
  e->path = xstrdup(path + snap_root_len + 1);
  e->mode = st->st_mode;
  e->size = st->st_size;
  e->mtime = st->st_mtim;
  if (S_ISREG(st->st_mode))
    e->hash = file_hash(path);
  if (S_ISLNK(st->st_mode)) {
    char l[4096];
    ssize_t n = readlink(path, l, sizeof l - 1);
    l[n > 0 ? n : 0] = '\0';
    e->link = xstrdup(l);
  }
  return 0;
}

static struct entry *snapshot(const char *dir, size_t *n)
{
  snap = NULL, nsnap = capsnap = 0;
  snap_root_len = strlen(dir);
  nftw(dir, snap_one, 16, FTW_PHYS);
  *n = nsnap;
  return snap;
}

static void snap_free(struct entry *s, size_t n)
{
  for (size_t i = 0; i < n; i++)
    free(s[i].path), free(s[i].link);
  free(s);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st, (void)ftw;
  if (flag == FTW_DP) {
    chmod(path, 0700);
    return rmdir(path);
  }
  return unlink(path);
}

static void rm_rf(const char *dir)
{
  nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_inputs(const char *dir, const struct kase *k)
{
  for (int i = 0; i < k->nin; i++) {
    const struct infile *f = &k->in[i];
    char *p = xfmt("%s/%s", dir, f->name), *slash = strrchr(p, '/');
    /* Parent directories of "pc/x". */
    for (char *q = p + strlen(dir) + 1; (q = strchr(q, '/')) != NULL && q < slash; q++) {
      *q = '\0';
      mkdir(p, 0755);
      *q = '/';
    }
    *slash = '\0';
    mkdir(p, 0755);
    *slash = '/';
    int rc = 0;
    switch (f->kind) {
      case K_REG:
      case K_EXEC: {
        FILE *o = fopen(p, "wb");
        rc = o == NULL || fwrite(f->text, 1, f->len, o) != f->len;
        if (o != NULL && fclose(o) != 0)
          rc = 1;
        if (rc == 0 && f->kind == K_EXEC)
          rc = chmod(p, 0755);
        break;
      }
      case K_FIFO: rc = mkfifo(p, 0644); break;
      case K_DIR: rc = mkdir(p, 0755); break;
      case K_LINK: rc = symlink(f->text, p); break;
      case K_DEVZERO: rc = symlink("/dev/zero", p); break;
      case K_LOOP: rc = symlink(f->name, p); break;
      case K_DANGLING: rc = symlink("does-not-exist/nowhere", p); break;
      case K_SPARSE: {
        int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        rc = fd < 0 || ftruncate(fd, 1L << 30) != 0;
        if (fd >= 0)
          close(fd);
        break;
      }
    }
    if (rc != 0) {
      fprintf(stderr, "hnm_hostile: cannot make input %s: %s\n", p, strerror(errno));
      free(p);
      return -1;
    }
    free(p);
  }
  return 0;
}

static int matches_out(const struct kase *k, const char *path)
{
  for (int i = 0; i < k->nout; i++) {
    size_t l = strlen(k->outs[i]);
    if (l > 0 && k->outs[i][l - 1] == '*' ? strncmp(path, k->outs[i], l - 1) == 0 : strcmp(path, k->outs[i]) == 0)
      return 1;
  }
  return 0;
}

static int sanitize, verbose, keep;
static const char *workdir;
static char *fakebin;
static long failures;

static void fail(const struct kase *k, long id, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "FAIL case %ld (%s): ", id, k->name);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " [replay: hnm_hostile --case %ld %s; cmd:", id, workdir);
  for (int i = 0; i < k->argc; i++)
    fprintf(stderr, " '%s'", k->argv[i]);
  fprintf(stderr, "]\n");
  va_end(ap);
  failures++;
}

/* The processes whose parent is this harness, other than reaped ones: the
 * orphans of a case (the harness is a child subreaper, so whatever a tool
 * leaves running becomes its child). Reaps the dead; returns the live. */
static int live_children(pid_t *pids, int cap)
{
  while (waitpid(-1, NULL, WNOHANG) > 0)
    ;
  int n = 0;
  DIR *d = opendir("/proc");
  if (d == NULL)
    return 0;
  char path[300], buf[512];
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
      continue;
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = '\0';
    /* pid (comm) state ppid ...: comm may hold blanks, the last ')' ends it. */
    char *r = strrchr(buf, ')'), state;
    int ppid;
    if (r != NULL && sscanf(r + 1, " %c %d", &state, &ppid) == 2 && ppid == getpid() && state != 'Z' && n < cap)
      pids[n++] = (pid_t)atoi(e->d_name);
  }
  closedir(d);
  return n;
}

static char *read_small(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  char *b = calloc(1, (1 << 20) + 1); /* the first MiB */
  *len = f ? fread(b, 1, 1 << 20, f) : 0;
  if (f)
    fclose(f);
  return b;
}

static int run_case(struct kase *k, long id)
{
  char *dir = xfmt("%s/c%ld", workdir, id), *outf = xfmt("%s/c%ld.out", workdir, id),
       *errf = xfmt("%s/c%ld.err", workdir, id);
  rm_rf(dir);
  mkdir(dir, 0755);
  int failed_before = (int)failures;
  if (make_inputs(dir, k) != 0) {
    fail(k, id, "inputs not made");
    goto done;
  }
  size_t nb;
  struct entry *before = snapshot(dir, &nb);
  struct stat devnull_st;
  stat("/dev/null", &devnull_st);
  /* A lock on the first input held for the case (another writer of it). */
  int lockfd = -1;
  if (k->lock_input) {
    char *lp = xfmt("%s/%s", dir, k->in[0].name);
    lockfd = open(lp, O_RDONLY);
    free(lp);
    if (lockfd < 0 || flock(lockfd, LOCK_EX | LOCK_NB) != 0)
      fail(k, id, "cannot lock %s", k->in[0].name);
  }
  fflush(NULL);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
    if (chdir(dir) != 0)
      _exit(120);
    int in = open("/dev/null", O_RDONLY), out = open(k->stdout_full ? "/dev/full" : outf, O_WRONLY | O_CREAT | O_TRUNC, 0644),
        err = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0)
      _exit(121);
    dup2(in, 0), dup2(out, 1), dup2(err, 2);
    if (lockfd >= 0)
      close(lockfd);
    /* A file-size limit of the case's own: writes fail with EFBIG (a full
     * disk, without touching one), not with the signal. */
    if (k->fsize > 0)
      signal(SIGXFSZ, SIG_IGN);
    rlim_t fsz = k->fsize > 0 ? (rlim_t)k->fsize : (rlim_t)MAX_FSIZE;
    struct rlimit cpu = {CASE_SECONDS, CASE_SECONDS + 1}, fs = {fsz, fsz}, as = {MAX_AS_BYTES, MAX_AS_BYTES};
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_FSIZE, &fs);
    if (!sanitize)
      setrlimit(RLIMIT_AS, &as);
    char *path = xfmt("%s:%s", fakebin, env_or("PATH", "/usr/bin:/bin"));
    setenv("PATH", path, 1);
    execv(k->argv[0], k->argv);
    _exit(122);
  }
  setpgid(pid, pid);
  int st = 0, timed_out = 0, killed = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  /* Sleep until SIGCHLD (blocked in main(), so none is lost) or the limit. */
  for (;;) {
    pid_t p = wait4(pid, &st, WNOHANG, &ru);
    if (p == pid)
      break;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double spent = (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec);
    double left = CASE_WALL_SECONDS - spent;
    if (k->kill_ms > 0 && !killed && spent * 1000 >= k->kill_ms) {
      kill(pid, SIGKILL); /* the tool alone: what it started must die with it */
      killed = 1;
      continue;
    }
    if (k->kill_ms > 0 && !killed && (k->kill_ms / 1000.0 - spent) < left)
      left = k->kill_ms / 1000.0 - spent;
    if (left <= 0 && !killed && k->kill_ms > 0)
      continue;
    if (left <= 0) {
      kill(-pid, SIGKILL);
      wait4(pid, &st, 0, &ru);
      timed_out = 1;
      break;
    }
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    struct timespec wait = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
    sigtimedwait(&chld, NULL, &wait);
  }
  /* A tool the harness killed: what it started in its own group dies with
   * it too (hnm-run's simulator, a grandchild), within a few seconds; the
   * dead are reaped (live_children()) so that only the live count. */
  for (int tries = 0; killed && tries < 50 && kill(-pid, 0) == 0; tries++) {
    pid_t reap[64];
    struct timespec ms100 = {0, 100000000};
    nanosleep(&ms100, NULL);
    live_children(reap, 64);
  }
  if (killed && kill(-pid, 0) == 0)
    fail(k, id, "process(es) of the tool's group still running 5 s after the harness killed the tool");
  /* What the tool left running in its group (nothing should be). */
  kill(-pid, SIGKILL);
  if (lockfd >= 0)
    close(lockfd);
  /* And outside it: a run in a process group of its own (hnm-compare's)
   * must die with the tool too, killed or not; a few seconds to do so. */
  {
    pid_t left[64];
    int nl = 0;
    for (int tries = 0; tries < 100 && (nl = live_children(left, 64)) > 0; tries++) {
      struct timespec ms100 = {0, 100000000};
      nanosleep(&ms100, NULL);
    }
    if (nl > 0) {
      fail(k, id, "%d process(es) still running 10 s after the tool ended (pid %d first)", nl, (int)left[0]);
      for (int i = 0; i < nl; i++)
        kill(left[i], SIGKILL);
      live_children(left, 64);
    }
  }
  size_t elen, olen;
  char *etext = read_small(errf, &elen), *otext = read_small(outf, &olen);
  int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  char last[1024] = "";
  {
    size_t e = elen;
    while (e > 0 && etext[e - 1] == '\n')
      e--;
    size_t s = e;
    while (s > 0 && etext[s - 1] != '\n')
      s--;
    snprintf(last, sizeof last, "%.*s", (int)(e - s), etext + s);
  }
  int lines = 0;
  for (size_t i = 0; i < elen; i++)
    lines += etext[i] == '\n';
  if (timed_out)
    fail(k, id, "still running after %d s", CASE_WALL_SECONDS);
  else if (killed && !(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL))
    fail(k, id, "ended before the harness killed it (status 0x%x)", st);
  else if (!WIFEXITED(st) && !killed)
    fail(k, id, "killed by signal %d", WTERMSIG(st));
  else if (!killed && (code < 0 || code >= 32 || !(k->exits & (1u << code))))
    fail(k, id, "exit %d, not an allowed status (mask 0x%x); stderr: %.300s", code, k->exits, last);
  if (!timed_out && WIFEXITED(st) && code != 0) {
    if (lines != 1 && !k->simulates)
      fail(k, id, "%d lines on stderr, 1 expected: %.400s", lines, etext);
    if (code == 2 && olen > 0 && !k->stdout_full)
      fail(k, id, "refused, yet wrote %zu bytes on stdout", olen);
  }
  if (k->re != NULL && WIFEXITED(st)) {
    regex_t re;
    if (regcomp(&re, k->re, REG_EXTENDED | REG_NOSUB) != 0)
      fail(k, id, "bad regex %s", k->re);
    else {
      if (regexec(&re, last, 0, NULL, 0) != 0)
        fail(k, id, "last stderr line '%s' does not match /%s/", last, k->re);
      regfree(&re);
    }
  }
  for (int w = 0; w < k->nwhy && WIFEXITED(st) && code == 2; w++) {
    regex_t re;
    if (regcomp(&re, k->why[w], REG_EXTENDED | REG_NOSUB | REG_ICASE) != 0)
      fail(k, id, "bad regex %s", k->why[w]);
    else {
      if (regexec(&re, last, 0, NULL, 0) != 0)
        fail(k, id, "refused with '%s', which does not name /%s/", last, k->why[w]);
      regfree(&re);
    }
  }
  if (k->out_re != NULL) {
    regex_t re;
    if (regcomp(&re, k->out_re, REG_EXTENDED | REG_NOSUB | REG_NEWLINE) != 0)
      fail(k, id, "bad regex %s", k->out_re);
    else {
      if (regexec(&re, otext, 0, NULL, 0) != 0)
        fail(k, id, "no line of stdout matches /%s/: %.300s", k->out_re, otext);
      regfree(&re);
    }
  }
  if (strstr(etext, "Sanitizer") != NULL || strstr(etext, "runtime error:") != NULL)
    fail(k, id, "sanitizer report: %.600s", etext);
  if (ru.ru_maxrss > MAX_RSS_KB * (sanitize ? 2 : 1))
    fail(k, id, "peak RSS %ld KiB, above %ld KiB", ru.ru_maxrss, MAX_RSS_KB * (sanitize ? 2 : 1));
  if (k->check_devnull) {
    struct stat now;
    if (stat("/dev/null", &now) != 0 || !S_ISCHR(now.st_mode) || now.st_ino != devnull_st.st_ino)
      fail(k, id, "/dev/null was replaced");
  }
  size_t na;
  struct entry *after = snapshot(dir, &na);
  for (size_t i = 0; i < nb; i++) {
    size_t j = 0;
    while (j < na && strcmp(after[j].path, before[i].path) != 0)
      j++;
    if (j == na)
      fail(k, id, "input '%s' removed", before[i].path);
    else if (after[j].mode != before[i].mode || after[j].size != before[i].size ||
             after[j].hash != before[i].hash || (S_ISREG(before[i].mode) && (after[j].mtime.tv_sec != before[i].mtime.tv_sec ||
                                                                     after[j].mtime.tv_nsec != before[i].mtime.tv_nsec)) ||
             (before[i].link && strcmp(before[i].link, after[j].link ? after[j].link : "") != 0))
      fail(k, id, "input '%s' changed", before[i].path);
  }
  for (size_t j = 0; j < na; j++) {
    size_t i = 0;
    while (i < nb && strcmp(after[j].path, before[i].path) != 0)
      i++;
    if (i < nb)
      continue;
    if (!matches_out(k, after[j].path))
      fail(k, id, "wrote '%s', not a declared output", after[j].path);
    else if (code == 2)
      fail(k, id, "refused (exit %d), yet wrote '%s'", code, after[j].path);
  }
  if (verbose) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    fprintf(stderr, "case %ld %s: exit %d, %.3f s, %ld KiB: %s\n", id, k->name, code,
            (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec), ru.ru_maxrss, last);
  }
  free(etext), free(otext);
  snap_free(before, nb);
  snap_free(after, na);
done:
  if (failures == failed_before || !keep) {
    rm_rf(dir);
    unlink(outf), unlink(errf);
  }
  free(dir), free(outf), free(errf);
  return failures == failed_before ? 0 : -1;
}

int main(int argc, char **argv)
{
  long ncases = 2000, only = -1;
  int part = 0; /* 0: every case; 1: those that reach SimGrid (sim); 2: the others (rest) */
  uint64_t seed = 20261126;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "--cases") == 0 && i + 1 < argc)
      ncases = atol(argv[++i]);
    else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc)
      only = atol(argv[++i]), keep = 1;
    else if (strcmp(argv[i], "--sanitize") == 0)
      sanitize = 1;
    else if (strcmp(argv[i], "--part") == 0 && i + 1 < argc) {
      i++;
      if (strcmp(argv[i], "all") == 0)
        part = 0;
      else if (strcmp(argv[i], "sim") == 0)
        part = 1;
      else if (strcmp(argv[i], "rest") == 0)
        part = 2;
      else {
        fprintf(stderr, "hnm_hostile: --part takes all, sim or rest, not '%s'\n", argv[i]);
        return 2;
      }
    }
    else if (strcmp(argv[i], "--keep") == 0)
      keep = 1;
    else if (strcmp(argv[i], "--verbose") == 0)
      verbose = 1;
    else {
      fprintf(stderr, "hnm_hostile: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (i != argc - 1) {
    fprintf(stderr, "usage: hnm_hostile [--cases N] [--seed S] [--case K] [--part all|sim|rest] [--sanitize] [--keep] "
                    "[--verbose] WORKDIR\n");
    return 2;
  }
  workdir = argv[i];
  mkdir(workdir, 0755);
  DATA = env_or("DATA", NULL);
  T_RUN = env_or("HNM_RUN", NULL), T_COMPARE = env_or("HNM_COMPARE", NULL);
  T_CALIBRATE = env_or("HNM_CALIBRATE", NULL), T_PLATFORM = env_or("HNM_PLATFORM", NULL);
  T_ROUTE = env_or("HNM_ROUTE", NULL), T_LINKPLOT = env_or("HNM_LINKPLOT", NULL);
  T_HOSTS = env_or("HNM_HOSTS", NULL), T_PROG = env_or("PROG", "/bin/true");
  if (!DATA || !T_RUN || !T_COMPARE || !T_CALIBRATE || !T_PLATFORM || !T_ROUTE || !T_LINKPLOT || !T_HOSTS) {
    fprintf(stderr, "hnm_hostile: set DATA and HNM_RUN, HNM_COMPARE, HNM_CALIBRATE, HNM_PLATFORM, HNM_ROUTE, "
                    "HNM_LINKPLOT, HNM_HOSTS\n");
    return 2;
  }
  /* gnuplot replaced by true: the figures are not the subject here. */
  fakebin = xfmt("%s/fakebin", workdir);
  mkdir(fakebin, 0755);
  char *gp = xfmt("%s/gnuplot", fakebin);
  unlink(gp);
  if (symlink("/bin/true", gp) != 0) {
    perror("hnm_hostile: fake gnuplot");
    return 1;
  }
  free(gp);
  seeds_make();
  signal(SIGPIPE, SIG_IGN);
  /* Orphans of a case become our children: what a tool leaves running is seen. */
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, NULL);

  struct kase *reg_cases = calloc(MAX_REGRESS, sizeof *reg_cases);
  int nreg = regression_cases(reg_cases);
  rng_state = seed ? seed : 1;
  long total = nreg + ncases, ran = 0, skipped = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long id = 0; id < total; id++) {
    struct kase gen, *k;
    if (id < nreg) {
      k = &reg_cases[id];
    } else {
      generated_case(&gen, id - nreg);
      k = &gen;
    }
    /* The cases that reach SimGrid: those that simulate, and every case of
       hnm-run and hnm-hosts (they hand their inputs to SimGrid). The others
       depend on no SimGrid version. Cases keep their numbers in each part. */
    int reaches = k->simulates || (k->argc > 0 && (strcmp(k->argv[0], T_RUN) == 0 || strcmp(k->argv[0], T_HOSTS) == 0));
    int in_part = part == 0 || (part == 1) == (reaches != 0);
    if ((only < 0 || id == only) && in_part && !(k->simulates && sanitize)) {
      run_case(k, id);
      ran++;
    } else if (only < 0 && in_part) {
      skipped++;
    }
    if (id >= nreg)
      k_free(&gen);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  for (int r = 0; r < nreg; r++)
    k_free(&reg_cases[r]);
  free(reg_cases);
  static const char *const part_name[] = {"", " of part sim", " of part rest"};
  printf("hostile: %ld cases%s (%d regression, %ld generated from seed %llu), %ld skipped, %ld failed, %.1f s\n", ran,
         part_name[part],
         nreg, ncases, (unsigned long long)seed, skipped, failures,
         (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  if (ran == 0) {
    fprintf(stderr, "hnm_hostile: no case ran\n");
    return 1;
  }
  return failures > 0 ? 1 : 0;
}
