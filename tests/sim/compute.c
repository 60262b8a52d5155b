/* compute -- computation as SMPI counts it.
 *
 *   compute spin SECONDS       each rank burns about SECONDS of CPU between two
 *                              MPI_Wtime calls; prints "spin RANK CPU SIM": its
 *                              own thread CPU time and the simulated time
 *   compute flops F            smpi_execute_flops(F): "flops RANK SIM"
 *   compute seconds S          smpi_execute(S), S seconds of "measured" time
 *                              injected as hnm-run's host speed says:
 *                              "seconds RANK SIM"
 *
 * Under SMPI, MPI_Wtime is the simulated clock; the CPU time is read with
 * the real clock_gettime (SMPI's headers redefine it to the simulated one).
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef clock_gettime
#undef clock_gettime
#endif

static double thread_cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 3) {
    if (rank == 0)
      fprintf(stderr, "usage: compute spin|flops|seconds VALUE\n");
    MPI_Finalize();
    return 2;
  }
  double v = atof(argv[2]);
  MPI_Barrier(MPI_COMM_WORLD);
  if (strcmp(argv[1], "spin") == 0) {
    volatile double x = 0;
    double t0 = MPI_Wtime();
    double c0 = thread_cpu(), c1 = c0;
    while (c1 - c0 < v) {
      for (int i = 0; i < 100000; i++)
        x += 1e-9 * i;
      c1 = thread_cpu();
    }
    double t1 = MPI_Wtime();
    printf("spin %d %.9f %.9f\n", rank, c1 - c0, t1 - t0);
  } else {
    double t0 = MPI_Wtime();
    if (strcmp(argv[1], "flops") == 0)
      smpi_execute_flops(v);
    else
      smpi_execute(v);
    double t1 = MPI_Wtime();
    printf("%s %d %.17g\n", argv[1], rank, t1 - t0);
  }
  MPI_Finalize();
  return 0;
}
