/* calibrate_pack.c -- pack and unpack times of derived datatypes, for the
 * pack model (docs/models.md, "Packing"; docs/calibration.md).
 *
 * The access patterns are those Schneider, Kjolstad and Hoefler 2013 study
 * (micro-benchmarks, and ddtbench's application patterns as the paper
 * describes them), written here from those descriptions, on doubles:
 *   fit (the coefficients are fitted on these):
 *     vec1     MPI_Type_vector(n, 1, 2): every other double          vector
 *     vec16    MPI_Type_vector(n, 16, 32): blocks of 16 doubles      vector
 *     vec128   MPI_Type_vector(n, 128, 256): blocks of 1 KiB         vector
 *     col      MPI_Type_vector(n, 3, 1024): 3 doubles from each row
 *              of a matrix of 8 KiB rows (every block a jump)        vector
 *     idx      MPI_Type_indexed, n blocks of 1..8 doubles, 1..4
 *              apart, both random (fixed seed)                       indexed
 *     idx16    the same with blocks of 1..16 doubles (another seed):
 *              more bytes per block, and other periods               indexed
 *     idxb     MPI_Type_create_indexed_block, n blocks of 2 doubles
 *              1..4 apart at random: irregular gaps, regular lengths
 *              (period 0)                                            indexed
 *     struct3  MPI_Type_create_struct of 3 blocks (1, 1, 2 doubles),
 *              n elements                                            indexed
 *     subz     n^3 array, MPI_Type_create_subarray z-face {n,n,1}    subarray
 *     suby     the y-face {n,1,n}                                    subarray
 *   held out (never fitted; the report compares them with the prediction):
 *     mg_x     NAS MG, x-face of an n^3 grid: vector(n*n, 1, n)      vector
 *     mg_y     NAS MG, y-face: vector(n, n, n*n)                     vector
 *     lu       NAS LU, 5 variables per point: vector(n, 5, 5n)       vector
 *     milc     MILC su3 vectors (6 doubles) on a face of an n^4
 *              lattice: hvector(n, 1, ., vector(n, 6, 6n))           vector
 *     fft      2-D FFT transpose: a column of n complex numbers,
 *              resized to one complex, n of them                     vector
 *     unstruct irregular mesh: indexed, random blocks of 1..4,
 *              random gaps (fixed seed)                              indexed
 *     wrf      WRF: struct of 4 fields' x-halos (subarray {n/2,n,3})  subarray
 *              (a struct of subarrays packs like subarrays: the class
 *              is that of what makes the runs, hnm_model.h)
 *     sub2     a two-plane halo {n,n,2} of an n^3 array              subarray
 * Each pattern is measured at a few sizes n, as
 *   interpreted  MPI_Pack / MPI_Unpack of the datatype (the MPI library's
 *                own datatype engine);
 *   manual       a copy loop over the pattern's runs, double by double
 *                (what an application writes by hand);
 *   compiled     one memcpy per run, from the pattern's run list: code
 *                specialised to the type with no interpretation left, the
 *                measurable stand-in for a pack routine compiled for it
 *                (the paper's libpack);
 *   contiguous   memcpy of the same bytes (the baseline: no packing).
 * A timing lasts at least MIN_TIMING (short operations are repeated inside
 * it); the median of --pack-reps timings is written.
 * blocks is the number of maximal contiguous runs of the message (adjacent
 * runs merged, in type-map order: the definition of hnm_model.h's "pack"),
 * and jumps the sum of the runs' jump weights after the previous run
 * (core/hnm_bench.h, hnm_bench_pack_jump()), both computed here from the
 * pattern's run list, independently of the MPI library; period the runs of
 * one repetition of an irregular layout (core/hnm_bench.h), from the
 * pattern's constructor: the runs of one element when the constructor's
 * block lengths differ, else 0.
 */
#define _POSIX_C_SOURCE 200809L
#include "calibrate_pack.h"
#include "hnm_bench.h"
#include "hnm_msg.h"
#include "skel.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One instance of a pattern: its datatype, the count sent, and its runs in
 * doubles (offset, length) for the manual loop. */
