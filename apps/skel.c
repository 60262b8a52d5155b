/* skel.c -- see skel.h. */
#include "skel.h"
#include "hnm_msg.h"
#include "hnm_version.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SMPI_SHARED_MALLOC
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <xbt/config.h>
#endif

MPI_Comm skel_init(int *argc, char ***argv, int *rank, int *procs)
{
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, procs);
  return MPI_COMM_WORLD;
}

/* Every rank of comm is here: end the program with status, rank 0's output
 * flushed first. */
static void skel__exit(MPI_Comm comm, int status)
{
  /* Let rank 0's message out before the job is torn down. */
  fflush(stdout);
  fflush(stderr);
  MPI_Barrier(comm);
  /* Not MPI_Abort: SimGrid 3.32's ends smpirun with status 0, and Open MPI's
   * teardown after an abort may drop rank 0's message before mpirun
   * forwards it. Every rank is here, so finalize cleanly and exit: mpirun
   * then exits with the ranks' status; under SMPI exit() is smpi_exit(),
   * which ends this rank only and makes smpirun exit with the status. */
  MPI_Finalize();
  exit(status);
}

static void skel__vfail(MPI_Comm comm, const char *prog, const char *option, const char *fmt, va_list ap)
{
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && option == NULL)
    hnm_msg_vprint(prog, HNM_MSG_ERROR, fmt, ap);
  else if (rank == 0) {
    char text[2048];
    vsnprintf(text, sizeof text, fmt, ap);
    hnm_msg_print(prog, HNM_MSG_ERROR, "%s: %s", option, text);
  }
  skel__exit(comm, 2);
}

void skel_fail(MPI_Comm comm, const char *prog, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  skel__vfail(comm, prog, NULL, fmt, ap);
  va_end(ap);
}

void skel_fail_if_any(MPI_Comm comm, int bad, const char *prog, const char *fmt, ...)
{
  int any = 0;
  bad = bad != 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm);
  if (!any)
    return;
  va_list ap;
  va_start(ap, fmt);
  skel__vfail(comm, prog, NULL, fmt, ap);
  va_end(ap);
}

void skel_option_fail(MPI_Comm comm, const char *prog, const char *option, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  skel__vfail(comm, prog, option, fmt, ap);
  va_end(ap);
}

void skel_options(MPI_Comm comm, const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, int argc, char **argv)
{
  struct hnm_opt_cmd in_order = *cmd;
  char err[1024];
  in_order.flags |= HNM_OPT_IN_ORDER;
  /* The whole scan before any MPI call (core/hnm_opt.c's note). */
  int first = hnm_opt_scan(&in_order, opts, argc, argv, err, sizeof err);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (first == HNM_OPT_HELP || first == HNM_OPT_VERSION) {
    if (rank == 0) {
      if (first == HNM_OPT_HELP)
        hnm_opt_help(cmd, opts, stdout);
      else
        printf("%s %s\n", cmd->prog, HNM_VERSION);
    }
    skel__exit(comm, 0);
  }
  if (first == HNM_OPT_ERROR)
    skel_fail(comm, cmd->prog, "%s", err[0] != '\0' ? err : "bad command line (see -h)");
  if (first < argc)
    skel_fail(comm, cmd->prog, "'%s': unexpected argument (options start with --; see -h)", argv[first]);
}

#ifdef SMPI_SHARED_MALLOC
/* A no-payload buffer's contents never matter, so every one of a page or
 * more is the same shared mapping: the largest so far, replaced by one
 * twice as large when a larger buffer is asked for. SMPI maps each shared
 * block on its own, so one per buffer per rank ran out of Linux's
 * vm.max_map_count (65,530) near 16,000 ranks of halo (docs/scale.md); this
 * way a process holds a few dozen at most (with privatization:no, the
 * skeletons' setting at scale; with dlopen, a few per rank). They are kept
 * until the process ends: skel_free() leaves them, another buffer may be
 * the same memory. Ranks take turns on one thread under SMPI, so the
 * table needs no lock. */
enum { SKEL__ALIASES = 48 };
static void *skel__alias[SKEL__ALIASES];
static size_t skel__alias_bytes[SKEL__ALIASES];
static int skel__naliases;

