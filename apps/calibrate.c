/* calibrate.c -- the point-to-point measurements hnm-calibrate fits a model to
 * (Degomme et al. 2013, Section IV-A and Figure 4).
 *
 * Plain MPI C, built with smpicc (calibrate, to run under hnm-run) and with
 * mpicc (calibrate-mpi, to run with mpirun). Ranks 0 and 1 do the
 * point-to-point experiments; the contention probe uses ranks 0..2N-1.
 *
 * Experiments (every duration is measured on one rank with MPI_Wtime, in
 * seconds; "delay" D is slept by one side after a barrier so that the other
 * side is surely in its call first):
 *   send      rank 1 posts MPI_Recv, rank 0 waits D and times MPI_Send
 *             (the receiver is always ready);
 *   recv      rank 0 calls MPI_Send at once, rank 1 waits D and times
 *             MPI_Recv (the sender is always early);
 *   pingpong  rank 1 posts MPI_Recv, rank 0 waits D and times MPI_Send +
 *             MPI_Recv of the echo (a round trip);
 *   isend     as send, timing MPI_Isend only (the wait is not timed);
 *   irecv     as recv, timing MPI_Irecv only.
 * Sizes: --sizes values drawn log-uniformly in [--min, --max] (bytes), each
 * repeated --reps times; all (operation, size) pairs are shuffled together
 * with --seed, so that neither size nor order biases the measurements.
 *
 * Output (rank 0, into -d DIR, each written to a temporary file and renamed):
 *   p2p.csv         op,size,start,duration   (start: seconds since the run
 *                   began; one row per measurement, raw, in run order)
 *   probe.csv       size,delay,send,recv,pingpong
 *                   protocol probe: for one size, send = MPI_Send duration
 *                   while the receiver waits `delay` before posting; recv =
 *                   MPI_Recv duration of a receiver that posts `delay` after
 *                   the sender started; pingpong = a round trip. A send that
 *                   lasts >= delay/2 waited for the receiver (rendez-vous);
 *                   otherwise the message is eager if recv < 0.9 x
 *                   (pingpong/2 - send) (the data arrived while the
 *                   receiver was away: SMPI's detached receive lasts
 *                   exactly pingpong/2 - send), else detached. Sizes are chosen by bisection (on a log scale)
 *                   for the largest non-rendez-vous size, then for the
 *                   largest eager one; --probe-reps rows per probed size.
 *   contention.csv  pairs,mode,size,rank,duration
 *                   pairs (2i, 2i+1), i < pairs, exchange `size` bytes at
 *                   once: mode uni = 2i sends to 2i+1, bi = both ways
 *                   (MPI_Sendrecv); duration = time on `rank` from the end of
 *                   a barrier to the end of its call.
 *   rma.csv         epoch,size,duration
 *                   one-sided epochs over a window of ranks 0 and 1, each
 *                   timed on rank 0 (the origin) while rank 1 (the target)
 *                   is surely in its part first (rank 0 waits --delay after
 *                   a barrier): lock = MPI_Win_lock(exclusive, 1) +
 *                   MPI_Win_unlock; lockflush = lock, MPI_Win_flush, unlock;
 *                   lockput / lockget = lock, MPI_Put / MPI_Get of `size`
 *                   bytes, unlock; fence = MPI_Win_fence(NOPRECEDE) +
 *                   MPI_Win_fence(NOSUCCEED) on both; pscw = rank 0
 *                   MPI_Win_start + MPI_Win_complete, rank 1 MPI_Win_post
 *                   + MPI_Win_wait. size is 0 but for lockput and lockget
 *                   (--rma-sizes). After a passive epoch rank 0 tells rank 1
 *                   with a 0-byte message, for which rank 1 waits in
 *                   MPI_Recv (not in a barrier: SMPI's MPI_Barrier completes
 *                   the window's pending requests itself).
 *   pack.csv        with --pack or --pack-only: derived-datatype pack and
 *                   unpack times on rank 0 (apps/calibrate_pack.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "calibrate_pack.h"
#include "hnm_bench.h"
#include "hnm_msg.h"
#include "skel.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG "calibrate"

/* The operations and CSV columns: core/hnm_bench.h, shared with hnm-calibrate. */
static const char *const rma_names[HNM_BENCH_RMA_EPOCHS] = HNM_BENCH_RMA_NAMES;

