/* placement -- rank 0 prints "RANK HOST" for every rank, in rank order:
 * where the launcher placed each rank (MPI_Get_processor_name is the
 * simulated host's name under SMPI). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  int rank, size, len;
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_processor_name(name, &len);
  char *all = rank == 0 ? calloc((size_t)size, MPI_MAX_PROCESSOR_NAME) : NULL;
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size; r++)
      printf("%d %s\n", r, all + (size_t)r * MPI_MAX_PROCESSOR_NAME);
    free(all);
  }
  MPI_Finalize();
  return 0;
}
