/* hnm-platform: writing the platform XML and the hostfile. */
#ifndef HNM_PLATFORM_WRITE_H
#define HNM_PLATFORM_WRITE_H

#include "hnm_platform_config.h"

int plat_generate(const struct plat_config *cfg);

#endif
