/* argv_echo -- rank 0 prints each of its arguments on a line of its own,
 * between '[' and ']': what hnm-run handed to the program, unchanged. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    for (int i = 1; i < argc; i++)
      printf("[%s]\n", argv[i]);
  MPI_Finalize();
  return 0;
}
