/* halo -- skeleton of the wide halo exchange of the Semi-Lagrangian method
 * (Zheng & Marguinaud 2018, Section 3.2 and Figure 4b; grid of Table 3).
 *
 * A 2D periodic domain of nx x ny grid points, each point carrying nz
 * doubles (the levels of a 3D field decomposed over x and y only), is cut in
 * cx x cy blocks (skel_block along each axis; rank = px + cx * py). Each rank
 * keeps a halo of `width` points on its four sides and fills it in two
 * stages:
 *
 *   stage 1, x sweep: the w columns west and east of its block, for its own
 *     rows, from the processes of its process row;
 *   stage 2, y sweep: the w rows south and north of its block, each row
 *     extended over the x halos (lx + 2w columns), from the processes of its
 *     process column; the corners thus arrive with the stage-1 data of the
 *     y neighbours.
 *
 * Within a stage every receive and send is posted at once (MPI_Irecv /
 * MPI_Isend) and completed with one MPI_Waitall.
 *
 * Packing (--pack, Schneider et al. 2013's question): a halo rectangle is
 * nr rows of nc x nz contiguous doubles of the field.
 *   contiguous  (default) the messages go from and to contiguous buffers
 *               packed and unpacked outside the timed stages: the
 *               transfer alone;
 *   manual      the same copy loops, timed inside their stage (what an
 *               application pays for packing by hand);
 *   datatype    one MPI_Type_vector per message, sent from and received
 *               into the field itself (the MPI library packs).
 *
 * Wide halos. The halo of a side is cut where the owning block changes: the
 * west halo of process u covers the unwrapped columns [S(u) - w, S(u) - 1],
 * where S(u) is the first column of block u on the infinite periodic line
 * (S(u + k cx) = S(u) + k nx); the owners are blocks u - 1, u - 2, ... until
 * the one holding S(u) - w, one message each. When w exceeds the
 * neighbour's width, the halo therefore comes from neighbours of neighbours;
 * when w exceeds the whole domain the line wraps around as often as needed
 * and the same process may send several messages for one side. A part of the
 * halo owned by the rank itself (cx = 1, or a wrap-around) is copied locally:
 * no message, not counted, not timed.
 *
 * Matching: between two ranks, the messages for one side of one stage share
 * a tag (stage and side) and are posted by both in increasing distance d, so
 * MPI's non-overtaking order pairs them.
 *
 * No mutable global state: runs under SMPI with privatization off.
 */
#include "skel.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "halo"

/* Table 3 of Zheng & Marguinaud 2018. */
#define HALO_PAPER_NX 28800L
#define HALO_PAPER_NY 14400L
#define HALO_PAPER_NZ 256L
/* Widths up to this many points (a sanity bound; 30 is the widest the paper uses). */
#define HALO_MAX_WIDTH 1000000L
/* At most this many halo runs (messages or local copies) per process and
 * sweep: a width that wraps around the domain thousands of times is refused
 * rather than simulated as millions of tiny messages. */
#define HALO_MAX_RUNS 65536L

typedef struct {
  long nx, ny, nz; /* grid points; 0 = from Table 3 (nz) or Table 3 x scale (nx, ny) */
  double scale;    /* fraction of Table 3's grid points, (0, 1]: sqrt(scale) per dimension */
  long width;      /* halo width, grid points */
  long cx, cy;     /* process grid; 0 = choose */
  long iterations;
  int verify, payload;
  int pack; /* HALO_PACK_* */
} halo_opts;

enum { HALO_PACK_CONTIGUOUS, HALO_PACK_MANUAL, HALO_PACK_DATATYPE };
static const char *const halo_pack_names[] = {"contiguous", "manual", "datatype"};

/* One contiguous run of grid lines (columns for x, rows for y) of a halo,
 * owned by one block. src is the run's first line in the owner's local
 * coordinates, dst in the receiver's (negative on the low side). */
