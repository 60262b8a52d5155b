/* hnm-compare: usage text shared by its commands. */
#ifndef HNM_COMPARE_H
#define HNM_COMPARE_H

#include <stdio.h>

void usage(FILE *f);

#endif
