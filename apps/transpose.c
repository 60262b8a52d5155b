/* transpose -- skeleton of the transpositions of a spectral transform
 * (Zheng & Marguinaud 2018, Section 3.1, Figure 3, Tables 2-3).
 *
 * A 3D field of nx x ny x nz doubles lives on a cx x cy process grid; rank
 * r is the process (px, py) = (r mod cx, r / cx). The field goes through
 * the four partitions of Figure 3 (lo..hi below are skel_block() parts):
 *
 *   (a) grid      x by cx (px), y by cy (py), z whole
 *   (b) yz        y by cy (py), z by cx (px), x whole
 *   (c) xz        x by cy (py), z by cx (px), y whole
 *   (d) spectral  x by cy (py), y by cx (px), z whole
 *
 * and back, six transpositions per iteration, each a set of simultaneous
 * alltoallv inside sub-communicators of the process grid:
 *
 *   grid_to_yz      a -> b  cy "xz slab" transpositions: the rows of the
 *                           process grid (same py, n = cx ranks): x is
 *                           gathered, z is distributed
 *   yz_to_xz        b -> c  cx "xy slab" transpositions: the columns (same
 *                           px, n = cy ranks): y gathered, x distributed
 *   xz_to_spectral  c -> d  cy "yz slab" transpositions: the rows again:
 *                           z gathered, y distributed
 *   spectral_to_xz, xz_to_yz, yz_to_grid: the same three in reverse.
 *
 * Every process owns a non-empty box in every partition, which needs
 * cx <= min(nx, ny, nz) and cy <= min(nx, ny) (the paper's "cx or cy not
 * greater than the number of grid points in the corresponding direction",
 * applied to all four partitions); so every block of every alltoallv is
 * non-empty. Block sizes are a function of the decomposition only, so each
 * rank knows every block size without exchanging counts.
 *
 * Algorithms (--algo), for a sub-communicator of n ranks, rank i:
 *   mpi       the library's MPI_Alltoallv
 *   burst     all MPI_Irecv then all MPI_Isend, one MPI_Waitall
 *   bruck     ceil(log2 n) stages; stage s sends to i + 2^s, in one message,
 *             every block whose relative destination (dst - i mod n) has
 *             bit s set, packed in increasing relative destination; a block
 *             received at the stage of its highest set bit has arrived and
 *             goes straight to the receive buffer, others wait in a slot
 *   ring      ring-k (--k): stage s = 1.. ceil((n-1)/k) sends to
 *             i+1+(s-1)k .. i+sk and receives from i-1-(s-1)k .. i-sk (mod n)
 *   pairwise  n-1 stages of one exchange: partner i XOR s when n is a power
 *             of two, else send to i+s and receive from i-s (mod n)
 * The block a rank keeps for itself is a local copy, never a message.
 *
 * Output: one CSV line (skel_batch) per transposition per iteration:
 * stages is the algorithm's number of communication stages for the
 * sub-communicator size n of that transposition (burst: 1, bruck:
 * ceil(log2 n), ring-k: ceil((n-1)/k), pairwise: n-1; 0 for all when n = 1),
 * stage_times_s the time of each (max over ranks); messages the point-to-
 * point messages posted by all ranks: n(n-1) per sub-communicator for burst,
 * ring and pairwise, n ceil(log2 n) for bruck. mpi reports 0 stages and 0
 * messages: what the library does inside is not visible. The time is from
 * the common start skel_sync(MPI_COMM_WORLD) sets (skel.h: the same
 * simulated instant on every rank under SMPI, the rank's exit of an
 * MPI_Barrier with a real MPI) to the end of the rank's alltoallv; packing the send
 * buffer before and unpacking the receive buffer after are not timed
 * (bruck's per-stage packing is part of the algorithm and is timed).
 *
 * No mutable global state (runs with SMPI privatization off).
 */
#include "skel.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "transpose"

