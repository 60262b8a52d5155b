/* multipath -- move a communication pattern directly or along hnm-route's
 * path splits, forwarding through intermediate ranks (Bui et al. 2015, OPTIQ's
 * "schedule" and "transport"). docs/multipath.md.
 *
 *   multipath --paths FILE [--method direct|default|heuristic|lp] [--chunk BYTES]
 *             [--verify] [--no-payload] [--no-barrier]
 *
 * FILE is hnm-route's --paths output (lines "METHOD SRC DST BYTES HOPS DIRS
 * RANK0 .. RANKH"). Ranks are MPI ranks of MPI_COMM_WORLD; run with one rank
 * per node of the partition (hnm-platform bgq's hostfile).
 *
 *   direct     every pair of the "default" lines in one message SRC -> DST
 *              (the network routes it: BG/Q's or SimGrid's default route);
 *   METHOD     every path of METHOD's lines hop by hop: the bytes of a path
 *              (rounded down to whole bytes, the pair's remainder on its first
 *              path) are cut into chunks of --chunk bytes (default 128KiB, the
 *              paper's choice for subset patterns); every rank of the path
 *              receives chunk c from its predecessor and forwards it to its
 *              successor while receiving chunk c + 1 (two buffers per path).
 *              Per path and hop one chunk is in flight at a time, so a path
 *              of H hops carrying n chunks takes (n + H - 1) chunk times when
 *              it has its links to itself.
 *
 * Every rank reads the file and keeps the paths it is on. The time is from
 * skel_sync's common start (skel.h: the same simulated instant on every
 * rank under SMPI, params sync=window; an MPI_Barrier with a real MPI,
 * sync=barrier), or with --no-barrier from the rank's own start (sync=none),
 * to the rank's last completion, the maximum over ranks, in the
 * skeletons' CSV (skel.h): multipath,move,METHOD,procs,params,0,messages,time_s,
 * messages counting every chunk sent on every hop. --verify fills the data
 * with a pattern of (src, dst, byte offset) and checks it on arrival.
 *
 * No mutable global state: runs under SMPI with privatization off.
 */
#define _POSIX_C_SOURCE 200809L
#include "skel.h"
#include "hnm_error.h"
#include "hnm_input.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "multipath"

/* The part of one path a rank takes part in. */
typedef struct {
  int tag;            /* path number in the file's METHOD lines */
  int prev, next;     /* neighbours on the path, -1 at the ends */
  int src, dst;       /* the pair */
  long long offset;   /* first byte of the pair's data this path carries */
  long long bytes;
  long nchunks;
  long recvd, sent;   /* chunks received (or produced, at the source), sent */
  char *buf[2];       /* chunk c lives in buf[c % 2] */
  MPI_Request req[2]; /* 0: receive, 1: send */
} mp_task;

typedef struct {
  const char *paths, *method;
  long chunk;
  int verify, payload, barrier;
} mp_opts;

static unsigned char mp_byte(int src, int dst, long long off)
{
  return (unsigned char)((unsigned)src * 31u + (unsigned)dst * 17u + (unsigned)(off % 251));
}

static long long mp_chunk_bytes(const mp_task *t, long c, long chunk)
{
  long long start = (long long)c * chunk, left = t->bytes - start;
  return left < chunk ? left : chunk;
}

/* A path line: "METHOD SRC DST BYTES HOPS DIRS RANK0 .. RANKH". */
typedef struct {
  char method[32];
  int src, dst, hops;
  double bytes;
} mp_line;

/* Parse LINE (number LN of o->paths) into *L and its HOPS + 1 ranks (at
 * most 1001) into RANKS: 0, or -1 with why. */
static int mp_parse(const mp_opts *o, const char *line, long ln, int procs, mp_line *l, int *ranks, char *why,
                    size_t whylen)
{
  char dirs[2048];
  int pos = 0;
  if (sscanf(line, "%31s %d %d %lf %d %2047s%n", l->method, &l->src, &l->dst, &l->bytes, &l->hops, dirs, &pos) != 6 ||
      l->hops < 1 || l->hops > 1000 || l->src < 0 || l->dst < 0 || !(l->bytes >= 0 && l->bytes <= 0x1p53)) {
    hnm_errf(why, whylen, "%s:%ld: not a path line (METHOD SRC DST BYTES HOPS DIRS RANKS)", o->paths, ln);
    return -1;
  }
  if (l->src >= procs || l->dst >= procs) {
    hnm_errf(why, whylen, "%s:%ld: rank %d, but only %d ranks run", o->paths, ln, l->src >= procs ? l->src : l->dst,
             procs);
    return -1;
  }
  const char *p = line + pos;
  for (int i = 0; i <= l->hops; i++) {
    char *end;
    long r = strtol(p, &end, 10);
    if (end == p || r < 0 || r >= procs) {
      hnm_errf(why, whylen, "%s:%ld: ranks: %d ranks expected, each below %d", o->paths, ln, l->hops + 1, procs);
      return -1;
    }
    ranks[i] = (int)r;
    p = end;
  }
  return 0;
}

