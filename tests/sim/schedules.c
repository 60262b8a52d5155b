/* schedules -- communication schedules whose LogGPS times are known in
 * closed form (tests/sim/loggps_ports.sh derives them).
 *
 *   schedules SCHEDULE:BYTES[:COUNT] [SCHEDULE:BYTES[:COUNT] ...]
 *
 * Item i (from 0) starts at the simulated instant START_i = 1 ms + i x 50 ms:
 * every rank waits until then, runs SCHEDULE with messages of BYTES bytes, and
 * prints when it finished, relative to START_i:
 *   i SCHEDULE BYTES RANK seconds
 * Schedules (P = number of ranks, a power of two for bcast and rdouble):
 *   pingpong     rank 0 MPI_Send to 1, which MPI_Recv then MPI_Send back
 *   bcast        binomial tree with blocking MPI_Send / MPI_Recv: rank r > 0
 *                receives from r - b (b: the lowest set bit of r), then
 *                sends to r + b/2, r + b/4, ..., r + 1 (the root: b = P)
 *   bcast-isend  the same tree, but a rank that has the data posts MPI_Isend
 *                to all its children at once, then MPI_Waitall
 *   rdouble      recursive doubling: for mask = 1, 2, ..., P/2, MPI_Sendrecv
 *                with rank ^ mask
 *   a2a-linear   every rank posts P-1 MPI_Irecv, then P-1 MPI_Isend to
 *                rank + 1, rank + 2, ... (mod P), then MPI_Waitall
 *   a2a-pair     pairwise exchange: for i = 1 .. P-1, MPI_Sendrecv to
 *                rank + i, from rank - i (mod P)
 *   burst        rank 0 posts COUNT (default 16) MPI_Isend to rank 1 back to
 *                back, then MPI_Waitall; rank 1 calls MPI_Recv COUNT times
 * Run with --cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no so that
 * only the network model moves the clock. Simulation only (smpi_execute_flops).
 */
#include <mpi.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bcast(char *buf, int k, int rank, int procs, int isend)
{
  /* The parent of rank r is r minus its lowest set bit b; its children are
   * r + m for m = b/2, b/4, ..., 1 (the root's b is P). */
  int low = rank == 0 ? procs : (rank & -rank);
  MPI_Request reqs[64];
  int n = 0;

  if (rank != 0)
    MPI_Recv(buf, k, MPI_CHAR, rank - low, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int m = low / 2; m >= 1; m /= 2) {
    if (isend)
      MPI_Isend(buf, k, MPI_CHAR, rank + m, 0, MPI_COMM_WORLD, &reqs[n++]);
    else
      MPI_Send(buf, k, MPI_CHAR, rank + m, 0, MPI_COMM_WORLD);
  }
  MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
}

static int run(const char *sched, int k, int count, int rank, int procs, char *sbuf, char *rbuf)
{
  MPI_Request reqs[128];

  if (strcmp(sched, "pingpong") == 0) {
    if (rank == 0) {
      MPI_Send(sbuf, k, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(rbuf, k, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(rbuf, k, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(sbuf, k, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
  } else if (strcmp(sched, "bcast") == 0 || strcmp(sched, "bcast-isend") == 0) {
    bcast(sbuf, k, rank, procs, strcmp(sched, "bcast-isend") == 0);
  } else if (strcmp(sched, "rdouble") == 0) {
    for (int mask = 1; mask < procs; mask *= 2)
      MPI_Sendrecv(sbuf, k, MPI_CHAR, rank ^ mask, 0, rbuf, k, MPI_CHAR, rank ^ mask, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
  } else if (strcmp(sched, "a2a-linear") == 0) {
    int n = 0;
    for (int i = 1; i < procs; i++)
      MPI_Irecv(rbuf + (size_t)i * k, k, MPI_CHAR, (rank - i + procs) % procs, 0, MPI_COMM_WORLD, &reqs[n++]);
    for (int i = 1; i < procs; i++)
      MPI_Isend(sbuf + (size_t)i * k, k, MPI_CHAR, (rank + i) % procs, 0, MPI_COMM_WORLD, &reqs[n++]);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
  } else if (strcmp(sched, "a2a-pair") == 0) {
    for (int i = 1; i < procs; i++)
      MPI_Sendrecv(sbuf + (size_t)i * k, k, MPI_CHAR, (rank + i) % procs, 0, rbuf + (size_t)i * k, k, MPI_CHAR,
                   (rank - i + procs) % procs, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (strcmp(sched, "burst") == 0) {
    if (rank == 0) {
      for (int i = 0; i < count; i++)
        MPI_Isend(sbuf, k, MPI_CHAR, 1, i, MPI_COMM_WORLD, &reqs[i]);
      MPI_Waitall(count, reqs, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
      for (int i = 0; i < count; i++)
        MPI_Recv(rbuf, k, MPI_CHAR, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else {
    return -1;
  }
  return 0;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, procs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  long maxk = 1;
  for (int i = 1; i < argc; i++) {
    const char *colon = strchr(argv[i], ':');
    long k = colon != NULL ? atol(colon + 1) : -1;
    if (k < 0 || k > (1L << 24) || procs > 64) {
      if (rank == 0)
        fprintf(stderr, "usage: schedules SCHEDULE:BYTES[:COUNT] ... (BYTES <= 16 MiB, at most 64 ranks)\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    maxk = k > maxk ? k : maxk;
  }
  char *sbuf = calloc((size_t)maxk * (size_t)procs + 1, 1);
  char *rbuf = calloc((size_t)maxk * (size_t)procs + 1, 1);

  for (int i = 1; i < argc; i++) {
    char sched[32];
    int k = 0, count = 16;
    if (sscanf(argv[i], "%31[^:]:%d:%d", sched, &k, &count) < 2 || count < 1 || count > 64)
      count = 16;
    const double start = 1e-3 + 0.05 * (i - 1);
    smpi_execute_flops((start - MPI_Wtime()) * sg_host_get_speed(sg_host_self()));
    if (run(sched, k, count, rank, procs, sbuf, rbuf) < 0) {
      if (rank == 0)
        fprintf(stderr, "schedules: unknown schedule '%s'\n", sched);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    printf("%d %s %d %d %.17g\n", i - 1, sched, k, rank, MPI_Wtime() - start);
  }
  fflush(stdout);
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