static void *skel__shared(size_t bytes)
{
  int n = skel__naliases;
  if (n > 0 && bytes <= skel__alias_bytes[n - 1])
    return skel__alias[n - 1];
  if (n == SKEL__ALIASES)
    return SMPI_SHARED_MALLOC(bytes);
  size_t size = n > 0 && skel__alias_bytes[n - 1] <= SIZE_MAX / 2 ? 2 * skel__alias_bytes[n - 1] : bytes;
  if (size < bytes)
    size = bytes;
  void *p = SMPI_SHARED_MALLOC(size);
  if (p == NULL)
    return NULL;
  skel__alias[n] = p;
  skel__alias_bytes[n] = size;
  skel__naliases = n + 1;
  return p;
}

static int skel__is_alias(const void *p)
{
  for (int i = 0; i < skel__naliases; i++)
    if (skel__alias[i] == p)
      return 1;
  return 0;
}
#endif

void *skel_alloc(size_t bytes, int payload)
{
  if (bytes == 0)
    bytes = 1;
  if (payload)
    return calloc(1, bytes);
#ifdef SMPI_SHARED_MALLOC
  /* Below a page a private buffer is smaller than a shared block and costs
   * no memory mapping. SMPI_SHARED_FREE frees either kind. */
  if (bytes >= SKEL_SHARED_MIN_BYTES)
    return skel__shared(bytes);
#endif
  return malloc(bytes);
}

void skel_free(void *p, int payload)
{
  if (p == NULL)
    return;
  if (payload) {
    free(p);
    return;
  }
#ifdef SMPI_SHARED_FREE
  if (!skel__is_alias(p))
    SMPI_SHARED_FREE(p);
#else
  free(p);
#endif
}

int skel_out_open(struct skel_out *o, const char *prog, const char *dir, const char *name, const char *header)
{
  snprintf(o->final, sizeof o->final, "%s/%s", dir, name);
  snprintf(o->tmp, sizeof o->tmp, "%s/.%s.tmp", dir, name);
  o->failed = 0;
  o->f = fopen(o->tmp, "w");
  if (o->f == NULL) {
    hnm_msg_print(prog, HNM_MSG_ERROR, "%s: cannot write: %s", o->tmp, strerror(errno));
    o->tmp[0] = '\0'; /* nothing of ours to remove */
    o->f = fopen("/dev/null", "w");
    o->failed = 1;
  }
  fprintf(o->f, "%s\n", header);
  return o->failed ? -1 : 0;
}

int skel_out_close(struct skel_out *o, const char *prog)
{
  int failed = o->failed;
  if (fclose(o->f) != 0 && !failed) {
    hnm_msg_print(prog, HNM_MSG_ERROR, "%s: cannot write: %s", o->final, strerror(errno));
    failed = 1;
  }
  if (!failed && rename(o->tmp, o->final) != 0) {
    hnm_msg_print(prog, HNM_MSG_ERROR, "%s: cannot write: %s", o->final, strerror(errno));
    failed = 1;
  }
  if (failed && o->tmp[0] != '\0')
    remove(o->tmp);
  return failed ? -1 : 0;
}

void skel_csv_header(MPI_Comm comm)
{
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    printf("program,operation,algorithm,procs,params,stages,messages,time_s,stage_times_s\n");
    fflush(stdout);
  }
}

/* ------------------------------------------------------------------ timing */

/* The skeleton's own collectives (skel_sync's allreduce-max, the report's
 * reduction and verdict) use these tags; MPI guarantees MPI_TAG_UB >= 32767
 * and no skeleton uses tags this high. */
#define SKEL_TAG_SYNC 32001
#define SKEL_TAG_REPORT 32002

/* SMPI benchmarks the code a rank runs between two MPI calls and, under
 * smpi/simulate-computation, injects what it measured as computation at the
 * next call (smpi_bench_end; smpi_bench_begin restarts the timer: SimGrid
 * 3.32, smpi_bench.cpp). The skeleton's own synchronisation and report code
 * is not the application's: SKEL_UNBENCHED() before each of their MPI calls
 * restarts that benchmark, so that nothing they ran on this machine is
 * injected. Measured before: on a loaded 2-core machine a 75 us burst
 * inside skel_sync's second allreduce (its loop, or the machine taking the
 * core away) moved every rank 49 us past the common start, and 3 of about
 * 70 runs of transpose with computation counted were refused ("reached the
 * common start late"). */