/* Table 3 of Zheng & Marguinaud 2018: 28800 x 14400 x 256 (0.0125 degree, > 1e11 points). */
#define DEFAULT_NX 28800L
#define DEFAULT_NY 14400L
#define DEFAULT_NZ 256L
/* Largest grid whose global indices are exact in a double (2^53). */
#define MAX_POINTS 9007199254740992.0

enum layout { L_GRID, L_YZ, L_XZ, L_SPECTRAL };
enum algo { A_MPI, A_BURST, A_BRUCK, A_RING, A_PAIRWISE };

/* One transposition of Figure 3: from one partition to the next, inside the
 * rows (same py) or the columns (same px) of the process grid. */
struct xpose {
  const char *name;
  enum layout from, to;
  int rows;
};

static const struct xpose XPOSES[6] = {
    {"grid_to_yz", L_GRID, L_YZ, 1},         {"yz_to_xz", L_YZ, L_XZ, 0},
    {"xz_to_spectral", L_XZ, L_SPECTRAL, 1}, {"spectral_to_xz", L_SPECTRAL, L_XZ, 1},
    {"xz_to_yz", L_XZ, L_YZ, 0},             {"yz_to_grid", L_YZ, L_GRID, 1},
};

/* A box of grid points: [lo[d], lo[d] + n[d]) in direction d (0 = x). */
struct box {
  long lo[3], n[3];
};

struct decomp {
  long nx, ny, nz;
  int cx, cy;
  int px, py; /* this rank's place in the process grid */
};

struct opts {
  long nx, ny, nz;
  int cx, cy;
  enum algo algo;
  long k;
  long iterations;
  int verify, payload;
};

/* The sizes of one transposition on this rank, in doubles, indexed by the
 * rank in the sub-communicator. */
struct plan {
  const struct decomp *d;
  const struct xpose *t;
  MPI_Comm comm;
  int n, me;
  long *scount, *sdispl, *rcount, *rdispl;
};

/* ------------------------------------------------------------------ boxes */

static struct box layout_box(const struct decomp *d, enum layout l, int px, int py)
{
  struct box b;
  long whole[3] = {d->nx, d->ny, d->nz};
  for (int i = 0; i < 3; i++) {
    b.lo[i] = 0;
    b.n[i] = whole[i];
  }
  /* The dimensions (0 x, 1 y, 2 z) a layout cuts: over the cx parts (by
   * px), over the cy parts (by py); the third stays whole. */
  static const int cut[][2] = {[L_GRID] = {0, 1}, [L_YZ] = {2, 1}, [L_XZ] = {2, 0}, [L_SPECTRAL] = {1, 0}};
  int ix = cut[l][0], iy = cut[l][1];
  skel_block(whole[ix], d->cx, px, &b.lo[ix], &b.n[ix]);
  skel_block(whole[iy], d->cy, py, &b.lo[iy], &b.n[iy]);
  return b;
}

static long box_volume(const struct box *b)
{
  return b->n[0] * b->n[1] * b->n[2];
}

static struct box box_intersect(const struct box *a, const struct box *b)
{
  struct box r;
  for (int i = 0; i < 3; i++) {
    long lo = a->lo[i] > b->lo[i] ? a->lo[i] : b->lo[i];
    long ha = a->lo[i] + a->n[i], hb = b->lo[i] + b->n[i];
    long hi = ha < hb ? ha : hb;
    r.lo[i] = lo;
    r.n[i] = hi > lo ? hi - lo : 0;
  }
  return r;
}

/* The box of member m of this rank's sub-communicator in layout l. */
static struct box member_box(const struct plan *p, enum layout l, int m)
{
  const struct decomp *d = p->d;
  return p->t->rows ? layout_box(d, l, m, d->py) : layout_box(d, l, d->px, m);
}

/* Doubles that member src sends to member dst (both mod n). */
static long block_count(const struct plan *p, int src, int dst)
{
  src = ((src % p->n) + p->n) % p->n;
  dst = ((dst % p->n) + p->n) % p->n;
  struct box a = member_box(p, p->t->from, src), b = member_box(p, p->t->to, dst);
  struct box c = box_intersect(&a, &b);
  return box_volume(&c);
}