struct inst {
  MPI_Datatype t;
  int count;
  long *off, *len;
  long nruns, cap;
  long span; /* doubles of the source array */
  long period; /* runs of one repetition of an irregular layout; 0: regular */
};

/* The period of a constructor over doubles whose N block lengths are BL, one
 * element of which makes RUNS runs: RUNS if the lengths differ, else 0
 * (core/hnm_bench.h). */
static long period_of(const int *bl, long n, long runs)
{
  for (long i = 1; i < n; i++)
    if (bl[i] != bl[0])
      return runs;
  return 0;
}

static int emit(struct inst *p, long off, long len)
{
  if (len <= 0)
    return 0;
  if (p->nruns > 0 && p->off[p->nruns - 1] + p->len[p->nruns - 1] == off) {
    p->len[p->nruns - 1] += len;
    return 0;
  }
  if (p->nruns == p->cap) {
    long cap = p->cap ? 2 * p->cap : 1024;
    long *o = realloc(p->off, (size_t)cap * sizeof *o), *l = o ? realloc(p->len, (size_t)cap * sizeof *l) : NULL;
    if (o == NULL || l == NULL) {
      if (o != NULL)
        p->off = o;
      return -1;
    }
    p->off = o, p->len = l, p->cap = cap;
  }
  p->off[p->nruns] = off;
  p->len[p->nruns] = len;
  p->nruns++;
  return 0;
}

static uint64_t lcg(uint64_t *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 33;
}

enum role { FIT, HOLDOUT };
struct pattern {
  const char *name, *cls;
  enum role role;
  long sizes[4]; /* 0: unused */
  int (*build)(long n, struct inst *p);
};

/* Element extents are MPI's (MPI_Type_get_extent): the runs of count > 1
 * elements follow the library's layout. */
static long extent_doubles(MPI_Datatype t)
{
  MPI_Aint lb, ext;
  MPI_Type_get_extent(t, &lb, &ext);
  return (long)(ext / (MPI_Aint)sizeof(double));
}

/* MPI_Type_vector(COUNT, BLOCK, STRIDE) of doubles: COUNT runs of BLOCK
 * doubles, one every STRIDE. */
static int vector_of(struct inst *p, long count, long block, long stride)
{
  MPI_Type_vector((int)count, (int)block, (int)stride, MPI_DOUBLE, &p->t);
  for (long i = 0; i < count; i++)
    if (emit(p, i * stride, block))
      return -1;
  p->span = count * stride;
  return 0;
}

static int b_vec1(long n, struct inst *p)
{
  return vector_of(p, n, 1, 2);
}

static int b_vec16(long n, struct inst *p)
{
  return vector_of(p, n, 16, 32);
}


static int b_vec128(long n, struct inst *p)
{
  return vector_of(p, n, 128, 256);
}

static int b_col(long n, struct inst *p)
{
  return vector_of(p, n, 3, 1024);
}

/* An irregular MPI_Type_indexed of N blocks drawn from lcg(SEED): before
 * each block a gap of 1 + r % GAP_BEFORE_MOD doubles (none when 0), the
 * block 1 + r % LEN_MOD doubles, after it a gap of 1 + r % GAP_AFTER_MOD
 * (none when 0); the span ends SPAN_EXTRA doubles after the last. */
struct irregular {
  uint64_t seed;
  long gap_before_mod, len_mod, gap_after_mod, span_extra;
};

