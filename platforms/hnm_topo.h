/* hnm_topo.h -- network shapes of hnm-platform, as plain data.
 *
 * The pure half of hnm-platform: shape parsing, checks, the presets of Zheng & Marguinaud 2018,
 * --scale, SimGrid's topo_parameters strings, BG/Q's rank mapping and the
 * rank placement of the hostfile. No libxml2 and no SimGrid here, so that
 * every rule can be unit-tested (tests/platforms/test_topo.c).
 *
 * Hosts are numbered as SimGrid numbers them inside the <cluster> hnm-platform
 * writes (the "host index" i of host node-i):
 *   torus      SimGrid's TorusZone: coordinate k of host i is
 *              (i / (dims[0] * ... * dims[k-1])) % dims[k]; dimension 0 varies
 *              fastest and is routed first.
 *   bgq        a TORUS whose topo_parameters are BG/Q's A..E sorted by size,
 *              longest first (see hnm_topo_bgq_order()).
 *   fattree    SimGrid's FatTreeZone (an XGFT): host i hangs off the leaf
 *              switch(es) of group i / dims[0].
 *   dragonfly  SimGrid's DragonflyZone: host i is node i % nodes of router
 *              i / nodes; routers are numbered group-major, then chassis, then
 *              router within the chassis.
 *   cluster    cabinets of contiguous host indices, cabinet 1 first.
 *
 * Error messages are one line, without the program name, and name the
 * hnm-platform option at fault ("--dims: '8x0x8': dimension 2 is 0").
 */
#ifndef HNM_TOPO_H
#define HNM_TOPO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Limits that keep every count within SimGrid's int arithmetic and the
 * generated files within reason. */
#define HNM_TOPO_MAX_DIMS 16            /* torus dimensions, fat-tree levels */
#define HNM_TOPO_MAX_CABINETS 1024      /* cluster: cabinet sizes are kept in a fixed array */
#define HNM_TOPO_MAX_NODES 100000000UL  /* hosts, switches per level, and ranks */

enum hnm_topo_family {
  HNM_TOPO_CLUSTER = 0,
  HNM_TOPO_TORUS,
  HNM_TOPO_FATTREE,
  HNM_TOPO_DRAGONFLY,
  HNM_TOPO_BGQ
};

/* One shape. Only the fields of its family are meaningful; zero-initialise
 * the struct before filling it. */
struct hnm_topo {
  enum hnm_topo_family family;

  /* torus: ndims sizes, dimension 0 first (SimGrid's order).
   * bgq: ndims = 5, dims = A, B, C, D, E in BG/Q's naming order.
   * fattree: ndims = levels; dims[l] = down ports (children) of a level-l+1
   * switch, up[l] = up ports (parents) of a level-l node (level 0 = hosts),
   * links[l] = parallel links between level l and level l+1: SimGrid's
   * topo_parameters "levels;dims;up;links". */
  int ndims;
  unsigned long dims[HNM_TOPO_MAX_DIMS];
  unsigned long up[HNM_TOPO_MAX_DIMS];
  unsigned long links[HNM_TOPO_MAX_DIMS];

  /* dragonfly: groups, chassis per group, routers per chassis, nodes per
   * router, and the number of links each blue (group-to-group), black
   * (chassis-to-chassis) and green (router-to-router in a chassis)
   * connection stands for (SimGrid multiplies the bandwidth by it). */
  unsigned long groups, chassis, routers, nodes;
  unsigned long blue, black, green;

  /* cluster: nodes of cabinet c (cab1 is cabinet_nodes[0]). */
  int cabinets;
  unsigned long cabinet_nodes[HNM_TOPO_MAX_CABINETS];

  /* Rules of a preset that --scale must keep: a fat tree with full
   * bisection (up[l] = dims[l-1] for l >= 1) and a dragonfly whose blue link
   * carries one link per router of a group (blue = chassis x routers). */
  int full_bisection;
  int blue_per_router;

  /* Dragonfly routed by hnm's platform library (hnm-platform --routing,
   * platforms/hnm_routing.h): SimGrid 3.32's groups <= routers rule does not
   * apply, and BLUE counts separate global links spread over the routers. */
  int own_routing;
};

/* Parse a list of positive integers separated by sep ('x' for "8x8x8", ','
 * for "25,25,625") into out[0..max-1] and *count. noun names an item in
 * messages ("dimension", "level", "cabinet"): "'8x0x8': dimension 2 is 0".
 * Each item is at most HNM_TOPO_MAX_NODES. Returns 0 or -1 (err filled,
 * without the option name: the caller prefixes it). */
int hnm_topo_parse_list(const char *s, char sep, const char *noun, unsigned long *out, int max, int *count,
                        char *err, size_t errlen);

/* Parse one positive integer <= HNM_TOPO_MAX_NODES. Returns 0 or -1. */
int hnm_topo_parse_count(const char *s, unsigned long *out, char *err, size_t errlen);

/* Parse a BG/Q partition shape: a named size ("512", "1024", "2048",
 * "4096", "8192") or "AxBxCxDxE" with E = 2. Sets family, ndims and dims.
 * Returns 0 or -1 (err without the option name). */
int hnm_topo_bgq_parse_shape(const char *s, struct hnm_topo *t, char *err, size_t errlen);

/* The named BG/Q shapes, for --help and docs: i-th name and A..E, or NULL
 * past the end. */
const char *hnm_topo_bgq_named_shape(int i, unsigned long dims[5]);

/* Check a shape: sizes positive, counts without overflow and at most
 * HNM_TOPO_MAX_NODES, family rules (see hnm-platform's docs). Returns 0, or
 * -1 with a message naming the option at fault. */
