/* hnm-platform: writing the platform XML and the hostfile. */
#ifndef HNM_PLATFORM_WRITE_H
#define HNM_PLATFORM_WRITE_H

#include "hnm_platform_config.h"

int generate(const struct config *cfg);

#endif
