/* skel.h -- what hnm's atmospheric skeletons share.
 *
 * Plain MPI C: every function here works with a real MPI library and under
 * SimGrid's SMPI. No mutable global state (so SMPI privatization can be off):
 * everything a rank needs lives in its own stack or heap.
 *
 * Output: one CSV line per operation on rank 0, after skel_csv_header():
 *   program,operation,algorithm,procs,params,stages,messages,time_s,stage_times_s
 * time_s is the maximum over ranks of the rank's communication time (see
 * "Timing" below for where it starts); the
 * stage times (one per communication stage, ';'-separated) are each the
 * maximum over ranks; messages is the number of point-to-point messages (or
 * RMA puts) all ranks issued for the operation; params is a ';'-separated
 * list of key=value describing the run.
 */
#ifndef SKEL_H
#define SKEL_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#include "hnm_opt.h"

/* The start of every program: MPI_Init(argc, argv), then this rank's number
 * and the number of ranks of MPI_COMM_WORLD, which it returns. */
MPI_Comm skel_init(int *argc, char ***argv, int *rank, int *procs);

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

/* Collective over comm: when BAD is true on any rank, skel_fail() on every
 * rank (the message as rank 0 formats it); else return. */
void skel_fail_if_any(MPI_Comm comm, int bad, const char *prog, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;

/* skel_fail() for a check made after parsing, in the options' wording:
 * "PROG: OPTION: message". Collective. */
void skel_option_fail(MPI_Comm comm, const char *prog, const char *option, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;

/* Buffers. With payload, a zeroed private buffer. Without payload (large
 * simulations), under SMPI from SKEL_SHARED_MIN_BYTES on a shared buffer
 * folded by SMPI_SHARED_MALLOC (the data is meaningless, the timing is
 * not) that other no-payload buffers of the process may be too (one
 * mapping for all of them, see skel.c), a private one below (a shared
 * block costs a page and a memory mapping of its own); with a real MPI an
 * ordinary buffer left uninitialised. bytes
 * may be 0 (returns a valid 1-byte block). Free with skel_free(p, payload).
 * NULL on allocation failure. */
#define SKEL_SHARED_MIN_BYTES 4096
void *skel_alloc(size_t bytes, int payload);
void skel_free(void *p, int payload);

/* A result file that one rank writes: DIR/NAME, written as DIR/.NAME.tmp
 * and renamed into place once complete, so that a reader never sees half a
 * file. skel_out_open() with the table's HEADER line: when the temporary
 * cannot be created, "PROG: PATH: cannot write: REASON" and the rows go to
 * /dev/null (the caller goes on; skel_out_close() then fails); -1. Set
 * failed to discard a file whose rows are wrong. skel_out_close(): renames
 * it into place, or removes the temporary when it failed (after one line
 * if the failure is new); 0 or -1. */
struct skel_out {
  FILE *f;
  int failed;
  char tmp[4096], final[4096];
};
int skel_out_open(struct skel_out *o, const char *prog, const char *dir, const char *name, const char *header);
int skel_out_close(struct skel_out *o, const char *prog);

/* Rank 0 prints the CSV header (once per program run). */
void skel_csv_header(MPI_Comm comm);

/* Timing: skel_sync() before every timed operation, then the operation,
 * each rank measuring from the instant skel_sync returned (t0) to its own
 * end; the report takes the maximum over ranks.
 *
 * Under SMPI (compiled by smpicc) the simulated clock is global, so every
 * rank starts the operation at the same simulated instant T ("sync=window"
 * in the report's params): skel_sync computes T collectively -- an
 * allreduce-max of the ranks' entry times (hence E_min), then one of their
 * exit times from it (Y) and T = skel_window_start(E_min, Y), plus
 * SKEL_WINDOW_NOISE when SMPI counts computation -- and each
 * rank sleeps until T (sg_actor_sleep_until; simulated idle time costs no
 * wall time). The operation's time is then not skewed by how a barrier
 * releases the ranks (SMPI's default barrier is linear: rank i leaves
 * about i send overheads after rank 0). A rank that reaches T after T
 * cannot start on time: it records by how much in the batch, whose report
 * then fails (exit 2) instead of printing a skewed time.
 * With a real MPI (mpicc) clocks are not global: skel_sync is MPI_Barrier
 * and t0 the rank's MPI_Wtime after it ("sync=barrier"); Open MPI's and
 * MPICH's barriers are logarithmic.
 *
 * The allreduce-max and the report's reduction are the skeleton's own
 * point-to-point algorithms (binomial-tree reduction to rank 0 and binomial
 * broadcast; synchronous sends MPI_Ssend / MPI_Recv on tags 32001-32002 of
 * comm): at most log2 P messages received by a rank, 2 (P - 1) in all, the
 * same under every SMPI collective selector and every MPI. */
struct skel_batch;

/* Extra idle time after the window's estimate, seconds. */
#define SKEL_WINDOW_MARGIN 1e-6
/* More idle time when SMPI counts the program's computation
 * (smpi/simulate-computation, hnm-run's default): SMPI then injects the CPU
 * time it measured between two MPI calls, and the half microsecond inside
 * each of the window's own MPI calls (SMPI's wrapper, the clock reads)
 * sometimes measures 20-100 us of the machine's own activity (a 2-core
 * virtual machine at load 5: 12 of 120 transpose runs started late with
 * SKEL_WINDOW_MARGIN alone, by 1-62 us). 1 ms is 16 times the largest seen;
 * the idle time costs no wall time and no operation's measured time. */
#define SKEL_WINDOW_NOISE 1e-3
/* Doubles skel_sync's allreduce carries at most. */
#define SKEL_SYNC_VALUES 2

/* Collective over comm: the start t0 of the next timed operation (see
 * above); a late start is recorded in b. */
double skel_sync(MPI_Comm comm, struct skel_batch *b);
/* The common start T from the first entry into skel_sync's first
 * allreduce and the last exit from it: the second allreduce, started by
 * every rank before exit_max, takes about as long as the first
 * (exit_max - entry_min at most); T leaves twice that, plus
 * SKEL_WINDOW_MARGIN. */
double skel_window_start(double entry_min, double exit_max);
/* "window" (SMPI) or "barrier" (real MPI): the params key sync=. */
const char *skel_sync_name(void);

/* A report batch: the lines of one or more operations, reduced over comm
 * at once by skel_batch_report -- one packed binomial reduction to rank 0
 * (MAX of every time and stage time, SUM of the message counts) and a
 * binomial broadcast of the verdict -- then printed by rank 0, one CSV line
 * each, in the order added. sync: the value of the params key sync= (NULL:
 * skel_sync_name(), for operations started by skel_sync). NULL when out of
 * memory. */
struct skel_batch *skel_batch_new(MPI_Comm comm, const char *sync);
/* Add a line (every rank, same order): this rank's time, stage times
 * (stage_s may be NULL when nstages == 0) and messages. params gets
 * ";sync=..." appended. */
void skel_batch_add(struct skel_batch *b, const char *prog, const char *operation, const char *algorithm,
                    const char *params, int nstages, const double *stage_s, long messages, double time_s);
/* Record that this rank started the next line's operation late_s late. */
void skel_batch_late(struct skel_batch *b, double late_s);
/* Collective over comm: reduce and print the lines, then empty the batch.
 * If any rank started one of its operations late, print nothing and fail
 * (skel_fail, exit 2). */
void skel_batch_report(MPI_Comm comm, struct skel_batch *b, const char *prog);
void skel_batch_free(struct skel_batch *b);

/* Collective over comm, after a run with --verify whose every check passed:
 * rank 0 prints "verify,PROG,ok,N", N the sum of CHECKED (the elements
 * this rank checked) over the ranks. */
void skel_verify_ok(MPI_Comm comm, const char *prog, long checked);

/* Integer helpers used by the decompositions. */
/* The largest divisor of p not above sqrt(p): p = d x (p / d) is the most
 * square factorisation of p into a process grid. */
long skel_square_divisor(long p);
long skel_ceil_div(long a, long b);
/* Block distribution of n items over p parts: part i gets [start, start+count). */
void skel_block(long n, int p, int i, long *start, long *count);

#endif /* SKEL_H */
