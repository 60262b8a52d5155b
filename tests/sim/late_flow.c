/* late_flow -- a flow joins a link that an older flow is using, at the
 * instant another flow arrives at the joiner's source node.
 *
 *   late_flow BIG SMALL T1
 *
 * Rank 3 sends BIG bytes to rank 2 at time 0. At the simulated instant T1
 * (seconds), rank 0 sends SMALL bytes to rank 1 and rank 1 sends SMALL bytes
 * to rank 2, both at once. Ranks 1 and 2 print when each of their receives
 * completed:
 *   late_flow FROM TO seconds
 * Under max-min the flow 1 -> 2 shares rank 2's node link with 3 -> 2.
 * SimGrid 3.32's network/optim:Lazy misses that sharing when the flow
 * 0 -> 1 starts at the same instant and the route from rank 1 begins with a
 * link that 0 -> 1 also uses (docs/lazy-bug/README.md). Ranks above 3 idle.
 * Simulation only (smpi_execute_flops). */
#include <mpi.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>

static void sleep_until(double t)
{
  double now = MPI_Wtime();
  if (t > now)
    smpi_execute_flops((t - now) * sg_host_get_speed(sg_host_self()));
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long big = argc > 1 ? atol(argv[1]) : 0, small = argc > 2 ? atol(argv[2]) : 0;
  double t1 = argc > 3 ? atof(argv[3]) : -1;
  if (argc != 4 || size < 4 || big < 1 || small < 1 || big > (1L << 30) || small > (1L << 30) || !(t1 >= 0)) {
    if (rank == 0)
      fprintf(stderr, "late_flow: usage: late_flow BIG SMALL T1 (4 ranks or more, 1 <= bytes <= 2^30)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *buf = calloc((size_t)(big > small ? big : small), 1);
  MPI_Request r[2];
  double done[2];
  switch (rank) {
    case 0:
      sleep_until(t1);
      MPI_Isend(buf, (int)small, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r[0]);
      MPI_Wait(&r[0], MPI_STATUS_IGNORE);
      break;
    case 1:
      MPI_Irecv(buf, (int)small, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &r[0]);
      sleep_until(t1);
      MPI_Isend(buf, (int)small, MPI_CHAR, 2, 0, MPI_COMM_WORLD, &r[1]);
      MPI_Wait(&r[0], MPI_STATUS_IGNORE);
      printf("late_flow 0 1 %.17g\n", MPI_Wtime());
      MPI_Wait(&r[1], MPI_STATUS_IGNORE);
      break;
    case 2: {
      char *big_buf = calloc((size_t)big, 1);
      MPI_Irecv(big_buf, (int)big, MPI_CHAR, 3, 0, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv(buf, (int)small, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r[1]);
      for (int n = 0; n < 2; n++) {
        int i;
        MPI_Waitany(2, r, &i, MPI_STATUS_IGNORE);
        done[i] = MPI_Wtime();
      }
      printf("late_flow 1 2 %.17g\nlate_flow 3 2 %.17g\n", done[1], done[0]);
      free(big_buf);
      break;
    }
    case 3:
      MPI_Send(buf, (int)big, MPI_CHAR, 2, 0, MPI_COMM_WORLD);
      break;
    default:
      break;
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
