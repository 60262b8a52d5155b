/* hnm_run_set.h -- hnm-run under a model set: the same smpirun command once
 * per model of the set (the central model, then the members), the simulated
 * time of each, and the central value with the members' 5-95% band. */
#ifndef HNM_RUN_SET_H
#define HNM_RUN_SET_H

#include "hnm_model_set.h"

/* Run ARGS (smpirun's NULL-terminated argument vector, which must ask
 * SimGrid for its final "Simulated time:" line and must not hold
 * --cfg=hnm/model) once per model of SET, the model given in $HNM_MODEL.
 * The central run's stdout goes to ours, its stderr to ours once it ends;
 * the members' outputs go to a temporary directory, removed at the end.
 * One line per run on stderr (its simulated time), then the summary line
 * on stdout:
 *   model set DIR: central X s, 5-95% [A, B] s over N members
 * Stops at the first run that fails. Returns 0, or the failing run's exit
 * status (128 + signal for a signal; 1 when a run printed no simulated
 * time or could not be started) with one line naming its model file in
 * err (include/hnm/hnm_error.h), which the caller prints; 1 without a line when
 * the summary could not be written to standard output (reported at exit). */
int run_set(const hnm_model_set *set, char **args, char *err, size_t errlen);

#endif
