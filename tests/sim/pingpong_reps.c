/* pingpong_reps -- repeated round trips between ranks 0 and 1, each printed,
 * then (with --allreduce) repeated MPI_Allreduce on all ranks:
 *   pingpong K SECONDS        one line per repetition (rank 0's round trip)
 *   allreduce K SECONDS       one line per repetition (max over ranks)
 *
 *   pingpong_reps [--bytes K[,K...]] [--reps R] [--allreduce K]
 *
 * Blocking MPI_Send / MPI_Recv of K bytes there and back, R times per size
 * (default 1000 B, 100 repetitions). What the stochastic mode's tests and
 * bench/stochastic.sh compare with the residuals written in the model. Run
 * with --cfg=smpi/simulate-computation:no so that only the network model
 * moves the clock.
 */
#include "pingpong.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, procs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  long sizes[64], reps = 100, allreduce = -1;
  int nsizes = 1;
  sizes[0] = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--bytes") == 0) {
      nsizes = comma_list(argv[i + 1], sizes, 64);
    } else if (strcmp(argv[i], "--reps") == 0) {
      reps = atol(argv[i + 1]);
    } else if (strcmp(argv[i], "--allreduce") == 0) {
      allreduce = atol(argv[i + 1]);
    }
  }
  long max = 8;
  for (long s = 0; s < nsizes; s++)
    max = sizes[s] > max ? sizes[s] : max;
  max = allreduce > max ? allreduce : max;
  char *buf = calloc((size_t)max, 1), *out = calloc((size_t)max, 1);
  for (long s = 0; s < nsizes && procs > 1; s++)
    for (long r = 0; r < reps; r++)
      pingpong(rank, buf, buf, sizes[s]);
  for (long r = 0; allreduce >= 0 && r < reps; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Allreduce(buf, out, (int)(allreduce > 0 ? allreduce : 1), MPI_CHAR, MPI_MAX, MPI_COMM_WORLD);
    double dt = MPI_Wtime() - t0, worst;
    MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      printf("allreduce %ld %.17g\n", allreduce, worst);
  }
  free(buf);
  free(out);
  MPI_Finalize();
  return 0;
}
