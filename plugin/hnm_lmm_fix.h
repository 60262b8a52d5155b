/* hnm_lmm_fix.h -- SimGrid's selective max-min update, mended from
 * libhnm.so (hnm_lmm_fix.cpp explains the defect, the mend and its guard).
 * C++, for hnm_simgrid.cpp only. */
#ifndef HNM_LMM_FIX_H
#define HNM_LMM_FIX_H

#include <string>

/* Turn the mend on, once its guard passes (a self-check on a small max-min
 * system, solved without and with it). Returns 0 when it is on; 1 when
 * this SimGrid has no defect to mend; -1 when it cannot be mended here.
 * WHY says which, and why, in every case. Off, SimGrid's own code runs.
 * Call before the simulation starts. */
int hnm_lmm_fix_enable(std::string& why);

/* Whether the mend is on. */
bool hnm_lmm_fix_enabled();

#endif
