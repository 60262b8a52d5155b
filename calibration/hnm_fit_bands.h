/* hnm_fit_bands.h -- inside libhnmfit: the last step of the hybrid fit
 * (after hnm_fit_physics.h), judged on what the report measures.
 *
 * The fit's report (docs/calibration.md, "Noise floor, held-out error and
 * bands") judges a model by the round trip, size by size: |model - median|
 * / median, summarised per size decade by the median over the decade's
 * sizes. A segment's robust line (least absolute deviations on per-size
 * medians, Huber on raw rows) follows the majority of the segment's sizes;
 * where those sizes fall into two bands whose majority changes from one
 * decade to the next (a cluster's 100 B - 1 KB round trips alternating
 * between 36-46 us and 60-100 us, the upper band holding most sizes above
 * 200 B) the line follows one band across decades and the decade where the
 * other band dominates comes out far above its noise floor.
 *
 * So, per segment of at least HNM_FIT_BANDS_MIN_SIZES sizes, its transfer
 * line T = lat + k / bw is replaced by the one minimising
 *
 *     sum over decades d of  n_d x median over the segment's sizes in d of
 *                            |model round trip - median round trip| / median
 *
 * (n_d: the segment's sizes in decade d; the overheads stay as fitted), when
 * that lowers the sum by more than 2 points per size (smaller gains are
 * within what the size-to-size scatter moves; and on plafrim, a 1.8-point
 * gain over 1-16 B took that segment to 2.3 MB/s, whose round trips
 * hnm-run simulates 22% off where the closed form says 2.4%: one 16-byte
 * envelope per round trip at that bandwidth, on SMPI's eager path;
 * docs/calibration.md). The search is a
 * coordinate descent on the line's values at the segment's smallest and
 * largest size, each step trying the lines through one measured size,
 * after the lines through two sizes c/2, c/3, c/4 or c/6 ranks apart (c
 * sizes: where one band holds most sizes, many such pairs lie on it;
 * O(c^2) per segment, c at most a few hundred). The physics bounds
 * hold: no latency below the smallest messages' segment's (nor, for that
 * segment, above another's), no bandwidth above the route's (for the
 * largest messages' segment: none above 10 TB/s, none below another
 * segment's); and the smallest or largest messages' segment, when the
 * physics step refitted it, keeps that line (it sets the route's latency
 * or bandwidth).
 *
 * Then report lines, appended to m->notes; per decade, at most one of:
 *   - "note: decade 1eD-1eD+1: round trips alternate between two bands ..."
 *     where the decade has at least 30 sizes and its rows, each relative to
 *     the decade's lower envelope (the line, in log size and log round
 *     trip, through the 20th percentile of the per-size medians of each
 *     half of its sizes), pooled, have two peaks: between the densest
 *     windows of the two-means groups (window half-width 8% of the pooled
 *     10-90 percentile spread) some window holds at most 30% of the smaller
 *     peak's rows; the sizes' medians, told apart at that valley's middle,
 *     put at least 20% of the sizes in each band and change band at least
 *     max(3, c / 10) times in increasing size (c sizes): no function of
 *     size follows both; the bootstrap band (fit --bootstrap) and the
 *     stochastic mode (residual tables) carry that spread. On generated
 *     decades (bench/bands-detect.sh; 30-60 sizes, 5-20 repetitions) it
 *     names 82-97% of those with bands of 36-46 and 60-100 us (30/70 then
 *     70/30), and on unimodal scatter 0% (of the repetitions) to 23%
 *     (uniform +-30% by size, 30 sizes of 5): docs/calibration.md.
 *   - "note: decade ...: round trips scatter from size to size ..." where
 *     the decade has at least 10 sizes and no bands, and its noise floor
 *     (median over its sizes) is at least 5% and at least the median 95%
 *     interval of the sizes' own medians (ranks r/2 -+ sqrt(r) of a size's
 *     r >= 5 sorted repetitions; at least half the sizes): the scatter
 *     belongs to the sizes, not to the repetitions (for scatter of the
 *     repetitions alone the floor is about a third of that interval).
 * and at most one line about the parts:
 *   - "note: segment LO-HI B: the fitted send, receive and wire parts ..."
 *     (or "note: N of M segments, from LO-HI B to LO-HI B: ...", with the
 *     ranges of the three errors) where the send and receive overheads as
 *     fitted on their own files, plus the transfer time, miss the measured
 *     round trips by more (median over the segment's sizes) than the
 *     model's round trip does plus the segment's noise floor: the round
 *     trip wins (the overheads were scaled down, the transfer fitted to
 *     what the round trips leave).
 */
#ifndef HNM_FIT_BANDS_H
#define HNM_FIT_BANDS_H

#include <stddef.h>
#include "hnm_fit_result.h"

#define HNM_FIT_BANDS_MIN_SIZES 6

/* The step above on M (after hnm_fit__physics; FIXED[s] nonzero: segment
 * s keeps its line) with the round trips (K[i]
 * bytes, RT[i] seconds, raw rows in any order); the overheads as fitted
 * on their own files are recomputed from m->pieces and m->overlap_scale.
 * 0, or -1 ("out of memory") with M as it
 * was. */
int hnm_fit__bands(hnm_fit_result *m, const unsigned char *fixed, const double *k, const double *rt, size_t n,
                   char *err, size_t errlen);

#endif
