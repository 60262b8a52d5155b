/* hnm_smpi_config.h -- hnm model files to and from SimGrid 3.32's own SMPI
 * configuration (what platform-calibration writes and plain smpirun reads):
 *
 *   smpi/os, smpi/ois, smpi/or   "K:o:O;K2:o2:O2;..."  MPI_Send / MPI_Isend /
 *       MPI_Recv cost o + k O for a payload of k bytes; an entry applies to
 *       K < k <= next K (the first one also to k <= K): smpi_host.cpp;
 *   smpi/bw-factor, smpi/lat-factor  "K:f;K2:f2;..."  factors for SimGrid's
 *       size s = k + 16 (SMPI's envelope): an entry applies to K < s <= next
 *       K, and 1.0 below the first: network_smpi.cpp. So hnm's segment
 *       boundary "k <= U" is K = U for the costs and K = U + 16 for the
 *       factors;
 *   smpi/async-small-thresh, smpi/send-is-detached-thresh  eager / detached
 *       when k < value (hnm's async + 1, detached + 1; 0 = never eager);
 *   network/crosstraffic  when the model forces it.
 * Keys are ints (std::stoi) and values times (a number in seconds, or with
 * a unit). A route of bandwidth B and latency L (its smallest link
 * bandwidth and its summed latencies) turns absolute segments into factors
 * and back: lat-factor = (latency - 16/bandwidth) / L (hnm compensates the
 * envelope the same way), bw-factor = bandwidth / B.
 */
#ifndef HNM_SMPI_CONFIG_H
#define HNM_SMPI_CONFIG_H

#include <stdio.h>

#include "hnm_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print m as a <config> block on out. -1 with err naming the model field
 * SimGrid's configuration cannot express (route classes that differ,
 * contention="none", a limiter other than keep is reported in a comment
 * and on notes instead: it belongs to the platform's links). notes (may be
 * NULL) receives human-readable remarks, one per line. */
int hnm_smpi_config_export(const hnm_model *m, double route_bw, double route_lat, FILE *out, char *notes,
                           size_t notescap, char *err, size_t errlen);

/* Read the <config> block of path (a <config> document, or a <platform>
 * holding one) into *model (free with hnm_model_free()): the hnm model that
 * times messages as plain smpirun does on the route (route_bw, route_lat),
 * with absolute latencies and bandwidths. Options SimGrid would default are
 * taken at SimGrid 3.32's defaults. -1 with err = "FILE:LINE: field 'ID':
 * reason". */
int hnm_smpi_config_import(const char *path, double route_bw, double route_lat, const char *name, hnm_model **model,
                           char *notes, size_t notescap, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* HNM_SMPI_CONFIG_H */