typedef struct {
  int peer; /* process index along the axis, 0 .. p-1 */
  int side; /* 0: the receiver's low halo (west/south), 1: high (east/north) */
  long src, dst, count;
} halo_run;

typedef struct {
  halo_run *v;
  long n, cap;
} halo_runs;

/* A rectangle of the local field: rows [r0, r0+nr) x columns [c0, c0+nc),
 * local coordinates (0 is the first interior point, -w the first halo). */
typedef struct {
  long r0, nr, c0, nc;
} halo_rect;

typedef struct {
  int peer, tag;
  halo_rect rect;
  size_t off; /* offset in the stage buffer, doubles */
  size_t len; /* doubles */
} halo_msg;

typedef struct {
  halo_rect from, to;
} halo_copy;

/* Everything one rank does in one stage. */
typedef struct {
  halo_msg *recv, *send;
  halo_copy *copy;
  long nrecv, nsend, ncopy;
  size_t recv_len, send_len; /* doubles */
  double *rbuf, *sbuf;
  MPI_Datatype *rtype, *stype; /* --pack datatype: one per message, else NULL */
  MPI_Request *req;
} halo_stage;

/* The local field: (ly + 2w) rows of (lx + 2w) points of nz doubles, levels
 * innermost. a is NULL without payload. */
typedef struct {
  long lx, ly, nz, w;
  long gx0, gy0; /* global coordinates of the first interior point */
  double *a;
} halo_field;

