/* hnm_detached_fix.h -- SimGrid 3.32's list of detached transfers, kept
 * short from libhnm.so (hnm_detached_fix.cpp explains the cost, the remedy
 * and its guard). C++, for hnm_simgrid.cpp only. */
#ifndef HNM_DETACHED_FIX_H
#define HNM_DETACHED_FIX_H

#include <string>

/* Turn the remedy on, once its guard passes (the SimGrid version, the
 * original code). Returns 0, or -1 with the reason in why; SimGrid's own
 * code then runs alone. It changes no simulated time, so every model may
 * take it. Call before the simulation starts. */
int hnm_detached_fix_enable(std::string& why);

/* How many detached transfers the remedy has taken off SimGrid's list. */
unsigned long long hnm_detached_fix_moved();

#endif
