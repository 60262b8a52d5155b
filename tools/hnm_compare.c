/* hnm-compare -- sweeps of an MPI program over models x process counts x
 * platforms x program arguments, through hnm-run, with a resumable CSV.
 *
 *   hnm-compare run   [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]
 *   hnm-compare slurm --tasks N --script JOB.sh [--submit] [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]
 *   hnm-compare slurm --tasks N --attach JOBID [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]
 *   hnm-compare merge -o OUT.csv IN.csv...
 *   hnm-compare plot  IN.csv -o PREFIX [--reference MODEL] [--only COL=VAL]... [--title TEXT]
 *
 * The grid is enumerated in a fixed order (platform, then argument set, then
 * process count, then model; then the optional mpirun reference runs per
 * argument set and process count), so that a run's index is the same in every
 * invocation over the same grid: --task i --tasks n runs the indices equal to
 * i modulo n, and merge sorts by index.
 *
 * Every run is one child process group (hnm-run -> smpirun -> smpimain, or
 * mpirun): several at once (--workers), each with its stdout/stderr in the log
 * directory, a wall-clock timeout (the whole group is killed), its exit status
 * and peak resident memory from wait4(). One CSV row per finished run is
 * appended and flushed at once; a later invocation skips the runs whose key
 * (program, args, model, platform, np, metric, options) already has an ok row.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "hnm_home.h"
#include "hnm_model.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "hnm_msg.h"
#include "hnm_opt.h"
#include "hnm_version.h"
#include "hnm_compare_util.h"
#include "hnm_compare_store.h"
#include "hnm_compare_pool.h"
#include "hnm_compare_slurm.h"
#include "hnm_compare_plot.h"


/* Options of run and slurm                                                  */

static const struct hnm_opt_command commands[] = {
  {"run", "[OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]", "the sweep"},
  {"slurm", "--tasks N --script JOB.sh [--submit [--no-wait]] [--sbatch LINE]... [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]",
   "a Slurm job array script running the sweep in N tasks; --submit: submit, watch, merge"},
  {"merge", "-o OUT.csv IN.csv...", "the per-task CSVs into one: sorted by index, duplicates dropped"},
  {"plot", "IN.csv -o PREFIX [--reference MODEL] [--only COLUMN=VALUE]... [--title TEXT]",
   "PREFIX-time.png, PREFIX-error.png, their .dat, PREFIX.gp"},
  {NULL, NULL, NULL}};

static const struct hnm_opt_tool tool = {
  "hnm-compare", "COMMAND", "Commands",
  "Run an MPI program built with smpicc over models x process counts x platforms x\n"
  "argument sets through hnm-run, several runs at once, into a resumable CSV.",
  "CSV columns: " CMP_HEADER "\n"
  "status: ok, failed (exit status != 0), signal, timeout, nometric (exit 0, no metric).\n"
  "Exit status: 0 all runs ok; 1 some run not ok, or the work failed (a write, a fork,\n"
  "memory); 2 bad input (nothing run).\n"
  "See docs/experiments.md.\n",
  NULL};

int main(int argc, char **argv)
{
  static int (*const run[])(int, char **) = {cmp_cmd_run, cmp_cmd_slurm, cmp_cmd_merge, cmp_cmd_plot};
  hnm_msg_init("hnm-compare");
  char err[HNM_ERRLEN];
  int c = hnm_opt_command(&tool, commands, argc, argv, err, sizeof err);
  if (c < 0)
    return c == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", err);
  /* Out of memory in any step of the command (hnm_compare_util.h). */
  if (setjmp(cmp_oom) != 0)
    return hnm_msg_failure("out of memory");
  return run[c](argc, argv);
}
