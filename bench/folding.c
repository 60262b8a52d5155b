/* folding -- how much a rank's computation slows down when other ranks run
 * on the same core between its bursts (bench/folding.sh, docs/predicting.md,
 * "Why CG is predicted too slow"). Not a test.
 *
 *   folding MIB ITERATIONS [OTHER_MIB]
 *
 * Every rank owns a sparse-matrix-like array of MIB MiB (ranks other than 0:
 * OTHER_MIB, default MIB; 0 makes them idle): per entry an 8-byte value and a
 * 4-byte column index into a 64 KiB vector, the access pattern of a sparse
 * matrix-vector product (NPB CG's). The ranks take turns: in each iteration
 * every rank in order streams its own array once while the others wait in a
 * barrier, so that between two bursts of rank 0 every other rank has
 * streamed its array. Rank 0 times its own bursts with MPI_Wtime around the
 * loop alone: wall time in a real run (each rank on a core of its own),
 * the measured CPU time SMPI injects under simulation (every rank on the
 * simulator's one core). It prints, on stdout, one line:
 *   mib M other O iterations I burst_s S rate_GBps R
 * S the median over iterations, R = M MiB / S. Bad arguments: a one-line
 * message on stderr, exit 2.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define VECTOR 8192 /* doubles: 64 KiB */

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double mib_arg(const char *s)
{
  char *end;
  double v = strtod(s, &end);
  return end != s && *end == '\0' && v >= 0 && v <= 65536 ? v : -1;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mib = argc > 1 ? mib_arg(argv[1]) : -1;
  double other = argc > 3 ? mib_arg(argv[3]) : mib;
  long iterations = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
  if (argc < 3 || argc > 4 || mib < 0 || other < 0 || iterations < 1 || iterations > 1000000) {
    if (rank == 0)
      fprintf(stderr, "folding: usage: folding MIB (0-65536) ITERATIONS (1-1e6) [OTHER_MIB]\n");
    MPI_Finalize();
    return 2;
  }
  size_t n = (size_t)((rank == 0 ? mib : other) * 1048576.0 / 12.0);
  double *value = malloc((n > 0 ? n : 1) * sizeof *value);
  int *column = malloc((n > 0 ? n : 1) * sizeof *column);
  double *vector = malloc(VECTOR * sizeof *vector);
  double *burst = malloc((size_t)iterations * sizeof *burst);
  if (value == NULL || column == NULL || vector == NULL || burst == NULL)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (size_t j = 0; j < n; j++) {
    value[j] = 1.0 / (double)(j + 1);
    column[j] = (int)((j * 2654435761u) % VECTOR); /* scattered, as a sparse row's columns */
  }
  for (int i = 0; i < VECTOR; i++)
    vector[i] = i;
  double sum = 0;
  for (long k = 0; k < iterations; k++)
    for (int turn = 0; turn < size; turn++) {
      MPI_Barrier(MPI_COMM_WORLD);
      if (turn != rank)
        continue;
      double t0 = MPI_Wtime();
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0; /* four chains: the loop waits on memory, not on adds */
      size_t j = 0;
      for (; j + 4 <= n; j += 4) {
        s0 += value[j] * vector[column[j]];
        s1 += value[j + 1] * vector[column[j + 1]];
        s2 += value[j + 2] * vector[column[j + 2]];
        s3 += value[j + 3] * vector[column[j + 3]];
      }
      for (; j < n; j++)
        s0 += value[j] * vector[column[j]];
      sum += s0 + s1 + s2 + s3;
      double t1 = MPI_Wtime();
      burst[k] = t1 - t0;
    }
  if (rank == 0) {
    qsort(burst, (size_t)iterations, sizeof *burst, by_value);
    double s = burst[iterations / 2];
    printf("mib %g other %g iterations %ld burst_s %.6g rate_GBps %.4g\n", mib, size > 1 ? other : 0.0,
           iterations, s, s > 0 ? mib * 1048576e-9 / s : 0.0);
  }
  free(value);
  free(column);
  free(vector);
  free(burst);
  MPI_Finalize();
  return sum < 0; /* never: keeps the loop */
}
