/* traffic -- synthetic dragonfly traffic for routing tests and benchmarks
 * (Kim, Dally, Scott and Abts 2008's patterns), every message posted at the
 * simulated instant 1 ms.
 *
 *   traffic PATTERN BYTES GROUP_RANKS [ROUNDS [SEED]]
 *
 * Ranks are numbered group by group, GROUP_RANKS per group (a linear
 * hostfile of a dragonfly). PATTERN:
 *   adversarial  every rank i of group g sends BYTES to ROUNDS ranks of
 *                group g+1 (mod groups), i, i+1, ... (mod GROUP_RANKS; every
 *                rank with ROUNDS >= GROUP_RANKS): all of a group's traffic
 *                to one group;
 *   alltoall     every rank sends BYTES to every other rank (linear: all
 *                receives, then all sends, posted at once);
 *   uniform      ROUNDS random permutations (drawn from SEED, the same on
 *                every rank): in each, rank r sends BYTES to perm(r) unless
 *                perm(r) = r;
 *   mixed        ranks of even groups do adversarial, ranks of odd groups
 *                uniform.
 * Prints one line on rank 0: "traffic PATTERN SECONDS", the time from 1 ms
 * to the last rank's last message. Run with smpi/privatization:no: every
 * rank uses one buffer (the bytes are never read).
 */
#include <mpi.h>
#include <simgrid/host.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *buffer; /* shared by the ranks (privatization off) */

static uint64_t next(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* perm[k * n + r]: round k's destination of r; inv: its source. */
static void permutations(int n, int rounds, uint64_t seed, int *perm, int *inv)
{
  for (int k = 0; k < rounds; k++) {
    int *p = perm + (size_t)k * n, *q = inv + (size_t)k * n;
    for (int i = 0; i < n; i++)
      p[i] = i;
    for (int i = n - 1; i > 0; i--) {
      int j = (int)(next(&seed) % (uint64_t)(i + 1)), t = p[i];
      p[i] = p[j], p[j] = t;
    }
    for (int i = 0; i < n; i++)
      q[p[i]] = i;
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc < 4) {
    if (rank == 0)
      fprintf(stderr, "usage: traffic adversarial|alltoall|uniform|mixed BYTES GROUP_RANKS [ROUNDS [SEED]]\n");
    MPI_Finalize();
    return 2;
  }
  const char *pattern = argv[1];
  int bytes = atoi(argv[2]), gr = atoi(argv[3]);
  int rounds = argc > 4 ? atoi(argv[4]) : 1;
  uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 1;
  int groups = gr > 0 ? n / gr : 0;
  int adv = strcmp(pattern, "adversarial") == 0, a2a = strcmp(pattern, "alltoall") == 0;
  int uni = strcmp(pattern, "uniform") == 0, mix = strcmp(pattern, "mixed") == 0;
  if (bytes < 0 || gr <= 0 || n % gr != 0 || groups < 2 || rounds < 0 || !(adv || a2a || uni || mix)) {
    if (rank == 0)
      fprintf(stderr, "traffic: bad arguments (GROUP_RANKS must divide the %d ranks into 2 groups or more)\n", n);
    MPI_Finalize();
    return 2;
  }
  if (buffer == NULL)
    buffer = calloc((size_t)bytes + 1, 1);
  int *perm = NULL, *inv = NULL;
  if (uni || mix) {
    perm = malloc(sizeof *perm * (size_t)n * (size_t)rounds);
    inv = malloc(sizeof *inv * (size_t)n * (size_t)rounds);
    permutations(n, rounds, seed, perm, inv);
  }
  int fan = rounds < gr ? rounds : gr; /* adversarial destinations per rank */
  int cap = 2 * (n + rounds) + 2, nreq = 0;
  MPI_Request *req = malloc(sizeof *req * (size_t)cap);
  int g = rank / gr;
  int adv_me = adv || (mix && g % 2 == 0);                  /* I send adversarially */
  int from = (g + groups - 1) % groups;                      /* the group that may send to me adversarially */
  int adv_from = adv || (mix && from % 2 == 0);
  const double start = 1e-3;
  smpi_execute_flops((start - MPI_Wtime()) * sg_host_get_speed(sg_host_self()));
  if (a2a) {
    for (int i = 1; i < n; i++)
      MPI_Irecv(buffer, bytes, MPI_CHAR, (rank - i + n) % n, 0, MPI_COMM_WORLD, &req[nreq++]);
    for (int i = 1; i < n; i++)
      MPI_Isend(buffer, bytes, MPI_CHAR, (rank + i) % n, 0, MPI_COMM_WORLD, &req[nreq++]);
  } else {
    if (adv_from)
      for (int k = 0; k < fan; k++)
        MPI_Irecv(buffer, bytes, MPI_CHAR, from * gr + (rank % gr - k + gr) % gr, 0, MPI_COMM_WORLD, &req[nreq++]);
    for (int k = 0; (uni || mix) && k < rounds; k++) {
      int s = inv[(size_t)k * n + rank];
      if (s != rank && (uni || (s / gr) % 2 == 1))
        MPI_Irecv(buffer, bytes, MPI_CHAR, s, 1 + k, MPI_COMM_WORLD, &req[nreq++]);
    }
    if (adv_me)
      for (int k = 0; k < fan; k++)
        MPI_Isend(buffer, bytes, MPI_CHAR, ((g + 1) % groups) * gr + (rank % gr + k) % gr, 0, MPI_COMM_WORLD,
                  &req[nreq++]);
    for (int k = 0; (uni || (mix && g % 2 == 1)) && k < rounds; k++) {
      int d = perm[(size_t)k * n + rank];
      if (d != rank)
        MPI_Isend(buffer, bytes, MPI_CHAR, d, 1 + k, MPI_COMM_WORLD, &req[nreq++]);
    }
  }
  MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
  double mine = MPI_Wtime() - start, last = 0;
  MPI_Reduce(&mine, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("traffic %s %.17g\n", pattern, last);
  free(req);
  free(perm);
  free(inv);
  MPI_Finalize();
  return 0;
}
