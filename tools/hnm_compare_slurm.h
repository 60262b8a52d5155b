/* hnm-compare slurm and merge: split a grid into array tasks, merge their CSVs. */
#ifndef HNM_COMPARE_SLURM_H
#define HNM_COMPARE_SLURM_H

int cmd_slurm(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
