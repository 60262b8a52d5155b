/* hnm_quantity.h -- quantities as hnm-platform writes them into SimGrid
 * platform files: the shortest spelling that SimGrid reads back as the very
 * same double, plus the one unit hnm_units.h does not parse (speeds).
 *
 * Parsing of times, sizes and bandwidths is hnm_units.h's job; this module
 * only adds what writing a platform needs. No SimGrid, no libxml2 here.
 */
#ifndef HNM_QUANTITY_H
#define HNM_QUANTITY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ranges of what hnm-platform and hnm-route take (docs/platforms.md,
 * "Ranges"), one table for both: values beyond are typing mistakes, and
 * 1e300 would overflow once multiplied (a limiter of FACTOR x --bw).
 *   bandwidth (--bw, --loopback-bw, --cabinet-bw, --cabinet-limiter):
 *     above 0, at most 1e15 B/s (8 Pbit/s, a thousand times today's
 *     fastest links; below docs/model-format.md's 1e20, hnm's "no limit");
 *   speed (--speed): above 0, at most 1e18 flop/s (an exaflop machine in
 *     one host);
 *   limiter factor (--limiter): 0 (none) or docs/model-format.md's range
 *     of a factor, 1e-6 to 1e6. */
#define HNM_QUANTITY_MAX_BANDWIDTH 1e15 /* bytes/s */
#define HNM_QUANTITY_MAX_SPEED 1e18     /* flop/s */
#define HNM_QUANTITY_MIN_FACTOR 1e-6
#define HNM_QUANTITY_MAX_FACTOR 1e6

/* Parse a host speed as SimGrid does (xbt_parse_get_speed): a number followed
 * by "f" with an optional decimal prefix (k, M, G, T, P, E, Z, Y), or by
 * "flops"; "1Gf" = 1e9 flop/s. Unlike SimGrid, a bare number is refused (a
 * speed needs a unit, as a bandwidth does). Stores flop/s in *flops and
 * returns 0; returns -1 with a one-line reason in err otherwise. Negative
 * values parse; callers that care reject them. */
int hnm_quantity_parse_speed(const char *s, double *flops, char *err, size_t errlen);

/* Write into buf (len bytes) the shortest spelling of a bandwidth in bytes/s
 * ("10Gbps", "1.8GBps", "1GiBps", ...), of a time in seconds ("10us", "0s")
 * or of a speed in flop/s ("1Gf") that hnm_units.h / SimGrid parse back as
 * exactly the same double; never in exponent notation; among spellings
 * of equal length, bytes before bits, then the larger unit first. Return 0, or -1 if value is not finite,
 * is negative, or buf is too small. */
int hnm_quantity_format_bandwidth(double bytes_per_second, char *buf, size_t len);
int hnm_quantity_format_time(double seconds, char *buf, size_t len);
int hnm_quantity_format_speed(double flops, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* HNM_QUANTITY_H */
