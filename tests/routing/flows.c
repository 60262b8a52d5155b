/* flows -- P simultaneous point-to-point transfers: rank 2i sends BYTES to
 * rank 2i+1, all starting at the simulated instant 1 ms.
 *
 *   flows BYTES
 *
 * Each receiver prints how long after 1 ms its message arrived:
 *   flows RANK seconds
 * Simulation only (smpi_execute_flops).
 */
#include <mpi.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes = argc > 1 ? atol(argv[1]) : 1000000;
  char *buf = calloc((size_t)bytes + 1, 1);
  const double start = 1e-3;
  smpi_execute_flops((start - MPI_Wtime()) * sg_host_get_speed(sg_host_self()));
  if (rank % 2 == 0 && rank + 1 < size) {
    MPI_Send(buf, (int)bytes, MPI_CHAR, rank + 1, 0, MPI_COMM_WORLD);
  } else if (rank % 2 == 1) {
    MPI_Recv(buf, (int)bytes, MPI_CHAR, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("flows %d %.17g\n", rank, MPI_Wtime() - start);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
