/* hnm-calibrate -- measure a cluster's point-to-point behaviour and fit a
 * hybrid model file to it (Degomme et al. 2013, Section IV-A, Figure 4).
 *
 *   hnm-calibrate run [options] [-- benchmark options]
 *   hnm-calibrate fit [options] FILE.csv... -o MODEL.xml
 *   hnm-calibrate compare REAL.csv NAME=SIM.csv...
 *
 * What `fit` inverts (docs/calibration.md gives the derivation): under
 * SMPI, with async threshold A and detached threshold D (probe.csv) and a
 * segment's absolute latency L and bandwidth B, T(k) = L + k/B:
 *   send (receiver ready)  = o_s + k O_s          if k <= D, else T(k)
 *   recv (sender early)    = o_r + k O_r          if k <= A,
 *                            T(k) + o_r + k O_r   if A < k <= D, else T(k)
 *   ping-pong round trip   = 2 (o_s + k O_s + T(k) + o_r + k O_r)  if k <= D,
 *                            2 T(k) otherwise.
 * So O_s, o_s come from send (k <= D), o_r, O_r from recv (k <= A), and T
 * from the ping-pong minus 2 (o_s + k O_s) [k <= D] + 2 (o_r + k O_r)
 * [k <= A]: the paper's "minus 2(o_r + k O_r)", plus the sender's overhead
 * that SMPI sleeps before the data leaves. In the detached range only T +
 * o_r is observable; hnm puts it all in T (recv overheads 0 there).
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_units.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hnm_calibrate_util.h"
#include "hnm_msg.h"
#include "hnm_opt.h"
#include "hnm_version.h"
#include "hnm_calibrate_fit.h"
#include "hnm_calibrate_compare.h"
#include "hnm_calibrate_run.h"
#include "hnm_calibrate_smpi.h"
#include "hnm_calibrate_machine.h"

static const struct hnm_opt_command commands[] = {
  {"run", NULL, "measure (real mpirun, or --simulate under hnm-run): p2p.csv probe.csv contention.csv"},
  {"fit", NULL, "CSVs -> hybrid model file + report (table, PNG plots, LogGPS and fluid fits)"},
  {"compare", NULL, "median relative error per size decade of simulations against real measurements"},
  {"export", NULL, "a model as SimGrid's own SMPI <config> block (plain smpirun)"},
  {"import", NULL, "SimGrid's SMPI <config> block (platform-calibration's output) as a model"},
  {"machine", NULL, "calibrate a machine in one command: model, platform and hostfile to predict on it"},
  {NULL, NULL, NULL}};

static const struct hnm_opt_tool tool = {CAL_PROG, "COMMAND", "Commands",
                                         "Measure the MPI point-to-point costs of a cluster and fit an hnm model file to them.", NULL,
                                         NULL};

int main(int argc, char **argv)
{
  static int (*const run[])(int, char **) = {cal_cmd_run, cal_cmd_fit, cal_cmd_compare, cal_cmd_export, cal_cmd_import, cal_cmd_machine};
  hnm_msg_init(CAL_PROG);
  cal_signals_init();
  char err[HNM_ERRLEN];
  int c = hnm_opt_command(&tool, commands, argc, argv, err, sizeof err);
  if (c < 0)
    return c == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", err);
  return run[c](argc - 1, argv + 1);
}
