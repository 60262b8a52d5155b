/* rma_epochs.c -- one MPI RMA epoch between 2 ranks, timed for the closed
 * forms of tests/sim/rma.sh.
 *
 *   rma_epochs MODE K
 *
 * MODE: fence (MPI_Win_fence(NOPRECEDE); rank 0 puts K bytes into rank 1;
 * MPI_Win_fence(NOSUCCEED)), pscw (rank 1 posts and waits, rank 0 starts,
 * puts K bytes, completes), lock (rank 0: lock rank 1 exclusively, put K
 * bytes, unlock), lockget (the same with a get of K bytes from rank 1).
 * Both ranks start the epoch at the simulated instant T0 = 1 s (nothing in
 * flight: the window was created long before) and each prints
 * "rank R end SECONDS" (time since T0, %.17g) when its part of the epoch
 * returns. In the lock modes rank 1 takes no part; it waits until T0 + 1 s
 * before the final barrier, so that it completes none of rank 0's requests.
 */
#include <mpi.h>
#include <simgrid/actor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T0 1.0

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3 || size != 2) {
    if (rank == 0)
      fprintf(stderr, "usage: rma_epochs fence|pscw|lock|lockget K (2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  const char *mode = argv[1];
  int k = atoi(argv[2]);
  char *buf = calloc((size_t)k + 1, 1);
  MPI_Win win;
  MPI_Win_create(buf, k + 1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, peer;
  int other = 1 - rank;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &other, &peer);
  MPI_Barrier(MPI_COMM_WORLD);

  sg_actor_sleep_until(T0);
  if (strcmp(mode, "fence") == 0) {
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    if (rank == 0)
      MPI_Put(buf, k, MPI_BYTE, 1, 0, k, MPI_BYTE, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  } else if (strcmp(mode, "pscw") == 0) {
    if (rank == 0) {
      MPI_Win_start(peer, 0, win);
      MPI_Put(buf, k, MPI_BYTE, 1, 0, k, MPI_BYTE, win);
      MPI_Win_complete(win);
    } else {
      MPI_Win_post(peer, 0, win);
      MPI_Win_wait(win);
    }
  } else if (strcmp(mode, "lock") == 0 || strcmp(mode, "lockget") == 0) {
    if (rank == 0) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
      if (strcmp(mode, "lock") == 0)
        MPI_Put(buf, k, MPI_BYTE, 1, 0, k, MPI_BYTE, win);
      else
        MPI_Get(buf, k, MPI_BYTE, 1, 0, k, MPI_BYTE, win);
      MPI_Win_unlock(1, win);
    }
  } else {
    if (rank == 0)
      fprintf(stderr, "rma_epochs: unknown mode %s\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double end = MPI_Wtime() - T0;
  if (rank == 0 || strncmp(mode, "lock", 4) != 0)
    printf("rank %d end %.17g\n", rank, end);
  fflush(stdout);
  if (rank == 1 && strncmp(mode, "lock", 4) == 0)
    sg_actor_sleep_until(T0 + 1.0);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Group_free(&peer);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  free(buf);
  MPI_Finalize();
  return 0;
}