enum op { OP_SEND = HNM_BENCH_SEND, OP_RECV = HNM_BENCH_RECV, OP_PINGPONG = HNM_BENCH_PINGPONG,
          OP_ISEND = HNM_BENCH_ISEND, OP_IRECV = HNM_BENCH_IRECV, OP_COUNT = HNM_BENCH_OPS };
static const char *const op_names[OP_COUNT] = HNM_BENCH_OP_NAMES;

struct options {
  const char *dir;
  long min, max;       /* bytes */
  long sizes, reps;
  unsigned long seed;
  double delay;        /* seconds */
  int ops[OP_COUNT];   /* 1 if measured */
  int probe, contention;
  long probe_reps;
  long cont_size;      /* bytes */
  long cont_reps;
  int progress;
  long *list;          /* --size-list: these sizes instead of drawn ones */
  long nlist;
  int rma;
  long rma_reps;
  long *rma_list;      /* --rma-sizes */
  long nrma;
  int pack, pack_only; /* derived-datatype pack times (pack.csv) */
  long pack_reps;
};

struct task {
  int op;
  long size;
  double start, duration;
};

/* xorshift64*: a small deterministic generator, identical on every rank. */
static uint64_t rng_next(uint64_t *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}
static double rng_uniform(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

/* Wait `seconds`: simulated under SMPI (nanosleep is SMPI's), a busy wait
 * on MPI_Wtime with a real MPI (sleeping would let the core go idle and
 * add a wake-up latency to the next call). */
static void wait_for(double seconds)
{
#ifdef SMPI_H
  struct timespec ts;
  ts.tv_sec  = (time_t)seconds;
  ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
  nanosleep(&ts, NULL);
#else
  double end = MPI_Wtime() + seconds;
  while (MPI_Wtime() < end)
    ;
#endif
}

/* A size: whole bytes, optionally followed by k, Ki, M, Mi, G, Gi (and B).
 * 0 and *bytes, or -1 with the reason in err. */
static int parse_size(const char *val, long *bytes, char *err, size_t errlen)
{
  char *end;
  double v = strtod(val, &end);
  double mult = 1;
  if (end == val)
    goto bad;
  if (strncmp(end, "Ki", 2) == 0) { mult = 1024; end += 2; }
  else if (strncmp(end, "Mi", 2) == 0) { mult = 1048576; end += 2; }
  else if (strncmp(end, "Gi", 2) == 0) { mult = 1073741824; end += 2; }
  else if (*end == 'k') { mult = 1e3; end++; }
  else if (*end == 'M') { mult = 1e6; end++; }
  else if (*end == 'G') { mult = 1e9; end++; }
  if (*end == 'B')
    end++;
  if (*end != '\0' || !(v >= 0) || v * mult > 4e9 || v * mult != floor(v * mult))
    goto bad;
  *bytes = (long)(v * mult);
  return 0;
bad:
  hnm_errf(err, errlen, "'%s' is not a size in bytes (e.g. 4096, 64KiB, 1MiB)", val);
  return -1;
}

/* The HNM_OPT_CALL options; ctx is the struct options. */
static int set_min(void *ctx, const char *arg, char *err, size_t errlen)
{
  return parse_size(arg, &((struct options *)ctx)->min, err, errlen);
}

static int set_max(void *ctx, const char *arg, char *err, size_t errlen)
{
  return parse_size(arg, &((struct options *)ctx)->max, err, errlen);
}

static int set_cont_size(void *ctx, const char *arg, char *err, size_t errlen)
{
  return parse_size(arg, &((struct options *)ctx)->cont_size, err, errlen);
}

/* Exact sizes (hnm-calibrate's simulations of measured sizes and its
 * breakpoint refinement): whole bytes >= 1, any order. */
static int parse_size_list(const char *arg, long **list, long *nlist, char *err, size_t errlen)
{
  size_t len = strlen(arg);
  char *buf = malloc(len + 1);
  free(*list);
  *list = calloc(len / 2 + 2, sizeof **list);
  *nlist = 0;
  if (buf == NULL || *list == NULL) {
    free(buf);
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  memcpy(buf, arg, len + 1);
  int rc = 0;
  for (char *save, *t = strtok_r(buf, ",", &save); t != NULL && rc == 0; t = strtok_r(NULL, ",", &save)) {
    rc = parse_size(t, &(*list)[*nlist], err, errlen);
    if (rc == 0 && (*list)[*nlist] < 1) {
      hnm_errf(err, errlen, "'%s': sizes must be >= 1 (got %ld)", arg, (*list)[*nlist]);
      rc = -1;
    }
    (*nlist)++;
  }
  free(buf);
  if (rc == 0 && *nlist == 0) {
    hnm_errf(err, errlen, "'%s': no size", arg);
    rc = -1;
  }
  return rc;
}

static int set_size_list(void *ctx, const char *arg, char *err, size_t errlen)
{
  struct options *o = ctx;
  return parse_size_list(arg, &o->list, &o->nlist, err, errlen);
}

static int set_rma_sizes(void *ctx, const char *arg, char *err, size_t errlen)
{
  struct options *o = ctx;
  return parse_size_list(arg, &o->rma_list, &o->nrma, err, errlen);
}

static int set_ops(void *ctx, const char *arg, char *err, size_t errlen)
{
  struct options *o = ctx;
  char buf[256];
  for (int k = 0; k < OP_COUNT; k++)
    o->ops[k] = 0;
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *save, *t = strtok_r(buf, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
    int k = 0;
    while (k < OP_COUNT && strcmp(t, op_names[k]) != 0)
      k++;
    if (k == OP_COUNT) {
      hnm_errf(err, errlen, "'%s': unknown operation '%s' (send, recv, pingpong, isend, irecv)", arg, t);
      return -1;
    }
    o->ops[k] = 1;
  }
  return 0;
}

static void parse_options(int argc, char **argv, struct options *o)
{
  MPI_Comm comm = MPI_COMM_WORLD;
  int no_probe = 0, no_contention = 0, no_rma = 0, progress = 0;
  memset(o, 0, sizeof *o);
  o->min = 1;
  o->max = 8 << 20;
  for (int i = 0; i < OP_COUNT; i++)
    o->ops[i] = 1;
  o->cont_size = 4 << 20;
  long seed = 1;
  const struct hnm_opt opts[] = {
    {.name = "dir", .short_name = 'd', .kind = HNM_OPT_STRING, .arg = "DIR", .def = ".", .help = "output directory: p2p.csv, probe.csv, contention.csv", .value = &o->dir},
    {.name = "min", .kind = HNM_OPT_CALL, .arg = "SIZE", .def = "1", .unit = "bytes", .help = "smallest message", .fn = set_min},
    {.name = "max", .kind = HNM_OPT_CALL, .arg = "SIZE", .def = "8MiB", .unit = "bytes", .help = "largest message", .fn = set_max},
    {.name = "sizes", .kind = HNM_OPT_LONG, .arg = "N", .def = "100", .help = "sizes drawn log-uniformly", .value = &o->sizes, .min = 1, .max = 1000000},
    {.name = "size-list", .kind = HNM_OPT_CALL, .arg = "LIST", .help = "comma-separated sizes measured instead (each --reps times)", .fn = set_size_list},
    {.name = "reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "3", .help = "repetitions of each (operation, size)", .value = &o->reps, .min = 1, .max = 100000},
    {.name = "seed", .kind = HNM_OPT_LONG, .arg = "N", .def = "1", .help = "shuffling and sampling seed", .value = &seed, .max = 1L << 40},
    {.name = "delay", .kind = HNM_OPT_NUMBER, .arg = "SECONDS", .def = "0.001", .unit = "s", .help = "how long one side waits for the other, in (0, 10]", .value = &o->delay, .max = 10},
    {.name = "ops", .kind = HNM_OPT_CALL, .arg = "LIST", .def = "all", .help = "of send,recv,pingpong,isend,irecv", .fn = set_ops},
    {.name = "no-probe", .kind = HNM_OPT_FLAG, .help = "skip the protocol probe", .value = &no_probe},
    {.name = "probe-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "3", .help = "measurements per probed size", .value = &o->probe_reps, .min = 1, .max = 1000},
    {.name = "no-contention", .kind = HNM_OPT_FLAG, .help = "skip the contention probe", .value = &no_contention},
    {.name = "contention-size", .kind = HNM_OPT_CALL, .arg = "SIZE", .def = "4MiB", .unit = "bytes", .help = "bytes per transfer", .fn = set_cont_size},
    {.name = "contention-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "3", .help = "transfers of the contention probe", .value = &o->cont_reps, .min = 1, .max = 1000},
    {.name = "no-rma", .kind = HNM_OPT_FLAG, .help = "skip the one-sided (MPI RMA) epochs", .value = &no_rma},
    {.name = "rma-sizes", .kind = HNM_OPT_CALL, .arg = "LIST", .def = "1,1KiB,16KiB,64KiB,256KiB,1MiB", .unit = "bytes", .help = "put and get sizes of the one-sided epochs (each <= --max)", .fn = set_rma_sizes},
    {.name = "rma-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "5", .help = "repetitions of each one-sided epoch", .value = &o->rma_reps, .min = 1, .max = 100000},
    {.name = "pack", .kind = HNM_OPT_FLAG, .help = "also measure derived-datatype pack/unpack times (pack.csv)", .value = &o->pack},
    {.name = "pack-only", .kind = HNM_OPT_FLAG, .help = "only the pack/unpack times (pack.csv; 1 rank is enough)", .value = &o->pack_only},
    {.name = "pack-reps", .kind = HNM_OPT_LONG, .arg = "N", .def = "21", .help = "timings per pattern, style and operation (median kept)", .value = &o->pack_reps, .min = 1, .max = 100000},
    {.name = "progress", .kind = HNM_OPT_FLAG, .help = "progress on stderr (default: when stderr is a terminal)", .value = &progress},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {PROG, "[OPTIONS]",
                                  "The calibration benchmark run by hnm-calibrate (2 or more ranks; see apps/calibrate.c).",
                                  "Under smpirun use -h: SimGrid takes --help.\n", NULL, 0, o};
  skel_options(comm, &cmd, opts, argc, argv);
  o->seed = (unsigned long)seed;
  o->probe = !no_probe;
  o->contention = !no_contention;
  o->rma = !no_rma;
  if (o->nrma == 0) {
    /* The default list, cut at --max. */
    static const long defaults[] = {1, 1024, 16384, 65536, 262144, 1048576};
    o->rma_list = calloc(6, sizeof *o->rma_list);
    if (o->rma_list == NULL)
      skel_fail(comm, PROG, "out of memory");
    for (int i = 0; i < 6; i++)
      if (defaults[i] <= o->max)
        o->rma_list[o->nrma++] = defaults[i];
  }
  o->progress = progress || isatty(2);
  if (o->delay == 0)
    skel_option_fail(comm, PROG, "--delay", "'%g' is not in (0, 10]", o->delay);
  for (long i = 0; i < o->nlist; i++)
    if (o->list[i] > o->max)
      o->max = o->list[i];
  if (o->min < 1 || o->max < o->min)
    skel_option_fail(comm, PROG, "--min", "need 1 <= --min <= --max (got %ld, %ld)", o->min, o->max);
  if (o->cont_size < 1)
    skel_option_fail(comm, PROG, "--contention-size", "must be >= 1");
  for (long i = 0; i < o->nrma; i++)
    if (o->rma_list[i] > o->max)
      skel_option_fail(comm, PROG, "--rma-sizes", "%ld bytes is above --max (%ld)", o->rma_list[i], o->max);
}

/* One measurement of op at size on ranks 0 and 1; the measuring rank fills
 * *start (since t0) and *duration. Collective over comm (barrier first). */
static void measure(MPI_Comm comm, int rank, int op, long size, char *buf, double delay, double t0, double *start,
                    double *duration)
{
  MPI_Request req;
  int n = (int)size;
  MPI_Barrier(comm);
  if (rank > 1)
    return;
  double t;
  switch (op) {
    case OP_SEND:
    case OP_ISEND:
      if (rank == 1) {
        MPI_Recv(buf, n, MPI_BYTE, 0, 1, comm, MPI_STATUS_IGNORE);
        return;
      }
      wait_for(delay);
      t = MPI_Wtime();
      if (op == OP_SEND) {
        MPI_Send(buf, n, MPI_BYTE, 1, 1, comm);
        *duration = MPI_Wtime() - t;
      } else {
        MPI_Isend(buf, n, MPI_BYTE, 1, 1, comm, &req);
        *duration = MPI_Wtime() - t;
        MPI_Wait(&req, MPI_STATUS_IGNORE);
      }
      *start = t - t0;
      return;
    case OP_RECV:
    case OP_IRECV:
      if (rank == 0) {
        MPI_Send(buf, n, MPI_BYTE, 1, 1, comm);
        return;
      }
      wait_for(delay);
      t = MPI_Wtime();
      if (op == OP_RECV) {
        MPI_Recv(buf, n, MPI_BYTE, 0, 1, comm, MPI_STATUS_IGNORE);
        *duration = MPI_Wtime() - t;
      } else {
        MPI_Irecv(buf, n, MPI_BYTE, 0, 1, comm, &req);
        *duration = MPI_Wtime() - t;
        MPI_Wait(&req, MPI_STATUS_IGNORE);
      }
      *start = t - t0;
      return;
    case OP_PINGPONG:
      if (rank == 1) {
        MPI_Recv(buf, n, MPI_BYTE, 0, 1, comm, MPI_STATUS_IGNORE);
        MPI_Send(buf, n, MPI_BYTE, 0, 2, comm);
        return;
      }
      wait_for(delay);
      t = MPI_Wtime();
      MPI_Send(buf, n, MPI_BYTE, 1, 1, comm);
      MPI_Recv(buf, n, MPI_BYTE, 1, 2, comm, MPI_STATUS_IGNORE);
      *duration = MPI_Wtime() - t;
      *start = t - t0;
      return;
    default:
      return;
  }
}

/* Which rank measures op. */
static int measurer(int op) { return op == OP_RECV || op == OP_IRECV ? 1 : 0; }

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Probe one size: probe_reps rows; returns the mode on every rank
 * (0 eager, 1 detached, 2 rendez-vous), decided on rank 0. */
static int probe_size(MPI_Comm comm, int rank, long size, char *buf, const struct options *o, double t0, FILE *out)
{
  int reps = (int)o->probe_reps;
  double *s = calloc((size_t)reps * 3, sizeof *s);
  double *r = s + reps, *p = s + 2 * reps;
  double start;
  for (int i = 0; i < reps; i++) {
    double d = 0;
    /* send with a late receiver */
    MPI_Barrier(comm);
    if (rank == 0) {
      double t = MPI_Wtime();
      MPI_Send(buf, (int)size, MPI_BYTE, 1, 3, comm);
      s[i] = MPI_Wtime() - t;
    } else if (rank == 1) {
      wait_for(o->delay);
      MPI_Recv(buf, (int)size, MPI_BYTE, 0, 3, comm, MPI_STATUS_IGNORE);
    }
    measure(comm, rank, OP_RECV, size, buf, o->delay, t0, &start, &d);
    if (rank == 1)
      MPI_Send(&d, 1, MPI_DOUBLE, 0, 4, comm);
    else if (rank == 0)
      MPI_Recv(&r[i], 1, MPI_DOUBLE, 1, 4, comm, MPI_STATUS_IGNORE);
    measure(comm, rank, OP_PINGPONG, size, buf, o->delay, t0, &start, &p[i]);
  }
  int mode = 0;
  if (rank == 0) {
    for (int i = 0; i < reps; i++)
      fprintf(out, "%ld,%.9g,%.9g,%.9g,%.9g\n", size, o->delay, s[i], r[i], p[i]);
    double ms = median(s, reps), mr = median(r, reps), mp = median(p, reps);
    mode = ms >= o->delay / 2 ? 2 : mr < 0.9 * (mp / 2 - ms) ? 0 : 1;
  }
  free(s);
  MPI_Bcast(&mode, 1, MPI_INT, 0, comm);
  return mode;
}

/* Largest size in [lo, hi] whose mode is <= max_mode, knowing mode(lo) <=
 * max_mode < mode(hi + 1) is what bisection looks for; log-scale midpoints. */
static long bisect(MPI_Comm comm, int rank, long lo, long hi, int max_mode, char *buf, const struct options *o,
                   double t0, FILE *out)
{
  if (probe_size(comm, rank, lo, buf, o, t0, out) > max_mode)
    return lo - 1;
  if (probe_size(comm, rank, hi, buf, o, t0, out) <= max_mode)
    return hi;
  while (hi - lo > 1) {
    long mid = (long)llround(sqrt((double)lo * (double)hi));
    if (mid <= lo)
      mid = lo + 1;
    if (mid >= hi)
      mid = hi - 1;
    if (probe_size(comm, rank, mid, buf, o, t0, out) <= max_mode)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* One one-sided epoch (rma.csv) on ranks 0 and 1 of comm01, over WIN
 * (buf, at least size bytes, on both); rank 0's duration into *duration.
 * OTHER is the group of the other rank. */
static void measure_rma(MPI_Comm comm01, MPI_Win win, MPI_Group other, int rank, int epoch, long size, char *buf,
                        double delay, double *duration)
{
  int n = (int)size;
  MPI_Barrier(comm01);
  if (rank == 1) {
    if (epoch == HNM_BENCH_RMA_FENCE) {
      MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
      MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    } else if (epoch == HNM_BENCH_RMA_PSCW) {
      MPI_Win_post(other, 0, win);
      MPI_Win_wait(win);
    } else {
      MPI_Recv(NULL, 0, MPI_BYTE, 0, 7, comm01, MPI_STATUS_IGNORE);
    }
    return;
  }
  wait_for(delay);
  double t = MPI_Wtime();
  switch (epoch) {
    case HNM_BENCH_RMA_FENCE:
      MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
      MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
      break;
    case HNM_BENCH_RMA_PSCW:
      MPI_Win_start(other, 0, win);
      MPI_Win_complete(win);
      break;
    default:
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
      if (epoch == HNM_BENCH_RMA_LOCKFLUSH)
        MPI_Win_flush(1, win);
      else if (epoch == HNM_BENCH_RMA_LOCKPUT)
        MPI_Put(buf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win);
      else if (epoch == HNM_BENCH_RMA_LOCKGET)
        MPI_Get(buf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win);
      MPI_Win_unlock(1, win);
      break;
  }
  *duration = MPI_Wtime() - t;
  if (epoch != HNM_BENCH_RMA_FENCE && epoch != HNM_BENCH_RMA_PSCW)
    MPI_Send(NULL, 0, MPI_BYTE, 1, 7, comm01);
}

/* The one-sided experiment: every epoch --rma-reps times (put and get at
 * each --rma-sizes), rank 0 writing rma.csv. Ranks other than 0 and 1 only
 * take part in the split. Returns 1 if the file could not be written. */
static int run_rma(MPI_Comm comm, int rank, char *buf, const struct options *o)
{
  MPI_Comm comm01;
  MPI_Comm_split(comm, rank < 2 ? 0 : MPI_UNDEFINED, rank, &comm01);
  if (rank >= 2)
    return 0;
  long wsize = 1;
  for (long i = 0; i < o->nrma; i++)
    if (o->rma_list[i] > wsize)
      wsize = o->rma_list[i];
  /* Some MPI transports have no one-sided support (Open MPI 4.1's osc rdma
   * over btl tcp): then no rma.csv, a note, and the rest of the run stands. */
  MPI_Win win = MPI_WIN_NULL;
  MPI_Comm_set_errhandler(comm01, MPI_ERRORS_RETURN);
  int ok = MPI_Win_create(buf, (MPI_Aint)wsize, 1, MPI_INFO_NULL, comm01, &win) == MPI_SUCCESS, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm01);
  if (!all_ok) {
    if (ok)
      MPI_Win_free(&win);
    if (rank == 0)
      hnm_msg_print(PROG, HNM_MSG_NOTE, "one-sided epochs skipped, MPI_Win_create failed (this MPI has no one-sided "
                                        "support over its transport; with Open MPI over TCP try OMPI_MCA_osc=pt2pt)");
    MPI_Comm_free(&comm01);
    return 0;
  }
  MPI_Group g01, other;
  int peer = 1 - rank;
  MPI_Comm_group(comm01, &g01);
  MPI_Group_incl(g01, 1, &peer, &other);
  struct skel_out out = {0};
  int failed = 0;
  if (rank == 0) {
    skel_out_open(&out, PROG, o->dir, HNM_BENCH_RMA_FILE, HNM_BENCH_RMA_HEADER);
    if (o->progress)
      hnm_msg_print(PROG, HNM_MSG_INFO, "one-sided epochs");
  }
  for (long r = 0; r < o->rma_reps; r++)
    for (int e = 0; e < HNM_BENCH_RMA_EPOCHS; e++) {
      int sized = e == HNM_BENCH_RMA_LOCKPUT || e == HNM_BENCH_RMA_LOCKGET;
      for (long i = 0; i < (sized ? o->nrma : 1); i++) {
        long size = sized ? o->rma_list[i] : 0;
        double d = 0;
        measure_rma(comm01, win, other, rank, e, size, buf, o->delay, &d);
        if (rank == 0)
          fprintf(out.f, "%s,%ld,%.9g\n", rma_names[e], size, d);
      }
    }
  MPI_Group_free(&other);
  MPI_Group_free(&g01);
  MPI_Win_free(&win);
  MPI_Comm_free(&comm01);
  if (rank == 0)
    failed = skel_out_close(&out, PROG) != 0;
  return failed;
}

/* The task list: the same on every rank (same seed), shuffled. NULL when
 * out of memory (*nt_out: the tasks wanted). */
static struct task *calibrate__tasks(const struct options *o, long *nt_out)
{
  int nops = 0;
  for (int k = 0; k < OP_COUNT; k++)
    nops += o->ops[k];
  long nsizes = o->nlist > 0 ? o->nlist : o->sizes;
  long ntasks = nsizes * o->reps * nops;
  struct task *tasks = calloc((size_t)(ntasks > 0 ? ntasks : 1), sizeof *tasks);
  *nt_out = ntasks;
  if (tasks == NULL)
    return NULL;
  uint64_t rng = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)o->seed * 0xBF58476D1CE4E5B9ULL);
  if (rng == 0)
    rng = 1;
  long nt = 0;
  double lmin = log((double)o->min), lmax = log((double)o->max);
  for (long s = 0; s < nsizes; s++) {
    long size = (long)llround(exp(lmin + rng_uniform(&rng) * (lmax - lmin)));
    size = size < o->min ? o->min : size > o->max ? o->max : size;
    if (o->nlist > 0)
      size = o->list[s];
    for (int k = 0; k < OP_COUNT; k++)
      for (long r = 0; o->ops[k] && r < o->reps; r++) {
        tasks[nt].op = k;
        tasks[nt].size = size;
        nt++;
      }
  }
  for (long i = nt - 1; i > 0; i--) { /* Fisher-Yates */
    long j = (long)(rng_next(&rng) % (uint64_t)(i + 1));
    struct task t = tasks[i];
    tasks[i] = tasks[j];
    tasks[j] = t;
  }

  *nt_out = nt;
  return tasks;
}

/* Rank 1's measurements to rank 0, which writes the point-to-point CSV
 * file. Rank 0: 1 if that file could not be written. */
static int calibrate__gather_p2p(MPI_Comm comm, int rank, const struct options *o, struct task *tasks, long nt)
{
  int failed = 0;
  if (rank == 1 || rank == 0) {
    double *v = calloc((size_t)(2 * nt + 1), sizeof *v);
    long m = 0;
    if (rank == 1) {
      for (long i = 0; i < nt; i++)
        if (measurer(tasks[i].op) == 1) {
          v[2 * m] = tasks[i].start;
          v[2 * m + 1] = tasks[i].duration;
          m++;
        }
      MPI_Send(v, (int)(2 * m), MPI_DOUBLE, 0, 5, comm);
    } else {
      for (long i = 0; i < nt; i++)
        m += measurer(tasks[i].op) == 1;
      MPI_Recv(v, (int)(2 * m), MPI_DOUBLE, 1, 5, comm, MPI_STATUS_IGNORE);
      m = 0;
      for (long i = 0; i < nt; i++)
        if (measurer(tasks[i].op) == 1) {
          tasks[i].start = v[2 * m];
          tasks[i].duration = v[2 * m + 1];
          m++;
        }
      struct skel_out out;
      skel_out_open(&out, PROG, o->dir, HNM_BENCH_P2P_FILE, HNM_BENCH_P2P_HEADER);
      for (long i = 0; i < nt; i++)
        fprintf(out.f, "%s,%ld,%.9g,%.9g\n", op_names[tasks[i].op], tasks[i].size, tasks[i].start, tasks[i].duration);
      failed |= skel_out_close(&out, PROG) != 0;
    }
    free(v);
  }

  return failed;
}

/* The contention probe: 1 .. np/2 pairs, one way then both ways. Rank 0:
 * 1 if its CSV file could not be written. */
static int calibrate__contention(MPI_Comm comm, int rank, int np, const struct options *o, char *buf, char *buf2)
{
  int failed = 0;
  struct skel_out out = {0};
  if (rank == 0)
    skel_out_open(&out, PROG, o->dir, HNM_BENCH_CONTENTION_FILE, HNM_BENCH_CONTENTION_HEADER);
  int n = (int)o->cont_size;
  double *d = rank == 0 ? calloc((size_t)np, sizeof *d) : NULL;
  for (int pairs = 1; 2 * pairs <= np; pairs++) {
    if (rank == 0 && o->progress)
      hnm_msg_print(PROG, HNM_MSG_INFO, "contention probe, %d pair(s)", pairs);
    for (int mode = 0; mode < 2; mode++)
      for (long r = 0; r < o->cont_reps; r++) {
        MPI_Barrier(comm);
        double t = MPI_Wtime(), dur = 0;
        if (rank < 2 * pairs) {
          int peer = rank ^ 1;
          if (mode == 1)
            MPI_Sendrecv(buf, n, MPI_BYTE, peer, 6, buf2, n, MPI_BYTE, peer, 6, comm, MPI_STATUS_IGNORE);
          else if (rank % 2 == 0)
            MPI_Send(buf, n, MPI_BYTE, peer, 6, comm);
          else
            MPI_Recv(buf2, n, MPI_BYTE, peer, 6, comm, MPI_STATUS_IGNORE);
          dur = MPI_Wtime() - t;
        }
        MPI_Gather(&dur, 1, MPI_DOUBLE, d, 1, MPI_DOUBLE, 0, comm);
        if (rank == 0)
          for (int k = 0; k < 2 * pairs; k++)
            fprintf(out.f, "%d,%s,%ld,%d,%.9g\n", pairs, mode ? HNM_BENCH_MODE_BI : HNM_BENCH_MODE_UNI, o->cont_size, k, d[k]);
      }
  }
  free(d);
  if (rank == 0)
    failed |= skel_out_close(&out, PROG) != 0;
  return failed;
}

int main(int argc, char **argv)
{
  int rank, np;
  MPI_Comm comm = skel_init(&argc, &argv, &rank, &np);
  struct options o;
  parse_options(argc, argv, &o);
  if (o.pack || o.pack_only) {
    int bad = rank == 0 && calibrate_pack(comm, o.dir, o.pack_reps, o.progress) != 0;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm);
    if (bad || o.pack_only) {
      MPI_Finalize();
      return bad ? 1 : 0;
    }
  }
  if (np < 2)
    skel_fail(comm, PROG, "needs at least 2 ranks (got %d)", np);
  long bufsize = o.max > o.cont_size ? o.max : o.cont_size;
  char *buf = skel_alloc((size_t)bufsize, 1);
  char *buf2 = skel_alloc((size_t)bufsize, 1);
  if (buf == NULL || buf2 == NULL)
    skel_fail(comm, PROG, "cannot allocate %ld bytes", bufsize);
  /* Touch every page now, so that no measurement pays first-touch faults. */
  memset(buf, 1, (size_t)bufsize);
  memset(buf2, 2, (size_t)bufsize);

  long nt = 0;
  struct task *tasks = calibrate__tasks(&o, &nt);
  if (tasks == NULL)
    skel_fail(comm, PROG, "cannot allocate %ld tasks", nt);

  int failed = 0;
  MPI_Barrier(comm);
  double t0 = MPI_Wtime();
  int last_pct = -1;
  for (long i = 0; i < nt; i++) {
    measure(comm, rank, tasks[i].op, tasks[i].size, buf, o.delay, t0, &tasks[i].start, &tasks[i].duration);
    int pct = (int)(100 * (i + 1) / nt);
    if (rank == 0 && o.progress && pct / 5 != last_pct / 5) {
      /* The last one, 100%, stays: a line of its own. */
      hnm_msg_print(PROG, i + 1 == nt ? HNM_MSG_INFO : HNM_MSG_PROGRESS, "point-to-point %3d%% (%ld/%ld)", pct, i + 1,
                    nt);
      last_pct = pct;
    }
  }
  failed |= calibrate__gather_p2p(comm, rank, &o, tasks, nt);

  if (o.probe) {
    struct skel_out out = {0};
    if (rank == 0)
      skel_out_open(&out, PROG, o.dir, HNM_BENCH_PROBE_FILE, HNM_BENCH_PROBE_HEADER);
    if (rank == 0 && o.progress)
      hnm_msg_print(PROG, HNM_MSG_INFO, "protocol probe");
    long detached = bisect(comm, rank, o.min, o.max, 1, buf, &o, t0, out.f);
    long async = detached >= o.min ? bisect(comm, rank, o.min, detached, 0, buf, &o, t0, out.f) : o.min - 1;
    if (rank == 0) {
      if (o.progress)
        hnm_msg_print(PROG, HNM_MSG_INFO, "largest eager size %ld, largest detached size %ld (%s)", async, detached,
                      "below --min means none");
      failed |= skel_out_close(&out, PROG) != 0;
    }
  }

  if (o.contention)
    failed |= calibrate__contention(comm, rank, np, &o, buf, buf2);
  if (o.rma)
    failed |= run_rma(comm, rank, buf, &o);
  MPI_Bcast(&failed, 1, MPI_INT, 0, comm);
  free(tasks);
  free(o.list);
  free(o.rma_list);
  skel_free(buf, 1);
  skel_free(buf2, 1);
  if (failed)
    skel_fail(comm, PROG, "could not write the CSV files into '%s'", o.dir);
  MPI_Finalize();
  return 0;
}