int hnm_topo_check(const struct hnm_topo *t, char *err, size_t errlen);

/* Counts of a checked shape. hosts: SimGrid hosts. routers: the routers
 * rank placement deals over (cluster: cabinets; fattree: leaf switch groups;
 * dragonfly: routers; torus, bgq: hosts). switches: every switch or router
 * of the network (fattree: all levels). */
unsigned long hnm_topo_hosts(const struct hnm_topo *t);

/* SimGrid 3.32's TorusZone direction rule (TorusZone::get_local_route) on a
 * ring of size d, from source coordinate m to target coordinate t != m: +1
 * or -1. The shorter way round; at exactly half a ring the + way, except
 * from d/2 to 0 (the - way). m is the route's source coordinate, not the
 * current node's, as in SimGrid. The one definition of the rule: hnm's
 * routed torus (hnm_routing.c) and the BG/Q graph (hnm_torus.c) use it. */
int hnm_topo_torus_direction(unsigned long d, unsigned long m, unsigned long t);
unsigned long hnm_topo_routers(const struct hnm_topo *t);
unsigned long hnm_topo_switches(const struct hnm_topo *t);
/* Fat tree: switches at level 1..ndims (SimGrid's count), 0 otherwise. */
unsigned long hnm_topo_fattree_level_switches(const struct hnm_topo *t, int level);

/* SimGrid's topo_parameters for torus, bgq, fattree and dragonfly
 * ("8,8,8", "3;25,25,625;1,25,25;1,1,1", "25,625;25,1;25,1;25"); an empty
 * string for cluster. Returns 0, or -1 if buf is too small. */
int hnm_topo_parameters(const struct hnm_topo *t, char *buf, size_t len);

/* A short human description of the shape for messages and XML comments
 * ("8x8x8", "4 cabinets of 39,35,30,40 nodes", ...). Returns 0 or -1. */
int hnm_topo_describe(const struct hnm_topo *t, char *buf, size_t len);

/* BG/Q: order[k] is the BG/Q dimension (0 = A ... 4 = E) written k-th in
 * topo_parameters, i.e. routed k-th by SimGrid: sizes in decreasing order,
 * ties in A..E order (a stable sort). */
void hnm_topo_bgq_order(const struct hnm_topo *t, int order[5]);

/* Host index of the node at position j of the machine's own order: BG/Q's
 * ABCDE order (j = (((a*B + b)*C + c)*D + d)*E + e) for bgq, the host index
 * itself for every other family. */
unsigned long hnm_topo_machine_host(const struct hnm_topo *t, unsigned long j);

/* Shrink a shape by f, 0 < f <= 1: every dimension d becomes round(d x
 * f^(1/n)) (n = number of dimensions), at least 2 and at most d, so that
 * the host count is about f times the original with the shape kept.
 * Dimensions: torus all; bgq A..D (E stays 2, n = 4); fattree the down
 * ports; dragonfly groups, chassis, routers, nodes. The preset rules
 * (full_bisection, blue_per_router) are applied again afterwards. cluster
 * is refused. Returns 0 or -1 (message names --scale). */
int hnm_topo_scale(struct hnm_topo *t, double f, char *err, size_t errlen);

/* Presets: Table 1 of Zheng & Marguinaud 2018 and graphene (Degomme et al. 2013). */
struct hnm_topo_preset {
  const char *name;
  enum hnm_topo_family family;
  const char *paper_geometry;     /* Table 1's geometry column, or graphene's cabinets */
  unsigned long paper_switches;   /* Table 1's switches (0: graphene, not in Table 1) */
  unsigned long paper_nodes;      /* Table 1's nodes */
  unsigned long ranks_per_host;  /* MPI ranks per SimGrid host (torus: 25, see note) */
  const char *note;              /* one line for stderr when the preset is used; NULL if faithful */
  /* The shape written: cluster, the nodes of its 4 cabinets; torus, its 3
   * dimensions; fattree, k (nodes per leaf switch; 3 levels, full
   * bisection); dragonfly, groups, chassis, routers, nodes. */
  unsigned long shape[4];
};

/* i-th preset, NULL past the end. */
const struct hnm_topo_preset *hnm_topo_preset_at(int i);
/* Preset called name, or NULL. */
const struct hnm_topo_preset *hnm_topo_preset_find(const char *name);
/* Fill t with the preset's shape (t is reset first). */
void hnm_topo_preset_apply(const struct hnm_topo_preset *p, struct hnm_topo *t);

/* Rank placement of the hostfile. */
enum hnm_placement {
  HNM_PLACEMENT_LINEAR = 0,     /* rank r on node r / K of the machine order */
  HNM_PLACEMENT_ROUND_ROBIN = 1 /* rank r on router r mod R, its slots host by host */
};

int hnm_topo_parse_placement(const char *s, enum hnm_placement *p, char *err, size_t errlen);

/* Call emit(host index, ctx) once per MPI rank, ranks 0 .. hosts x K - 1 in
 * order (K = ranks_per_host >= 1). Linear: rank r runs on the machine-order
 * node r / K (K consecutive ranks per host). Round-robin: deal ranks over
 * the routers in turn, skipping routers whose hosts are full (cluster
 * cabinets of unequal sizes); a router's K x hosts slots are filled host by
 * host. Allocates nothing. Stops at the first non-zero return of emit and
 * returns it; returns 0 otherwise. */
int hnm_topo_place(const struct hnm_topo *t, enum hnm_placement p, unsigned long ranks_per_host,
                   int (*emit)(unsigned long host, void *ctx), void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* HNM_TOPO_H */
