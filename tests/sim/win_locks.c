/* win_locks.c -- passive-target lock patterns for tests/sim/win_unlock.sh,
 * the differential test of the plugin's MPI_Win_unlock remedy
 * (plugin/hnm_win_fix.cpp).
 *
 *   win_locks EPOCHS
 *
 * Every rank prints, after each phase, the simulated time since the phase
 * began (%.17g), what its window holds, and the return code of one MPI_Put
 * outside any epoch (MPI_ERR_WIN when the rank holds no lock on the target:
 * SMPI finds the origin's rank in the target's list of lockers, so a lock
 * entry left behind shows). The phases, each a way in which entries enter
 * and leave SMPI's lists of lockers:
 *   1. EPOCHS epochs of MPI_Win_lock_all, a put to the next rank,
 *      MPI_Win_flush_all, MPI_Win_unlock_all (every list P entries long);
 *   2. a shared lock, put and unlock of every target in turn, from the
 *      last rank down;
 *   3. an exclusive lock of rank 0's window by every rank, an accumulate of
 *      1 into its counter, an unlock (the locks wait for one another);
 *   4. MPI_Win_lock_all, then a second, shared lock of the next rank (two
 *      entries of one rank in one list; SMPI accepts it), its unlock (which
 *      takes both), MPI_Win_unlock_all;
 *   5. an unlock of a window this rank never locked (SMPI accepts it too);
 *   6. the window freed and a new one created (a new list, perhaps at the
 *      same address), then phase 1's epoch once more.
 * The lock entries made: EPOCHS P^2 + P^2 + P + (P^2 + P) + 0 + P^2.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double t0;

static void phase_begin(void)
{
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
}

/* One put outside any epoch: its return code. */
static int stray_put(MPI_Win win, int target)
{
  int one = 1;
  return MPI_Put(&one, 1, MPI_INT, target, 0, 1, MPI_INT, win);
}

static void phase_end(int rank, int phase, const int *mem, int n, MPI_Win win, int target)
{
  double t = MPI_Wtime() - t0;
  int rc   = stray_put(win, target);
  printf("rank %d phase %d time %.17g mem", rank, phase, t);
  for (int i = 0; i < n; i++)
    printf(" %d", mem[i]);
  printf(" stray_put %d\n", rc);
  fflush(stdout);
}

static MPI_Win new_window(int *mem, int n)
{
  MPI_Win win;
  MPI_Win_create(mem, (MPI_Aint)(n * (int)sizeof(int)), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  return win;
}

/* Phase 1's epoch: a put of VALUE into slot 1 of the next rank. */
static void lock_all_epoch(MPI_Win win, int next, int value)
{
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  MPI_Put(&value, 1, MPI_INT, next, 1, 1, MPI_INT, win);
  MPI_Win_flush_all(win);
  MPI_Win_unlock_all(win);
}

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int epochs = argc == 2 ? atoi(argv[1]) : -1;
  if (epochs < 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: win_locks EPOCHS (at least 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  enum { N = 3 }; /* slot 0: phase 3's counter; 1: phase 1's put; 2: phase 2's */
  int *mem = calloc(N, sizeof(int));
  MPI_Win win = new_window(mem, N);

  phase_begin();
  for (int e = 0; e < epochs; e++)
    lock_all_epoch(win, next, 100 * rank + e);
  MPI_Barrier(MPI_COMM_WORLD);
  phase_end(rank, 1, mem, N, win, next);

  phase_begin();
  for (int t = size - 1; t >= 0; t--) {
    MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win);
    if (t == next)
      MPI_Put(&rank, 1, MPI_INT, t, 2, 1, MPI_INT, win);
    MPI_Win_unlock(t, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  phase_end(rank, 2, mem, N, win, prev);

  phase_begin();
  int one = 1;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  phase_end(rank, 3, mem, N, win, 0);

  phase_begin();
  MPI_Win_lock_all(0, win);
  MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win);
  MPI_Win_unlock(next, win);
  int rc = stray_put(win, next); /* both entries gone: refused */
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d phase 4 put after the double unlock %d\n", rank, rc);
  phase_end(rank, 4, mem, N, win, next);

  phase_begin();
  MPI_Win_unlock(prev, win);
  MPI_Barrier(MPI_COMM_WORLD);
  phase_end(rank, 5, mem, N, win, prev);

  MPI_Win_free(&win);
  win = new_window(mem, N);
  phase_begin();
  lock_all_epoch(win, next, -rank);
  MPI_Barrier(MPI_COMM_WORLD);
  phase_end(rank, 6, mem, N, win, next);
  MPI_Win_free(&win);
  free(mem);
  MPI_Finalize();
  return 0;
}
