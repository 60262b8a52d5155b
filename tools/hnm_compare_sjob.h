/* hnm-compare slurm --submit / --attach: submit the array tasks whose runs
 * lack an ok row, watch the job through squeue/scontrol (sacct where it
 * works), merge the per-task CSVs into -o, summarize. */
#ifndef HNM_COMPARE_SJOB_H
#define HNM_COMPARE_SJOB_H

#include <stddef.h>
#include "hnm_compare_grid.h"

/* The slurm options that go to sbatch, checked before anything is written
 * or submitted: 0, or -1 with err (bad input, exit 2). */
int cmp_sjob_check(const cmp_slurm_opts *sl, char *err, size_t errlen);
/* A Slurm time limit (M, M:S, H:M:S, D-H, D-H:M, D-H:M:S) in seconds, or -1. */
long cmp_sjob_time_s(const char *s);
/* Submit (or with sl->attach, watch) the sweep whose script sl->script is
 * written and whose per-task CSVs are STEM.task-I.csv: the command's exit
 * status. Progress, notes and the summary are printed here; an error that
 * stops it is left in err (empty otherwise) for the caller to print. */
int cmp_sjob_run(const cmp_config *c, const cmp_slurm_opts *sl, const cmp_run *runs, long nruns, const char *stem,
                 char *err, size_t errlen);

#endif