/* Copy sub-box sub of array a (box outer, x fastest) to the contiguous c
 * (to_contig) or back, x fastest within sub. */
static void box_copy(double *a, const struct box *outer, const struct box *sub, double *c, int to_contig)
{
  size_t run = (size_t)sub->n[0], off = 0;
  for (long k = 0; k < sub->n[2]; k++)
    for (long j = 0; j < sub->n[1]; j++) {
      size_t ai = (size_t)(sub->lo[0] - outer->lo[0]) +
                  (size_t)outer->n[0] * ((size_t)(sub->lo[1] + j - outer->lo[1]) +
                                         (size_t)outer->n[1] * (size_t)(sub->lo[2] + k - outer->lo[2]));
      if (to_contig)
        memcpy(c + off, a + ai, run * sizeof(double));
      else
        memcpy(a + ai, c + off, run * sizeof(double));
      off += run;
    }
}

static long global_index(const struct decomp *d, long i, long j, long k)
{
  return i + d->nx * (j + d->ny * k);
}

static void box_fill(const struct decomp *d, double *a, const struct box *b)
{
  size_t idx = 0;
  for (long k = 0; k < b->n[2]; k++)
    for (long j = 0; j < b->n[1]; j++)
      for (long i = 0; i < b->n[0]; i++)
        a[idx++] = (double)global_index(d, b->lo[0] + i, b->lo[1] + j, b->lo[2] + k);
}

/* Index in a of the first element that is not its global index, or -1. */
static long box_check(const struct decomp *d, const double *a, const struct box *b)
{
  size_t idx = 0;
  for (long k = 0; k < b->n[2]; k++)
    for (long j = 0; j < b->n[1]; j++)
      for (long i = 0; i < b->n[0]; i++, idx++)
        if (a[idx] != (double)global_index(d, b->lo[0] + i, b->lo[1] + j, b->lo[2] + k))
          return (long)idx;
  return -1;
}

/* ------------------------------------------------------------- algorithms */

static int ceil_log2(int n)
{
  int s = 0;
  while ((1L << s) < n)
    s++;
  return s;
}

/* Communication stages of algorithm a for n ranks (0 when n = 1; 0 for
 * the library's MPI_Alltoallv, whose stages are not visible). */
static int algo_stages(enum algo a, int n, long k)
{
  if (n <= 1)
    return 0;
  switch (a) {
  case A_MPI:
    return 0;
  case A_BURST:
    return 1;
  case A_BRUCK:
    return ceil_log2(n);
  case A_RING:
    return (int)skel_ceil_div(n - 1, k);
  case A_PAIRWISE:
    return n - 1;
  }
  return 0;
}

static void self_copy(const struct plan *p, const double *sbuf, double *rbuf, int payload)
{
  if (payload)
    memcpy(rbuf + p->rdispl[p->me], sbuf + p->sdispl[p->me], (size_t)p->scount[p->me] * sizeof(double));
}

/* Post the receive from member src and the send to member dst. */
static void post_pair(const struct plan *p, const double *sbuf, double *rbuf, int src, int dst, MPI_Request *req,
                      int *nreq, long *messages)
{
  MPI_Irecv(rbuf + p->rdispl[src], (int)p->rcount[src], MPI_DOUBLE, src, 0, p->comm, &req[(*nreq)++]);
  MPI_Isend(sbuf + p->sdispl[dst], (int)p->scount[dst], MPI_DOUBLE, dst, 0, p->comm, &req[(*nreq)++]);
  (*messages)++;
}

/* Bruck buffers, sized before the timed region. Slot j (relative
 * destination j) holds a block between two stages. */
struct bruck {
  double *stage_send, *stage_recv, *slots;
  long *slot_off;
  const double **cur; /* where position j's block is now */
  long *cur_n;
  int payload;
};

/* Size of the block at position j (relative destination) at rank i after
 * stages 0..s-1 (bit = 2^s): it left rank src = i - (j mod 2^s) for src + j. */
static long bruck_block(const struct plan *p, int i, int j, long bit)
{
  int src = i - (int)(j % bit);
  return block_count(p, src, src + j);
}

