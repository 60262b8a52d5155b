/* fanout -- one rank sends to two destinations at once.
 *
 *   fanout NB NC BYTES
 *
 * Ranks 1 and 2 post NB and NC MPI_Irecv of BYTES from rank 0; rank 0 posts
 * NB MPI_Isend to rank 1 and NC to rank 2, then waits for them; everything
 * is posted at simulated time 0. Ranks 1 and 2 print when their last
 * receive completed:
 *   fanout RANK seconds
 * On tests/data/platforms/fanout.xml the routes 0 -> 1 and 0 -> 2 share
 * their first link, and all NB + NC flows start together: the pattern of
 * SimGrid 3.32's selective-update defect (docs/lazy-bug/README.md).
 * Ranks above 2 idle. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int nb = argc > 1 ? atoi(argv[1]) : 2, nc = argc > 2 ? atoi(argv[2]) : 2;
  long bytes = argc > 3 ? atol(argv[3]) : 5000000;
  if (nb < 0 || nc < 0 || nb + nc > 64 || bytes < 0) {
    if (rank == 0)
      fprintf(stderr, "fanout: NB, NC >= 0 with NB + NC <= 64, BYTES >= 0\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *buf = calloc((size_t)bytes + 1, 1);
  MPI_Request reqs[64];
  if (rank == 1 || rank == 2) {
    int n = rank == 1 ? nb : nc;
    for (int i = 0; i < n; i++)
      MPI_Irecv(buf, (int)bytes, MPI_CHAR, 0, i, MPI_COMM_WORLD, &reqs[i]);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    printf("fanout %d %.17g\n", rank, MPI_Wtime());
  } else if (rank == 0) {
    for (int i = 0; i < nb + nc; i++)
      MPI_Isend(buf, (int)bytes, MPI_CHAR, i < nb ? 1 : 2, i < nb ? i : i - nb, MPI_COMM_WORLD, &reqs[i]);
    MPI_Waitall(nb + nc, reqs, MPI_STATUSES_IGNORE);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
