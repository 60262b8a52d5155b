/* monc_halo -- skeleton of MONC's halo swap and its MPI RMA variants.
 *
 *   monc_halo [--variant p2p|fence|pscw|passive] [--pack manual|datatype]
 *             [--nx N] [--ny N] [--nz N] [--fields F] [--depth D]
 *             [--cx N] [--cy N] [--iterations N] [--verify] [--no-payload]
 *
 * What is simulated (Brown et al. 2018, "Leveraging MPI RMA to optimise
 * halo-swapping communications in MONC"): F prognostic fields of nz levels
 * on a global nx x ny grid, decomposed in x and y (never in z) over a
 * periodic cx x cy process grid, block distribution (sizes may differ by
 * one). Every swap fills a halo of depth D around each rank's block with a
 * box stencil: one transfer to each of the 8 neighbours (4 faces, 4
 * corners), all F fields of a neighbour in one transfer.
 *
 * Memory layout (MONC's Fortran data(k, j, i), z fastest): one array of
 * doubles per rank, field[f][x][y][z] with x in [0, lx + 2D), y in
 * [0, ly + 2D), z in [0, nz); the block's own points (the interior) are
 * x in [D, D + lx), y in [D, D + ly).
 *
 * Directions: d = 0..7 is W, E, S, N, SW, SE, NW, NE (offset dx, dy). A rank
 * sends its interior edge facing d to the neighbour at offset d, with tag d;
 * that data lands in the neighbour's halo facing opp(d). Tags keep the
 * transfers apart when one rank is the neighbour on several sides (a
 * direction with 1 or 2 processes; with 1, the neighbour is the rank itself
 * and the exchange is the periodic self-exchange, done through MPI like any
 * other).
 *
 * Variants (Brown et al. 2018, Sections III-IV; docs/skeletons/monc_halo.md):
 *   p2p      MPI_Irecv x 8, MPI_Isend x 8, MPI_Waitall (MONC's original).
 *   fence    MPI_Put x 8, MPI_Win_fence closing the epoch; after unpacking,
 *            MPI_Win_fence opening the next one (Section IV-C: the epoch is
 *            opened at the end of the previous swap).
 *   pscw     MPI_Put x 8, MPI_Win_complete, MPI_Win_wait; after unpacking,
 *            MPI_Win_post + MPI_Win_start on the group of neighbours.
 *   passive  MPI_Win_lock_all once; per swap MPI_Put x 8, MPI_Win_flush_all,
 *            then a zero-byte MPI_Isend to each neighbour to tell it that
 *            its halo arrived (MPI_Irecv of those posted first), MPI_Waitall,
 *            MPI_Win_sync when the window's memory model is separate.
 * Packing (Schneider et al. 2013): manual copies the faces into contiguous buffers
 * (RMA: puts into per-neighbour regions of a separate window buffer, as in
 * MONC, Brown et al. 2018, Figs. 1 and 3) and unpacks after arrival; datatype sends
 * or puts straight from and into the field array with
 * MPI_Type_vector / MPI_Type_create_hvector types (RMA: the window is the
 * field array).
 *
 * Output: skel_csv_header, then one skel_batch line per swap; time_s is the
 * whole swap, packing and unpacking included. No mutable global state.
 *
 * Over the project's usual ~800 lines a file on purpose: each skeleton is one MPI program
 * in one file, read as an example; here the four variants (p2p, fence, PSCW,
 * passive) stand side by side so that they can be compared line by line.
 */
#include "skel.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PROG "monc_halo"
#define NDIR 8
#define MAX_STAGES 4
/* Zero-byte notifications of the passive variant use tags NOTIFY_TAG + d. */
#define NOTIFY_TAG 16
/* Halo points hold this before a swap when verifying; no field value is
 * negative. */
#define SENTINEL (-1.0)

/* Brown et al. 2018, Section V (Fig. 6, weak scaling): 16 x 16 columns of 256
 * levels per process; the stratus test case swaps 25 moisture fields plus
 * temperature, pressure and the three wind components; stencil depth 2. */
#define DEFAULT_COLUMNS 16
#define DEFAULT_NZ 256
#define DEFAULT_FIELDS 30
#define DEFAULT_DEPTH 2

enum variant { V_P2P, V_FENCE, V_PSCW, V_PASSIVE, V_COUNT };
enum packing { PACK_MANUAL, PACK_DATATYPE };

static const char *const variant_names[V_COUNT] = {"p2p", "fence", "pscw", "passive"};
static const int dir_dx[NDIR] = {-1, 1, 0, 0, -1, 1, -1, 1};
static const int dir_dy[NDIR] = {0, 0, -1, 1, -1, -1, 1, 1};
static const int dir_opp[NDIR] = {1, 0, 3, 2, 7, 6, 5, 4};
static const char *const dir_names[NDIR] = {"west",       "east",       "south",      "north",
                                            "south-west", "south-east", "north-west", "north-east"};