static int bruck_setup(const struct plan *p, struct bruck *b, int payload)
{
  int n = p->n, i = p->me;
  long send_max = 1, recv_max = 1, slot_total = 0;
  memset(b, 0, sizeof *b);
  b->payload = payload;
  b->slot_off = calloc((size_t)n, sizeof(long));
  b->cur = calloc((size_t)n, sizeof(double *));
  b->cur_n = calloc((size_t)n, sizeof(long));
  if (b->slot_off == NULL || b->cur == NULL || b->cur_n == NULL)
    return -1;
  for (long bit = 1; bit < n; bit <<= 1) {
    long ssum = 0, rsum = 0;
    for (int j = 1; j < n; j++)
      if (j & bit) {
        ssum += bruck_block(p, i, j, bit);
        rsum += bruck_block(p, i, j, bit << 1);
      }
    send_max = ssum > send_max ? ssum : send_max;
    recv_max = rsum > recv_max ? rsum : recv_max;
  }
  /* Slot j holds, between stages, a block received at a stage below j's
   * highest bit: its capacity is the largest of those. */
  for (int j = 1; j < n; j++) {
    long cap = 0;
    b->slot_off[j] = slot_total;
    for (long bit = 1; (bit << 1) <= j; bit <<= 1)
      if (j & bit) {
        long c = bruck_block(p, i, j, bit << 1);
        cap = c > cap ? c : cap;
      }
    slot_total += cap;
  }
  if (send_max > INT_MAX || recv_max > INT_MAX)
    return -1;
  b->stage_send = skel_alloc((size_t)send_max * sizeof(double), payload);
  b->stage_recv = skel_alloc((size_t)recv_max * sizeof(double), payload);
  b->slots = skel_alloc((size_t)slot_total * sizeof(double), payload);
  return b->stage_send && b->stage_recv && b->slots ? 0 : -1;
}

static void bruck_release(struct bruck *b)
{
  skel_free(b->stage_send, b->payload);
  skel_free(b->stage_recv, b->payload);
  skel_free(b->slots, b->payload);
  free(b->slot_off);
  free((void *)b->cur);
  free(b->cur_n);
}

static void bruck_run(const struct plan *p, struct bruck *b, const double *sbuf, double *rbuf, double *stage_s,
                      double t0, long *messages)
{
  int n = p->n, i = p->me, s = 0;
  double tprev = t0;
  for (int j = 0; j < n; j++) {
    int dst = (i + j) % n;
    b->cur[j] = sbuf + p->sdispl[dst];
    b->cur_n[j] = p->scount[dst];
  }
  self_copy(p, sbuf, rbuf, b->payload);
  for (long bit = 1; bit < n; bit <<= 1, s++) {
    long soff = 0, roff = 0;
    for (int j = 1; j < n; j++)
      if (j & bit) {
        if (b->payload)
          memcpy(b->stage_send + soff, b->cur[j], (size_t)b->cur_n[j] * sizeof(double));
        soff += b->cur_n[j];
        roff += bruck_block(p, i, j, bit << 1);
      }
    MPI_Request req[2];
    int to = (int)((i + bit) % n), from = (int)((i - bit + n) % n);
    MPI_Irecv(b->stage_recv, (int)roff, MPI_DOUBLE, from, 0, p->comm, &req[0]);
    MPI_Isend(b->stage_send, (int)soff, MPI_DOUBLE, to, 0, p->comm, &req[1]);
    (*messages)++;
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    roff = 0;
    for (int j = 1; j < n; j++)
      if (j & bit) {
        long c = bruck_block(p, i, j, bit << 1);
        double *dest;
        if (j < 2 * bit) /* bit is j's highest: the block has arrived */
          dest = rbuf + p->rdispl[(i - j + n) % n];
        else
          dest = b->slots + b->slot_off[j];
        if (b->payload)
          memcpy(dest, b->stage_recv + roff, (size_t)c * sizeof(double));
        b->cur[j] = dest;
        b->cur_n[j] = c;
        roff += c;
      }
    double t = MPI_Wtime();
    stage_s[s] = t - tprev;
    tprev = t;
  }
}

