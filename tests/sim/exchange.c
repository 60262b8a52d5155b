/* exchange -- ranks 0 and 1 exchange K messages of BYTES each way at once.
 *
 *   exchange K BYTES
 *
 * Both ranks wait until the simulated instant 1 ms, post K MPI_Irecv and K
 * MPI_Isend to each other, and wait for all; each prints how long after
 * 1 ms its last receive completed:
 *   exchange RANK seconds
 * Each direction's K flows leave through the sender's node link and share it.
 * Simulation only (smpi_execute_flops).
 */
#include <mpi.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int k = argc > 1 ? atoi(argv[1]) : 4;
  long bytes = argc > 2 ? atol(argv[2]) : 4096;
  if (k < 1 || k > 64 || bytes < 0) {
    if (rank == 0)
      fprintf(stderr, "exchange: K in 1..64, BYTES >= 0\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *sbuf = calloc((size_t)(k * bytes + 1), 1), *rbuf = calloc((size_t)(k * bytes + 1), 1);
  MPI_Request reqs[128];
  const double start = 1e-3;
  if (rank < 2) {
    int peer = 1 - rank;
    smpi_execute_flops((start - MPI_Wtime()) * sg_host_get_speed(sg_host_self()));
    for (int i = 0; i < k; i++)
      MPI_Irecv(rbuf + i * bytes, (int)bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD, &reqs[i]);
    for (int i = 0; i < k; i++)
      MPI_Isend(sbuf + i * bytes, (int)bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD, &reqs[k + i]);
    MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE);
    printf("exchange %d %.17g\n", rank, MPI_Wtime() - start);
    MPI_Waitall(k, reqs + k, MPI_STATUSES_IGNORE);
  }
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