static int indexed_of(struct inst *p, long n, const struct irregular *l)
{
  int *bl = malloc((size_t)n * sizeof *bl), *d = malloc((size_t)n * sizeof *d);
  uint64_t s = l->seed;
  long at = 0;
  int rc = bl && d ? 0 : -1;
  for (long i = 0; rc == 0 && i < n; i++) {
    if (l->gap_before_mod > 0)
      at += 1 + (long)(lcg(&s) % (uint64_t)l->gap_before_mod);
    bl[i] = 1 + (int)(lcg(&s) % (uint64_t)l->len_mod);
    d[i] = (int)at;
    rc = emit(p, at, bl[i]);
    at += bl[i];
    if (l->gap_after_mod > 0)
      at += 1 + (long)(lcg(&s) % (uint64_t)l->gap_after_mod);
  }
  if (rc == 0)
    MPI_Type_indexed((int)n, bl, d, MPI_DOUBLE, &p->t);
  p->span = at + l->span_extra;
  p->period = rc == 0 ? period_of(bl, n, p->nruns) : 0;
  free(bl);
  free(d);
  return rc;
}

static int b_idx(long n, struct inst *p)
{
  static const struct irregular layout = {.seed = 777, .len_mod = 8, .gap_after_mod = 4};
  return indexed_of(p, n, &layout);
}

static int b_idx16(long n, struct inst *p)
{
  static const struct irregular layout = {.seed = 4242, .len_mod = 16, .gap_after_mod = 4};
  return indexed_of(p, n, &layout);
}

/* Blocks of 2 doubles, a random gap of 1..4 doubles after each: the gaps
 * of idx with none of its varying lengths. */
static int b_idxb(long n, struct inst *p)
{
  int *d = malloc((size_t)n * sizeof *d);
  uint64_t s = 99;
  long at = 0;
  int rc = d ? 0 : -1;
  for (long i = 0; rc == 0 && i < n; i++) {
    d[i] = (int)at;
    rc = emit(p, at, 2);
    at += 2 + 1 + (long)(lcg(&s) % 4);
  }
  if (rc == 0)
    MPI_Type_create_indexed_block((int)n, 2, d, MPI_DOUBLE, &p->t);
  p->span = at;
  p->period = 0;
  free(d);
  return rc;
}

static int b_struct3(long n, struct inst *p)
{
  int bl[3] = {1, 1, 2};
  MPI_Aint d[3] = {0, 16, 40};
  MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_DOUBLE, MPI_DOUBLE};
  MPI_Type_create_struct(3, bl, d, ty, &p->t);
  long ext = extent_doubles(p->t);
  p->count = (int)n;
  for (long k = 0; k < n; k++)
    if (emit(p, k * ext, 1) || emit(p, k * ext + 2, 1) || emit(p, k * ext + 5, 2))
      return -1;
  p->span = n * ext;
  /* one element: three runs (0, 2 and 5 doubles in, none adjacent) */
  p->period = period_of(bl, 3, 3);
  return 0;
}

/* 3-D subarray of an n0 x n1 x n2 array (C order): runs along the last
 * dimension, the others walked slowest first. */
static int sub3(struct inst *p, const int sz[3], const int sub[3], const int st[3], long base)
{
  for (long i = 0; i < sub[0]; i++)
    for (long j = 0; j < sub[1]; j++)
      if (emit(p, base + ((st[0] + i) * sz[1] + st[1] + j) * sz[2] + st[2], sub[2]))
        return -1;
  return 0;
}

static int b_subz(long n, struct inst *p)
{
  int sz[3] = {(int)n, (int)n, (int)n}, sub[3] = {(int)n, (int)n, 1}, st[3] = {0, 0, (int)n / 2};
  MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &p->t);
  p->span = n * n * n;
  return sub3(p, sz, sub, st, 0);
}

static int b_suby(long n, struct inst *p)
{
  int sz[3] = {(int)n, (int)n, (int)n}, sub[3] = {(int)n, 1, (int)n}, st[3] = {0, (int)n / 2, 0};
  MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &p->t);
  p->span = n * n * n;
  return sub3(p, sz, sub, st, 0);
}

static int b_sub2(long n, struct inst *p)
{
  int sz[3] = {(int)n, (int)n, (int)n}, sub[3] = {(int)n, (int)n, 2}, st[3] = {0, 0, 1};
  MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &p->t);
  p->span = n * n * n;
  return sub3(p, sz, sub, st, 0);
}

static int b_mg_x(long n, struct inst *p)
{
  return vector_of(p, n * n, 1, n);
}

