/* hnm-calibrate fit --bootstrap: writing a model set (docs/model-format.md,
 * "Model sets"): a directory NAME.set/ holding central.xml, member-001.xml
 * ... member-NNN.xml (every one a complete model file) and the marker
 * .hnm-set that says hnm-calibrate made it. */
#ifndef HNM_CALIBRATE_SET_H
#define HNM_CALIBRATE_SET_H

#include <stddef.h>

#include "hnm_model.h"

#define CAL_SET_MAX_MEMBERS 1000

/* The set directory that goes with model path OUT: OUT without a final
 * ".xml", plus ".set". 0, or -1 if it does not fit in cap. */
int cal_set_path(const char *out, char *dir, size_t cap);

/* Whether DIR may be (re)written: it does not exist, or it is a set this
 * tool wrote (a directory holding .hnm-set and nothing but the set's own
 * files). 0, or -1 with a one-line reason in err. */
int cal_set_check(const char *dir, char *err, size_t errlen);

/* Write the set: every file into a new temporary directory beside DIR
 * (through core/hnm_out), then that directory renamed into place; a set
 * this tool wrote before is replaced only once the new one is complete.
 * On any error nothing is left but what was there before. 0, or -1 with
 * err. */
int cal_set_write(const char *dir, const hnm_model *central, hnm_model *const *members, size_t n, char *err,
              size_t errlen);

#endif
