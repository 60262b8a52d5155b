/* pingpong_sizes -- round-trip times between ranks 0 and 1 for many sizes,
 * then MPI_Alltoall and MPI_Allreduce on all ranks, printed at full
 * precision for differential comparison between two simulations:
 *   pingpong K seconds
 *   alltoall K seconds      (bytes per pair; max over ranks)
 *   allreduce K seconds     (bytes of the vector; max over ranks)
 *
 *   pingpong_sizes [PINGPONG-SIZES] [COLLECTIVE-SIZES]   (comma-separated)
 */
#include "pingpong.h"

static void collective(const char *name, long k, int procs, char *s, char *r)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (strcmp(name, "alltoall") == 0)
    MPI_Alltoall(s, (int)k, MPI_CHAR, r, (int)k, MPI_CHAR, MPI_COMM_WORLD);
  else
    MPI_Allreduce(s, r, (int)(k / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double dt = MPI_Wtime() - t0, maxdt;
  MPI_Reduce(&dt, &maxdt, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s %ld %.17g\n", name, k, maxdt);
  (void)procs;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, procs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  long pp[64], coll[64];
  int npp = comma_list(argc > 1 ? argv[1] : "1,1024,65536", pp, 64);
  int ncoll = comma_list(argc > 2 ? argv[2] : "1024", coll, 64);
  long max = 8;
  for (int i = 0; i < npp; i++)
    max = pp[i] > max ? pp[i] : max;
  for (int i = 0; i < ncoll; i++)
    max = coll[i] * procs > max ? coll[i] * procs : max;
  char *s = calloc((size_t)max, 1), *r = calloc((size_t)max, 1);
  for (int i = 0; i < npp; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    pingpong(rank, s, r, pp[i]);
  }
  for (int i = 0; i < ncoll; i++)
    collective("alltoall", coll[i], procs, s, r);
  for (int i = 0; i < ncoll; i++)
    collective("allreduce", coll[i], procs, s, r);
  fflush(stdout);
  free(s);
  free(r);
  MPI_Finalize();
  return 0;
}