static void halo_parse(MPI_Comm comm, int argc, char **argv, halo_opts *o)
{
  int no_payload = 0;
  *o = (halo_opts){.verify = 0};
  const struct hnm_opt opts[] = {
    {.name = "scale", .kind = HNM_OPT_NUMBER, .arg = "F", .def = "1", .help = "about F times the points of Table 3's 28800 x 14400 grid (nx, ny x sqrt(F)),\n0 < F <= 1", .value = &o->scale, .max = 1},
    {.name = "nx", .kind = HNM_OPT_LONG, .arg = "N", .help = "global grid points along x (default: Table 3 x scale)", .value = &o->nx, .min = 1, .max = LONG_MAX / 4},
    {.name = "ny", .kind = HNM_OPT_LONG, .arg = "N", .help = "global grid points along y (default: Table 3 x scale)", .value = &o->ny, .min = 1, .max = LONG_MAX / 4},
    {.name = "nz", .kind = HNM_OPT_LONG, .arg = "N", .def = "256", .help = "doubles per grid point, the levels; the default is Table 3's", .value = &o->nz, .min = 1, .max = LONG_MAX / 4},
    {.name = "width", .kind = HNM_OPT_LONG, .arg = "N", .def = "3", .unit = "grid points", .help = "halo width; the paper uses 3, 10, 20, 30", .value = &o->width, .min = 1, .max = HALO_MAX_WIDTH},
    {.name = "cx", .kind = HNM_OPT_LONG, .arg = "N", .help = "process grid along x (default: the most square cx x cy = P with cx >= cy)", .value = &o->cx, .min = 1, .max = INT_MAX},
    {.name = "cy", .kind = HNM_OPT_LONG, .arg = "N", .help = "process grid along y", .value = &o->cy, .min = 1, .max = INT_MAX},
    {.name = "iterations", .kind = HNM_OPT_LONG, .arg = "N", .def = "1", .help = "halo exchanges, one CSV line each", .value = &o->iterations, .min = 1, .max = INT_MAX},
    {.name = "verify", .kind = HNM_OPT_FLAG, .help = "fill with global indices and check every halo point", .value = &o->verify},
    {.name = "no-payload", .kind = HNM_OPT_FLAG, .help = "no real buffers (timing only); incompatible with --verify", .value = &no_payload},
    {.name = "pack", .kind = HNM_OPT_CHOICE, .arg = "P", .def = "contiguous", .unit = "contiguous|manual|datatype", .help = "contiguous buffers packed untimed, manual copy loops timed,\nor MPI_Type_vector from the field", .value = &o->pack},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    PROG, "[OPTIONS]",
    "Wide halo exchange of the Semi-Lagrangian method (Zheng & Marguinaud 2018, Section 3.2, Fig. 4b):\n"
    "x sweep (stage 1), then y sweep over the x halos (stage 2), periodic domain.",
    "Output: CSV program,operation,algorithm,procs,params,stages,messages,time_s,stage_times_s\n"
    "(under smpirun/hnm-run SimGrid takes --help: use -h)\n",
    NULL, 0, NULL};
  skel_options(comm, &cmd, opts, argc, argv);
  o->payload = !no_payload;
  if (o->scale == 0)
    skel_option_fail(comm, PROG, "--scale", "'%g' is not in (0, 1]", o->scale);
  if (o->verify && !o->payload)
    skel_option_fail(comm, PROG, "--verify", "needs real buffers: drop --no-payload");
  if (o->pack != HALO_PACK_CONTIGUOUS && !o->payload)
    skel_option_fail(comm, PROG, "--pack", "%s packing needs real buffers: drop --no-payload",
                     halo_pack_names[o->pack]);
  /* --scale F keeps the shape and makes the number of points about F times
   * Table 3's (as transpose's --scale does in 3D): sqrt(F) per dimension. */
  double per_dim = sqrt(o->scale);
  if (o->nx == 0)
    o->nx = lround(HALO_PAPER_NX * per_dim) > 1 ? lround(HALO_PAPER_NX * per_dim) : 1;
  if (o->ny == 0)
    o->ny = lround(HALO_PAPER_NY * per_dim) > 1 ? lround(HALO_PAPER_NY * per_dim) : 1;
  if (o->nz == 0)
    o->nz = HALO_PAPER_NZ;

  int procs;
  MPI_Comm_size(comm, &procs);
  if (o->cx == 0 && o->cy == 0) {
    /* Most square: the largest divisor of P not above sqrt(P) along y
     * (Table 3's domain is twice as long in x as in y). */
    o->cy = skel_square_divisor(procs);
    o->cx = procs / o->cy;
  } else if (o->cy == 0) {
    if (procs % o->cx != 0)
      skel_option_fail(comm, PROG, "--cx", "'%ld' does not divide the %d processes", o->cx, procs);
    o->cy = procs / o->cx;
  } else if (o->cx == 0) {
    if (procs % o->cy != 0)
      skel_option_fail(comm, PROG, "--cy", "'%ld' does not divide the %d processes", o->cy, procs);
    o->cx = procs / o->cy;
  } else if (o->cx * o->cy != procs) {
    skel_option_fail(comm, PROG, "--cy", "--cx %ld x --cy %ld = %ld, but there are %d processes", o->cx, o->cy,
              o->cx * o->cy, procs);
  }
  if (o->nx < o->cx)
    skel_fail(comm, PROG, "nx = %ld < cx = %ld: every process needs at least one column", o->nx, o->cx);
  if (o->ny < o->cy)
    skel_fail(comm, PROG, "ny = %ld < cy = %ld: every process needs at least one row", o->ny, o->cy);
  /* A side of the halo spans at most w / (smallest block) + 2 blocks. */
  for (int axis = 0; axis < 2; axis++) {
    long n = axis == 0 ? o->nx : o->ny, p = axis == 0 ? o->cx : o->cy;
    long runs = 2 * (o->width / (n / p) + 2);
    if (runs > HALO_MAX_RUNS)
      skel_fail(comm, PROG,
                "--width %ld spans up to %ld blocks of the %c axis per process and sweep (at most %ld): "
                "reduce the width or the number of processes along %c",
                o->width, runs, axis == 0 ? 'x' : 'y', HALO_MAX_RUNS, axis == 0 ? 'x' : 'y');
  }
}

