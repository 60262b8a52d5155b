/* hnm_platform_values.h -- the values of a SimGrid XML platform file that
 * SimGrid 3.32 itself checks badly or not at all, checked before SimGrid
 * reads the file.
 *
 * SimGrid parses bandwidths, latencies and speeds with strtod(), so
 * "nanns" and "infGBps" load: a NaN latency is then ignored, an infinite
 * bandwidth ends the run in a false deadlock, a NaN bandwidth aborts in the
 * middle of the simulation. Its own refusals name no attribute ("NaN is
 * not an int" for a cluster's radical, "value out of range: 5e-324Gf", a
 * "BIG FAT WARNING" banner for a platform version it does not read). So
 * before SimGrid sees the file:
 *   - bandwidths and speeds are finite numbers > 0, latencies finite >= 0,
 *     none out of the double range, its unit applied (1e300Gf overflows,
 *     5e-324 underflows);
 *   - a cluster's radical is a list of N or N-M, whole numbers, N <= M;
 *   - <platform version> is a number from 4 to 4.1 (what SimGrid 3.32 reads).
 * The first value that is not is reported as "FILE:LINE: ATTRIBUTE: 'VALUE'
 * reason". A platform library (.so) is not read (SimGrid checks what it
 * builds). The file is read in 64 KiB blocks: memory stays bounded whatever
 * its size.
 */
#ifndef HNM_PLATFORM_VALUES_H
#define HNM_PLATFORM_VALUES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0, or -1 with the message (naming PLATFORM) in err. */
int hnm_platform_values_check(const char *platform, char *err, size_t errlen);

/* SimGrid's refusal MSG of PLATFORM, "Parse error at FILE:LINE: REASON",
 * with the attribute it is about when a word of REASON is (the end of) the
 * value of an attribute on that line: "FILE:LINE: NAME: 'VALUE': REASON"
 * (SimGrid's "unknown unit: eGbps" names no attribute). Else MSG as it is.
 * Written into out (outlen bytes). */
void hnm_platform_values_explain(const char *platform, const char *msg, char *out, size_t outlen);

#ifdef __cplusplus
}
#endif

#endif /* HNM_PLATFORM_VALUES_H */
