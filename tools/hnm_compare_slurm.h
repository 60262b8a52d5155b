/* hnm-compare slurm and merge: split a grid into array tasks, merge their CSVs. */
#ifndef HNM_COMPARE_SLURM_H
#define HNM_COMPARE_SLURM_H

int cmp_cmd_slurm(int argc, char **argv);
int cmp_cmd_merge(int argc, char **argv);

#endif
