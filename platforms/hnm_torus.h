/* hnm_torus.h -- a Blue Gene/Q 5D torus as a graph of directed links and
 * BG/Q's default route as SimGrid routes it on hnm-platform's bgq platform
 * (Bui et al. 2015, OPTIQ). Numbering and links: see hnm_paths.h.
 * Library code never exits: functions return 0 / -1 and fill err. */
#ifndef HNM_TORUS_H
#define HNM_TORUS_H

#include "hnm_topo.h"

#include <stddef.h>
#include <stdint.h>

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

/* Default route from host src to host dst (src != dst): dimension 0 first
 * (the longest), each ring the way hnm_topo_torus_direction() says. Writes the arcs
 * into arcs[] (room for HNM_PATHS_MAX_HOPS) and returns their number. */
int hnm_torus_default_route(const struct hnm_torus *g, uint32_t src, uint32_t dst, uint32_t *arcs);

#ifdef __cplusplus
}
#endif

#endif /* HNM_TORUS_H */
