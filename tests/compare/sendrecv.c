/* sendrecv -- the smallest program hnm-compare's tests sweep.
 *
 *   sendrecv [--bytes K] [--exit N] [--hang 1] [--quiet 1]
 *
 * Rank 0 sends K bytes (default 1000) to rank 1 at simulated time 0, with no
 * barrier before; rank 1 times its MPI_Recv. Rank 0 prints the CSV
 *   procs,bytes,time_s
 * with the receiver's time (%.17g), unless --quiet 1 (a program that prints
 * no CSV, as most unmodified programs). Other ranks only take part in nothing.
 * With --exit N every rank exits with status N after the report (a run that
 * fails); with --hang 1 rank 0 spins forever before sending (a run that times
 * out: a busy loop, since SMPI turns sleep() into simulated time). Run with --cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no:
 * the clock then moves only through the network model, so on the two-node
 * platform under the fluid model time_s = L + K / B and the simulation ends
 * at that instant.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, procs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  long bytes = 1000;
  int status = 0;
  int hang = 0, quiet = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--bytes") == 0)
      bytes = atol(argv[i + 1]);
    else if (strcmp(argv[i], "--exit") == 0)
      status = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--hang") == 0)
      hang = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--quiet") == 0)
      quiet = atoi(argv[i + 1]);
  }
  for (volatile unsigned long spin = 0; rank == 0 && hang; spin++)
    ;
  char *buf = calloc((size_t)bytes + 1, 1);
  double dt = 0;
  if (rank == 0 && procs > 1) {
    MPI_Send(buf, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(&dt, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    double t0 = MPI_Wtime();
    MPI_Recv(buf, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    dt = MPI_Wtime() - t0;
    MPI_Send(&dt, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
  }
  if (rank == 0 && !quiet) {
    printf("procs,bytes,time_s\n%d,%ld,%.17g\n", procs, bytes, dt);
    fflush(stdout);
  }
  free(buf);
  if (status != 0)
    exit(status);
  MPI_Finalize();
  return 0;
}
