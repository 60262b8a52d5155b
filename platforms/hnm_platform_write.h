/* hnm-platform: writing the platform XML and the hostfile. */
#ifndef HNM_PLATFORM_WRITE_H
#define HNM_PLATFORM_WRITE_H

#include "hnm_platform_config.h"

#include <stddef.h>

/* Write the platform (and the hostfile): 0, or HNM_EXIT_USAGE when an output
 * cannot be created, HNM_EXIT_FAILURE when writing fails; err holds the one
 * line then (nothing printed). */
int plat_generate(const struct plat_config *cfg, char *err, size_t errlen);

#endif
