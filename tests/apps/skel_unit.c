/* skel_unit -- tests of apps/skel.c's timing and reporting (not a skeleton).
 *
 *   skel_unit LATE_RANK
 *
 * 1. skel_window_start: T = Y + 2 (Y - E_min) + SKEL_WINDOW_MARGIN on
 *    values whose sums are exact in binary; prints "window,ok" (rank 0) or
 *    fails.
 * 2. skel_sync then a report batch of two lines on every rank r of P:
 *      line "a": time r, stages r and P - r, messages r + 1;
 *      line "b": time -r, no stage, messages 1;
 *    the report must print a: time P - 1, stages P - 1;P, messages
 *    P (P + 1) / 2 and b: time 0, messages P (the binomial reduction's MAX
 *    and SUM), params "x=1;sync=window|barrier".
 *    If LATE_RANK >= 0, that rank records (skel_batch_late) a start 2.5e-6 s
 *    late before line b: the report must print nothing and every rank end
 *    with status 2 and the message naming line 1 -- the path a rank takes
 *    when it reaches skel_sync's common start after it.
 * 3. Under SMPI, rank 0 prints "gap,G": the simulated time from its entry
 *    into the first skel_sync to the common start it returns, which holds
 *    SKEL_WINDOW_NOISE exactly when smpi/simulate-computation is on.
 */
#include "skel.h"

#include <stdio.h>
#include <stdlib.h>
#ifdef SMPI_SHARED_MALLOC
#include <simgrid/engine.h>
#endif

int main(int argc, char **argv)
{
  int rank, procs;
  MPI_Comm comm = skel_init(&argc, &argv, &rank, &procs);
  int late_rank = argc > 1 ? atoi(argv[1]) : -1;

  /* 0.75 + 2 x (0.75 - 0.25) = 1.75 exactly; the margin is added last. */
  double t = skel_window_start(0.25, 0.75);
  if (t != 1.75 + SKEL_WINDOW_MARGIN || skel_window_start(2.0, 2.0) != 2.0 + SKEL_WINDOW_MARGIN)
    skel_fail(comm, "skel_unit", "skel_window_start(0.25, 0.75) = %.17g, expected 1.75 + %g", t,
              SKEL_WINDOW_MARGIN);
  if (rank == 0) {
    printf("window,ok\n");
    fflush(stdout);
  }

  struct skel_batch *b = skel_batch_new(comm, NULL);
  if (b == NULL) /* no MPI call before the window: gap holds what SMPI measured of this rank's code */
    skel_fail(comm, "skel_unit", "out of memory");
  skel_csv_header(comm);
#ifdef SMPI_SHARED_MALLOC
  double entry = simgrid_get_clock();
#endif
  double t0 = skel_sync(comm, b);
#ifdef SMPI_SHARED_MALLOC
  if (rank == 0) {
    printf("gap,%.17g\n", t0 - entry);
    fflush(stdout);
  }
#else
  (void)t0;
#endif
  double st[2] = {(double)rank, (double)(procs - rank)};
  skel_batch_add(b, "skel_unit", "a", "none", "x=1", 2, st, rank + 1, (double)rank);
  if (rank == late_rank)
    skel_batch_late(b, 2.5e-6);
  skel_batch_add(b, "skel_unit", "b", "none", "x=1", 0, NULL, 1, rank > 0 ? -(double)rank : 0.0);
  skel_batch_report(comm, b, "skel_unit");
  skel_batch_free(b);
  MPI_Finalize();
  return 0;
}
