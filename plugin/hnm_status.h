/* hnm_status.h -- the simulator's exit status says how the program ended
 * (libhnm.so, a C++ header of the glue; see hnm_status.cpp). */
#ifndef HNM_STATUS_H
#define HNM_STATUS_H

/* Install the watchers (from libhnm's constructor, once). */
void hnm_status_init();
/* The run failed: the simulator exits with CODE (1..255) and SUMMARY as
 * its last line on stderr, unless an earlier failure was recorded. */
void hnm_status_fail(int code, const char* summary);

#endif