/* Run the alltoallv of plan p with o->algo; fills stage_s (one entry per
 * stage, timed from t0) and counts the messages this rank posts. Returns the
 * time from t0 to the end. */
static double alltoallv(const struct plan *p, const struct opts *o, const double *sbuf, double *rbuf,
                        struct bruck *br, double *stage_s, long *messages, double t0)
{
  int n = p->n, i = p->me;
  int nstages = algo_stages(o->algo, n, o->k);
  switch (o->algo) {
  case A_MPI: {
    int *sc = malloc(sizeof(int) * 4 * (size_t)n);
    for (int m = 0; m < n; m++) {
      sc[m] = (int)p->scount[m];
      sc[n + m] = (int)p->sdispl[m];
      sc[2 * n + m] = (int)p->rcount[m];
      sc[3 * n + m] = (int)p->rdispl[m];
    }
    MPI_Alltoallv(sbuf, sc, sc + n, MPI_DOUBLE, rbuf, sc + 2 * n, sc + 3 * n, MPI_DOUBLE, p->comm);
    free(sc);
    break;
  }
  case A_BURST: {
    MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * (size_t)n);
    int nreq = 0;
    self_copy(p, sbuf, rbuf, o->payload);
    for (int off = 1; off < n; off++)
      post_pair(p, sbuf, rbuf, (i - off + n) % n, (i + off) % n, req, &nreq, messages);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    free(req);
    break;
  }
  case A_BRUCK:
    bruck_run(p, br, sbuf, rbuf, stage_s, t0, messages);
    break;
  case A_RING: {
    long k = o->k < n - 1 ? o->k : n - 1;
    MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * (size_t)(k > 0 ? k : 1));
    double tprev = t0;
    self_copy(p, sbuf, rbuf, o->payload);
    for (int s = 1; s <= nstages; s++) {
      int nreq = 0;
      for (long off = 1 + (long)(s - 1) * k; off <= (long)s * k && off < n; off++)
        post_pair(p, sbuf, rbuf, (int)((i - off + n) % n), (int)((i + off) % n), req, &nreq, messages);
      MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
      double t = MPI_Wtime();
      stage_s[s - 1] = t - tprev;
      tprev = t;
    }
    free(req);
    break;
  }
  case A_PAIRWISE: {
    int pow2 = (n & (n - 1)) == 0;
    double tprev = t0;
    self_copy(p, sbuf, rbuf, o->payload);
    for (int s = 1; s < n; s++) {
      MPI_Request req[2];
      int nreq = 0;
      int src = pow2 ? i ^ s : (i - s + n) % n, dst = pow2 ? i ^ s : (i + s) % n;
      post_pair(p, sbuf, rbuf, src, dst, req, &nreq, messages);
      MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
      double t = MPI_Wtime();
      stage_s[s - 1] = t - tprev;
      tprev = t;
    }
    break;
  }
  }
  double t1 = MPI_Wtime();
  if (o->algo == A_BURST && nstages == 1)
    stage_s[0] = t1 - t0;
  return t1 - t0;
}

/* ------------------------------------------------------------------ driver */