/* Floor division and non-negative remainder, for a of any sign and b > 0. */
static long halo_floor_div(long a, long b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static long halo_mod(long a, long b)
{
  return a - halo_floor_div(a, b) * b;
}

/* First line of block u (any integer) on the periodic line of n points cut
 * in p blocks: S(u + k p) = S(u) + k n. Block u holds [S(u), S(u + 1)). */
static long halo_start(long n, int p, long u)
{
  long start, count;
  skel_block(n, p, (int)halo_mod(u, p), &start, &count);
  return start + halo_floor_div(u, p) * n;
}

static int halo_runs_push(halo_runs *r, halo_run run)
{
  if (r->n == r->cap) {
    long cap = r->cap ? 2 * r->cap : 16;
    halo_run *v = realloc(r->v, sizeof(*v) * (size_t)cap);
    if (v == NULL)
      return -1;
    r->v = v;
    r->cap = cap;
  }
  r->v[r->n++] = run;
  return 0;
}

/* The runs block m of an axis (n points, p blocks, halo width w) receives
 * (recv) and those it sends (send), each side in increasing distance d. A
 * receive run's peer is the owner, a send run's the receiver. The send loops
 * are the receive loops seen from the owner: block v = u - d is in u's low
 * halo iff its last line reaches S(u) - w, the condition that ends the
 * first send loop; so both ends list the same runs, with the same lengths,
 * in the same order. Returns -1 when out of memory. */
static int halo_axis_plan(long n, int p, long m, long w, halo_runs *recv, halo_runs *send)
{
  long s = halo_start(n, p, m), e = halo_start(n, p, m + 1) - 1; /* my lines, unwrapped */
  /* Low halo [s - w, s - 1] from blocks m - 1, m - 2, ... */
  for (long d = 1;; d++) {
    long v = m - d, sv = halo_start(n, p, v), ev = halo_start(n, p, v + 1) - 1;
    long first = sv > s - w ? sv : s - w;
    halo_run r = {(int)halo_mod(v, p), 0, first - sv, first - s, ev - first + 1};
    if (halo_runs_push(recv, r) < 0)
      return -1;
    if (sv <= s - w)
      break;
  }
  /* High halo [e + 1, e + w] from blocks m + 1, m + 2, ... */
  for (long d = 1;; d++) {
    long v = m + d, sv = halo_start(n, p, v), ev = halo_start(n, p, v + 1) - 1;
    long last = ev < e + w ? ev : e + w;
    halo_run r = {(int)halo_mod(v, p), 1, 0, sv - s, last - sv + 1};
    if (halo_runs_push(recv, r) < 0)
      return -1;
    if (ev >= e + w)
      break;
  }
  /* To the low halos of blocks m + 1, m + 2, ... while they reach my lines. */
  for (long d = 1;; d++) {
    long u = m + d, su = halo_start(n, p, u);
    if (su - w > e)
      break;
    long first = su - w > s ? su - w : s;
    halo_run r = {(int)halo_mod(u, p), 0, first - s, first - su, e - first + 1};
    if (halo_runs_push(send, r) < 0)
      return -1;
  }
  /* To the high halos of blocks m - 1, m - 2, ... while they reach my lines. */
  for (long d = 1;; d++) {
    long u = m - d, eu = halo_start(n, p, u + 1) - 1;
    if (eu + w < s)
      break;
    long last = eu + w < e ? eu + w : e;
    halo_run r = {(int)halo_mod(u, p), 1, 0, s - halo_start(n, p, u), last - s + 1};
    if (halo_runs_push(send, r) < 0)
      return -1;
  }
  return 0;
}

static double *halo_at(const halo_field *f, long i, long j)
{
  return f->a + ((size_t)(j + f->w) * (size_t)(f->lx + 2 * f->w) + (size_t)(i + f->w)) * (size_t)f->nz;
}

/* The rectangle of the local field a run covers: along x, columns of the
 * interior rows; along y, rows extended over the x halos. */
static halo_rect halo_run_rect(const halo_field *f, int along_x, long first, long count)
{
  if (along_x)
    return (halo_rect){0, f->ly, first, count};
  return (halo_rect){first, count, -f->w, f->lx + 2 * f->w};
}

static size_t halo_rect_len(const halo_field *f, halo_rect r)
{
  return (size_t)r.nr * (size_t)r.nc * (size_t)f->nz;
}

static void halo_stage_free(halo_stage *st, int payload)
{
  free(st->recv);
  free(st->send);
  free(st->copy);
  free(st->req);
  for (long k = 0; st->rtype != NULL && k < st->nrecv; k++)
    MPI_Type_free(&st->rtype[k]);
  for (long k = 0; st->stype != NULL && k < st->nsend; k++)
    MPI_Type_free(&st->stype[k]);
  free(st->rtype);
  free(st->stype);
  skel_free(st->rbuf, payload);
  skel_free(st->sbuf, payload);
  memset(st, 0, sizeof(*st));
}

/* The datatype of rectangle r inside the field: nr rows of nc x nz
 * contiguous doubles, one field row apart. */
static void halo_rect_type(const halo_field *f, halo_rect r, MPI_Datatype *t)
{
  MPI_Type_vector((int)r.nr, (int)(r.nc * f->nz), (int)((f->lx + 2 * f->w) * f->nz), MPI_DOUBLE, t);
  MPI_Type_commit(t);
}

/* Append the message of RECT with PEER to V (*n messages, *total doubles
 * so far). -1 when it is too large for an int count. */
static int halo_msg_add(halo_msg *v, long *n, size_t *total, const halo_field *f, int peer, int tag, halo_rect rect)
{
  size_t len = halo_rect_len(f, rect);
  if (len > INT_MAX)
    return -1;
  v[(*n)++] = (halo_msg){peer, tag, rect, *total, len};
  *total += len;
  return 0;
}

/* Build the stage of one axis for the rank at (px, py) of a cx x cy grid.
 * Returns 0, -1 when out of memory, -2 when a message would exceed MPI's
 * int count. */
static int halo_stage_build(halo_stage *st, const halo_field *f, const halo_opts *o, int along_x, int px,
                            int py, int payload)
{
  memset(st, 0, sizeof(*st));
  halo_runs recv = {0}, send = {0};
  int rc = -1;
  long n = along_x ? o->nx : o->ny;
  int p = (int)(along_x ? o->cx : o->cy), m = along_x ? px : py;
  int me = px + (int)o->cx * py;
  if (halo_axis_plan(n, p, m, o->width, &recv, &send) < 0)
    goto out;
  st->recv = malloc(sizeof(halo_msg) * (size_t)(recv.n + 1));
  st->copy = malloc(sizeof(halo_copy) * (size_t)(recv.n + 1));
  st->send = malloc(sizeof(halo_msg) * (size_t)(send.n + 1));
  st->req = malloc(sizeof(MPI_Request) * (size_t)(recv.n + send.n + 1));
  if (st->recv == NULL || st->copy == NULL || st->send == NULL || st->req == NULL)
    goto out;
  int tag0 = along_x ? 0 : 2;
  for (long k = 0; k < recv.n; k++) {
    halo_run r = recv.v[k];
    int peer = along_x ? r.peer + (int)o->cx * py : px + (int)o->cx * r.peer;
    halo_rect to = halo_run_rect(f, along_x, r.dst, r.count);
    if (peer == me) {
      st->copy[st->ncopy++] = (halo_copy){halo_run_rect(f, along_x, r.src, r.count), to};
      continue;
    }
    if (halo_msg_add(st->recv, &st->nrecv, &st->recv_len, f, peer, tag0 + r.side, to) != 0) {
      rc = -2;
      goto out;
    }
  }
  for (long k = 0; k < send.n; k++) {
    halo_run r = send.v[k];
    int peer = along_x ? r.peer + (int)o->cx * py : px + (int)o->cx * r.peer;
    if (peer == me)
      continue; /* copied by the receiving side, which is this rank */
    if (halo_msg_add(st->send, &st->nsend, &st->send_len, f, peer, tag0 + r.side,
                     halo_run_rect(f, along_x, r.src, r.count)) != 0) {
      rc = -2;
      goto out;
    }
  }
  st->rbuf = skel_alloc(st->recv_len * sizeof(double), payload);
  st->sbuf = skel_alloc(st->send_len * sizeof(double), payload);
  if (st->rbuf == NULL || st->sbuf == NULL)
    goto out;
  if (o->pack == HALO_PACK_DATATYPE) {
    st->rtype = malloc(sizeof(MPI_Datatype) * (size_t)(st->nrecv + 1));
    st->stype = malloc(sizeof(MPI_Datatype) * (size_t)(st->nsend + 1));
    if (st->rtype == NULL || st->stype == NULL)
      goto out;
    for (long k = 0; k < st->nrecv; k++)
      halo_rect_type(f, st->recv[k].rect, &st->rtype[k]);
    for (long k = 0; k < st->nsend; k++)
      halo_rect_type(f, st->send[k].rect, &st->stype[k]);
  }
  rc = 0;
out:
  free(recv.v);
  free(send.v);
  return rc;
}

/* Copy rectangle r of the field to / from a contiguous buffer: each row of
 * r is nc * nz contiguous doubles of the field. */
static void halo_pack(const halo_field *f, halo_rect r, double *buf)
{
  size_t row = (size_t)r.nc * (size_t)f->nz;
  for (long j = 0; j < r.nr; j++)
    memcpy(buf + (size_t)j * row, halo_at(f, r.c0, r.r0 + j), row * sizeof(double));
}

static void halo_unpack(const halo_field *f, halo_rect r, const double *buf)
{
  size_t row = (size_t)r.nc * (size_t)f->nz;
  for (long j = 0; j < r.nr; j++)
    memcpy(halo_at(f, r.c0, r.r0 + j), buf + (size_t)j * row, row * sizeof(double));
}

static void halo_stage_pack(const halo_stage *st, const halo_field *f)
{
  for (long k = 0; k < st->nsend; k++)
    halo_pack(f, st->send[k].rect, st->sbuf + st->send[k].off);
}

/* Unpack what was received (into contiguous buffers: not with datatypes)
 * and do the local copies. */
static void halo_stage_finish(const halo_stage *st, const halo_field *f)
{
  for (long k = 0; st->rtype == NULL && k < st->nrecv; k++)
    halo_unpack(f, st->recv[k].rect, st->rbuf + st->recv[k].off);
  /* A copy reads interior lines and writes halo lines: no overlap. */
  for (long k = 0; k < st->ncopy; k++) {
    halo_copy c = st->copy[k];
    size_t row = (size_t)c.from.nc * (size_t)f->nz;
    for (long j = 0; j < c.from.nr; j++)
      memcpy(halo_at(f, c.to.c0, c.to.r0 + j), halo_at(f, c.from.c0, c.from.r0 + j), row * sizeof(double));
  }
}

/* Post every receive and send of the stage, wait for all; the seconds this
 * took. */
static double halo_stage_run(const halo_stage *st, const halo_field *f, MPI_Comm comm, long *messages)
{
  double t0 = MPI_Wtime();
  int nreq = 0;
  for (long k = 0; k < st->nrecv; k++)
    if (st->rtype != NULL)
      MPI_Irecv(halo_at(f, st->recv[k].rect.c0, st->recv[k].rect.r0), 1, st->rtype[k], st->recv[k].peer,
                st->recv[k].tag, comm, &st->req[nreq++]);
    else
      MPI_Irecv(st->rbuf + st->recv[k].off, (int)st->recv[k].len, MPI_DOUBLE, st->recv[k].peer, st->recv[k].tag,
                comm, &st->req[nreq++]);
  for (long k = 0; k < st->nsend; k++)
    if (st->stype != NULL)
      MPI_Isend(halo_at(f, st->send[k].rect.c0, st->send[k].rect.r0), 1, st->stype[k], st->send[k].peer,
                st->send[k].tag, comm, &st->req[nreq++]);
    else
      MPI_Isend(st->sbuf + st->send[k].off, (int)st->send[k].len, MPI_DOUBLE, st->send[k].peer, st->send[k].tag,
                comm, &st->req[nreq++]);
  MPI_Waitall(nreq, st->req, MPI_STATUSES_IGNORE);
  *messages += st->nsend;
  return MPI_Wtime() - t0;
}

/* Global index of a point: gx + nx gy, levels offset by nx ny each. */
static double halo_value(const halo_opts *o, long gx, long gy, long k)
{
  return (double)(gx + o->nx * gy) + (double)k * (double)o->nx * (double)o->ny;
}

static void halo_fill(const halo_field *f, const halo_opts *o)
{
  for (long j = -f->w; j < f->ly + f->w; j++)
    for (long i = -f->w; i < f->lx + f->w; i++) {
      int interior = i >= 0 && i < f->lx && j >= 0 && j < f->ly;
      double *p = halo_at(f, i, j);
      for (long k = 0; k < f->nz; k++)
        p[k] = interior ? halo_value(o, f->gx0 + i, f->gy0 + j, k) : -1.0;
    }
}

/* Check every point (halo and interior) against the periodic global index
 * it must hold; on the first mismatch describe it in msg and return -1.
 * *checked counts the halo doubles checked. */
static int halo_check(const halo_field *f, const halo_opts *o, int rank, long *checked, char *msg, size_t msglen)
{
  for (long j = -f->w; j < f->ly + f->w; j++)
    for (long i = -f->w; i < f->lx + f->w; i++) {
      long gx = halo_mod(f->gx0 + i, o->nx), gy = halo_mod(f->gy0 + j, o->ny);
      const double *p = halo_at(f, i, j);
      for (long k = 0; k < f->nz; k++) {
        double want = halo_value(o, gx, gy, k);
        if (p[k] != want) {
          snprintf(msg, msglen,
                   "verify failed on rank %d: local point (%ld, %ld) level %ld (global column %ld, row %ld) "
                   "holds %.17g, expected %.17g",
                   rank, i, j, k, gx, gy, p[k], want);
          return -1;
        }
      }
      if (!(i >= 0 && i < f->lx && j >= 0 && j < f->ly))
        *checked += f->nz;
    }
  return 0;
}

/* Collective: if any rank failed, the lowest such rank's message goes to
 * rank 0, which prints it through skel_fail. */
static void halo_verify_collective(MPI_Comm comm, int failed, const char *msg)
{
  int rank, procs, first;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  int mine = failed ? rank : procs;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == procs)
    return;
  char text[512] = "";
  if (first == 0) {
    snprintf(text, sizeof(text), "%s", msg);
  } else if (rank == first) {
    MPI_Send(msg, (int)sizeof(text), MPI_CHAR, 0, 99, comm);
  } else if (rank == 0) {
    MPI_Recv(text, (int)sizeof(text), MPI_CHAR, first, 99, comm, MPI_STATUS_IGNORE);
  }
  skel_fail(comm, PROG, "%s", text);
}

