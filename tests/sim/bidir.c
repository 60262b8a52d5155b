/* bidir -- concurrent bidirectional transfers between pairs of nodes.
 *
 *   bidir BYTES [START]
 *
 * With START (seconds, simulation only), every rank waits until that
 * simulated instant before its exchange, so that all flows start together.
 *
 * Ranks 2i and 2i+1 exchange BYTES with one MPI_Sendrecv, all pairs at once
 * after a barrier. A pair's duration runs from the later of its two ranks'
 * start to its end. Rank 0 prints, with the largest duration over pairs:
 *   pairs BYTES seconds per_node_Bps
 * where per_node_Bps = 2 x BYTES / seconds is what one node sends plus
 * receives per second (B_s + B_r of Degomme et al. 2013, Section IV-B).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef SMPI_SHARED_MALLOC
#include <simgrid/host.h>
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, procs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  long bytes = argc > 1 ? atol(argv[1]) : 4194304;
  if (procs % 2 != 0 || bytes <= 0) {
    if (rank == 0)
      fprintf(stderr, "bidir: needs an even number of ranks and BYTES > 0\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *sbuf = malloc((size_t)bytes), *rbuf = malloc((size_t)bytes);
  int peer = rank ^ 1;
  MPI_Barrier(MPI_COMM_WORLD);
#ifdef SMPI_SHARED_MALLOC
  if (argc > 2) {
    double start = atof(argv[2]);
    smpi_execute_flops((start - MPI_Wtime()) * sg_host_get_speed(sg_host_self()));
  }
#endif
  double t0 = MPI_Wtime();
  MPI_Sendrecv(sbuf, (int)bytes, MPI_CHAR, peer, 0, rbuf, (int)bytes, MPI_CHAR, peer, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  double t1 = MPI_Wtime(), t0_peer;
  /* Ranks leave the barrier at slightly different instants; a pair's
   * exchange starts when the later of the two has posted. */
  MPI_Sendrecv(&t0, 1, MPI_DOUBLE, peer, 1, &t0_peer, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double dt = t1 - (t0 > t0_peer ? t0 : t0_peer), maxdt;
  MPI_Reduce(&dt, &maxdt, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d %ld %.17g %.17g\n", procs / 2, bytes, maxdt, 2.0 * (double)bytes / maxdt);
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
