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
 * 4. Buffers (checked by rank 0; it prints "alloc,shared" under SMPI,
 *    "alloc,private" with a real MPI, or the job fails): payload buffers are
 *    distinct and zeroed; under SMPI a no-payload buffer of a page or more
 *    is the largest shared one so far (the same pointer for a smaller
 *    request, a new one for a larger), one under a page is private, and 64
 *    no-payload buffers of 8-64 KiB add at most 4 memory mappings to the
 *    process (/proc/self/maps), where one per buffer would add 64.
 */
#include "skel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef SMPI_SHARED_MALLOC
#include <simgrid/engine.h>
#endif

/* Lines of /proc/self/maps: the process's memory mappings (-1 if unreadable). */
#ifdef SMPI_SHARED_MALLOC
static long maps_count(void)
{
  FILE *f = fopen("/proc/self/maps", "r");
  if (f == NULL)
    return -1;
  long n = 0;
  int c;
  while ((c = getc(f)) != EOF)
    n += c == '\n';
  fclose(f);
  return n;
}
#endif

/* Part 4; NULL when every check holds, else what failed. */
static const char *check_buffers(char *why, size_t len)
{
  char *p1 = skel_alloc(8192, 1), *p2 = skel_alloc(8192, 1);
  if (p1 == NULL || p2 == NULL || p1 == p2 || p1[0] != 0 || p1[8191] != 0 || p2[4096] != 0)
    return "payload buffers are not distinct zeroed blocks";
  skel_free(p1, 1);
  skel_free(p2, 1);
#ifdef SMPI_SHARED_MALLOC
  char *a = skel_alloc(8192, 0), *b = skel_alloc(4096, 0), *c = skel_alloc(100000, 0);
  char *d = skel_alloc(16384, 0), *e = skel_alloc(100, 0);
  if (a == NULL || b != a || c == NULL || c == a || d != c || e == NULL || e == a || e == c) {
    snprintf(why, len, "no-payload buffers: 8192 B %p, 4096 B %p (same expected), 100000 B %p (new), "
             "16384 B %p (as 100000 B), 100 B %p (private)", (void *)a, (void *)b, (void *)c, (void *)d, (void *)e);
    return why;
  }
  memset(c, 1, 100000); /* the whole block is there */
  skel_free(b, 0);      /* the shared block stays: a is b */
  skel_free(e, 0);
  skel_free(a, 0);
  skel_free(d, 0);
  if (skel_alloc(50000, 0) != c)
    return "a no-payload buffer freed and asked for again is not the shared block";
  long before = maps_count();
  void *keep[64];
  for (int i = 0; i < 64; i++)
    keep[i] = skel_alloc(8192 + (size_t)i * 1024 + (i % 3) * 100000u, 0);
  long after = maps_count();
  for (int i = 0; i < 64; i++)
    skel_free(keep[i], 0);
  if (before < 0 || after - before > 4) {
    snprintf(why, len, "64 no-payload buffers added %ld memory mappings (at most 4 expected; before %ld)",
             after - before, before);
    return why;
  }
#else
  (void)why;
  (void)len;
#endif
  return NULL;
}

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

  /* Rank 0 alone, after the report (its collective would change the window of
   * part 3), before any other rank allocates: with
   * smpi/privatization:no the ranks share skel.c's table of shared blocks. */
  char why[256];
  const char *bad = rank == 0 ? check_buffers(why, sizeof why) : NULL;
  skel_fail_if_any(comm, bad != NULL, "skel_unit", "%s", bad != NULL ? bad : "");
  if (rank == 0) {
#ifdef SMPI_SHARED_MALLOC
    printf("alloc,shared\n");
#else
    printf("alloc,private\n");
#endif
    fflush(stdout);
  }

  MPI_Finalize();
  return 0;
}
