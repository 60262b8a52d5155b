/* hnm_detached_fix.h -- SimGrid 3.32's list of detached transfers, kept
 * short from libhnm.so (hnm_detached_fix.cpp explains the cost, the remedy
 * and its guard). C++, for hnm_simgrid.cpp only. */
#ifndef HNM_DETACHED_FIX_H
#define HNM_DETACHED_FIX_H

#include <string>

/* Turn the remedy on, once its guard passes (the SimGrid it was built for,
 * the maestro's list found where it should be). Returns 0 when it is on,
 * 1 when this SimGrid needs none (3.34 and later: a set), -1 when it cannot
 * be turned on; WHY says why in every case. Off, SimGrid's own code runs
 * alone. It changes no simulated time, so every model may
 * take it. Call before the simulation starts. */
int hnm_detached_fix_enable(std::string& why);

/* How many detached transfers the remedy has taken off SimGrid's list. */
unsigned long long hnm_detached_fix_moved();

#endif