struct options {
  long nx, ny, nz, fields, depth, cx, cy, iterations;
  enum variant variant;
  enum packing pack;
  int verify, payload;
};

/* A rank's block and neighbourhood. Local extents are int (MPI counts). */
struct geom {
  int procs, rank, cx, cy, px, py;
  long nx, ny, x0, y0; /* global grid, global index of the first interior point */
  int lx, ly, nz, F, D;
  int X, Y;            /* local extents with halo: lx + 2D, ly + 2D */
  int nbr[NDIR];       /* rank of the neighbour at offset d */
  int nbr_lx[NDIR], nbr_ly[NDIR];
};

/* A rectangle of columns in local coordinates (halo included); all nz
 * levels and all F fields of it travel together. */
struct box {
  int x0, w, y0, h;
};

/* Everything one swap needs; lives on main's stack. */
struct halo {
  const struct options *o;
  const struct geom *g;
  double *field;             /* F * X * Y * nz doubles */
  double *sbuf, *rbuf;       /* manual packing: 8 regions each */
  size_t soff[NDIR + 1];     /* region offsets in sbuf (by send direction) */
  size_t roff[NDIR + 1];     /* region offsets in rbuf (by arrival direction) */
  MPI_Aint tdisp[NDIR];      /* RMA: target displacement (doubles) of my put toward d */
  MPI_Datatype stype[NDIR];  /* datatype: my interior edge facing d ... */
  size_t sat[NDIR];          /* ... starting at field + sat[d] */
  MPI_Datatype rtype[NDIR];  /* datatype: my halo facing d (p2p) or the target's halo (RMA) */
  size_t rat[NDIR];          /* p2p: my halo facing d starts at field + rat[d] */
  MPI_Win win;
  MPI_Group group;           /* pscw: distinct neighbours */
  int separate;              /* the window's memory model is MPI_WIN_SEPARATE */
  long transfers;            /* sends or puts issued by this rank, all swaps */
  long notifications;        /* passive: zero-byte notifications issued */
};

#define STR_(x) #x
#define STR(x) STR_(x)

static void parse_options(MPI_Comm comm, int argc, char **argv, struct options *o)
{
  int variant = 0, pack = 0, no_payload = 0;
  *o = (struct options){.nx = -1, .ny = -1, .cx = -1, .cy = -1, .verify = 0};
  const struct hnm_opt opts[] = {
    {.name = "variant", .kind = HNM_OPT_CHOICE, .arg = "V", .def = "p2p", .unit = "p2p|fence|pscw|passive", .help = "p2p (Isend/Irecv/Waitall), fence, pscw, passive (lock_all,\nput, flush_all, zero-byte notifications)", .value = &variant},
    {.name = "pack", .kind = HNM_OPT_CHOICE, .arg = "P", .def = "manual", .unit = "manual|datatype", .help = "manual (copy loops into contiguous buffers) or datatype\n(MPI_Type_vector types straight from the fields)", .value = &pack},
    {.name = "nx", .kind = HNM_OPT_LONG, .arg = "N", .help = "global columns in x (default " STR(DEFAULT_COLUMNS) " x cx: the 16 x 16\ncolumns per process of Brown et al. 2018)", .value = &o->nx, .min = 1, .max = INT_MAX},
    {.name = "ny", .kind = HNM_OPT_LONG, .arg = "N", .help = "global columns in y (default " STR(DEFAULT_COLUMNS) " x cy)", .value = &o->ny, .min = 1, .max = INT_MAX},
    {.name = "nz", .kind = HNM_OPT_LONG, .arg = "N", .def = STR(DEFAULT_NZ), .help = "levels per column, never decomposed", .value = &o->nz, .min = 1, .max = INT_MAX},
    {.name = "fields", .kind = HNM_OPT_LONG, .arg = "F", .def = STR(DEFAULT_FIELDS), .help = "prognostic fields swapped together", .value = &o->fields, .min = 1, .max = INT_MAX},
    {.name = "depth", .kind = HNM_OPT_LONG, .arg = "D", .def = STR(DEFAULT_DEPTH), .unit = "columns", .help = "halo depth", .value = &o->depth, .min = 1, .max = INT_MAX / 4},
    {.name = "cx", .kind = HNM_OPT_LONG, .arg = "N", .help = "process grid in x (cx x cy = processes; default most square, cx >= cy)", .value = &o->cx, .min = 1, .max = INT_MAX},
    {.name = "cy", .kind = HNM_OPT_LONG, .arg = "N", .help = "process grid in y", .value = &o->cy, .min = 1, .max = INT_MAX},
    {.name = "iterations", .kind = HNM_OPT_LONG, .arg = "N", .def = "1", .help = "swaps, one CSV line each", .value = &o->iterations, .min = 1, .max = INT_MAX},
    {.name = "verify", .kind = HNM_OPT_FLAG, .help = "fill the fields with global indices and check every halo\nand interior point after each swap", .value = &o->verify},
    {.name = "no-payload", .kind = HNM_OPT_FLAG, .help = "no real data (large simulations); excludes --verify", .value = &no_payload},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    PROG, "[OPTIONS]",
    "MONC halo swap (Brown et al. 2018) of F fields with a depth-D box stencil on a periodic\n"
    "cx x cy process grid; 8 neighbours (4 faces, 4 corners) per swap.",
    "Output: CSV (program,operation,algorithm,procs,params,stages,messages,time_s,\n"
    "stage_times_s); messages counts sends or puts, not notifications.\n"
    "Under smpirun use -h: SimGrid takes --help.\n",
    NULL, 0, NULL};
  skel_options(comm, &cmd, opts, argc, argv);
  o->variant = (enum variant)variant;
  o->pack = pack == 0 ? PACK_MANUAL : PACK_DATATYPE;
  if (no_payload && o->verify)
    skel_option_fail(comm, PROG, "--verify", "needs real data: drop --no-payload");
  o->payload = !no_payload;
}

