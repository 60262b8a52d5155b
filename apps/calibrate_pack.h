/* calibrate_pack.h -- the derived-datatype part of the calibration
 * benchmark (apps/calibrate_pack.c): pack and unpack times of the access
 * patterns of Schneider, Kjolstad and Hoefler 2013, written to pack.csv
 * (core/hnm_bench.h). */
#ifndef CALIBRATE_PACK_H
#define CALIBRATE_PACK_H

#include <mpi.h>

/* Measure every pattern on this rank, REPS times each (the median is
 * written), into DIR/pack.csv through a temporary file. Returns 0, or -1 with
 * a message on stderr (an MPI call that failed, a file not written). */
int calibrate_pack(MPI_Comm comm, const char *dir, long reps, int progress);

#endif