/* Add this rank's part of path L (its ranks in RANKS) to *V (N of CAP),
 * PAIR_OFF the pair's bytes before it: 0, or -1 out of memory. */
static int mp_add(const mp_opts *o, int direct, int rank, long npaths, long long pair_off, const mp_line *l,
                  int *ranks, mp_task **v, long *n, long *cap)
{
  long long whole = (long long)floor(l->bytes + 0.5);
  int first = -1, last = l->hops;
  if (direct) {
    ranks[1] = l->dst;
    last = 1;
  }
  for (int i = 0; i <= last; i++)
    if (ranks[i] == rank)
      first = i;
  if (first < 0)
    return 0;
  if (*n == *cap) {
    long nc = *cap ? 2 * *cap : 64;
    mp_task *nv = realloc(*v, sizeof *nv * (size_t)nc);
    if (nv == NULL)
      return -1;
    *v = nv;
    *cap = nc;
  }
  mp_task *t = &(*v)[(*n)++];
  memset(t, 0, sizeof *t);
  t->tag = (int)npaths;
  t->prev = first > 0 ? ranks[first - 1] : -1;
  t->next = first < last ? ranks[first + 1] : -1;
  t->src = l->src;
  t->dst = l->dst;
  t->offset = pair_off;
  t->bytes = whole;
  t->nchunks = whole == 0 ? 0 : (long)((whole + o->chunk - 1) / o->chunk);
  t->req[0] = t->req[1] = MPI_REQUEST_NULL;
  return 0;
}

/* Read FILE and keep the tasks of this rank. direct: the default lines as
 * one-hop tasks SRC -> DST. Returns the number of tasks (*out allocated), or
 * calls skel_fail. FILE is read as hnm-route reads its pattern file
 * (core/hnm_input.h): a regular file only (a named pipe or a device is
 * refused without blocking), lines of at most 64 KiB, no NUL byte, every
 * line ended: /dev/zero or a sparse file of a gigabyte ends in one line,
 * after 64 KiB of memory, at the first bad line. */
static long mp_read(MPI_Comm comm, const mp_opts *o, int rank, int procs, mp_task **out, long *npaths_out)
{
  const char *want = strcmp(o->method, "direct") == 0 ? "default" : o->method;
  int direct = strcmp(o->method, "direct") == 0;
  mp_task *v = NULL;
  long n = 0, cap = 0, npaths = 0, len;
  int prev_src = -1, prev_dst = -1;
  long long pair_off = 0;
  int *ranks = malloc(sizeof(int) * 1024);
  char why[512] = "";
  hnm_input_lines r = {0};
  int ok = ranks != NULL;

  if (!ok)
    hnm_errf(why, sizeof why, "out of memory");
  else if (hnm_input_lines_open(&r, o->paths, why, sizeof why) != 0)
    ok = 0;
  while (ok && (len = hnm_input_lines_next(&r, why, sizeof why)) != -1) {
    mp_line l;
    if (len == -2) {
      ok = 0;
      break;
    }
    if (r.line[0] == '#' || r.line[0] == '\0')
      continue;
    if (mp_parse(o, r.line, r.ln, procs, &l, ranks, why, sizeof why) != 0) {
      ok = 0;
      break;
    }
    if (strcmp(l.method, want) != 0)
      continue;
    if (l.src != prev_src || l.dst != prev_dst)
      pair_off = 0;
    prev_src = l.src;
    prev_dst = l.dst;
    if (mp_add(o, direct, rank, npaths, pair_off, &l, ranks, &v, &n, &cap) != 0) {
      hnm_errf(why, sizeof why, "out of memory");
      ok = 0;
      break;
    }
    pair_off += (long long)floor(l.bytes + 0.5);
    npaths++;
  }
  hnm_input_lines_close(&r);
  free(ranks);
  /* Every rank reads the same file and checks it the same way (nothing here
   * depends on the rank), so all ranks fail together, as skel_fail needs,
   * without a collective: a run with --no-barrier starts the movement at the
   * same instant on every rank. */
  if (!ok)
    skel_fail(comm, PROG, "%s", why);
  if (npaths == 0)
    skel_fail(comm, PROG, "%s: no '%s' line", o->paths, want);
  *out = v;
  *npaths_out = npaths;
  return n;
}