/* Process grid: the options' cx/cy, or the most square cx x cy = procs with
 * cx >= cy (as MPI_Dims_create). */
static void choose_grid(MPI_Comm comm, int procs, struct options *o)
{
  if (o->cx > 0 && o->cy > 0) {
    if (o->cx * o->cy != procs)
      skel_fail(comm, PROG, "--cx %ld x --cy %ld = %ld processes, but the job has %d", o->cx, o->cy,
                o->cx * o->cy, procs);
  } else if (o->cx > 0) {
    if (procs % o->cx != 0)
      skel_option_fail(comm, PROG, "--cx", "'%ld' does not divide the %d processes", o->cx, procs);
    o->cy = procs / o->cx;
  } else if (o->cy > 0) {
    if (procs % o->cy != 0)
      skel_option_fail(comm, PROG, "--cy", "'%ld' does not divide the %d processes", o->cy, procs);
    o->cx = procs / o->cy;
  } else {
    o->cy = skel_square_divisor(procs);
    o->cx = procs / o->cy;
  }
  if (o->nx < 0)
    o->nx = DEFAULT_COLUMNS * o->cx;
  if (o->ny < 0)
    o->ny = DEFAULT_COLUMNS * o->cy;
}

static void setup_geom(MPI_Comm comm, const struct options *o, struct geom *g)
{
  MPI_Comm_size(comm, &g->procs);
  MPI_Comm_rank(comm, &g->rank);
  g->cx = (int)o->cx;
  g->cy = (int)o->cy;
  g->px = g->rank % g->cx;
  g->py = g->rank / g->cx;
  g->nx = o->nx;
  g->ny = o->ny;
  g->nz = (int)o->nz;
  g->F = (int)o->fields;
  g->D = (int)o->depth;
  /* The smallest block (floor(n / c) columns) must hold a whole halo: a
   * depth-D halo is filled from the direct neighbours only. */
  if (o->nx / o->cx < o->depth)
    skel_fail(comm, PROG, "--nx %ld over cx = %ld processes gives blocks of %ld columns, fewer than --depth %ld",
              o->nx, o->cx, o->nx / o->cx, o->depth);
  if (o->ny / o->cy < o->depth)
    skel_fail(comm, PROG, "--ny %ld over cy = %ld processes gives blocks of %ld columns, fewer than --depth %ld",
              o->ny, o->cy, o->ny / o->cy, o->depth);
  /* Largest block + halo, and the largest transfer, must fit MPI's int
   * counts (a face of F x D x ly x nz doubles is one message). */
  long X = skel_ceil_div(o->nx, o->cx) + 2 * o->depth, Y = skel_ceil_div(o->ny, o->cy) + 2 * o->depth;
  double face = (double)o->fields * (double)o->depth * (double)(X > Y ? X : Y) * (double)o->nz * 8.0;
  double local = (double)o->fields * (double)X * (double)Y * (double)o->nz * 8.0;
  if (X > INT_MAX || Y > INT_MAX || face > INT_MAX)
    skel_fail(comm, PROG, "a face of %.0f bytes is larger than one MPI message can be (2^31 - 1 bytes)", face);
  if (local > (double)SIZE_MAX / 2)
    skel_fail(comm, PROG, "local block of %.0f bytes is too large", local);
  if (o->verify && (double)o->fields * (double)o->nx * (double)o->ny * (double)o->nz >= 9007199254740992.0)
    skel_option_fail(comm, PROG, "--verify", "needs fields x nx x ny x nz < 2^53 (exact global indices)");

  long start, count;
  skel_block(o->nx, g->cx, g->px, &start, &count);
  g->x0 = start;
  g->lx = (int)count;
  skel_block(o->ny, g->cy, g->py, &start, &count);
  g->y0 = start;
  g->ly = (int)count;
  g->X = g->lx + 2 * g->D;
  g->Y = g->ly + 2 * g->D;
  for (int d = 0; d < NDIR; d++) {
    int qx = ((g->px + dir_dx[d]) % g->cx + g->cx) % g->cx;
    int qy = ((g->py + dir_dy[d]) % g->cy + g->cy) % g->cy;
    g->nbr[d] = qy * g->cx + qx; /* rank = py cx + px */
    skel_block(o->nx, g->cx, qx, &start, &count);
    g->nbr_lx[d] = (int)count;
    skel_block(o->ny, g->cy, qy, &start, &count);
    g->nbr_ly[d] = (int)count;
  }
}