static int b_mg_y(long n, struct inst *p)
{
  return vector_of(p, n, n, n * n);
}

static int b_lu(long n, struct inst *p)
{
  return vector_of(p, n, 5, 5 * n);
}

static int b_milc(long n, struct inst *p)
{
  MPI_Datatype row;
  MPI_Type_vector((int)n, 6, (int)(6 * n), MPI_DOUBLE, &row);
  MPI_Type_create_hvector((int)n, 1, (MPI_Aint)(6 * n * n * sizeof(double)), row, &p->t);
  MPI_Type_free(&row);
  for (long j = 0; j < n; j++)
    for (long i = 0; i < n; i++)
      if (emit(p, j * 6 * n * n + i * 6 * n, 6))
        return -1;
  p->span = 6 * n * n * n;
  return 0;
}

static int b_fft(long n, struct inst *p)
{
  MPI_Datatype col;
  MPI_Type_vector((int)n, 2, (int)(2 * n), MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, 2 * sizeof(double), &p->t);
  MPI_Type_free(&col);
  p->count = (int)n;
  for (long j = 0; j < n; j++)
    for (long i = 0; i < n; i++)
      if (emit(p, j * 2 + i * 2 * n, 2))
        return -1;
  p->span = 2 * n * n;
  return 0;
}

static int b_unstruct(long n, struct inst *p)
{
  static const struct irregular layout = {.seed = 12345, .gap_before_mod = 6, .len_mod = 4, .span_extra = 1};
  return indexed_of(p, n, &layout);
}

static int b_wrf(long n, struct inst *p)
{
  enum { FIELDS = 4 };
  int sz[3] = {(int)(n / 2), (int)n, (int)n}, sub[3] = {(int)(n / 2), (int)n, 3}, st[3] = {0, 0, 3};
  MPI_Datatype f;
  MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &f);
  long field = (n / 2) * n * n;
  int bl[FIELDS];
  MPI_Aint d[FIELDS];
  MPI_Datatype ty[FIELDS];
  int rc = 0;
  for (int k = 0; k < FIELDS; k++) {
    bl[k] = 1;
    d[k] = (MPI_Aint)(k * field * (long)sizeof(double));
    ty[k] = f;
    if (rc == 0)
      rc = sub3(p, sz, sub, st, k * field);
  }
  MPI_Type_create_struct(FIELDS, bl, d, ty, &p->t);
  MPI_Type_free(&f);
  p->span = FIELDS * field;
  return rc;
}

static const struct pattern patterns[] = {
  {"vec1", "vector", FIT, {64, 1024, 8192, 65536}, b_vec1},
  {"vec16", "vector", FIT, {16, 256, 2048, 8192}, b_vec16},
  {"vec128", "vector", FIT, {4, 16, 128, 1024}, b_vec128},
  {"col", "vector", FIT, {16, 128, 1024, 4096}, b_col},
  {"idx", "indexed", FIT, {64, 1024, 8192, 32768}, b_idx},
  {"idx16", "indexed", FIT, {256, 4096, 16384, 65536}, b_idx16},
  {"idxb", "indexed", FIT, {64, 1024, 8192, 32768}, b_idxb},
  {"struct3", "indexed", FIT, {32, 512, 4096, 16384}, b_struct3},
  {"subz", "subarray", FIT, {8, 24, 64, 160}, b_subz},
  {"suby", "subarray", FIT, {8, 24, 64, 160}, b_suby},
  {"mg_x", "vector", HOLDOUT, {32, 96, 0}, b_mg_x},
  {"mg_y", "vector", HOLDOUT, {32, 96, 0}, b_mg_y},
  {"lu", "vector", HOLDOUT, {64, 512, 0}, b_lu},
  {"milc", "vector", HOLDOUT, {8, 24, 0}, b_milc},
  {"fft", "vector", HOLDOUT, {64, 256, 0}, b_fft},
  {"unstruct", "indexed", HOLDOUT, {2000, 20000, 0}, b_unstruct},
  {"wrf", "subarray", HOLDOUT, {32, 96, 0}, b_wrf},
  {"sub2", "subarray", HOLDOUT, {32, 96, 0}, b_sub2},
};

