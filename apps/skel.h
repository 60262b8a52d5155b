/* skel.h -- what hnm's atmospheric skeletons share.
 *
 * Plain MPI C: every function here works with a real MPI library and under
 * SimGrid's SMPI. No mutable global state (so SMPI privatization can be off):
 * everything a rank needs lives in its own stack or heap.
 *
 * Output: one CSV line per operation on rank 0, after skel_csv_header():
 *   program,operation,algorithm,procs,params,stages,messages,time_s,stage_times_s
 * time_s is the maximum over ranks of the rank's communication time; the
 * stage times (one per communication stage, ';'-separated) are each the
 * maximum over ranks; messages is the number of point-to-point messages (or
 * RMA puts) all ranks issued for the operation; params is a ';'-separated
 * list of key=value describing the run.
 */
#ifndef SKEL_H
#define SKEL_H

#include <mpi.h>
#include <stddef.h>

#include "hnm_opt.h"

/* Print "PROG: message" on rank 0 of comm (others stay silent), then every
 * rank ends with status 2: MPI_Finalize + exit(2) (an MPI_Abort could lose
 * the message in Open MPI's teardown, and SimGrid 3.32's MPI_Abort ends
 * smpirun with status 0). comm must be MPI_COMM_WORLD and every rank must
 * call it (collective). */
void skel_fail(MPI_Comm comm, const char *prog, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;

/* The command line, from an option table (core/hnm_opt.h; the table gives
 * every option its default, unit, range and help line, and --help, -h and
 * --version are added). Collective over comm (MPI_COMM_WORLD): every rank
 * parses its own argv with hnm_opt_scan() (no MPI call until the scan is
 * over: see the note at the top of core/hnm_opt.c on why getopt_long's
 * global state is safe with SMPI ranks in one process), then
 *   --help / -h (under smpirun SimGrid takes --help: use -h): rank 0 prints
 *     the help generated from the table; every rank ends with status 0;
 *   --version: rank 0 prints "PROG VERSION"; status 0;
 *   an error, or an operand (the programs take none): skel_fail() with one
 *     line, "PROG: --x: 'VAL' is not a whole number"; status 2.
 * Returns only when the options are good. Options are parsed in order
 * (cmd->flags gets HNM_OPT_IN_ORDER: argv is not permuted). cmd->ctx is
 * passed to the table's HNM_OPT_CALL callbacks, which must not print or call
 * MPI: they fill err and return -1. */
void skel_options(MPI_Comm comm, const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, int argc, char **argv);

/* skel_fail() for a check made after parsing, in the options' wording:
 * "PROG: OPTION: message". Collective. */
void skel_option_fail(MPI_Comm comm, const char *prog, const char *option, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;

/* Buffers. With payload, a zeroed private buffer. Without payload (large
 * simulations), under SMPI one shared buffer folded by SMPI_SHARED_MALLOC
 * (the data is meaningless, the timing is not); with a real MPI an ordinary
 * buffer left uninitialised. bytes may be 0 (returns a valid 1-byte block).
 * Free with skel_free(p, payload). NULL on allocation failure. */
void *skel_alloc(size_t bytes, int payload);
void skel_free(void *p, int payload);

/* Rank 0 prints the CSV header (once per program run). */
void skel_csv_header(MPI_Comm comm);

/* Reduce (MAX of time and of each stage, SUM of messages) over comm and
 * print one CSV line on rank 0. stage_s may be NULL when nstages == 0.
 * Collective over comm. */
void skel_report(MPI_Comm comm, const char *prog, const char *operation, const char *algorithm,
                 const char *params, int nstages, const double *stage_s, long messages, double time_s);

/* Integer helpers used by the decompositions. */
/* The largest divisor of p not above sqrt(p): p = d x (p / d) is the most
 * square factorisation of p into a process grid. */
long skel_square_divisor(long p);
long skel_ceil_div(long a, long b);
/* Block distribution of n items over p parts: part i gets [start, start+count). */
void skel_block(long n, int p, int i, long *start, long *count);

#endif /* SKEL_H */
