/* hnm_win_fix.h -- SMPI's passive-target locks, made O(1) per operation from
 * libhnm.so (hnm_win_fix.cpp explains the cost, the remedy and its guard).
 * C++, for hnm_simgrid.cpp only. */
#ifndef HNM_WIN_FIX_H
#define HNM_WIN_FIX_H

#include <string>

/* Turn the remedy on, once its guard passes (the SimGrid it was built for,
 * SMPI's accessors exported; each window's layout is checked at first
 * use). Returns 0 when it is on, -1 when it cannot be (a SimGrid newer than
 * the last one checked, say); WHY says why. Off, SMPI's own unlock runs
 * alone. It changes no simulated time, so every model may
 * take it. Call before the simulation starts. */
int hnm_win_fix_enable(std::string& why);

/* How many lock entries the remedy has taken off SMPI's lists of lockers. */
unsigned long long hnm_win_fix_taken();

/* How many one-sided operations found their caller's lock entry through
 * the remedy's index (and moved it to the front of the list). */
unsigned long long hnm_win_fix_found();

#endif