static volatile double sink;

static void manual_pack(const double *in, double *out, const struct inst *p)
{
  long k = 0;
  for (long r = 0; r < p->nruns; r++) {
    const double *src = in + p->off[r];
    for (long j = 0; j < p->len[r]; j++)
      out[k++] = src[j];
  }
}

static void manual_unpack(const double *in, double *out, const struct inst *p)
{
  long k = 0;
  for (long r = 0; r < p->nruns; r++) {
    double *dst = out + p->off[r];
    for (long j = 0; j < p->len[r]; j++)
      dst[j] = in[k++];
  }
}

static void runs_pack(const double *in, double *out, const struct inst *p)
{
  long k = 0;
  for (long r = 0; r < p->nruns; r++) {
    memcpy(out + k, in + p->off[r], (size_t)p->len[r] * sizeof *out);
    k += p->len[r];
  }
}

static void runs_unpack(const double *in, double *out, const struct inst *p)
{
  long k = 0;
  for (long r = 0; r < p->nruns; r++) {
    memcpy(out + p->off[r], in + k, (size_t)p->len[r] * sizeof *out);
    k += p->len[r];
  }
}

/* The jumps of p: its runs' jump weights after the previous run (byte
 * offsets; a multiple of 1/4, exact). */
static double count_jumps(const struct inst *p)
{
  double j = 0;
  for (long r = 1; r < p->nruns; r++)
    j += hnm_bench_pack_jump((long long)p->off[r - 1] * (long long)sizeof(double),
                             (long long)p->off[r] * (long long)sizeof(double));
  return j;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

enum { ST_INTERPRETED, ST_MANUAL, ST_COMPILED, ST_CONTIGUOUS, STYLES };
static const char *const style_names[STYLES] = {"interpreted", "manual", "compiled", "contiguous"};

/* One timing: ITERS runs of one style/op on instance p, in seconds each. */
static double time_once(int style, int op, const struct inst *p, double *src, double *packed, long bytes, long iters,
                        MPI_Comm comm, int *err)
{
  double t0 = MPI_Wtime();
  for (long i = 0; i < iters; i++) {
    int pos = 0, rc = MPI_SUCCESS;
    if (style == ST_INTERPRETED && op == 0)
      rc = MPI_Pack(src, p->count, p->t, packed, (int)bytes, &pos, comm);
    else if (style == ST_INTERPRETED)
      rc = MPI_Unpack(packed, (int)bytes, &pos, src, p->count, p->t, comm);
    else if (style == ST_MANUAL && op == 0)
      manual_pack(src, packed, p);
    else if (style == ST_MANUAL)
      manual_unpack(packed, src, p);
    else if (style == ST_COMPILED && op == 0)
      runs_pack(src, packed, p);
    else if (style == ST_COMPILED)
      runs_unpack(packed, src, p);
    else if (op == 0)
      memcpy(packed, src, (size_t)bytes);
    else
      memcpy(src, packed, (size_t)bytes);
    sink = sink + packed[0] + src[0];
    if (rc != MPI_SUCCESS)
      *err = 1;
  }
  return (MPI_Wtime() - t0) / (double)iters;
}

/* Shortest time one timing should last: a few microseconds are at the
 * clock's resolution, so short operations are repeated within a timing. */
#define MIN_TIMING 20e-6 /* seconds */
#define PROG "calibrate"   /* the program this file belongs to */

/* Median of REPS timings of one style/op on instance p (after one warm-up). */
static double time_op(int style, int op, const struct inst *p, double *src, double *packed, long bytes, long reps,
                      double *times, MPI_Comm comm, int *err)
{
  long iters = 1;
  double t = time_once(style, op, p, src, packed, bytes, 1, comm, err);
  /* t == 0: a clock that does not move (SMPI without simulated
   * computation: copy loops take no simulated time); repeating is useless. */
  while (t > 0 && t * (double)iters < MIN_TIMING && iters < (1L << 20)) {
    iters *= 2;
    t = time_once(style, op, p, src, packed, bytes, iters, comm, err);
  }
  for (long r = 0; r < reps; r++)
    times[r] = time_once(style, op, p, src, packed, bytes, iters, comm, err);
  qsort(times, (size_t)reps, sizeof *times, cmp_double);
  return reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2;
}

int calibrate_pack(MPI_Comm comm, const char *dir, long reps, int progress)
{
  struct skel_out out;
  if (skel_out_open(&out, PROG, dir, HNM_BENCH_PACK_FILE, HNM_BENCH_PACK_HEADER) != 0)
    return skel_out_close(&out, PROG);
  FILE *f = out.f;
  double *times = malloc((size_t)reps * sizeof *times);
  int failed = times == NULL;
  size_t np = sizeof patterns / sizeof patterns[0];
  for (size_t i = 0; i < np && !failed; i++) {
    const struct pattern *pt = &patterns[i];
    for (int s = 0; s < 4 && pt->sizes[s] > 0 && !failed; s++) {
      struct inst p = {MPI_DATATYPE_NULL, 1, NULL, NULL, 0, 0, 0, 0};
      if (pt->build(pt->sizes[s], &p) != 0) {
        hnm_msg_print(PROG, HNM_MSG_ERROR, "%s: out of memory", pt->name);
        failed = 1;
      }
      if (!failed)
        MPI_Type_commit(&p.t);
      long ndoubles = 0;
      for (long r = 0; r < p.nruns; r++)
        ndoubles += p.len[r];
      int tsize = 0;
      if (!failed) {
        MPI_Type_size(p.t, &tsize);
        if ((long)tsize * p.count != ndoubles * (long)sizeof(double)) {
          hnm_msg_print(PROG, HNM_MSG_ERROR, "%s n=%ld: the datatype holds %ld bytes, the pattern's runs %ld", pt->name,
                  pt->sizes[s], (long)tsize * p.count, ndoubles * (long)sizeof(double));
          failed = 1;
        }
      }
      long bytes = ndoubles * (long)sizeof(double);
      double jumps = count_jumps(&p);
      double *src = failed ? NULL : calloc((size_t)p.span + 16, sizeof *src);
      double *packed = failed ? NULL : calloc((size_t)ndoubles + 16, sizeof *packed);
      if (!failed && (src == NULL || packed == NULL)) {
        hnm_msg_print(PROG, HNM_MSG_ERROR, "%s: out of memory", pt->name);
        failed = 1;
      }
      for (long k = 0; !failed && k < p.span; k++)
        src[k] = (double)k;
      for (int style = 0; style < STYLES && !failed; style++)
        for (int op = 0; op < 2 && !failed; op++) {
          int err = 0;
          double t = time_op(style, op, &p, src, packed, bytes, reps, times, comm, &err);
          if (err) {
            hnm_msg_print(PROG, HNM_MSG_ERROR, "%s: MPI_%s failed", pt->name, op == 0 ? "Pack" : "Unpack");
            failed = 1;
          }
          fprintf(f, "%s,%s,%s,%ld,%d,%ld,%ld,%s,%s,%ld,%.9g,%.17g,%ld\n", pt->name, pt->cls,
                  pt->role == FIT ? "fit" : "holdout", pt->sizes[s], p.count, p.nruns, bytes, style_names[style],
                  op == 0 ? "pack" : "unpack", reps, t, jumps, p.period);
        }
      if (progress)
        hnm_msg_print(PROG, HNM_MSG_INFO, "pack %s n=%ld: %ld blocks, %g jumps, period %ld, %ld bytes", pt->name,
                      pt->sizes[s], p.nruns, jumps, p.period, bytes);
      if (p.t != MPI_DATATYPE_NULL)
        MPI_Type_free(&p.t);
      free(p.off);
      free(p.len);
      free(src);
      free(packed);
    }
  }
  free(times);
  out.failed |= failed;
  return skel_out_close(&out, PROG);
}
