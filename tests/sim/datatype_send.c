/* datatype_send -- one message of a derived datatype, timed in simulated time.
 *
 *   datatype_send NAME [NAME ...]
 *
 * For each scenario, after a barrier, rank 0 sends one message to rank 1,
 * which receives it with the same datatype; both print the simulated
 * instants at which they entered and left their calls:
 *   send NAME t_enter t_leave      (rank 0)
 *   recv NAME t_enter t_leave      (rank 1)
 * Scenarios (blocks = maximal contiguous runs; bytes = payload):
 *   contig       2,048 doubles, MPI_DOUBLE                      (1 block)
 *   vector1m     MPI_Type_vector(1048576, 1, 2, MPI_DOUBLE)     (1,048,576 blocks, 8 MiB)
 *   contig1m     the same 8 MiB as 1,048,576 MPI_DOUBLE         (1 block)
 *   vector       MPI_Type_vector(1000, 4, 8, MPI_DOUBLE)        (1,000 blocks, 32,000 B)
 *   vector2      MPI_Type_vector(2, 1, 2, MPI_DOUBLE)           (2 blocks, 16 B)
 *   vector1      MPI_Type_vector(1, 1, 2, MPI_DOUBLE)           (1 block: contiguous)
 *   vecdense     MPI_Type_vector(100, 4, 4, MPI_DOUBLE)         (1 block: contiguous)
 *   indexed      MPI_Type_indexed, 100 blocks of i%5+1 doubles, the first two
 *                adjacent, the others 1 double apart            (99 blocks, 2,400 B)
 *   struct       MPI_Type_create_struct {int at 0, double at 8}, count 1000
 *                (extent 16: each element's double touches the next int)
 *                                                               (1,001 blocks, 12,000 B)
 *   subarray     16x16x16 doubles, MPI_Type_create_subarray {16,16,1} at {0,0,3}
 *                                                               (256 blocks, 2,048 B)
 *   subrows      the same array, {16,1,16} at {0,5,0}           (16 blocks, 2,048 B;
 *                rows 2,048 B apart: 7.5 jumps)
 *   subplane     the same array, {1,16,16} at {7,0,0}           (1 block: contiguous)
 *   structsub    MPI_Type_create_struct of two such arrays' subarray faces
 *                (second array 32 KiB further): class subarray, the
 *                class of what makes its runs                   (512 blocks, 4,096 B)
 *   ivector      vector, as MPI_Isend / MPI_Irecv + MPI_Wait    (1,000 blocks, 32,000 B)
 * Jumps (core/hnm_bench.h: a run 4 KiB x k from the previous run's start
 * weighs 1, an odd multiple of 2 KiB 1/2, of 1 KiB 1/4, anything else 0):
 *   stride4096   MPI_Type_vector(64, 2, 512, MPI_DOUBLE): 16 B every 4,096 B
 *                                                  (64 blocks, 1,024 B, 63 jumps)
 *   stride4088   the same, stride 511 doubles (4,088 B)   (64 blocks, 1,024 B, 0 jumps)
 *   stride4104   the same, stride 513 doubles (4,104 B)   (64 blocks, 1,024 B, 0 jumps)
 *   stride2048   the same, stride 256 doubles             (64 blocks, 1,024 B, 31.5 jumps)
 *   stride1024   the same, stride 128 doubles             (64 blocks, 1,024 B, 15.75 jumps)
 *   stride512    the same, stride 64 doubles              (64 blocks, 1,024 B, 0 jumps)
 *   stride16     MPI_Type_vector(64, 1, 2, MPI_DOUBLE)    (64 blocks, 512 B, 0 jumps)
 *   hstride8k    MPI_Type_create_hvector(64, 2, 8192 B, MPI_DOUBLE)
 *                                                  (64 blocks, 1,024 B, 63 jumps)
 *   columns      stride4096 resized to an extent of 16 B, count 64 (a 2-D
 *                FFT's columns): 64 x 64 runs, each column's last run
 *                258,032 B from the next column's first (no jump)
 *                                                  (4,096 blocks, 65,536 B, 4,032 jumps)
 *   joinjump     MPI_Type_create_hindexed {1, 1} doubles at {0, 4,088 B},
 *                resized to an extent of 4,096 B, count 64: each element's
 *                second run joins the next element's first, so the runs
 *                start at 0, 4,088, 8,184, ..., 4,096 k - 8 B (class indexed)
 *                                                  (65 blocks, 1,024 B, 63 jumps)
 *   joincontig   MPI_Type_contiguous(64) of joinjump's element, count 1: the
 *                same runs, joined by the constructor instead of the message
 *                                                  (65 blocks, 1,024 B, 63 jumps)
 *   subjump      {8,8,512} doubles, MPI_Type_create_subarray {8,8,64} at
 *                {0,0,0}: rows of 512 B every 4,096 B (64 blocks, 32,768 B, 63 jumps)
 *   sendrecv     vector both ways with MPI_Sendrecv             (1,000 blocks each way)
 *   pack         vector through MPI_Pack / MPI_Unpack and a contiguous send
 * The sender starts 1 ms after the barrier, so that the receive is always
 * posted first (its MPI_Recv or MPI_Wait waits for the data).
 * Run with --cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no so that
 * only the model moves the clock.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <simgrid/host.h>

static MPI_Datatype make(const char *name, int *count)
{
  MPI_Datatype t = MPI_DOUBLE;
  *count = 1;
  if (strcmp(name, "contig") == 0) {
    *count = 2048;
  } else if (strcmp(name, "contig1m") == 0) {
    *count = 1048576;
  } else if (strcmp(name, "vector1m") == 0) {
    MPI_Type_vector(1048576, 1, 2, MPI_DOUBLE, &t);
  } else if (strcmp(name, "vector") == 0 || strcmp(name, "ivector") == 0 || strcmp(name, "sendrecv") == 0 ||
             strcmp(name, "pack") == 0) {
    MPI_Type_vector(1000, 4, 8, MPI_DOUBLE, &t);
  } else if (strncmp(name, "stride", 6) == 0 && strcmp(name, "stride16") != 0) {
    MPI_Type_vector(64, 2, atoi(name + 6) / 8, MPI_DOUBLE, &t);
  } else if (strcmp(name, "stride16") == 0) {
    MPI_Type_vector(64, 1, 2, MPI_DOUBLE, &t);
  } else if (strcmp(name, "hstride8k") == 0) {
    MPI_Type_create_hvector(64, 2, 8192, MPI_DOUBLE, &t);
  } else if (strcmp(name, "columns") == 0) {
    MPI_Datatype col;
    MPI_Type_vector(64, 2, 512, MPI_DOUBLE, &col);
    MPI_Type_create_resized(col, 0, 2 * sizeof(double), &t);
    MPI_Type_free(&col);
    *count = 64;
  } else if (strcmp(name, "joinjump") == 0 || strcmp(name, "joincontig") == 0) {
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 4088};
    MPI_Datatype two, elem;
    MPI_Type_create_hindexed(2, bl, disp, MPI_DOUBLE, &two);
    MPI_Type_create_resized(two, 0, 4096, &elem);
    MPI_Type_free(&two);
    if (strcmp(name, "joinjump") == 0) {
      t = elem;
      *count = 64;
    } else {
      MPI_Type_contiguous(64, elem, &t);
      MPI_Type_free(&elem);
    }
  } else if (strcmp(name, "subjump") == 0) {
    int sizes[3] = {8, 8, 512}, sub[3] = {8, 8, 64}, start[3] = {0, 0, 0};
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
  } else if (strcmp(name, "vector2") == 0) {
    MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &t);
  } else if (strcmp(name, "vector1") == 0) {
    MPI_Type_vector(1, 1, 2, MPI_DOUBLE, &t);
  } else if (strcmp(name, "vecdense") == 0) {
    MPI_Type_vector(100, 4, 4, MPI_DOUBLE, &t);
  } else if (strcmp(name, "indexed") == 0) {
    int bl[100], disp[100], at = 0;
    for (int i = 0; i < 100; i++) {
      bl[i] = i % 5 + 1;
      disp[i] = at;
      at += bl[i] + (i == 0 ? 0 : 1);
    }
    MPI_Type_indexed(100, bl, disp, MPI_DOUBLE, &t);
  } else if (strcmp(name, "struct") == 0) {
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, disp, types, &t);
    *count = 1000;
  } else if (strcmp(name, "subarray") == 0 || strcmp(name, "subrows") == 0 || strcmp(name, "subplane") == 0) {
    int sizes[3] = {16, 16, 16};
    int sub[3] = {16, 16, 1}, start[3] = {0, 0, 3};
    if (strcmp(name, "subrows") == 0) {
      sub[1] = 1, sub[2] = 16, start[1] = 5, start[2] = 0;
    } else if (strcmp(name, "subplane") == 0) {
      sub[0] = 1, sub[2] = 16, start[0] = 7, start[2] = 0;
    }
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
  } else if (strcmp(name, "structsub") == 0) {
    int sizes[3] = {16, 16, 16}, sub[3] = {16, 16, 1}, start[3] = {0, 0, 3}, bl[2] = {1, 1};
    MPI_Datatype face, types[2];
    MPI_Aint disp[2] = {0, 16 * 16 * 16 * (MPI_Aint)sizeof(double)};
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &face);
    types[0] = types[1] = face;
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_free(&face);
  } else {
    fprintf(stderr, "datatype_send: unknown scenario '%s'\n", name);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (t != MPI_DOUBLE)
    MPI_Type_commit(&t);
  return t;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* Locals: the tests run without privatization, every rank in one process. */
  double *buf = calloc(2 * 1048576 + 16, sizeof *buf);
  double *rbuf = calloc(2 * 1048576 + 16, sizeof *rbuf);
  for (int i = 1; i < argc; i++) {
    const char *name = argv[i];
    int count;
    MPI_Datatype t = make(name, &count);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
      smpi_execute_flops(1e-3 * sg_host_get_speed(sg_host_self()));
    double t0 = MPI_Wtime();
    if (strcmp(name, "sendrecv") == 0) {
      int peer = 1 - rank;
      MPI_Sendrecv(buf, count, t, peer, 0, rbuf, count, t, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("%s %s %.17g %.17g\n", rank == 0 ? "send" : "recv", name, t0, MPI_Wtime());
    } else if (rank == 0) {
      if (strcmp(name, "ivector") == 0) {
        MPI_Request r;
        MPI_Isend(buf, count, t, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      } else if (strcmp(name, "pack") == 0) {
        int size, pos = 0;
        MPI_Pack_size(count, t, MPI_COMM_WORLD, &size);
        char *p = malloc((size_t)size);
        MPI_Pack(buf, count, t, p, size, &pos, MPI_COMM_WORLD);
        MPI_Send(p, pos, MPI_PACKED, 1, 0, MPI_COMM_WORLD);
        free(p);
      } else {
        MPI_Send(buf, count, t, 1, 0, MPI_COMM_WORLD);
      }
      printf("send %s %.17g %.17g\n", name, t0, MPI_Wtime());
    } else if (rank == 1) {
      if (strcmp(name, "ivector") == 0) {
        MPI_Request r;
        MPI_Irecv(rbuf, count, t, 0, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      } else if (strcmp(name, "pack") == 0) {
        int size, pos = 0;
        MPI_Pack_size(count, t, MPI_COMM_WORLD, &size);
        char *p = malloc((size_t)size);
        MPI_Status st;
        MPI_Recv(p, size, MPI_PACKED, 0, 0, MPI_COMM_WORLD, &st);
        /* SMPI 3.32's MPI_Unpack copies INSIZE bytes: give it what arrived. */
        MPI_Get_count(&st, MPI_PACKED, &size);
        MPI_Unpack(p, size, &pos, rbuf, count, t, MPI_COMM_WORLD);
        free(p);
      } else {
        MPI_Recv(rbuf, count, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      printf("recv %s %.17g %.17g\n", name, t0, MPI_Wtime());
    }
    fflush(stdout);
    if (t != MPI_DOUBLE)
      MPI_Type_free(&t);
  }
  free(buf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