/* My interior edge facing d (what I send toward d). */
static struct box send_box(int lx, int ly, int D, int d)
{
  struct box b;
  b.x0 = dir_dx[d] > 0 ? lx : D;
  b.w = dir_dx[d] != 0 ? D : lx;
  b.y0 = dir_dy[d] > 0 ? ly : D;
  b.h = dir_dy[d] != 0 ? D : ly;
  return b;
}

/* The halo facing d of a block of lx x ly (filled by the neighbour at d). */
static struct box halo_box(int lx, int ly, int D, int d)
{
  struct box b;
  b.x0 = dir_dx[d] < 0 ? 0 : dir_dx[d] > 0 ? D + lx : D;
  b.w = dir_dx[d] != 0 ? D : lx;
  b.y0 = dir_dy[d] < 0 ? 0 : dir_dy[d] > 0 ? D + ly : D;
  b.h = dir_dy[d] != 0 ? D : ly;
  return b;
}

static size_t box_elems(const struct geom *g, struct box b)
{
  return (size_t)g->F * (size_t)b.w * (size_t)b.h * (size_t)g->nz;
}

/* Offset (doubles) of column (x, y) of field f in an array of X x Y
 * columns of nz levels per field. */
static size_t offset_in(int X, int Y, int nz, int f, int x, int y)
{
  return (((size_t)f * (size_t)X + (size_t)x) * (size_t)Y + (size_t)y) * (size_t)nz;
}

static size_t at(const struct geom *g, int f, int x, int y)
{
  return offset_in(g->X, g->Y, g->nz, f, x, y);
}

/* Offsets of the 8 halo regions of a block of lx x ly in a contiguous
 * buffer, by arrival direction; off[NDIR] is the total. */
static void region_offsets(const struct geom *g, int lx, int ly, size_t off[NDIR + 1])
{
  off[0] = 0;
  for (int d = 0; d < NDIR; d++)
    off[d + 1] = off[d] + box_elems(g, halo_box(lx, ly, g->D, d));
}

/* Copy a box between the field and a contiguous buffer, in the order of the
 * datatype (f, x, y, z): for fixed f and x, the box's columns are
 * h x nz contiguous doubles. */
static void pack_box(const struct geom *g, const double *field, struct box b, double *buf)
{
  size_t run = (size_t)b.h * (size_t)g->nz;
  for (int f = 0; f < g->F; f++)
    for (int x = b.x0; x < b.x0 + b.w; x++, buf += run)
      memcpy(buf, field + at(g, f, x, b.y0), run * sizeof(double));
}

static void unpack_box(const struct geom *g, double *field, struct box b, const double *buf)
{
  size_t run = (size_t)b.h * (size_t)g->nz;
  for (int f = 0; f < g->F; f++)
    for (int x = b.x0; x < b.x0 + b.w; x++, buf += run)
      memcpy(field + at(g, f, x, b.y0), buf, run * sizeof(double));
}

/* A box of a F x (lx+2D) x (ly+2D) x nz array of doubles, relative to the
 * box's first element: per field w runs of h x nz doubles, Y x nz apart
 * (MPI_Type_vector), and the F fields X x Y x nz apart (hvector). Its
 * extent is the box's footprint, so a put never reaches past the window.
 *
 * Why not MPI_Type_create_subarray from the array's start: then a put to
 * oneself has the same origin and target address, and SimGrid 3.32's
 * Datatype::copy (smpi_datatype.cpp) skips copies whose source and
 * destination addresses are equal, derived datatypes or not: the periodic
 * self-exchange (1 process in a direction) would silently move nothing.
 * Addressing each box by its first element keeps the two addresses apart
 * and is the same data layout. */
