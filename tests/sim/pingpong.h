/* pingpong.h -- the timed round trip of the sim tests' MPI programs
 * (static, included by each program that times one).
 *
 * pingpong(rank, s, r, k): rank 0 sends k bytes of s to rank 1 with
 * MPI_Send, receives them back into r with MPI_Recv and prints
 * "pingpong K SECONDS", its round trip, at full precision; rank 1 answers
 * (MPI_Recv into r, MPI_Send of s); other ranks do nothing.
 * comma_list(text, out, max): the comma-separated whole numbers of text, at
 * most max of them, into out; returns how many. */
#ifndef HNM_TESTS_SIM_PINGPONG_H
#define HNM_TESTS_SIM_PINGPONG_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pingpong(int rank, char *s, char *r, long k)
{
  if (rank == 0) {
    double t0 = MPI_Wtime();
    MPI_Send(s, (int)k, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(r, (int)k, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("pingpong %ld %.17g\n", k, MPI_Wtime() - t0);
  } else if (rank == 1) {
    MPI_Recv(r, (int)k, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(s, (int)k, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  }
}

static int comma_list(const char *text, long *out, int max)
{
  int n = 0;
  char *copy = strdup(text), *save = NULL;
  for (char *t = strtok_r(copy, ",", &save); t != NULL && n < max; t = strtok_r(NULL, ",", &save))
    out[n++] = atol(t);
  free(copy);
  return n;
}

#endif /* HNM_TESTS_SIM_PINGPONG_H */
