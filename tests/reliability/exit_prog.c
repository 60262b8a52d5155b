/* exit_prog.c -- an MPI program that ends as its argument says, for the
 * exit statuses of hnm-run (tests/reliability/hostile.c):
 *   ok        MPI_Init, one message from rank 0 to rank 1, MPI_Finalize;
 *   abort     rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7), the others wait;
 *   deadlock  every rank receives from its neighbour, nobody sends;
 *   exit3     rank 1 calls exit(3) (SMPI's smpi_exit), the others wait in a
 *             barrier that never completes;
 *   forever   the ranks meet in barriers until the process is killed. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, x = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *how = argc > 1 ? argv[1] : "ok";
  if (strcmp(how, "abort") == 0) {
    if (rank == 1)
      MPI_Abort(MPI_COMM_WORLD, 7);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(how, "exit3") == 0) {
    if (rank == 1)
      exit(3);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(how, "forever") == 0) {
    for (;;)
      MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(how, "deadlock") == 0) {
    MPI_Recv(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (size > 1) {
    if (rank == 0)
      MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
