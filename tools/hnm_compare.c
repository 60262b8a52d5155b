/* hnm-compare -- sweeps of an MPI program over models x process counts x
 * platforms x program arguments, through hnm-run, with a resumable CSV.
 *
 *   hnm-compare run   [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]
 *   hnm-compare slurm --tasks N --script JOB.sh [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]
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
#include "hnm_compare.h"
#include "hnm_msg.h"
#include "hnm_version.h"
#include "hnm_compare_util.h"
#include "hnm_compare_store.h"
#include "hnm_compare_pool.h"
#include "hnm_compare_slurm.h"
#include "hnm_compare_plot.h"


/* Options of run and slurm                                                  */

void usage(FILE *f)
{
  fprintf(f,
          "Usage: hnm-compare run   [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]\n"
          "       hnm-compare slurm --tasks N --script JOB.sh [--sbatch LINE]... [OPTIONS] -o OUT.csv -- PROGRAM [ARGS...]\n"
          "       hnm-compare merge -o OUT.csv IN.csv...\n"
          "       hnm-compare plot  IN.csv -o PREFIX [--reference MODEL] [--only COLUMN=VALUE]... [--title TEXT]\n"
          "Run an MPI program built with smpicc over models x process counts x platforms x\n"
          "argument sets through hnm-run, several runs at once, into a resumable CSV.\n"
          "\n"
          "Grid (each option repeatable; the grid is their product):\n"
          "  --model SPEC        an hnm-run model (graphene, loggps, fluid, smpi-default, a file,\n"
          "                      NAME:k=v,...); default graphene\n"
          "  --np LIST           process counts, comma-separated (e.g. 8,16,32); required\n"
          "  --platform XML[:HOSTS]  platform and hostfile (default hostfile: XML with .xml\n"
          "                      replaced by .hosts); label = file name without .xml;\n"
          "                      default: hnm-run's bundled platform\n"
          "  --args 'WORDS'      one argument set appended to PROGRAM ARGS (split on blanks);\n"
          "                      default: one empty set\n"
          "Runs:\n"
          "  --metric M          simclock: SimGrid's final simulated clock (smpi/display-timing,\n"
          "                      6 significant digits); csv:COL[:KEY=VAL...]: the sum of column\n"
          "                      COL over the rows of the program's CSV output (stdout) whose\n"
          "                      column KEY equals VAL (default csv:time_s, the skeletons' report)\n"
          "  --sim-opt OPT       an smpirun option for every simulation (repeatable), e.g.\n"
          "                      --sim-opt=--cfg=smpi/privatization:no; unless one sets\n"
          "                      smpi/simulate-computation, --cfg=smpi/simulate-computation:no\n"
          "                      is added (reproducible, network-only times; give\n"
          "                      --sim-opt=--cfg=smpi/simulate-computation:yes to inject the\n"
          "                      measured computation)\n"
          "  --reference         also run PROGRAM-mpi with mpirun at each np and argument set\n"
          "                      (model 'mpirun', platform '-'); with --metric simclock its\n"
          "                      time is the wall time of mpirun\n"
          "  --mpi-program PATH  the program for --reference (default PROGRAM-mpi)\n"
          "  --mpirun-opt OPT    mpirun options (repeatable; default --allow-run-as-root\n"
          "                      --oversubscribe --mca btl self,vader)\n"
          "  --workers N         runs at once (default: the number of cores)\n"
          "  --timeout SEC       kill a run's process group after SEC seconds of wall time\n"
          "                      (default 0: none); recorded with status timeout\n"
          "  -o, --out FILE      the CSV (appended to; runs with an ok row are skipped)\n"
          "  --no-retry          also skip the runs recorded as failed, timeout, ... (default:\n"
          "                      run them again)\n"
          "  --log-dir DIR       stdout/stderr of each run, INDEX.out/INDEX.err (default FILE.logs)\n"
          "  --task I --tasks N  run only the grid indices equal to I modulo N (0 <= I < N)\n"
          "  --progress          progress line on stderr even when it is not a terminal\n"
          "  --dry-run           print the runs to do (shell syntax), run nothing\n"
          "  --hnm-run PATH      the hnm-run to use (default %s)\n"
          "  -h, --help, --version\n"
          "Slurm: --tasks N (array size), --script FILE (the job script to write), --sbatch LINE\n"
          "  (an #SBATCH line, repeatable); the other options as for run; per-task CSVs\n"
          "  OUT.task-I.csv (OUT without .csv), its directory created.\n"
          "Merge: rows sorted by index; duplicates dropped; conflicting ok rows or two runs\n"
          "  with one index (different grids) refused.\n"
          "\n"
          "Plot: PREFIX-time.png (time vs processes, log axes, one line per model, platform\n"
          "  and argument set that vary), PREFIX-error.png (relative error against --reference\n"
          "  MODEL at the same program, args, platform or '-', np), their .dat files, PREFIX.gp\n"
          "  and a table on stdout; --only keeps the rows whose COLUMN equals VALUE.\n"
          "\n"
          "CSV columns: " CMP_HEADER "\n"
          "status: ok, failed (exit status != 0), signal, timeout, nometric (exit 0, no metric).\n"
          "Exit status: 0 all runs ok, 1 some run not ok, 2 bad input (nothing run).\n"
          "See docs/experiments.md.\n",
          hnm_home_file(HNM_HOME_BIN "/hnm-run"));
}

int main(int argc, char **argv)
{
  hnm_msg_init("hnm-compare");
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("hnm-compare %s\n", HNM_VERSION);
    return 0;
  }
  if (strcmp(argv[1], "run") == 0)
    return cmd_run(argc, argv);
  if (strcmp(argv[1], "slurm") == 0)
    return cmd_slurm(argc, argv);
  if (strcmp(argv[1], "merge") == 0)
    return cmd_merge(argc, argv);
  if (strcmp(argv[1], "plot") == 0)
    return cmd_plot(argc, argv);
  return cmp_fail("unknown command '%s' (run, slurm, merge or plot; see hnm-compare --help)", argv[1]);
}
