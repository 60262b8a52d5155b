/* hnm-calibrate export / import: hnm model files to and from SimGrid's own
 * SMPI configuration (hnm_smpi_config.h). */
#ifndef HNM_CALIBRATE_SMPI_H
#define HNM_CALIBRATE_SMPI_H

int cal_cmd_export(int argc, char **argv);
int cal_cmd_import(int argc, char **argv);

#endif
