/* p2p_timing -- time MPI_Send / MPI_Recv pairs in simulated time.
 *
 *   p2p_timing K:DS:DR [K:DS:DR ...]
 *
 * For each scenario, after a barrier, rank 0 waits DS seconds then calls
 * MPI_Send(K bytes) to rank 1, which waits DR seconds then calls MPI_Recv.
 * Each rank prints the simulated instants at which it entered and left its
 * call (MPI_Wtime is SimGrid's clock, the same for every rank):
 *   send K t_enter t_leave      (rank 0)
 *   recv K t_enter t_leave      (rank 1)
 * Run with --cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no so that
 * only the network model moves the clock. Simulation only (uses smpi_execute).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <simgrid/host.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long maxk = 1;
  for (int i = 1; i < argc; i++)
    maxk = atol(argv[i]) > maxk ? atol(argv[i]) : maxk;
  char *buf = calloc((size_t)maxk, 1);
  for (int i = 1; i < argc; i++) {
    long k;
    double ds, dr;
    if (sscanf(argv[i], "%ld:%lf:%lf", &k, &ds, &dr) != 3) {
      if (rank == 0)
        fprintf(stderr, "p2p_timing: bad scenario '%s' (want K:DS:DR)\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      if (ds > 0)
        smpi_execute_flops(ds * sg_host_get_speed(sg_host_self()));
      double t0 = MPI_Wtime();
      MPI_Send(buf, (int)k, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      printf("send %ld %.17g %.17g\n", k, t0, MPI_Wtime());
    } else if (rank == 1) {
      if (dr > 0)
        smpi_execute_flops(dr * sg_host_get_speed(sg_host_self()));
      double t0 = MPI_Wtime();
      MPI_Recv(buf, (int)k, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("recv %ld %.17g %.17g\n", k, t0, MPI_Wtime());
    }
    fflush(stdout);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