#ifdef SMPI_SHARED_MALLOC
#define SKEL_UNBENCHED() smpi_bench_begin()
#else
#define SKEL_UNBENCHED() ((void)0)
#endif

/* Binomial-tree reduction to rank 0 of v[0..n): the first nmax elements by
 * MAX, the others by SUM. Rank r receives from r + 2^j for every 2^j below
 * its lowest set bit, then sends to r - (its lowest set bit). */
static void skel_reduce0(MPI_Comm comm, int tag, int rank, int procs, double *v, double *in, long n, long nmax)
{
  for (long mask = 1; mask < procs; mask <<= 1) {
    if (rank & mask) {
      SKEL_UNBENCHED();
      MPI_Ssend(v, (int)n, MPI_DOUBLE, (int)(rank - mask), tag, comm);
      return;
    }
    if (rank + mask < procs) {
      SKEL_UNBENCHED();
      MPI_Recv(in, (int)n, MPI_DOUBLE, (int)(rank + mask), tag, comm, MPI_STATUS_IGNORE);
      for (long i = 0; i < nmax; i++)
        v[i] = in[i] > v[i] ? in[i] : v[i];
      for (long i = nmax; i < n; i++)
        v[i] += in[i];
    }
  }
}

/* Binomial-tree broadcast of v[0..n) from rank 0. */
static void skel_bcast0(MPI_Comm comm, int tag, int rank, int procs, double *v, int n)
{
  long mask = 1;
  while (mask < procs) {
    if (rank & mask) {
      SKEL_UNBENCHED();
      MPI_Recv(v, n, MPI_DOUBLE, (int)(rank - mask), tag, comm, MPI_STATUS_IGNORE);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rank + mask < procs) {
      SKEL_UNBENCHED();
      MPI_Ssend(v, n, MPI_DOUBLE, (int)(rank + mask), tag, comm);
    }
}

/* Allreduce-max of v[0..n) over comm: binomial-tree reduction to rank 0,
 * then binomial broadcast: 2 (P - 1) messages in all, at most log2 P
 * received by a rank, 2 ceil(log2 P) steps deep; every rank gets the same
 * bits. Why, for simulations of thousands of ranks: dissemination or
 * recursive doubling take ceil(log2 P) steps but P log2 P messages; measured
 * at 2,048 ranks under graphene (gcr --n 2 --k 2, docs/scale.md), the
 * trees cost 6 s of CPU, recursive doubling with synchronous sends 11-14 s,
 * dissemination 27 s, for the same simulated times. The sends are
 * synchronous (MPI_Ssend): SMPI never detaches them, so they stay out of
 * SimGrid 3.32's list of detached transfers, whose every removal walks the
 * whole list (docs/scale.md); their timing does not matter, the window
 * absorbs it. */
static void skel_allmax(MPI_Comm comm, double *v, int n)
{
  int rank, procs;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  double in[SKEL_SYNC_VALUES];
  skel_reduce0(comm, SKEL_TAG_SYNC, rank, procs, v, in, n, n);
  skel_bcast0(comm, SKEL_TAG_SYNC, rank, procs, v, n);
}

double skel_window_start(double entry_min, double exit_max)
{
  return exit_max + 2.0 * (exit_max - entry_min) + SKEL_WINDOW_MARGIN;
}

#ifdef SMPI_SHARED_MALLOC
/* The simulated clock, read without the smpi/wtime sleep MPI_Wtime adds. */
static double skel_now(void)
{
  return simgrid_get_clock();
}
#endif

double skel_sync(MPI_Comm comm, struct skel_batch *b)
{
#ifdef SMPI_SHARED_MALLOC
  /* Under smpi/simulate-computation the application's CPU time since its
   * last MPI call is injected here, before the entry is read: the rank
   * enters when its computation is done, and both allreduces then carry
   * only messages (the window's premise). */
  smpi_bench_end();
  smpi_bench_begin();
  double v[1] = {-skel_now()};
  skel_allmax(comm, v, 1); /* every rank has entered; v = -(first entry) */
  double entry_min = -v[0];
  v[0] = skel_now();
  skel_allmax(comm, v, 1); /* v = the last exit from the first allreduce */
  double t = skel_window_start(entry_min, v[0]) + (sg_cfg_get_boolean("smpi/simulate-computation") ? SKEL_WINDOW_NOISE : 0);
  /* The benchmark stays closed from here to the start (as SMPI's own
   * sleep() does), and what ran since the allreduce is not injected. */
  SKEL_UNBENCHED();
  smpi_bench_end();
  double now = skel_now();
  if (now > t)
    skel_batch_late(b, now - t);
  else
    sg_actor_sleep_until(t);
  smpi_bench_begin();
  return t;
#else
  (void)b;
  MPI_Barrier(comm);
  return MPI_Wtime();
#endif
}

const char *skel_sync_name(void)
{
#ifdef SMPI_SHARED_MALLOC
  return "window";
#else
  return "barrier";
#endif
}

/* ----------------------------------------------------------------- reports */

struct skel_line {
  char *head;   /* rank 0: "program,operation,algorithm,procs,params;sync=S" (NULL elsewhere) */
  int nstages;
  long first;   /* index of the line's time in skel_batch.maxv; its stages follow */
};

struct skel_batch {
  int rank, procs;
  struct skel_line *line;
  int nlines;
  long capline;
  double *maxv; /* per line: time, then its stage times (reduced with MAX) */
  long nmax, capmax;
  double *msgs; /* per line: messages (reduced with SUM; exact below 2^53) */
  long capmsgs;
  double late;  /* the longest a skel_sync of this batch started late, seconds (0: none) */
  int late_line; /* the line added after that skel_sync */
  int oom;
  const char *sync; /* the params key sync= */
};

struct skel_batch *skel_batch_new(MPI_Comm comm, const char *sync)
{
  struct skel_batch *b = calloc(1, sizeof(*b));
  if (b == NULL)
    return NULL;
  b->sync = sync != NULL ? sync : skel_sync_name();
  MPI_Comm_rank(comm, &b->rank);
  MPI_Comm_size(comm, &b->procs);
  b->late_line = -1;
  return b;
}

void skel_batch_late(struct skel_batch *b, double late_s)
{
  if (late_s > b->late) {
    b->late = late_s;
    b->late_line = b->nlines;
  }
}

static int skel_grow(void **p, long *cap, long need, size_t elem)
{
  if (need <= *cap)
    return 0;
  long c = *cap > 0 ? *cap : 16;
  while (c < need)
    c *= 2;
  void *q = realloc(*p, (size_t)c * elem);
  if (q == NULL)
    return -1;
  *p = q;
  *cap = c;
  return 0;
}

void skel_batch_add(struct skel_batch *b, const char *prog, const char *operation, const char *algorithm,
                    const char *params, int nstages, const double *stage_s, long messages, double time_s)
{
  if (b->oom || skel_grow((void **)&b->line, &b->capline, b->nlines + 1, sizeof(*b->line)) < 0 ||
      skel_grow((void **)&b->msgs, &b->capmsgs, b->nlines + 1, sizeof(double)) < 0 ||
      skel_grow((void **)&b->maxv, &b->capmax, b->nmax + 1 + nstages, sizeof(double)) < 0) {
    b->oom = 1;
    return;
  }
  struct skel_line *l = &b->line[b->nlines];
  l->head = NULL;
  if (b->rank == 0) {
    const char *sep = params[0] != '\0' ? ";" : "";
    int n = snprintf(NULL, 0, "%s,%s,%s,%d,%s%ssync=%s", prog, operation, algorithm, b->procs, params, sep,
                     b->sync);
    l->head = malloc((size_t)n + 1);
    if (l->head == NULL) {
      b->oom = 1;
      return;
    }
    snprintf(l->head, (size_t)n + 1, "%s,%s,%s,%d,%s%ssync=%s", prog, operation, algorithm, b->procs, params, sep,
             b->sync);
  }
  l->nstages = nstages;
  l->first = b->nmax;
  b->maxv[b->nmax++] = time_s;
  for (int i = 0; i < nstages; i++)
    b->maxv[b->nmax++] = stage_s[i];
  b->msgs[b->nlines++] = (double)messages;
}

void skel_batch_report(MPI_Comm comm, struct skel_batch *b, const char *prog)
{
  /* Out of memory anywhere: every rank must know before the reduction,
   * whose length depends on the lines. */
  double verdict[2] = {b->oom ? 1.0 : 0.0, 0};
  skel_allmax(comm, verdict, 1);
  if (verdict[0] != 0)
    skel_fail(comm, prog, "out of memory for the report of %d lines", b->nlines);
  /* One packed array: late seconds, late line, the lines' times and
   * stages (MAX), then their message counts (SUM). */
  long nmax = 2 + b->nmax, n = nmax + b->nlines;
  double *v = malloc(sizeof(double) * (size_t)n), *in = malloc(sizeof(double) * (size_t)n);
  int ok = v != NULL && in != NULL;
  verdict[0] = ok ? 0.0 : 1.0;
  skel_allmax(comm, verdict, 1);
  if (verdict[0] != 0)
    skel_fail(comm, prog, "out of memory for the report of %d lines", b->nlines);
  v[0] = b->late;
  v[1] = b->late > 0 ? b->late_line : -1;
  memcpy(v + 2, b->maxv, sizeof(double) * (size_t)b->nmax);
  memcpy(v + nmax, b->msgs, sizeof(double) * (size_t)b->nlines);
  skel_reduce0(comm, SKEL_TAG_REPORT, b->rank, b->procs, v, in, n, nmax);
  /* Every rank learns whether some rank started an operation late. */
  verdict[0] = v[0];
  verdict[1] = v[1];
  skel_bcast0(comm, SKEL_TAG_REPORT, b->rank, b->procs, verdict, 2);
  if (verdict[0] > 0) {
    int ln = (int)verdict[1];
    free(v);
    free(in);
    skel_fail(comm, prog,
              "a rank reached the common start of line %d of this report (%s) %.3g s late: the timing window was "
              "too short, no time printed (please report this)",
              ln, b->rank == 0 && ln >= 0 && ln < b->nlines ? b->line[ln].head : "?", verdict[0]);
  }
  if (b->rank == 0) {
    for (int k = 0; k < b->nlines; k++) {
      const struct skel_line *l = &b->line[k];
      const double *t = v + 2 + l->first;
      printf("%s,%d,%.0f,%.17g,", l->head, l->nstages, v[nmax + k], t[0]);
      for (int i = 0; i < l->nstages; i++)
        printf(i ? ";%.17g" : "%.17g", t[1 + i]);
      printf("\n");
    }
    fflush(stdout);
  }
  free(v);
  free(in);
  for (int k = 0; k < b->nlines; k++)
    free(b->line[k].head);
  b->nlines = 0;
  b->nmax = 0;
  b->late = 0;
  b->late_line = -1;
}

void skel_batch_free(struct skel_batch *b)
{
  if (b == NULL)
    return;
  for (int k = 0; k < b->nlines; k++)
    free(b->line[k].head);
  free(b->line);
  free(b->maxv);
  free(b->msgs);
  free(b);
}

void skel_verify_ok(MPI_Comm comm, const char *prog, long checked)
{
  long total = 0;
  int rank = 0;
  MPI_Reduce(&checked, &total, 1, MPI_LONG, MPI_SUM, 0, comm);
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    printf("verify,%s,ok,%ld\n", prog, total);
    fflush(stdout);
  }
}

long skel_square_divisor(long p)
{
  long best = 1;
  for (long d = 1; d * d <= p; d++)
    if (p % d == 0)
      best = d;
  return best;
}

long skel_ceil_div(long a, long b)
{
  return (a + b - 1) / b;
}

void skel_block(long n, int p, int i, long *start, long *count)
{
  long base = n / p, extra = n % p;
  *count = base + (i < extra ? 1 : 0);
  *start = (long)i * base + (i < extra ? i : extra);
}
