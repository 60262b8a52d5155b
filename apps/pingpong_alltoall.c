/* pingpong_alltoall -- the bundled demo workload of hnm's main job.
 *
 *   pingpong_alltoall [--alltoall-sizes LIST] [--pingpong-sizes LIST]
 *
 * Plain MPI C (runs under smpirun and with a real MPI). Prints one CSV line
 * per measurement on rank 0:
 *   op,bytes,procs,seconds
 * pingpong: half the round-trip time between rank 0 and rank procs/2 (in
 * another cabinet on the bundled platform), second of two round trips;
 * alltoall: MPI_Alltoall of BYTES per pair, the maximum over ranks
 * of the time spent in the call, after a barrier. Sizes are comma-separated
 * byte counts. No mutable global state: runs with SMPI privatization off.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SMPI_SHARED_MALLOC
/* Under SMPI, ranks share one buffer: the data is meaningless, the timing is not. */
#define DEMO_MALLOC(n) SMPI_SHARED_MALLOC(n)
#define DEMO_FREE(p) SMPI_SHARED_FREE(p)
#else
#define DEMO_MALLOC(n) malloc(n)
#define DEMO_FREE(p) free(p)
#endif

#define MAX_SIZES 32

static int parse_sizes(const char *list, long *sizes, int max)
{
  int n = 0;
  const char *p = list;
  while (*p != '\0') {
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || v < 0 || n == max || (*end != ',' && *end != '\0'))
      return -1;
    sizes[n++] = v;
    p = *end == ',' ? end + 1 : end;
  }
  return n;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, procs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);

  long pp[MAX_SIZES], a2a[MAX_SIZES];
  int npp = parse_sizes("1,1024,32768,262144,4194304", pp, MAX_SIZES);
  int na2a = parse_sizes("1024,102400", a2a, MAX_SIZES);
  for (int i = 1; i < argc; i++) {
    int ok = i + 1 < argc;
    if (ok && strcmp(argv[i], "--pingpong-sizes") == 0)
      ok = (npp = parse_sizes(argv[++i], pp, MAX_SIZES)) >= 0;
    else if (ok && strcmp(argv[i], "--alltoall-sizes") == 0)
      ok = (na2a = parse_sizes(argv[++i], a2a, MAX_SIZES)) >= 0;
    else
      ok = 0;
    if (!ok) {
      if (rank == 0)
        fprintf(stderr, "pingpong_alltoall: bad argument '%s' (expected --pingpong-sizes N,N,... or "
                        "--alltoall-sizes N,N,...)\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }

  long maxbytes = 1;
  for (int i = 0; i < npp; i++)
    maxbytes = pp[i] > maxbytes ? pp[i] : maxbytes;
  for (int i = 0; i < na2a; i++)
    maxbytes = a2a[i] * procs > maxbytes ? a2a[i] * procs : maxbytes;
  char *sbuf = DEMO_MALLOC((size_t)maxbytes);
  char *rbuf = DEMO_MALLOC((size_t)maxbytes);
  if (rank == 0)
    printf("op,bytes,procs,seconds\n");

  /* Two round trips per size, the second one timed: when it starts, the
   * peer is already waiting in MPI_Recv, so barrier skew does not count. */
  int peer = procs / 2;
  for (int i = 0; i < npp && procs > 1; i++) {
    int n = (int)pp[i];
    double t0 = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int round = 0; round < 2; round++) {
      if (rank == 0) {
        t0 = MPI_Wtime();
        MPI_Send(sbuf, n, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(rbuf, n, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == peer) {
        MPI_Recv(rbuf, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(sbuf, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
    if (rank == 0)
      printf("pingpong,%d,2,%.9g\n", n, (MPI_Wtime() - t0) / 2);
  }
  for (int i = 0; i < na2a; i++) {
    int n = (int)a2a[i];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Alltoall(sbuf, n, MPI_CHAR, rbuf, n, MPI_CHAR, MPI_COMM_WORLD);
    double dt = MPI_Wtime() - t0, maxdt;
    MPI_Reduce(&dt, &maxdt, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      printf("alltoall,%d,%d,%.9g\n", n, procs, maxdt);
  }
  fflush(stdout);
  DEMO_FREE(sbuf);
  DEMO_FREE(rbuf);
  MPI_Finalize();
  return 0;
}