static MPI_Datatype box_type(const struct geom *g, int lx, int ly, struct box b)
{
  int Y = ly + 2 * g->D;
  MPI_Aint field_bytes = (MPI_Aint)(lx + 2 * g->D) * Y * g->nz * (MPI_Aint)sizeof(double);
  MPI_Datatype one, t;
  MPI_Type_vector(b.w, b.h * g->nz, Y * g->nz, MPI_DOUBLE, &one);
  MPI_Type_create_hvector(g->F, 1, field_bytes, one, &t);
  MPI_Type_free(&one);
  MPI_Type_commit(&t);
  return t;
}

/* The value of a point: 1 + its global index (so never SENTINEL). */
static double value(const struct geom *g, int f, long gx, long gy, int z)
{
  return (double)((((long long)f * g->nx + gx) * g->ny + gy) * g->nz + z + 1);
}

static void fill_interior(const struct geom *g, double *field)
{
  for (int f = 0; f < g->F; f++)
    for (int x = 0; x < g->X; x++)
      for (int y = 0; y < g->Y; y++) {
        int inside = x >= g->D && x < g->D + g->lx && y >= g->D && y < g->D + g->ly;
        double *col = field + at(g, f, x, y);
        for (int z = 0; z < g->nz; z++)
          col[z] = inside ? value(g, f, g->x0 + x - g->D, g->y0 + y - g->D, z) : SENTINEL;
      }
}

static void reset_halo(const struct geom *g, double *field)
{
  for (int d = 0; d < NDIR; d++) {
    struct box b = halo_box(g->lx, g->ly, g->D, d);
    for (int f = 0; f < g->F; f++)
      for (int x = b.x0; x < b.x0 + b.w; x++)
        for (int y = b.y0; y < b.y0 + b.h; y++) {
          double *col = field + at(g, f, x, y);
          for (int z = 0; z < g->nz; z++)
            col[z] = SENTINEL;
        }
  }
}

/* Check every point (halo and interior) against the global index function.
 * Returns the number of halo points checked, or -1 with msg filled. */
static long check_field(const struct geom *g, const double *field, char *msg, size_t len)
{
  long halo = 0;
  for (int f = 0; f < g->F; f++)
    for (int x = 0; x < g->X; x++)
      for (int y = 0; y < g->Y; y++) {
        int inside = x >= g->D && x < g->D + g->lx && y >= g->D && y < g->D + g->ly;
        long gx = ((g->x0 + x - g->D) % g->nx + g->nx) % g->nx;
        long gy = ((g->y0 + y - g->D) % g->ny + g->ny) % g->ny;
        const double *col = field + at(g, f, x, y);
        for (int z = 0; z < g->nz; z++) {
          double want = value(g, f, gx, gy, z);
          if (col[z] != want) {
            int dx = x < g->D ? -1 : x >= g->D + g->lx ? 1 : 0, dy = y < g->D ? -1 : y >= g->D + g->ly ? 1 : 0;
            int d = 0;
            while (d < NDIR && !(dir_dx[d] == dx && dir_dy[d] == dy))
              d++;
            char where[64];
            if (inside)
              snprintf(where, sizeof where, "interior point");
            else
              snprintf(where, sizeof where, "halo from the %s neighbour, rank %d", dir_names[d], g->nbr[d]);
            snprintf(msg, len,
                     "verify failed on rank %d (px %d, py %d): field %d, local column (%d, %d) = global (%ld, %ld), "
                     "level %d: got %.17g, expected %.17g (%s)",
                     g->rank, g->px, g->py, f, x, y, gx, gy, z, col[z], want, where);
            return -1;
          }
        }
        if (!inside)
          halo += g->nz;
      }
  return halo;
}

/* 1 when the window's memory model is MPI_WIN_SEPARATE (then a target must
 * MPI_Win_sync before reading what passive-target puts wrote, Brown et al. 2018
 * IV-B3). SimGrid 3.32's SMPI has no MPI_WIN_MODEL attribute (asking fails
 * with a warning on every rank) and its puts copy straight into the
 * target's memory: the unified model, without asking. An MPI that cannot
 * answer is taken as unified too. */
static int window_is_separate(MPI_Win win)
{
#ifdef SMPI_SHARED_MALLOC
  (void)win;
  return 0;
#else
  int *model = NULL, flag = 0;
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int rc = MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
  MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
  return rc == MPI_SUCCESS && flag && model != NULL && *model == MPI_WIN_SEPARATE;
#endif
}

