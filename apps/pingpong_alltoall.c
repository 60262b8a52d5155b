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
#include "skel.h"

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

#define DEFAULT_PINGPONG "1,1024,32768,262144,4194304"
#define DEFAULT_ALLTOALL "1024,102400"

struct sizes {
  long v[MAX_SIZES];
  int n;
};

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

/* HNM_OPT_CALL: ctx is the struct sizes[2] of main (pingpong, alltoall). */
static int set_sizes(struct sizes *s, const char *arg, char *err, size_t errlen)
{
  int n = parse_sizes(arg, s->v, MAX_SIZES);
  if (n < 0) {
    hnm_errf(err, errlen, "'%s' is not a list of byte counts N,N,... (at most %d)", arg, MAX_SIZES);
    return -1;
  }
  s->n = n;
  return 0;
}

static int set_pingpong(void *ctx, const char *arg, char *err, size_t errlen)
{
  return set_sizes(&((struct sizes *)ctx)[0], arg, err, errlen);
}

static int set_alltoall(void *ctx, const char *arg, char *err, size_t errlen)
{
  return set_sizes(&((struct sizes *)ctx)[1], arg, err, errlen);
}

int main(int argc, char **argv)
{
  int rank, procs;
  skel_init(&argc, &argv, &rank, &procs);

  struct sizes sz[2];
  sz[0].n = parse_sizes(DEFAULT_PINGPONG, sz[0].v, MAX_SIZES);
  sz[1].n = parse_sizes(DEFAULT_ALLTOALL, sz[1].v, MAX_SIZES);
  const struct hnm_opt opts[] = {
    {.name = "pingpong-sizes", .kind = HNM_OPT_CALL, .arg = "LIST", .def = DEFAULT_PINGPONG, .unit = "bytes", .help = "ping-pong sizes between rank 0 and rank procs/2, comma-separated", .fn = set_pingpong},
    {.name = "alltoall-sizes", .kind = HNM_OPT_CALL, .arg = "LIST", .def = DEFAULT_ALLTOALL, .unit = "bytes per pair", .help = "MPI_Alltoall sizes, comma-separated", .fn = set_alltoall},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "pingpong_alltoall", "[OPTIONS]", "The demo workload of hnm's main job: ping-pongs, then alltoalls.",
    "Output: CSV op,bytes,procs,seconds on rank 0 (pingpong: half the round trip;\n"
    "alltoall: the maximum over ranks of the time in the call).\n",
    NULL, 0, sz};
  skel_options(MPI_COMM_WORLD, &cmd, opts, argc, argv);
  const long *pp = sz[0].v, *a2a = sz[1].v;
  int npp = sz[0].n, na2a = sz[1].n;

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