/* Fill chunk c of t for sending (the source) with the pattern. */
static void mp_fill(mp_task *t, long c, long chunk)
{
  long long len = mp_chunk_bytes(t, c, chunk), base = t->offset + (long long)c * chunk;
  for (long long i = 0; i < len; i++)
    t->buf[c % 2][i] = (char)mp_byte(t->src, t->dst, base + i);
}

static long mp_check(const mp_task *t, long c, long chunk)
{
  long long len = mp_chunk_bytes(t, c, chunk), base = t->offset + (long long)c * chunk;
  long bad = 0;
  for (long long i = 0; i < len; i++)
    bad += (unsigned char)t->buf[c % 2][i] != mp_byte(t->src, t->dst, base + i);
  return bad;
}

/* Start what task t can start now: a receive of the next chunk when a
 * buffer is free, a send of the oldest chunk held when none is in flight. */
static void mp_start(MPI_Comm comm, mp_task *t, long chunk, int verify, long *messages)
{
  if (t->req[0] == MPI_REQUEST_NULL && t->prev >= 0 && t->recvd < t->nchunks && t->recvd - t->sent < 2) {
    char *b = t->buf[t->recvd % 2];
    MPI_Irecv(b, (int)mp_chunk_bytes(t, t->recvd, chunk), MPI_CHAR, t->prev, t->tag, comm, &t->req[0]);
  }
  if (t->prev < 0)
    while (t->recvd < t->nchunks && t->recvd - t->sent < 1) { /* the source produces chunk by chunk */
      if (verify)
        mp_fill(t, t->recvd, chunk);
      t->recvd++;
    }
  if (t->req[1] == MPI_REQUEST_NULL && t->next >= 0 && t->sent < t->recvd) {
    MPI_Isend(t->buf[t->sent % 2], (int)mp_chunk_bytes(t, t->sent, chunk), MPI_CHAR, t->next, t->tag, comm,
              &t->req[1]);
    (*messages)++;
  }
}

