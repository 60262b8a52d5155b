/* pack_stride -- MPI_Pack / MPI_Unpack time per block of a vector, as a
 * function of the stride between its blocks (bench/pack-stride.sh; why the
 * pack model's jumps weigh what they do: core/hnm_bench.h,
 * hnm_bench_pack_jump(); docs/calibration.md, "Pack costs"). Not a test.
 *
 *   pack_stride
 *
 * For blocks of 16, 40 and 128 bytes, strides from 512 B to 64 KiB (the
 * multiples of 1, 2 and 4 KiB and their neighbours) and 64, 512 and 4,096
 * blocks: MPI_Type_vector of doubles, packed and unpacked from one buffer;
 * a timing lasts at least 20 us (repeated inside), the median of 11 is
 * printed, in ns per block:
 *   block_B stride_B n pack_ns unpack_ns
 */
#include "pack_timeit.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  static const int blocks[] = {2, 5, 16}; /* doubles */
  static const long strides[] = {512, 1024, 2048, 3072, 4080, 4096, 4112, 5120, 6144, 8192, 12288, 20480, 65536};
  static const int counts[] = {64, 512, 4096};
  MPI_Init(&argc, &argv);
  printf("block_B stride_B n pack_ns unpack_ns\n");
  for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
    for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++)
      for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        long stride = strides[s] / (long)sizeof(double);
        int bl = blocks[b], n = counts[k];
        if (stride < bl)
          continue;
        MPI_Datatype t;
        MPI_Type_vector(n, bl, (int)stride, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        double *src = calloc((size_t)n * (size_t)stride + 16, sizeof *src);
        double *packed = calloc((size_t)n * (size_t)bl + 16, sizeof *packed);
        if (src == NULL || packed == NULL) {
          fprintf(stderr, "pack_stride: out of memory\n");
          MPI_Abort(MPI_COMM_WORLD, 2);
        }
        int bytes = n * bl * (int)sizeof(double);
        double p = pack_timeit(0, t, src, packed, bytes, 0, NULL, NULL), u = pack_timeit(1, t, src, packed, bytes, 0, NULL, NULL);
        printf("%d %ld %d %.2f %.2f\n", bl * (int)sizeof(double), strides[s], n, p / n * 1e9, u / n * 1e9);
        free(src);
        free(packed);
        MPI_Type_free(&t);
      }
  MPI_Finalize();
  return 0;
}
