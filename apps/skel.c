/* skel.c -- see skel.h. */
#include "skel.h"
#include "hnm_version.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every rank of comm is here: end the program with status, rank 0's output
 * flushed first. */
static void skel__exit(MPI_Comm comm, int status)
{
  /* Let rank 0's message out before the job is torn down. */
  fflush(stdout);
  fflush(stderr);
  MPI_Barrier(comm);
  /* Not MPI_Abort: SimGrid 3.32's ends smpirun with status 0, and Open MPI's
   * teardown after an abort may drop rank 0's message before mpirun
   * forwards it. Every rank is here, so finalize cleanly and exit: mpirun
   * then exits with the ranks' status; under SMPI exit() is smpi_exit(),
   * which ends this rank only and makes smpirun exit with the status. */
  MPI_Finalize();
  exit(status);
}

static void skel__vfail(MPI_Comm comm, const char *prog, const char *option, const char *fmt, va_list ap)
{
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    fprintf(stderr, "%s: ", prog);
    if (option != NULL)
      fprintf(stderr, "%s: ", option);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
  }
  skel__exit(comm, 2);
}

void skel_fail(MPI_Comm comm, const char *prog, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  skel__vfail(comm, prog, NULL, fmt, ap);
  va_end(ap);
}

void skel_option_fail(MPI_Comm comm, const char *prog, const char *option, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  skel__vfail(comm, prog, option, fmt, ap);
  va_end(ap);
}

void skel_options(MPI_Comm comm, const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, int argc, char **argv)
{
  struct hnm_opt_cmd in_order = *cmd;
  char err[1024];
  in_order.flags |= HNM_OPT_IN_ORDER;
  /* The whole scan before any MPI call (core/hnm_opt.c's note). */
  int first = hnm_opt_scan(&in_order, opts, argc, argv, err, sizeof err);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (first == HNM_OPT_HELP || first == HNM_OPT_VERSION) {
    if (rank == 0) {
      if (first == HNM_OPT_HELP)
        hnm_opt_help(cmd, opts, stdout);
      else
        printf("%s %s\n", cmd->prog, HNM_VERSION);
    }
    skel__exit(comm, 0);
  }
  if (first == HNM_OPT_ERROR)
    skel_fail(comm, cmd->prog, "%s", err[0] != '\0' ? err : "bad command line (see -h)");
  if (first < argc)
    skel_fail(comm, cmd->prog, "'%s': unexpected argument (options start with --; see -h)", argv[first]);
}

void *skel_alloc(size_t bytes, int payload)
{
  if (bytes == 0)
    bytes = 1;
  if (payload)
    return calloc(1, bytes);
#ifdef SMPI_SHARED_MALLOC
  return SMPI_SHARED_MALLOC(bytes);
#else
  return malloc(bytes);
#endif
}

void skel_free(void *p, int payload)
{
  if (p == NULL)
    return;
  if (payload) {
    free(p);
    return;
  }
#ifdef SMPI_SHARED_FREE
  SMPI_SHARED_FREE(p);
#else
  free(p);
#endif
}

void skel_csv_header(MPI_Comm comm)
{
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    printf("program,operation,algorithm,procs,params,stages,messages,time_s,stage_times_s\n");
    fflush(stdout);
  }
}

void skel_report(MPI_Comm comm, const char *prog, const char *operation, const char *algorithm,
                 const char *params, int nstages, const double *stage_s, long messages, double time_s)
{
  int rank, procs;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  double tmax = 0;
  long msum = 0;
  double *smax = malloc(sizeof(double) * (size_t)(nstages > 0 ? nstages : 1));
  MPI_Reduce(&time_s, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(&messages, &msum, 1, MPI_LONG, MPI_SUM, 0, comm);
  if (nstages > 0)
    MPI_Reduce(stage_s, smax, nstages, MPI_DOUBLE, MPI_MAX, 0, comm);
  if (rank == 0) {
    printf("%s,%s,%s,%d,%s,%d,%ld,%.17g,", prog, operation, algorithm, procs, params, nstages, msum, tmax);
    for (int i = 0; i < nstages; i++)
      printf(i ? ";%.17g" : "%.17g", smax[i]);
    printf("\n");
    fflush(stdout);
  }
  free(smax);
}

long skel_square_divisor(long p)
{
  long best = 1;
  for (long d = 1; d * d <= p; d++)
    if (p % d == 0)
      best = d;
  return best;
}

long skel_ceil_div(long a, long b)
{
  return (a + b - 1) / b;
}

void skel_block(long n, int p, int i, long *start, long *count)
{
  long base = n / p, extra = n % p;
  *count = base + (i < extra ? 1 : 0);
  *start = (long)i * base + (i < extra ? i : extra);
}
