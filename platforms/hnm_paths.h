/* hnm_paths.h -- multi-path data movement on a Blue Gene/Q 5D torus
 * (Bui et al. 2015, OPTIQ): the torus as a graph of directed links, BG/Q's default
 * route as SimGrid routes it on hnm-platform's bgq platform, k shortest paths
 * (Yen's algorithm with a hop limit), the paper's heuristic (Algorithm 2),
 * its linear program (Model 1, solved with GLPK in hnm_paths_lp.c), the
 * generated communication patterns and pattern files. docs/route.md.
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

#include "hnm_topo.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HNM_PATHS_DEGREE 10       /* arcs per node: 5 dimensions x 2 directions */
#define HNM_PATHS_MAX_DIM 128     /* largest dimension hnm_torus_new() accepts */
#define HNM_PATHS_MAX_NODES 1048576UL
#define HNM_PATHS_MAX_HOPS 512    /* > 5 x 64 + any slack allowed (hop limit) */

/* The torus graph. Allocated by hnm_torus_new(), freed by hnm_torus_free(). */
struct hnm_torus {
  unsigned long n;          /* nodes */
  int dims[5];              /* graph dimension k (SimGrid order: longest first) */
  int bgq_dim[5];           /* BG/Q dimension (0 = A .. 4 = E) of graph dimension k */
  unsigned long stride[5];  /* host index stride of dimension k */
  uint32_t *host_of_rank;   /* [n] */
  uint32_t *rank_of_host;   /* [n] */
  /* 1: on a ring of 2, only the link SimGrid's torus routes over in each
   * direction (+ from coordinate 0, - from coordinate 1), so that every path
   * can be realised by messages between neighbours in a simulation; 0
   * (default): BG/Q's two links per direction. Set before computing paths. */
  int simgrid_links;
};

/* Build the graph of a BG/Q shape (hnm_topo_bgq_parse_shape()): at most
 * HNM_PATHS_MAX_NODES nodes and HNM_PATHS_MAX_DIM per dimension. Returns
 * NULL with err filled (naming --shape) otherwise or if out of memory. */
struct hnm_torus *hnm_torus_new(const struct hnm_topo *t, char *err, size_t errlen);
void hnm_torus_free(struct hnm_torus *g);

/* Head of arc a (the node it enters), or -1 if the arc does not exist
 * (dimension of size 1, or with simgrid_links the second link of a ring of 2). */
long hnm_torus_arc_head(const struct hnm_torus *g, uint32_t a);
/* Hops of a shortest path between two hosts. */
int hnm_torus_distance(const struct hnm_torus *g, uint32_t src, uint32_t dst);

/* SimGrid 3.32's TorusZone direction rule on a ring of size d, from source
 * coordinate m to target coordinate t != m: +1 or -1. The shorter way round;
 * at exactly half a ring the + way, except from d/2 to 0 (the - way). */
int hnm_torus_direction(int d, int m, int t);

/* Default route from host src to host dst (src != dst): dimension 0 first
 * (the longest), each ring the way hnm_torus_direction() says. Writes the arcs
 * into arcs[] (room for HNM_PATHS_MAX_HOPS) and returns their number. */
int hnm_torus_default_route(const struct hnm_torus *g, uint32_t src, uint32_t dst, uint32_t *arcs);

/* ---- Patterns ------------------------------------------------------------ */

/* One transfer: ranks and bytes. */
struct hnm_pair {
  uint32_t src, dst; /* ranks */
  double bytes;
};

struct hnm_pattern {
  size_t npairs;
  struct hnm_pair *pairs;
};

enum hnm_pattern_kind {
  HNM_PATTERN_AGGREGATION, /* subgroups of g consecutive ranks, all send to the group's middle rank */
  HNM_PATTERN_DISJOINT,    /* first m ranks -> n ranks at the end (disjoint sets) */
  HNM_PATTERN_OVERLAP,     /* first m ranks -> n ranks starting at m - overlap */
  HNM_PATTERN_SUBSET1,     /* first m ranks -> the last n ranks, a concentrated block (VI-D-1) */
  HNM_PATTERN_SUBSET2      /* first m ranks -> n ranks spread evenly over the partition (I/O aggregators) */
};

/* Parameters of a generated pattern; 0 means "the pattern's default"
 * (docs/route.md). */
struct hnm_pattern_params {
  enum hnm_pattern_kind kind;
  unsigned long sources, dests, overlap, group;
  double bytes; /* per pair */
};

int hnm_pattern_parse_kind(const char *s, enum hnm_pattern_kind *kind, char *err, size_t errlen);
const char *hnm_pattern_kind_name(enum hnm_pattern_kind kind);

/* Generate a pattern on p nodes. Pairs whose source is their destination
 * are left out. Returns 0 or -1 (err names the option at fault). */
int hnm_pattern_generate(const struct hnm_pattern_params *pp, unsigned long p, struct hnm_pattern *out, char *err,
                         size_t errlen);

/* Read "src dst bytes" lines ('#' comments and blank lines allowed; bytes
 * may carry a unit: 8MiB). Unknown ranks (>= p), negative or zero bytes,
 * src == dst and a pair given twice are refused: -1 with
 * "FILE:LINE: field: reason" in err. */
int hnm_pattern_read(FILE *f, const char *name, unsigned long p, struct hnm_pattern *out, char *err, size_t errlen);

void hnm_pattern_free(struct hnm_pattern *pt);

/* ---- Path sets ----------------------------------------------------------- */

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
