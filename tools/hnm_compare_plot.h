/* hnm-compare plot: gnuplot figures from a result CSV. */
#ifndef HNM_COMPARE_PLOT_H
#define HNM_COMPARE_PLOT_H

int cmp_cmd_plot(int argc, char **argv);

#endif
