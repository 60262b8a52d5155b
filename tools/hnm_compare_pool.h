/* hnm-compare run: the pool of child process groups that runs the grid. */
#ifndef HNM_COMPARE_POOL_H
#define HNM_COMPARE_POOL_H

int cmp_cmd_run(int argc, char **argv);

#endif
