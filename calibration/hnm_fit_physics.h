/* hnm_fit_physics.h -- inside libhnmfit: the fitted segments kept within
 * physics (step 4 of hnm_fit_model.h).
 *
 * A segment's line t = a + k b (one-way transfer time of k bytes) is an
 * extrapolation: over a stretch of sizes where the per-byte cost hides in
 * the noise, b comes out zero or negative (an infinite bandwidth), and where
 * the slope steepens (a cache left behind) a comes out negative (a latency
 * of zero once clamped). Neither is a network's, and both travel into
 * exported configurations (bw-factor 1e20, lat-factor 0). So:
 *
 *   - the route's latency L_min is the latency of the segment of the
 *     smallest messages; no segment's latency is below it;
 *   - the route's bandwidth B_max is the bandwidth of the segment of the
 *     largest messages (what the route sustains), after the rule above, or
 *     the highest rate k / T the route was seen to deliver (per-size
 *     medians), if higher; no other segment's bandwidth is above it.
 *
 * A segment breaking a rule is refitted with the bound as a constraint: its
 * latency fixed at L_min and its slope the median of (t - L_min) / k over
 * its points; or its slope fixed at 1 / B_max and its latency the median of
 * t - k / B_max (at least L_min). Medians, as the robust fit's spirit.
 * A smallest segment whose line falls below 1 ns at 0 B (a few noisy sizes
 * tilt it) is refitted first at the route's bandwidth: latency the median
 * of t - k / B_max over its points, bandwidth B_max.
 * When no bound exists (the smallest messages' latency is below 1 ns even
 * so, the largest messages' bandwidth above 10 TB/s: no per-byte cost), the fit is
 * refused with the reason. Each constraint applied is one "note:" line in
 * the result's notes.
 */
#ifndef HNM_FIT_PHYSICS_H
#define HNM_FIT_PHYSICS_H

#include <stddef.h>
#include "hnm_fit_result.h"

/* Constrain M's segments (m->seg) with the points (K[i] bytes, T[i]
 * seconds of one-way transfer), raw or per-size medians (RAW, as the fit,
 * with the fit's running median of SMOOTH sizes on each side). 0, or -1
 * with "PLACE: reason" in err, the fit then refused ("out of memory"
 * alone when it is that). */
int hnm_fit__physics(hnm_fit_result *m, const double *k, const double *t, size_t n, int raw, int smooth,
                    const char *place, char *err, size_t errlen);

/* The fluid line L + k / B kept within the same bounds (those of the
 * constrained hybrid segments): L at least L_min, B at most B_max, refitted
 * on the same points as above; a note in m->notes for each. 0, or -1 (out
 * of memory). */
int hnm_fit__physics_fluid(hnm_fit_result *m, const double *k, const double *t, size_t n, int raw, int smooth,
                          char *err, size_t errlen);

#endif
