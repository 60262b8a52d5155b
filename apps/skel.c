/* skel.c -- see skel.h. */
#include "skel.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void skel_fail(MPI_Comm comm, const char *prog, const char *fmt, ...)
{
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
  }
  /* Let rank 0's message out before the abort tears the job down. */
  MPI_Barrier(comm);
#ifdef SMPI_SHARED_MALLOC
  /* SimGrid 3.32's MPI_Abort ends smpirun with status 0; every rank is here
   * (skel_fail is collective), so ending the simulation process is safe. */
  exit(2);
#else
  /* Not MPI_Abort: Open MPI's teardown after an abort may drop rank 0's
   * message before mpirun forwards it. Every rank is here, so finalize
   * cleanly; mpirun then exits with the ranks' status 2. */
  MPI_Finalize();
  exit(2);
#endif
}

int skel_asks_help(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
      return 1;
  return 0;
}

long skel_parse_long(MPI_Comm comm, const char *prog, const char *opt, const char *val, long min, long max)
{
  char *end;
  errno = 0;
  long v = val != NULL ? strtol(val, &end, 10) : 0;
  if (val == NULL || *val == '\0' || *end != '\0' || errno == ERANGE)
    skel_fail(comm, prog, "%s: '%s' is not a whole number", opt, val != NULL ? val : "");
  if (v < min || v > max)
    skel_fail(comm, prog, "%s: %ld is out of range [%ld, %ld]", opt, v, min, max);
  return v;
}

double skel_parse_double(MPI_Comm comm, const char *prog, const char *opt, const char *val, double min,
                         double max)
{
  char *end;
  errno = 0;
  double v = val != NULL ? strtod(val, &end) : 0;
  if (val == NULL || *val == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v))
    skel_fail(comm, prog, "%s: '%s' is not a number", opt, val != NULL ? val : "");
  if (!(v > min && v <= max))
    skel_fail(comm, prog, "%s: %g is out of range (%g, %g]", opt, v, min, max);
  return v;
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
