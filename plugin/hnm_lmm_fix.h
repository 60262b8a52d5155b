/* hnm_lmm_fix.h -- SimGrid 3.32's selective max-min update, mended from
 * libhnm.so (hnm_lmm_fix.cpp explains the defect, the mend and its guard).
 * C++, for hnm_simgrid.cpp only. */
#ifndef HNM_LMM_FIX_H
#define HNM_LMM_FIX_H

#include <string>

/* Turn the mend on, once its guard passes (the SimGrid version, the
 * original code, a self-check on a small max-min system). Returns 0, or -1
 * with the reason in why; the mend then stays off and SimGrid's own code
 * runs. Call before the simulation starts. */
int hnm_lmm_fix_enable(std::string& why);

/* Whether the mend is on. */
bool hnm_lmm_fix_enabled();

#endif