int main(int argc, char **argv)
{
  MPI_Comm comm = MPI_COMM_WORLD;
  mp_opts o = {NULL, "lp", 128 * 1024, 0, 1, 1};
  mp_task *tasks = NULL;
  MPI_Request *reqs;
  long ntasks, npaths, messages = 0, bad = 0, active;
  int rank, procs, tag_ub_ok = 1;
  char params[512];
  double t0, elapsed;

  skel_init(&argc, &argv, &rank, &procs);
  static const char *const methods[] = {"direct", "default", "heuristic", "lp"};
  int method = 3, no_barrier = 0, no_payload = 0;
  const struct hnm_opt opts[] = {
    {.name = "paths", .kind = HNM_OPT_STRING, .arg = "FILE", .help = "hnm-route's path file (hnm-route --paths FILE writes it)", .value = &o.paths},
    {.name = "method", .kind = HNM_OPT_CHOICE, .arg = "M", .def = "lp", .unit = "direct|default|heuristic|lp", .help = "'direct' sends each pair of the default lines in one message; default, heuristic or lp\n"
       "forward every path of those lines hop by hop through the intermediate ranks", .value = &method},
    {.name = "chunk", .kind = HNM_OPT_LONG, .arg = "BYTES", .def = "131072", .unit = "bytes", .help = "chunk of the hop-by-hop forwarding", .value = &o.chunk, .min = 1, .max = INT_MAX},
    {.name = "verify", .kind = HNM_OPT_FLAG, .help = "fill the data with a pattern of (src, dst, byte offset) and check it on arrival", .value = &o.verify},
    {.name = "no-payload", .kind = HNM_OPT_FLAG, .help = "no real buffers (timing only); not with --verify", .value = &no_payload},
    {.name = "no-barrier", .kind = HNM_OPT_FLAG, .help = "start without a barrier (under SMPI every rank starts at time 0, so\n"
       "the time is exactly the movement's; with a real MPI it then includes start skew)", .value = &no_barrier},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    PROG, "--paths FILE [OPTIONS]",
    "Moves the pattern of hnm-route's path file along its path splits.",
    "Run one rank per node (hnm-platform bgq's hostfile). Prints the skeletons' CSV.\n"
    "Under smpirun use -h: SimGrid takes --help.\n",
    NULL, 0, NULL};
  skel_options(comm, &cmd, opts, argc, argv);
  o.method = methods[method];
  o.barrier = !no_barrier;
  o.payload = !no_payload;
  if (o.paths == NULL)
    skel_option_fail(comm, PROG, "--paths", "missing (hnm-route --paths FILE writes it)");
  if (o.verify && !o.payload)
    skel_option_fail(comm, PROG, "--verify", "needs the payload (drop --no-payload)");
  if (strcmp(o.method, "direct") == 0)
    o.chunk = INT_MAX; /* one message per pair */

  ntasks = mp_read(comm, &o, rank, procs, &tasks, &npaths);
  {
    int *ub, flag;
    MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &flag);
    tag_ub_ok = !flag || npaths - 1 <= *ub;
  }
  if (!tag_ub_ok)
    skel_fail(comm, PROG, "%s: %ld paths, more than MPI_TAG_UB + 1", o.paths, npaths);
  for (long i = 0; i < ntasks; i++) {
    long long len = tasks[i].bytes < o.chunk ? tasks[i].bytes : o.chunk;
    for (int b = 0; b < 2; b++) {
      tasks[i].buf[b] = skel_alloc((size_t)len, o.payload);
      if (tasks[i].buf[b] == NULL)
        skel_fail(comm, PROG, "out of memory");
    }
  }
  reqs = malloc(sizeof *reqs * (size_t)(2 * ntasks + 1));
  if (reqs == NULL)
    skel_fail(comm, PROG, "out of memory");

  /* With the barrier: the common start of skel_sync (skel.h; under SMPI
   * every rank starts at the same simulated instant). Without: every rank
   * starts when it gets here (time 0 under SMPI). */
  struct skel_batch *batch = skel_batch_new(comm, o.barrier ? NULL : "none");
  if (batch == NULL)
    skel_fail(comm, PROG, "out of memory");
  t0 = o.barrier ? skel_sync(comm, batch) : MPI_Wtime();
  for (long i = 0; i < ntasks; i++)
    mp_start(comm, &tasks[i], o.chunk, o.verify, &messages);
  for (;;) {
    int idx;
    MPI_Status st;
    active = 0;
    for (long i = 0; i < ntasks; i++) {
      reqs[2 * i] = tasks[i].req[0];
      reqs[2 * i + 1] = tasks[i].req[1];
      active += tasks[i].req[0] != MPI_REQUEST_NULL || tasks[i].req[1] != MPI_REQUEST_NULL;
    }
    if (active == 0)
      break;
    MPI_Waitany((int)(2 * ntasks), reqs, &idx, &st);
    if (idx == MPI_UNDEFINED)
      break;
    mp_task *t = &tasks[idx / 2];
    t->req[idx % 2] = MPI_REQUEST_NULL;
    if (idx % 2 == 0) {
      if (t->next < 0 && o.verify)
        bad += mp_check(t, t->recvd, o.chunk);
      t->recvd++;
      if (t->next < 0)
        t->sent = t->recvd; /* the destination keeps nothing */
    } else {
      t->sent++;
    }
    mp_start(comm, t, o.chunk, o.verify, &messages);
  }
  elapsed = MPI_Wtime() - t0;

  snprintf(params, sizeof params, "paths=%ld;chunk=%ld%s", npaths, strcmp(o.method, "direct") ? o.chunk : 0L,
           o.payload ? "" : ";no-payload");
  skel_csv_header(comm);
  skel_batch_add(batch, PROG, "move", o.method, params, 0, NULL, messages, elapsed);
  skel_batch_report(comm, batch, PROG);
  skel_batch_free(batch);
  if (o.verify) {
    long allbad = 0;
    MPI_Reduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, 0, comm);
    if (rank == 0)
      printf("verify: %s (%ld wrong bytes)\n", allbad == 0 ? "ok" : "FAILED", allbad);
  }
  for (long i = 0; i < ntasks; i++) {
    skel_free(tasks[i].buf[0], o.payload);
    skel_free(tasks[i].buf[1], o.payload);
  }
  free(tasks);
  free(reqs);
  MPI_Finalize();
  return 0;
}