struct clock {
  double t0, last;
  int n;
  double s[MAX_STAGES];
};

static void clock_start(struct clock *c)
{
  c->n = 0;
  c->t0 = c->last = MPI_Wtime();
}

static void clock_stage(struct clock *c)
{
  double t = MPI_Wtime();
  c->s[c->n++] = t - c->last;
  c->last = t;
}

static void pack_all(struct halo *h)
{
  const struct geom *g = h->g;
  for (int d = 0; d < NDIR; d++)
    pack_box(g, h->field, send_box(g->lx, g->ly, g->D, d), h->sbuf + h->soff[d]);
}

static void unpack_all(struct halo *h)
{
  const struct geom *g = h->g;
  for (int d = 0; d < NDIR; d++)
    unpack_box(g, h->field, halo_box(g->lx, g->ly, g->D, d), h->rbuf + h->roff[d]);
}

/* The 8 puts of the RMA variants, toward each direction. */
static void put_all(struct halo *h)
{
  const struct geom *g = h->g;
  for (int d = 0; d < NDIR; d++) {
    if (h->o->pack == PACK_MANUAL)
      MPI_Put(h->sbuf + h->soff[d], (int)(h->soff[d + 1] - h->soff[d]), MPI_DOUBLE, g->nbr[d], h->tdisp[d],
              (int)(h->soff[d + 1] - h->soff[d]), MPI_DOUBLE, h->win);
    else
      MPI_Put(h->field + h->sat[d], 1, h->stype[d], g->nbr[d], h->tdisp[d], 1, h->rtype[d], h->win);
    h->transfers++;
  }
}

/* One halo swap; fills c with the stage times. */
static void swap(struct halo *h, MPI_Comm comm, struct clock *c)
{
  const struct geom *g = h->g;
  int manual = h->o->pack == PACK_MANUAL;
  MPI_Request req[2 * NDIR];
  clock_start(c);
  if (manual) {
    pack_all(h);
    clock_stage(c); /* pack */
  }
  switch (h->o->variant) {
  case V_P2P:
    for (int d = 0; d < NDIR; d++) {
      /* From the neighbour at d: it sent toward opp(d). */
      if (manual)
        MPI_Irecv(h->rbuf + h->roff[d], (int)(h->roff[d + 1] - h->roff[d]), MPI_DOUBLE, g->nbr[d], dir_opp[d],
                  comm, &req[d]);
      else
        MPI_Irecv(h->field + h->rat[d], 1, h->rtype[d], g->nbr[d], dir_opp[d], comm, &req[d]);
    }
    for (int d = 0; d < NDIR; d++) {
      if (manual)
        MPI_Isend(h->sbuf + h->soff[d], (int)(h->soff[d + 1] - h->soff[d]), MPI_DOUBLE, g->nbr[d], d, comm,
                  &req[NDIR + d]);
      else
        MPI_Isend(h->field + h->sat[d], 1, h->stype[d], g->nbr[d], d, comm, &req[NDIR + d]);
      h->transfers++;
    }
    MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
    clock_stage(c); /* exchange */
    if (manual) {
      unpack_all(h);
      clock_stage(c); /* unpack */
    }
    break;
  case V_FENCE:
    put_all(h);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, h->win);
    clock_stage(c); /* put */
    if (manual) {
      unpack_all(h);
      clock_stage(c); /* unpack */
    }
    MPI_Win_fence(MPI_MODE_NOPRECEDE, h->win);
    clock_stage(c); /* reopen */
    break;
  case V_PSCW:
    put_all(h);
    MPI_Win_complete(h->win);
    MPI_Win_wait(h->win);
    clock_stage(c); /* put */
    if (manual) {
      unpack_all(h);
      clock_stage(c); /* unpack */
    }
    MPI_Win_post(h->group, 0, h->win);
    MPI_Win_start(h->group, 0, h->win);
    clock_stage(c); /* reopen */
    break;
  case V_PASSIVE:
    for (int d = 0; d < NDIR; d++)
      MPI_Irecv(NULL, 0, MPI_BYTE, g->nbr[d], NOTIFY_TAG + dir_opp[d], comm, &req[d]);
    put_all(h);
    MPI_Win_flush_all(h->win);
    clock_stage(c); /* put */
    for (int d = 0; d < NDIR; d++) {
      MPI_Isend(NULL, 0, MPI_BYTE, g->nbr[d], NOTIFY_TAG + d, comm, &req[NDIR + d]);
      h->notifications++;
    }
    MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
    if (h->separate)
      MPI_Win_sync(h->win);
    clock_stage(c); /* notify */
    if (manual) {
      unpack_all(h);
      clock_stage(c); /* unpack */
    }
    break;
  default:
    break;
  }
}

