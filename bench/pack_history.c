/* pack_history -- MPI_Pack / MPI_Unpack time per block of an indexed type
 * against its number of blocks, with irregular and regular block lengths
 * (bench/pack-history.sh; why the pack model charges irregular block
 * lengths past a history of runs, not a cache footprint: core/hnm_bench.h,
 * "period"; docs/calibration.md, "Pack costs"). Not a test.
 *
 *   pack_history
 *
 * For n from 1,000 to 64,000 blocks, in ns per block (median of 11
 * timings, each at least 20 us, repeated inside):
 *   irr_pack irr_unpack  MPI_Type_indexed, blocks of 1..8 doubles, gaps of
 *                        1..4 doubles, both random (the data grows with n:
 *                        36 B a block, 60 B of span);
 *   irr_small_pack       the same lengths, the blocks 128 B apart modulo
 *                        8 KiB (the data stays in L1 whatever n: the
 *                        blocks overlap, so it is packed only);
 *   reg_pack reg_unpack  MPI_Type_create_indexed_block, blocks of 4
 *                        doubles, the same random gaps: as much data,
 *                        one length;
 *   loop_small           a plain copy loop over irr_small's blocks, double
 *                        by double (no MPI at all).
 */
#include "pack_timeit.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t seed;
static long rnd(long mod)
{
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (long)((seed >> 33) % (uint64_t)mod);
}

int main(int argc, char **argv)
{
  static const long ns[] = {1000, 2000, 4000, 8000, 16000, 32000, 64000};
  const long maxn = 64000;
  MPI_Init(&argc, &argv);
  int *off = malloc(maxn * sizeof *off), *len = malloc(maxn * sizeof *len);
  double *src = calloc((size_t)maxn * 16, sizeof *src), *packed = calloc((size_t)maxn * 8, sizeof *packed);
  if (off == NULL || len == NULL || src == NULL || packed == NULL)
    MPI_Abort(MPI_COMM_WORLD, 1);
  printf("%6s %9s %10s %14s %9s %10s %10s\n", "n", "irr_pack", "irr_unpack", "irr_small_pack", "reg_pack",
         "reg_unpack", "loop_small");
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
    long n = ns[i];
    MPI_Datatype irr, small, reg;
    int at = 0, bytes = 0, small_bytes;
    seed = 777;
    for (long b = 0; b < n; b++) {
      len[b] = 1 + (int)rnd(8);
      off[b] = at;
      at += len[b] + 1 + (int)rnd(4);
      bytes += len[b] * (int)sizeof(double);
    }
    MPI_Type_indexed((int)n, len, off, MPI_DOUBLE, &irr);
    for (long b = 0; b < n; b++)
      off[b] = (int)(b % 64) * 16;
    small_bytes = bytes;
    MPI_Type_indexed((int)n, len, off, MPI_DOUBLE, &small);
    seed = 777;
    at = 0;
    for (long b = 0; b < n; b++) {
      rnd(8);
      off[b] = at;
      at += 4 + 1 + (int)rnd(4);
    }
    MPI_Type_create_indexed_block((int)n, 4, off, MPI_DOUBLE, &reg);
    MPI_Type_commit(&irr);
    MPI_Type_commit(&small);
    MPI_Type_commit(&reg);
    double r[6];
    r[0] = pack_timeit(0, irr, src, packed, bytes, 0, NULL, NULL);
    r[1] = pack_timeit(1, irr, src, packed, bytes, 0, NULL, NULL);
    r[2] = pack_timeit(0, small, src, packed, small_bytes, 0, NULL, NULL);
    r[3] = pack_timeit(0, reg, src, packed, (int)(n * 4 * sizeof(double)), 0, NULL, NULL);
    r[4] = pack_timeit(1, reg, src, packed, (int)(n * 4 * sizeof(double)), 0, NULL, NULL);
    for (long b = 0; b < n; b++)
      off[b] = (int)(b % 64) * 16;
    r[5] = pack_timeit(2, MPI_DATATYPE_NULL, src, packed, 0, n, off, len);
    printf("%6ld %9.2f %10.2f %14.2f %9.2f %10.2f %10.2f\n", n, 1e9 * r[0] / n, 1e9 * r[1] / n, 1e9 * r[2] / n,
           1e9 * r[3] / n, 1e9 * r[4] / n, 1e9 * r[5] / n);
    MPI_Type_free(&irr);
    MPI_Type_free(&small);
    MPI_Type_free(&reg);
  }
  free(off);
  free(len);
  free(src);
  free(packed);
  MPI_Finalize();
  return 0;
}
