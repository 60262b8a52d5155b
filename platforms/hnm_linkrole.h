/* hnm_linkrole.h -- what a link is in its topology, from its name.
 *
 * Link-load files (hnm-run --link-load) give every link its role so that
 * plots can group links: node up/down, dragonfly local/global, torus
 * dimension, fat-tree level. Roles are read from link names, which both
 * SimGrid 3.32's zones and hnm's routed platforms (hnm_routing.h) build from
 * the topology, given the topology's parameters where the name alone does
 * not tell (a SimGrid torus link names its two hosts, not its dimension).
 * Pure C11, no SimGrid.
 */
#ifndef HNM_LINKROLE_H
#define HNM_LINKROLE_H

#include "hnm_topo.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The topology the links come from. */
struct hnm_linkrole_topo {
  int known;               /* 0: roles from names only */
  int routed;              /* 1: hnm's routed platform (hnm_routing.h names) */
  struct hnm_topo topo;    /* family and shape */
};

/* Parse SimGrid's <cluster topology=... topo_parameters=...> values
 * ("TORUS", "8,8,8"; "FAT_TREE", "2;4,4;1,2;1,2"; "DRAGONFLY",
 * "3,4;4,3;5,1;2"), or hnm's "hnm-torus"/"hnm-dragonfly" with the shape
 * of a description. Returns 0 or -1 (t->known = 0). */
int hnm_linkrole_topo_parse(const char *topology, const char *params, struct hnm_linkrole_topo *t);

/* The role of one link. Coordinates (-1 when not known):
 *   node-up, node-down, node (SHARED), loopback, limiter: a = host index;
 *   local (dragonfly, inside a group): a = group, b = from router, c = to
 *     router (routers counted inside the group, chassis-major; for SimGrid's
 *     zone b and c need the topology);
 *   global (dragonfly): a = from group, b = to group, c = copy;
 *   torus: a = dimension (0 first), b = from host, c = to host;
 *   fattree-up, fattree-down: a = level of the lower end (0 = hosts),
 *     b = lower node id, c = upper node id (SimGrid's ids; hnm's routed fat
 *     tree: b = lower node's index in its level, c = up-port);
 *   cabinet-up, cabinet-down (hnm-platform cluster): a = cabinet (1 first);
 *   other. */
struct hnm_linkrole {
  const char *role;
  long a, b, c;
};
void hnm_linkrole_of(const char *name, const struct hnm_linkrole_topo *t, struct hnm_linkrole *out);

/* The node limiter naming rule of SimGrid's <cluster limiter_link=...> and
 * of hnm's platforms: a node limiter is a link BASE_limiter (BASE not empty)
 * beside the node's own link, BASE_UP (SPLITDUPLEX) or BASE (SHARED) --
 * which is what tells it from other links named *_limiter (a cabinet's).
 * hnm_linkrole_limiter_base() returns the length of BASE, or 0 when NAME
 * does not end in "_limiter" after a non-empty BASE; the candidates for the
 * node's own link are BASE followed by each of hnm_linkrole_limiter_owner[]
 * (NULL-terminated), in the order to look them up. */
size_t hnm_linkrole_limiter_base(const char *name);
extern const char *const hnm_linkrole_limiter_owner[];

#ifdef __cplusplus
}
#endif

#endif /* HNM_LINKROLE_H */