/* Buffers, datatypes, window and the first epoch. */
static void halo_setup(MPI_Comm comm, const struct options *o, const struct geom *g, struct halo *h)
{
  memset(h, 0, sizeof *h);
  h->o = o;
  h->g = g;
  h->win = MPI_WIN_NULL;
  h->group = MPI_GROUP_NULL;
  for (int d = 0; d < NDIR; d++)
    h->stype[d] = h->rtype[d] = MPI_DATATYPE_NULL;
  int rma = o->variant != V_P2P;
  size_t nfield = (size_t)g->F * (size_t)g->X * (size_t)g->Y * (size_t)g->nz;
  h->field = skel_alloc(nfield * sizeof(double), o->payload);
  int ok = h->field != NULL;
  if (o->pack == PACK_MANUAL) {
    h->soff[0] = 0;
    for (int d = 0; d < NDIR; d++)
      h->soff[d + 1] = h->soff[d] + box_elems(g, send_box(g->lx, g->ly, g->D, d));
    region_offsets(g, g->lx, g->ly, h->roff);
    h->sbuf = skel_alloc(h->soff[NDIR] * sizeof(double), o->payload);
    h->rbuf = skel_alloc(h->roff[NDIR] * sizeof(double), o->payload);
    ok = ok && h->sbuf != NULL && h->rbuf != NULL;
    /* Where my put toward d goes in the target's buffer: its region for
     * arrival direction opp(d), laid out with the target's block sizes.
     * MONC exchanges these offsets at initialisation (Brown et al. 2018, IV-A);
     * here every rank knows the block distribution, so it computes them. */
    for (int d = 0; d < NDIR; d++) {
      size_t toff[NDIR + 1];
      region_offsets(g, g->nbr_lx[d], g->nbr_ly[d], toff);
      h->tdisp[d] = (MPI_Aint)toff[dir_opp[d]];
    }
  } else {
    for (int d = 0; d < NDIR; d++) {
      struct box sb = send_box(g->lx, g->ly, g->D, d);
      h->stype[d] = box_type(g, g->lx, g->ly, sb);
      h->sat[d] = at(g, 0, sb.x0, sb.y0);
      if (rma) { /* the target's halo facing opp(d), in the target's array */
        int tlx = g->nbr_lx[d], tly = g->nbr_ly[d];
        struct box hb = halo_box(tlx, tly, g->D, dir_opp[d]);
        h->rtype[d] = box_type(g, tlx, tly, hb);
        h->tdisp[d] = (MPI_Aint)offset_in(tlx + 2 * g->D, tly + 2 * g->D, g->nz, 0, hb.x0, hb.y0);
      } else {
        struct box hb = halo_box(g->lx, g->ly, g->D, d);
        h->rtype[d] = box_type(g, g->lx, g->ly, hb);
        h->rat[d] = at(g, 0, hb.x0, hb.y0);
      }
    }
  }
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (!all_ok)
    skel_fail(comm, PROG, "cannot allocate %.0f bytes of fields and buffers per process",
              (double)(nfield + h->soff[NDIR] + h->roff[NDIR]) * sizeof(double));
  if (o->verify)
    fill_interior(g, h->field);
  if (!rma)
    return;

  if (o->pack == PACK_MANUAL)
    MPI_Win_create(h->rbuf, (MPI_Aint)(h->roff[NDIR] * sizeof(double)), sizeof(double), MPI_INFO_NULL, comm,
                   &h->win);
  else
    MPI_Win_create(h->field, (MPI_Aint)(nfield * sizeof(double)), sizeof(double), MPI_INFO_NULL, comm, &h->win);
  h->separate = window_is_separate(h->win);
  switch (o->variant) {
  case V_FENCE:
    MPI_Win_fence(MPI_MODE_NOPRECEDE, h->win);
    break;
  case V_PSCW: {
    /* The distinct neighbours (one rank may be on several sides, or be
     * this rank itself), in increasing order. */
    int ranks[NDIR], n = 0;
    for (int d = 0; d < NDIR; d++) {
      int r = g->nbr[d], seen = 0;
      for (int k = 0; k < n; k++)
        seen |= ranks[k] == r;
      if (!seen)
        ranks[n++] = r;
    }
    for (int i = 1; i < n; i++)
      for (int k = i; k > 0 && ranks[k - 1] > ranks[k]; k--) {
        int t = ranks[k];
        ranks[k] = ranks[k - 1];
        ranks[k - 1] = t;
      }
    MPI_Group all;
    MPI_Comm_group(comm, &all);
    MPI_Group_incl(all, n, ranks, &h->group);
    MPI_Group_free(&all);
    MPI_Win_post(h->group, 0, h->win);
    MPI_Win_start(h->group, 0, h->win);
    break;
  }
  case V_PASSIVE:
    MPI_Win_lock_all(MPI_MODE_NOCHECK, h->win);
    break;
  default:
    break;
  }
}

