/* hnm-calibrate: the operations of the benchmark, messages, mkdir -p. */
#ifndef HNM_CALIBRATE_UTIL_H
#define HNM_CALIBRATE_UTIL_H

#define CAL_PROG "hnm-calibrate"

#include "hnm_bench.h"
#include "hnm_error.h"

#include <stddef.h>

/* The benchmark's operations (core/hnm_bench.h). */
enum { CAL_OP_SEND = HNM_BENCH_SEND, CAL_OP_RECV = HNM_BENCH_RECV, CAL_OP_PINGPONG = HNM_BENCH_PINGPONG,
       CAL_OP_ISEND = HNM_BENCH_ISEND, CAL_OP_IRECV = HNM_BENCH_IRECV, CAL_OP_COUNT = HNM_BENCH_OPS };

extern const char *const cal_op_names[CAL_OP_COUNT];

/* A reader's refusal: the one line into err (include/hnm/hnm_error.h), then the
 * reader's cleanup at its label `fail` (the file closed). */
#define CAL_FAIL(...)                                                                                               \
  do {                                                                                                              \
    hnm_errf(err, errlen, __VA_ARGS__);                                                                             \
    goto fail;                                                                                                      \
  } while (0)

/* An argument vector for a child hnm-calibrate fit: the n0 strings of HEAD
 * (borrowed), then "DIR/NAME" for every NAME in DIR ending in ".csv"
 * (allocated, readdir order), then NULL. NULL with "WHATDIR: reason" in
 * err for an unreadable DIR, "out of memory" when memory runs out. Free
 * with cal_csv_args_free(av, n0). */
char **cal_csv_args(const char *dir, char *const *head, size_t n0, const char *what, char *err, size_t errlen);
void cal_csv_args_free(char **av, size_t n0);

/* SIGINT, SIGTERM and SIGHUP end everything the command started: with a
 * child of cal_spawn() running, the signal is forwarded to its process
 * group (SIGKILL 5 s later if it is still there), the child is waited
 * for, and then, as without a child, the command's temporaries are
 * removed (hnm_out_signal_cleanup()) and it dies of the signal (128 + N
 * in a shell). Called once by main(). */
void cal_signals_init(void);

/* Run AV (NULL-terminated; SEARCH: AV[0] looked up on $PATH) and wait.
 * With OUT, its standard output is read into *OUT (malloc'ed,
 * NUL-terminated; NULL when memory ran out); else with NULL_STDOUT it goes
 * to /dev/null. 0 with *STATUS its exit status (128 if killed), or -1 with
 * the reason in err when pipe, fork, exec ("AV0: reason") or waitpid
 * failed: failed work. The child runs in a process group of its own and
 * gets SIGTERM if this process dies (PR_SET_PDEATHSIG); a signal to this
 * process reaches its whole group (cal_signals_init()). */
int cal_spawn(char **av, int search, int null_stdout, char **out, int *status, char *err, size_t errlen);

/* The rank-count option of the launcher whose first word is LAUNCHER:
 * "-n" for Slurm's srun (which reads "-np 2" as -n "p"), "-np" for mpirun,
 * mpiexec and the others. */
const char *cal_np_option(const char *launcher);

#endif