static void parse(MPI_Comm comm, int argc, char **argv, struct opts *o)
{
  int procs, algo = A_RING, no_payload = 0;
  double scale = 1;
  long nx = -1, ny = -1, nz = -1, cx = 0, cy = 0, k = 0;
  MPI_Comm_size(comm, &procs);
  memset(o, 0, sizeof *o);
  const struct hnm_opt opts[] = {
    {.name = "nx", .kind = HNM_OPT_LONG, .arg = "N", .help = "grid points along x (default 28800, Table 3, times --scale^(1/3));\noverrides the scaled size", .value = &nx, .min = 1, .max = 1000000000L},
    {.name = "ny", .kind = HNM_OPT_LONG, .arg = "N", .help = "grid points along y (default 14400 x --scale^(1/3))", .value = &ny, .min = 1, .max = 1000000000L},
    {.name = "nz", .kind = HNM_OPT_LONG, .arg = "N", .help = "grid points along z (default 256 x --scale^(1/3))", .value = &nz, .min = 1, .max = 1000000000L},
    {.name = "scale", .kind = HNM_OPT_NUMBER, .arg = "F", .def = "1", .help = "shrink each dimension by F^(1/3), 0 < F <= 1", .value = &scale, .max = 1},
    {.name = "cx", .kind = HNM_OPT_LONG, .arg = "N", .help = "process grid, cx * cy = processes (default: the most\nsquare factorisation, cx <= cy)", .value = &cx, .min = 1, .max = procs},
    {.name = "cy", .kind = HNM_OPT_LONG, .arg = "N", .help = "process grid along y", .value = &cy, .min = 1, .max = procs},
    {.name = "algo", .kind = HNM_OPT_CHOICE, .arg = "NAME", .def = "ring", .unit = "mpi|burst|bruck|ring|pairwise", .help = "alltoallv algorithm", .value = &algo},
    {.name = "k", .kind = HNM_OPT_LONG, .arg = "N", .help = "ring-k radix, N >= 1 (default 4; --algo ring only)", .value = &k, .min = 1, .max = INT_MAX},
    {.name = "iterations", .kind = HNM_OPT_LONG, .arg = "N", .def = "1", .help = "forward+backward cycles", .value = &o->iterations, .min = 1, .max = 1000000L},
    {.name = "verify", .kind = HNM_OPT_FLAG, .help = "fill with global indices, check every element after\neach transposition", .value = &o->verify},
    {.name = "no-payload", .kind = HNM_OPT_FLAG, .help = "no real buffers (large simulations); not with --verify", .value = &no_payload},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    PROG, "[OPTIONS]",
    "Transpositions of a spectral transform (Zheng & Marguinaud 2018, Section 3.1, Figure 3):\n"
    "grid -> yz -> xz -> spectral and back on a cx x cy process grid, each a set of\n"
    "simultaneous alltoallv in the rows or columns of the process grid.",
    "Output: CSV, one line per transposition per iteration (see docs/skeletons/transpose.md).\n"
    "Under smpirun use -h: SimGrid takes --help.\n",
    NULL, 0, NULL};
  skel_options(comm, &cmd, opts, argc, argv);
  o->algo = (enum algo)algo;
  o->payload = !no_payload;
  o->cx = (int)cx;
  o->cy = (int)cy;
  o->k = k > 0 ? k : 4;
  if (scale == 0)
    skel_option_fail(comm, PROG, "--scale", "'%g' is not in (0, 1]", scale);
  if (o->verify && !o->payload)
    skel_option_fail(comm, PROG, "--verify", "needs the payload: drop --no-payload");
  if (k > 0 && o->algo != A_RING)
    skel_option_fail(comm, PROG, "--k", "applies to --algo ring only");

  double f = cbrt(scale);
  o->nx = nx > 0 ? nx : (long)fmax(1, (double)llround((double)DEFAULT_NX * f));
  o->ny = ny > 0 ? ny : (long)fmax(1, (double)llround((double)DEFAULT_NY * f));
  o->nz = nz > 0 ? nz : (long)fmax(1, (double)llround((double)DEFAULT_NZ * f));
  if ((double)o->nx * (double)o->ny * (double)o->nz > MAX_POINTS)
    skel_fail(comm, PROG, "grid %ld x %ld x %ld has more than 2^53 points", o->nx, o->ny, o->nz);

  if (o->cx > 0 && o->cy > 0) {
    if ((long)o->cx * o->cy != procs)
      skel_fail(comm, PROG, "--cx %d x --cy %d = %ld, not the %d processes", o->cx, o->cy, (long)o->cx * o->cy,
                procs);
  } else if (o->cx > 0 || o->cy > 0) {
    int given = o->cx > 0 ? o->cx : o->cy;
    if (procs % given != 0)
      skel_option_fail(comm, PROG, o->cx > 0 ? "--cx" : "--cy", "'%d' does not divide the %d processes", given, procs);
    if (o->cx > 0)
      o->cy = procs / o->cx;
    else
      o->cx = procs / o->cy;
  } else {
    o->cx = (int)skel_square_divisor(procs);
    o->cy = procs / o->cx;
  }
  long minxy = o->nx < o->ny ? o->nx : o->ny, minxyz = minxy < o->nz ? minxy : o->nz;
  if (o->cx > minxyz || o->cy > minxy)
    skel_fail(comm, PROG,
              "process grid %d x %d does not fit grid %ld x %ld x %ld: Figure 3 needs cx <= min(nx, ny, nz) = %ld "
              "and cy <= min(nx, ny) = %ld (change --cx/--cy or the grid)",
              o->cx, o->cy, o->nx, o->ny, o->nz, minxyz, minxy);
}