static void halo_teardown(struct halo *h)
{
  const struct options *o = h->o;
  if (h->win != MPI_WIN_NULL) {
    switch (o->variant) {
    case V_FENCE:
      MPI_Win_fence(MPI_MODE_NOSUCCEED, h->win);
      break;
    case V_PSCW:
      MPI_Win_complete(h->win);
      MPI_Win_wait(h->win);
      MPI_Group_free(&h->group);
      break;
    case V_PASSIVE:
      MPI_Win_unlock_all(h->win);
      break;
    default:
      break;
    }
    MPI_Win_free(&h->win);
  }
  for (int d = 0; d < NDIR; d++) {
    if (h->stype[d] != MPI_DATATYPE_NULL)
      MPI_Type_free(&h->stype[d]);
    if (h->rtype[d] != MPI_DATATYPE_NULL)
      MPI_Type_free(&h->rtype[d]);
  }
  skel_free(h->field, o->payload);
  skel_free(h->sbuf, o->payload);
  skel_free(h->rbuf, o->payload);
}

/* Verify after a swap: every rank checks its block; the first failing rank
 * (lowest) sends its message to the others and all fail together. */
static long verify_swap(MPI_Comm comm, const struct geom *g, const struct halo *h)
{
  char msg[512] = "";
  long halo = check_field(g, h->field, msg, sizeof msg);
  int bad = halo < 0 ? g->rank : g->procs, first = g->procs;
  MPI_Allreduce(&bad, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first < g->procs) {
    MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, comm);
    skel_fail(comm, PROG, "%s", msg);
  }
  return halo;
}

/* Before a verified swap, the halo (and, with manual packing, the receive
 * regions) hold SENTINEL again, so that a transfer that did not happen
 * cannot pass for one. No RMA targets the window memory meanwhile (the last
 * swap's transfers are complete, the next ones start after the barrier);
 * with a separate memory model MPI_Win_sync makes the stores public. */
static void verify_reset(const struct geom *g, struct halo *h)
{
  reset_halo(g, h->field);
  if (h->o->pack == PACK_MANUAL)
    for (size_t i = 0; i < h->roff[NDIR]; i++)
      h->rbuf[i] = SENTINEL;
  if (h->separate)
    MPI_Win_sync(h->win);
}

int main(int argc, char **argv)
{
  int rank, procs;
  MPI_Comm comm = skel_init(&argc, &argv, &rank, &procs);
  struct options o;
  parse_options(comm, argc, argv, &o);
  choose_grid(comm, procs, &o);
  struct geom g;
  setup_geom(comm, &o, &g);
  struct halo h;
  halo_setup(comm, &o, &g, &h);

  int manual = o.pack == PACK_MANUAL;
  long notify_total = 0, checked = 0;
  char params[256];
  struct skel_batch *batch = skel_batch_new(comm, NULL);
  skel_fail_if_any(comm, batch == NULL, PROG, "out of memory for the report");
  skel_csv_header(comm);
  for (long it = 0; it < o.iterations; it++) {
    if (o.verify)
      verify_reset(&g, &h);
    long transfers_before = h.transfers, notes_before = h.notifications;
    struct clock c;
    /* Every rank starts the swap at the same instant (skel.h); the sync
     * is also a barrier: no neighbour's next puts before this rank's
     * unpacking (fence, passive). */
    skel_sync(comm, batch);
    swap(&h, comm, &c);
    double t = MPI_Wtime() - c.t0;
    /* notifications is the same on every rank: 8 per rank and swap
     * (passive), 0 otherwise. */
    notify_total = (h.notifications - notes_before) * procs;
    snprintf(params, sizeof params, "cx=%d;cy=%d;nx=%ld;ny=%ld;nz=%d;fields=%d;depth=%d;pack=%s;notifications=%ld",
             g.cx, g.cy, g.nx, g.ny, g.nz, g.F, g.D, manual ? "manual" : "datatype", notify_total);
    skel_batch_add(batch, PROG, "halo_swap", variant_names[o.variant], params, c.n, c.s,
                   h.transfers - transfers_before, t);
    skel_batch_report(comm, batch, PROG);
    if (o.verify)
      checked += verify_swap(comm, &g, &h);
  }
  if (o.verify)
    skel_verify_ok(comm, PROG, checked);
  skel_batch_free(batch);
  halo_teardown(&h);
  MPI_Finalize();
  return 0;
}
