/* hnm-compare: the sweep grid (models x np x platforms x argument sets),
 * its enumeration order, run keys and the options of run and slurm. */
#ifndef HNM_COMPARE_GRID_H
#define HNM_COMPARE_GRID_H

#include "hnm_compare_util.h"
#include "hnm_model_set.h"

typedef struct {
  char *xml, *hosts, *label;
} cmp_platform;

typedef struct {
  cmp_strvec models, args, sim_opts, mpirun_opts, base_args, raw; /* raw: run options as given */
  hnm_model_set **sets; /* per model: its set (validated whole), or NULL for a plain model */
  int has_sets;
  long *nps;
  int nnps;
  cmp_platform *plats;
  int nplats;
  const char *program, *mpi_program, *metric, *out, *log_dir, *hnm_run;
  char *sim_opts_str, *mpirun_opts_str; /* the options of a run, blank-separated (CSV column options) */
  int reference, progress, dry_run, no_retry;
  long workers, task, tasks;
  double timeout;
} cmp_config;

typedef struct {
  long index;
  int model;    /* index in models, or -1 for the mpirun reference */
  int plat;     /* -1 for the reference */
  int argset;
  long np;
  int member;   /* a model set's: 0 central, 1..N a member; -1 for a plain model */
  long group;   /* a model set's run: the index of its group's central run; else its own index */
  char *key;    /* program \x1f args \x1f model \x1f platform \x1f np \x1f metric \x1f options \x1f member */
} cmp_run;

typedef struct {
  long tasks;
  const char *script;
  cmp_strvec sbatch;
  /* Submitting and watching (hnm_compare_sjob.c): */
  int submit, no_wait, cancel_on_interrupt;
  const char *attach;                        /* --attach JOBID, as given */
  const char *partition, *account, *time, *mem; /* checked by cmp_sjob_check() */
  long throttle;                             /* --array's %N; 0: none */
  double poll;                               /* seconds between two squeue */
} cmp_slurm_opts;

const char *cmp_run_model(const cmp_config *c, const cmp_run *r);
const char *cmp_run_platform(const cmp_config *c, const cmp_run *r);
char *cmp_make_key(const char *program, const char *args, const char *model, const char *platform, const char *np, const char *metric, const char *options, const char *member);
/* The CSV's member column of R: "" (plain model), "central", or the member's
 * number as in its file name ("007"). */
void cmp_run_member(const cmp_config *c, const cmp_run *r, char *buf, size_t len);
const char *cmp_run_options(const cmp_config *c, const cmp_run *r);
char *cmp_join(const cmp_strvec *v);
long cmp_enumerate(const cmp_config *c, cmp_run **out);
void cmp_run_argv(const cmp_config *c, const cmp_run *r, cmp_strvec *v);
/* 0; HNM_OPT_DONE after --help (exit 0); or HNM_EXIT_USAGE (bad input) or
 * HNM_EXIT_FAILURE (memory) with err. The sweep's input files are then
 * registered with hnm_out_input(): no output may be one of them. */
int cmp_parse_run(int argc, char **argv, int first, cmp_config *c, cmp_slurm_opts *sl, char *err, size_t errlen);

#endif