/* Sizes of transposition t on this rank. */
static void plan_make(struct plan *p, const struct decomp *d, const struct xpose *t, MPI_Comm rows, MPI_Comm cols)
{
  p->d = d;
  p->t = t;
  p->comm = t->rows ? rows : cols;
  p->n = t->rows ? d->cx : d->cy;
  p->me = t->rows ? d->px : d->py;
  long so = 0, ro = 0;
  for (int m = 0; m < p->n; m++) {
    p->scount[m] = block_count(p, p->me, m);
    p->sdispl[m] = so;
    so += p->scount[m];
    p->rcount[m] = block_count(p, m, p->me);
    p->rdispl[m] = ro;
    ro += p->rcount[m];
  }
}

/* Collective: fail on every rank if any rank's flag is set. */
/* Collective: check this rank's box; report the first mismatch (lowest
 * global rank that has one) and fail. */
static void verify_box(MPI_Comm world, const struct decomp *d, const double *a, const struct box *b,
                       const char *after)
{
  int rank;
  MPI_Comm_rank(world, &rank);
  long idx = box_check(d, a, b);
  int mine = idx >= 0 ? rank : INT_MAX, first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, world);
  if (first == INT_MAX)
    return;
  /* what: i, j, k, got */
  double what[4] = {0, 0, 0, 0};
  if (rank == first) {
    long i = idx % b->n[0], j = idx / b->n[0] % b->n[1], k = idx / b->n[0] / b->n[1];
    what[0] = (double)(b->lo[0] + i);
    what[1] = (double)(b->lo[1] + j);
    what[2] = (double)(b->lo[2] + k);
    what[3] = a[idx];
  }
  MPI_Bcast(what, 4, MPI_DOUBLE, first, world);
  skel_fail(world, PROG, "verify: after %s, rank %d: element (%.0f, %.0f, %.0f) is %.17g, expected %.0f", after,
            first, what[0], what[1], what[2], what[3],
            (double)global_index(d, (long)what[0], (long)what[1], (long)what[2]));
}

