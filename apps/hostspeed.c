/* hostspeed -- the compute speed of every rank's host, for hnm-calibrate
 * machine.
 *
 *   hostspeed [REPS [ITERATIONS]]     (defaults: 5, 50000000)
 *
 * Every rank runs core/hnm_flops.h's kernel REPS times, all ranks at once
 * (a barrier before each repetition), as a real run keeps every core busy;
 * each repetition is timed in the thread's CPU time, the time SMPI measures
 * when it simulates computation, so that other processes sharing the
 * machine do not slow the measure down. Rank 0 prints, on stdout:
 *   rank,host,rep,flops,seconds
 * then one row per rank and repetition (host: the rank's processor name).
 * Bad arguments: a one-line message on stderr, exit 2.
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_flops.h"
#include "skel.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double thread_cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long count(const char *s, long max)
{
  char *end;
  long v = strtol(s, &end, 10);
  return end != s && *end == '\0' && v >= 1 && v <= max ? v : -1;
}

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Comm comm = skel_init(&argc, &argv, &rank, &size);
  long reps = argc > 1 ? count(argv[1], 1000) : 5;
  long iters = argc > 2 ? count(argv[2], 1000000000000L) : 50000000;
  if (argc > 3 || reps < 0 || iters < 0)
    skel_fail(comm, "hostspeed", "usage: hostspeed [REPS (1-1000) [ITERATIONS (1-1e12)]]");
  char host[MPI_MAX_PROCESSOR_NAME] = "";
  int len = 0;
  MPI_Get_processor_name(host, &len);
  for (int i = 0; i < len; i++)
    if (host[i] == ',' || host[i] == '\n')
      host[i] = '_';
  double *seconds = malloc((size_t)reps * sizeof *seconds);
  if (seconds == NULL)
    MPI_Abort(comm, 1);
  volatile double sink = 0;
  for (long r = 0; r < reps; r++) {
    MPI_Barrier(comm);
    double t = thread_cpu();
    sink += hnm_flops_kernel(iters);
    seconds[r] = thread_cpu() - t;
  }
  double *all = rank == 0 ? malloc((size_t)(reps * size) * sizeof *all) : NULL;
  char *hosts = rank == 0 ? malloc((size_t)size * MPI_MAX_PROCESSOR_NAME) : NULL;
  if (rank == 0 && (all == NULL || hosts == NULL))
    MPI_Abort(comm, 1);
  MPI_Gather(seconds, (int)reps, MPI_DOUBLE, all, (int)reps, MPI_DOUBLE, 0, comm);
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, comm);
  if (rank == 0) {
    printf("rank,host,rep,flops,seconds\n");
    for (int p = 0; p < size; p++)
      for (long r = 0; r < reps; r++)
        printf("%d,%s,%ld,%.17g,%.17g\n", p, hosts + (size_t)p * MPI_MAX_PROCESSOR_NAME, r,
               HNM_FLOPS_PER_ITERATION * (double)iters, all[p * reps + r]);
    if (fflush(stdout) != 0)
      MPI_Abort(comm, 1);
  }
  free(all);
  free(hosts);
  free(seconds);
  MPI_Finalize();
  return sink != sink; /* never true: keeps the kernel */
}