int main(int argc, char **argv)
{
  int rank, procs;
  MPI_Comm comm = skel_init(&argc, &argv, &rank, &procs);
  halo_opts o;
  halo_parse(comm, argc, argv, &o);
  int px = rank % (int)o.cx, py = rank / (int)o.cx;
  halo_field f = {.nz = o.nz, .w = o.width};
  skel_block(o.nx, (int)o.cx, px, &f.gx0, &f.lx);
  skel_block(o.ny, (int)o.cy, py, &f.gy0, &f.ly);

  /* Size sanity before any allocation: the local field (halos included) in
   * doubles, computed in floating point to catch overflow. With a payload
   * it must fit in this machine's memory: under SMPI a failed malloc aborts
   * the whole simulation instead of returning NULL. */
  double field_len = (double)(f.lx + 2 * f.w) * (double)(f.ly + 2 * f.w) * (double)f.nz;
  double memory = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  double limit = o.payload && memory > 0 ? memory : 0x1p62; /* --no-payload: the field is not allocated */
  skel_fail_if_any(comm, field_len * sizeof(double) > limit, PROG,
                   "the local field of %.3g doubles is larger than this machine's memory: reduce the grid (--scale) "
                   "or --width",
                   field_len);

  halo_stage st[2];
  int rc[2], err = 0;
  for (int s = 0; s < 2; s++)
    rc[s] = halo_stage_build(&st[s], &f, &o, s == 0, px, py, o.payload);
  for (int s = 0; s < 2; s++)
    err = rc[s] < err ? rc[s] : err;
  /* Messages too large for an int count are refused before the field is
   * allocated (a failed allocation aborts under SMPI). */
  if (o.payload && err == 0) {
    f.a = malloc((size_t)field_len * sizeof(double));
    if (f.a == NULL)
      err = -1;
  }
  int minerr;
  MPI_Allreduce(&err, &minerr, 1, MPI_INT, MPI_MIN, comm);
  if (minerr == -2)
    skel_fail(comm, PROG, "a halo message exceeds MPI's int count of doubles: reduce the grid (--scale), --nz or --width");
  if (minerr < 0)
    skel_fail(comm, PROG, "out of memory for the local field and its message buffers: reduce the grid (--scale) "
                          "or use --no-payload");

  char params[256];
  long checked = 0;
  struct skel_batch *batch = skel_batch_new(comm, NULL);
  skel_fail_if_any(comm, batch == NULL, PROG, "out of memory for the report");
  skel_csv_header(comm);
  int manual = o.pack == HALO_PACK_MANUAL, contiguous = o.pack == HALO_PACK_CONTIGUOUS;
  for (long it = 1; it <= o.iterations; it++) {
    if (o.payload) {
      if (o.verify || it == 1)
        halo_fill(&f, &o);
      if (contiguous)
        halo_stage_pack(&st[0], &f);
    }
    long messages = 0;
    double stage_s[2];
    /* Every rank starts at the same instant (skel.h). A stage is timed from
     * its first call (manual: from its packing) to its last (manual: to
     * its unpacking). */
    skel_sync(comm, batch);
    for (int s = 0; s < 2; s++) {
      if (s == 1 && o.payload && contiguous)
        halo_stage_pack(&st[1], &f);
      if (manual) {
        double t0 = MPI_Wtime();
        halo_stage_pack(&st[s], &f);
        halo_stage_run(&st[s], &f, comm, &messages);
        halo_stage_finish(&st[s], &f);
        stage_s[s] = MPI_Wtime() - t0;
      } else {
        stage_s[s] = halo_stage_run(&st[s], &f, comm, &messages);
        if (o.payload)
          halo_stage_finish(&st[s], &f);
      }
    }
    if (o.pack == HALO_PACK_CONTIGUOUS)
      snprintf(params, sizeof(params), "nx=%ld;ny=%ld;nz=%ld;cx=%ld;cy=%ld;width=%ld;payload=%d;iteration=%ld",
               o.nx, o.ny, o.nz, o.cx, o.cy, o.width, o.payload, it);
    else
      snprintf(params, sizeof(params),
               "nx=%ld;ny=%ld;nz=%ld;cx=%ld;cy=%ld;width=%ld;payload=%d;iteration=%ld;pack=%s", o.nx, o.ny, o.nz,
               o.cx, o.cy, o.width, o.payload, it, halo_pack_names[o.pack]);
    skel_batch_add(batch, PROG, "halo", "xy-sweep", params, 2, stage_s, messages, stage_s[0] + stage_s[1]);
    skel_batch_report(comm, batch, PROG);
    if (o.verify) {
      char msg[512] = "";
      int failed = halo_check(&f, &o, rank, &checked, msg, sizeof(msg)) < 0;
      halo_verify_collective(comm, failed, msg);
    }
  }
  if (o.verify)
    skel_verify_ok(comm, PROG, checked);

  skel_batch_free(batch);
  for (int s = 0; s < 2; s++)
    halo_stage_free(&st[s], o.payload);
  free(f.a);
  MPI_Finalize();
  return 0;
}
