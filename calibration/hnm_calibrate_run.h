/* hnm-calibrate run: running the benchmark. */
#ifndef HNM_CALIBRATE_RUN_H
#define HNM_CALIBRATE_RUN_H

int cal_cmd_run(int argc, char **argv);

#endif
