/* hnm_paths.h -- multi-path data movement on a Blue Gene/Q 5D torus
 * (Bui et al. 2015, OPTIQ): the torus as a graph of directed links, BG/Q's default
 * route as SimGrid routes it on hnm-platform's bgq platform, k shortest paths
 * (Yen's algorithm with a hop limit), the paper's heuristic (Algorithm 2),
 * its linear program (Model 1, solved with GLPK in hnm_paths_lp.c), the
 * generated communication patterns and pattern files. docs/multipath.md.
 *
 * Numbering. Patterns, path files and messages name nodes by MPI rank in
 * BG/Q's ABCDE order (rank r = (((a*B + b)*C + c)*D + d)*E + e), i.e. the
 * line of hnm-platform's bgq hostfile that runs on that node. Internally a
 * node is its SimGrid host index (host node-i), whose coordinates follow
 * topo_parameters: dimension k of the graph is the k-th longest BG/Q
 * dimension (hnm_topo_bgq_order()), dimension 0 varies fastest.
 *
 * Links. Every node has, per dimension k of size d > 1, a link in the +
 * direction and one in the - direction (BG/Q's 10 links per node; on a ring
 * of 2 both reach the same neighbour and are distinct links, as in SimGrid's
 * SPLITDUPLEX torus). Arc id = host * 10 + 2k (+) or 2k + 1 (-). Arc 2k of
 * host h is SimGrid's link "bgq_link_from_h_to_h'_UP" (h' = the + neighbour),
 * arc 2k+1 of h' is "bgq_link_from_h_to_h'_DOWN".
 *
 * Sizes: bytes; capacities: bytes/s; times: seconds. Library code never
 * exits: functions return 0 / -1 and fill err (one line).
 */
#ifndef HNM_PATHS_H
#define HNM_PATHS_H

#include "hnm_pattern.h"
#include "hnm_torus.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The paths of every pair, with the bytes each carries: path i of pair j
 * is arcs[off[first[j] + i] .. off[first[j] + i + 1]), 0 <= i < first[j+1] -
 * first[j], carrying bytes[first[j] + i]. */
struct hnm_pathset {
  size_t npairs, npaths, narcs;
  size_t *first;     /* [npairs + 1] */
  size_t *off;       /* [npaths + 1] */
  uint32_t *arcs;    /* [narcs] */
  double *bytes;     /* [npaths] */
  size_t cap_paths, cap_arcs;
};

void hnm_pathset_free(struct hnm_pathset *ps);

/* The default route of every pair, carrying all its bytes. */
int hnm_paths_default(const struct hnm_torus *g, const struct hnm_pattern *pt, struct hnm_pathset *out, char *err,
                      size_t errlen);

/* Up to k loopless paths per pair in order of hop count (Yen's algorithm),
 * at most distance + slack hops; the first is the default route (a shortest
 * path). Bytes are 0. */
int hnm_paths_kshortest(const struct hnm_torus *g, const struct hnm_pattern *pt, int k, int slack,
                        struct hnm_pathset *out, char *err, size_t errlen);

/* Algorithm 2 on candidate paths: select paths so that no link carries
 * more than maxload selected paths, raising maxload when a pair could take
 * none; the pair's bytes are split equally over its selected paths.
 * *maxload_out: in, the initial maxload (<= 0: 1); out, the final one. */
int hnm_paths_heuristic(const struct hnm_torus *g, const struct hnm_pattern *pt, const struct hnm_pathset *cand,
                        struct hnm_pathset *out, int *maxload_out, char *err, size_t errlen);

/* Model 1 solved with GLPK (hnm_paths_lp.c): maximise Z subject to, for each
 * pair j, sum_p Flow[j,p] = bytes_j Z and, for each link, sum of the flows
 * through it <= capacity. out gets the bytes of each path with a positive
 * flow: bytes_j Flow[j,p] / sum_p Flow[j,p]. *z_out: GLPK's optimum Z in 1/s.
 * time_limit: seconds (0: none). GLPK failures (no optimum, time limit) are
 * errors. */
int hnm_paths_lp(const struct hnm_torus *g, const struct hnm_pattern *pt, const struct hnm_pathset *cand,
                 double capacity, double time_limit, struct hnm_pathset *out, double *z_out, char *err,
                 size_t errlen);

/* Loads of a path set: time = most loaded link's bytes / capacity. */
struct hnm_paths_eval {
  double time_s, throughput_Bps, max_link_load_B, mean_hops, total_bytes;
  size_t paths; /* with bytes > 0 */
};

int hnm_paths_evaluate(const struct hnm_torus *g, const struct hnm_pathset *ps, const struct hnm_pattern *pt,
                       double capacity, struct hnm_paths_eval *ev, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* HNM_PATHS_H */