int main(int argc, char **argv)
{
  int rank, procs;
  MPI_Comm world = skel_init(&argc, &argv, &rank, &procs);

  struct opts o;
  parse(world, argc, argv, &o);

  struct decomp d = {o.nx, o.ny, o.nz, o.cx, o.cy, rank % o.cx, rank / o.cx};
  /* skel_block gives the extra points to the first parts: part 0 is the
   * largest in every direction, so (0, 0) has the largest box of a layout. */
  long vmax = 0;
  for (int l = L_GRID; l <= L_SPECTRAL; l++) {
    struct box b = layout_box(&d, (enum layout)l, 0, 0);
    vmax = box_volume(&b) > vmax ? box_volume(&b) : vmax;
  }
  if (vmax > INT_MAX)
    skel_fail(world, PROG,
              "%ld doubles per process exceed MPI's int counts: use more processes or a smaller grid (--scale)", vmax);

  MPI_Comm rows, cols;
  MPI_Comm_split(world, d.py, d.px, &rows);
  MPI_Comm_split(world, d.px, d.py, &cols);

  int nmax = o.cx > o.cy ? o.cx : o.cy;
  long *counts = malloc(sizeof(long) * 4 * (size_t)nmax);
  double *stage_s = malloc(sizeof(double) * (size_t)nmax);
  double *data = o.payload ? skel_alloc((size_t)vmax * sizeof(double), 1) : NULL;
  double *sbuf = skel_alloc((size_t)vmax * sizeof(double), o.payload);
  double *rbuf = skel_alloc((size_t)vmax * sizeof(double), o.payload);
  skel_fail_if_any(world, counts == NULL || stage_s == NULL || (o.payload && data == NULL) || sbuf == NULL || rbuf == NULL,
                   PROG, "out of memory for the field (try --scale, --no-payload or more processes)");

  char algo_name[32];
  static const char *const NAMES[] = {"mpi", "burst", "bruck", "ring", "pairwise"};
  if (o.algo == A_RING)
    snprintf(algo_name, sizeof algo_name, "ring-%ld", o.k);
  else
    snprintf(algo_name, sizeof algo_name, "%s", NAMES[o.algo]);

  struct box mybox = layout_box(&d, L_GRID, d.px, d.py);
  if (o.verify)
    box_fill(&d, data, &mybox);
  long checked = 0;

  struct skel_batch *batch = skel_batch_new(world, NULL);
  skel_fail_if_any(world, batch == NULL, PROG, "out of memory for the report");
  skel_csv_header(world);
  for (long it = 0; it < o.iterations; it++) {
    for (int x = 0; x < 6; x++) {
      const struct xpose *t = &XPOSES[x];
      struct plan p = {0};
      p.scount = counts;
      p.sdispl = counts + nmax;
      p.rcount = counts + 2 * nmax;
      p.rdispl = counts + 3 * nmax;
      plan_make(&p, &d, t, rows, cols);
      struct box from = layout_box(&d, t->from, d.px, d.py), to = layout_box(&d, t->to, d.px, d.py);

      if (o.payload)
        for (int m = 0; m < p.n; m++) {
          struct box mb = member_box(&p, t->to, m), sub = box_intersect(&from, &mb);
          box_copy(data, &from, &sub, sbuf + p.sdispl[m], 1);
        }
      struct bruck br;
      int bad = 0;
      if (o.algo == A_BRUCK)
        bad = bruck_setup(&p, &br, o.payload) != 0;
      skel_fail_if_any(world, bad, PROG, "bruck: a stage message exceeds MPI's int counts or its buffers do not fit in memory");

      long messages = 0;
      int nstages = algo_stages(o.algo, p.n, o.k);
      double t0 = skel_sync(world, batch); /* every rank starts at t0 (skel.h) */
      double time_s = alltoallv(&p, &o, sbuf, rbuf, &br, stage_s, &messages, t0);

      if (o.algo == A_BRUCK)
        bruck_release(&br);
      if (o.payload)
        for (int m = 0; m < p.n; m++) {
          struct box mb = member_box(&p, t->from, m), sub = box_intersect(&mb, &to);
          box_copy(data, &to, &sub, rbuf + p.rdispl[m], 0);
        }
      if (o.verify) {
        verify_box(world, &d, data, &to, t->name);
        checked += box_volume(&to);
      }
      char params[192];
      snprintf(params, sizeof params, "nx=%ld;ny=%ld;nz=%ld;cx=%d;cy=%d;comm=%s;n=%d;iteration=%ld", d.nx, d.ny,
               d.nz, d.cx, d.cy, t->rows ? "rows" : "columns", p.n, it);
      skel_batch_add(batch, PROG, t->name, algo_name, params, nstages, stage_s, messages, time_s);
      skel_batch_report(world, batch, PROG);
    }
  }
  /* The sixth transposition ends the round trip in the grid partition:
   * the check after it is the round-trip check. */
  if (o.verify)
    skel_verify_ok(world, PROG, checked);

  skel_batch_free(batch);
  skel_free(data, 1);
  skel_free(sbuf, o.payload);
  skel_free(rbuf, o.payload);
  free(counts);
  free(stage_s);
  MPI_Comm_free(&rows);
  MPI_Comm_free(&cols);
  MPI_Finalize();
  return 0;
}
