/* pack_timeit.h -- the timing loop of bench/pack_stride.c and
 * bench/pack_history.c (header-only: each is one mpicc'd file). */
#ifndef PACK_TIMEIT_H
#define PACK_TIMEIT_H

#include <mpi.h>
#include <stdlib.h>

static volatile double pack_timeit_sink;

static int pack_timeit_cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Seconds per call of op: 0 MPI_Pack, 1 MPI_Unpack of one T (BYTES packed),
 * 2 a copy loop, double by double, over the N blocks of LEN[b] doubles at
 * OFF[b] (N, OFF, LEN unused otherwise). The median of 11 timings, each
 * repeated inside until it lasts at least 20 us (at most 2^24 calls), after
 * one timing that warms the caches up. */
static double pack_timeit(int op, MPI_Datatype t, double *src, double *packed, int bytes, long n, const int *off,
                          const int *len)
{
  long it = 1;
  double v[11];
  for (int r = -1; r < 11; r++) {
    for (;;) {
      double t0 = MPI_Wtime();
      for (long i = 0; i < it; i++) {
        int pos = 0;
        if (op == 0)
          MPI_Pack(src, 1, t, packed, bytes, &pos, MPI_COMM_WORLD);
        else if (op == 1)
          MPI_Unpack(packed, bytes, &pos, src, 1, t, MPI_COMM_WORLD);
        else {
          long k = 0;
          for (long b = 0; b < n; b++)
            for (int j = 0; j < len[b]; j++)
              packed[k++] = src[off[b] + j];
          pack_timeit_sink = pack_timeit_sink + packed[0];
        }
      }
      double dt = MPI_Wtime() - t0;
      if (dt >= 20e-6 || it >= (1L << 24)) {
        if (r >= 0)
          v[r] = dt / (double)it;
        break;
      }
      it *= 2;
    }
  }
  qsort(v, 11, sizeof v[0], pack_timeit_cmp);
  return v[5];
}

#endif
