/* hnm-calibrate compare: simulations against real measurements. */
#ifndef HNM_CALIBRATE_COMPARE_H
#define HNM_CALIBRATE_COMPARE_H

int cal_cmd_compare(int argc, char **argv);

#endif
