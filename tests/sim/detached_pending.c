/* detached_pending -- detached sends that nobody receives.
 *
 *   detached_pending N BYTES
 *
 * Rank 0 sends N messages of BYTES to rank 1 with MPI_Isend and frees the
 * requests (MPI_Request_free); rank 1 never receives them. Both then
 * meet in an MPI_Barrier (so that rank 1 is still there when the sends
 * start) and finalize. SMPI sends a small message detached, so N transfers are still
 * in flight, never matched, when the simulation ends. Prints
 *   pending RANK seconds
 * for each rank, at its MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n      = argc > 1 ? atoi(argv[1]) : 4;
  long bytes = argc > 2 ? atol(argv[2]) : 64;
  if (n < 0 || n > 1000 || bytes < 0 || bytes > (1L << 24)) {
    if (rank == 0)
      fprintf(stderr, "detached_pending: N from 0 to 1000, BYTES from 0 to 2^24\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *buf = calloc((size_t)bytes + 1, 1);
  if (buf == NULL)
    MPI_Abort(MPI_COMM_WORLD, 2);
  if (rank == 0)
    for (int i = 0; i < n; i++) {
      MPI_Request r;
      MPI_Isend(buf, (int)bytes, MPI_CHAR, 1, 7, MPI_COMM_WORLD, &r);
      MPI_Request_free(&r);
    }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("pending %d %.9f\n", rank, MPI_Wtime());
  free(buf);
  MPI_Finalize();
  return 0;
}
