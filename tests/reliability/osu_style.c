/* osu_style -- the access pattern of OSU's osu_latency / osu_bw (OSU
 * micro-benchmarks), written from scratch: page-aligned buffers from
 * posix_memalign and malloc, a ping-pong loop over the sizes 0, 1, 2, 4, ...
 * 4 MiB with a few iterations each, buffers touched with memset before each
 * size, freed at the end. Rank 0 prints "osu_style done MAXSIZE" when the
 * last size completed; any crash of the simulator or of a rank shows as a
 * missing line or a non-zero exit.
 *
 *   osu_style [MAX_BYTES]   (default 4194304) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long max = argc > 1 ? atol(argv[1]) : 4L << 20;
  if (size < 2 || max < 1) {
    if (rank == 0)
      fprintf(stderr, "osu_style: needs 2 ranks and MAX_BYTES >= 1\n");
    MPI_Finalize();
    return 2;
  }
  long page = sysconf(_SC_PAGESIZE);
  void *s_align = NULL, *r_align = NULL;
  if (posix_memalign(&s_align, (size_t)page, (size_t)max) != 0 ||
      posix_memalign(&r_align, (size_t)page, (size_t)max) != 0)
    MPI_Abort(MPI_COMM_WORLD, 1);
  char *s_heap = malloc((size_t)max), *r_heap = malloc((size_t)max);
  if (s_heap == NULL || r_heap == NULL)
    MPI_Abort(MPI_COMM_WORLD, 1);
  int peer = rank ^ 1;
  for (long k = 0; k <= max; k = k ? 2 * k : 1) {
    for (int pass = 0; pass < 2; pass++) {
      char *sb = pass ? s_heap : s_align, *rb = pass ? r_heap : r_align;
      memset(sb, 'a', (size_t)k);
      memset(rb, 'b', (size_t)k);
      for (int it = 0; it < 3 && peer < size; it++) {
        if (rank % 2 == 0) {
          MPI_Send(sb, (int)k, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
          MPI_Recv(rb, (int)k, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(rb, (int)k, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(sb, (int)k, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
        }
      }
    }
    /* osu_bw's window: several non-blocking sends in flight. */
    MPI_Request req[8];
    int w = 8;
    if (rank % 2 == 0 && peer < size) {
      for (int i = 0; i < w; i++)
        MPI_Isend(s_heap, (int)k, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[i]);
      MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
    } else if (peer < size) {
      for (int i = 0; i < w; i++)
        MPI_Irecv(r_heap, (int)k, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[i]);
      MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
    }
    if (k == max)
      break;
    if (2 * k > max && k != 0)
      k = max / 2; /* end exactly at max */
  }
  free(s_heap);
  free(r_heap);
  free(s_align);
  free(r_align);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("osu_style done %ld\n", max);
  MPI_Finalize();
  return 0;
}
