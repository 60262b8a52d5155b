/* hnm-calibrate machine: calibrate a machine, then predict on it. */
#ifndef HNM_CALIBRATE_MACHINE_H
#define HNM_CALIBRATE_MACHINE_H

int cal_cmd_machine(int argc, char **argv);

#endif
