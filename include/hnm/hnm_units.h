/* hnm_units.h -- parse quantities written the way SimGrid writes them.
 *
 * Every parser takes a NUL-terminated string, stores the value in SI base
 * units (seconds, bytes, bytes per second) and returns 0; on failure it
 * returns -1, leaves *out untouched and writes a one-line reason (no file or
 * line: the caller adds those) into err (include/hnm/hnm_error.h).
 *
 * Accepted forms (no white space inside, a leading '+' or '-' is read by
 * strtod; negative values parse and are rejected by the callers that care):
 *   time       "1.5us", "2e-6s", "3ms", "1ns", "4ps", "1m", "1h", "1d", "1w";
 *              a bare number ("2e-6") is seconds.
 *   size       "64KiB", "1MB", "8kb" (bits), "1420", "1420B"; a bare number is
 *              bytes. Decimal (k, M, G, T, P, E, Z, Y) and binary (Ki, Mi, ...)
 *              prefixes, as SimGrid's xbt_parse_get_size().
 *   bandwidth  "10Gbps" (bits), "1.25GBps" (bytes), "1GiBps"; a bare number is
 *              rejected: a bandwidth without a unit is too easy to get wrong
 *              by a factor of 8.
 * The special words "inf" / "none" are NOT handled here; callers that allow
 * them check for them first.
 */
#ifndef HNM_UNITS_H
#define HNM_UNITS_H

#include <stddef.h>

#include "hnm_error.h" /* the convention every parser follows */

#ifdef __cplusplus
extern "C" {
#endif

int hnm_parse_time(const char *s, double *seconds, char *err, size_t errlen);
int hnm_parse_size(const char *s, double *bytes, char *err, size_t errlen);
int hnm_parse_bandwidth(const char *s, double *bytes_per_second, char *err, size_t errlen);
/* A plain finite decimal number without unit (factors such as "1.5"). */
int hnm_parse_number(const char *s, double *value, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* HNM_UNITS_H */
