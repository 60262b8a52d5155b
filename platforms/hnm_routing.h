/* hnm_routing.h -- routed platforms: hnm's own topologies and route choices.
 *
 * SimGrid 3.32's TORUS, FAT_TREE and DRAGONFLY zones route one way only
 * (dimension order, D-mod-k, minimal). A platform written with
 * `hnm-platform FAMILY --routing NAME` is instead a *description* (a small
 * text file, below) that hnm's platform library (plugin/hnm_routed_zone.cpp,
 * libhnmplatform.so, loaded by SimGrid as `-platform libhnmplatform.so`)
 * turns into SimGrid hosts and links; for every message SimGrid asks that
 * library for a route, and the library asks this module.
 *
 * This module is pure C11 (no SimGrid): the description file, the link
 * layout (every link has an index, a name and a role), and the route
 * choosers. It is unit-tested without a simulation (tests/routing).
 *
 * Hosts are numbered as in SimGrid's own zones (docs/platforms.md): torus
 * host i has coordinate (i / (d0 x ... x d(k-1))) % dk; dragonfly host i is
 * node i % NODES of router i / NODES, routers numbered group, chassis, router.
 *
 * Links are directed: index i carries traffic one way. With SHARED sharing
 * both directions of a connection are one SimGrid link:
 * hnm_rnet_link_info().canonical names the index that holds it.
 *
 * Per message, hnm_rnet_route() does O(route length) work and allocates
 * nothing; the network's memory is O(links) (allocated once).
 */
#ifndef HNM_ROUTING_H
#define HNM_ROUTING_H

#include "hnm_topo.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Routing algorithms. DOR (torus) and DMODK (fattree) are SimGrid's own
 * zones: hnm-platform writes them as plain SimGrid XML, unchanged. */
enum hnm_routing {
  HNM_ROUTING_BUILTIN = 0, /* no --routing: SimGrid's zone */
  HNM_ROUTING_MINIMAL,     /* dragonfly */
  HNM_ROUTING_VALIANT,     /* torus: via a random host */
  HNM_ROUTING_UGAL_L,      /* dragonfly: UGAL with the source group's view ("ugal-l"; "ugal" reads as this) */
  HNM_ROUTING_DOR,         /* torus: SimGrid's (also understood by the library) */
  HNM_ROUTING_DMODK,       /* fattree: SimGrid's */
  HNM_ROUTING_RANDOM,      /* fattree: a random up-port (and parallel link) per level and message */
  HNM_ROUTING_VALIANT_GROUP,  /* dragonfly: via a random group ("valiant-group"; "valiant" reads as this) */
  HNM_ROUTING_VALIANT_ROUTER, /* dragonfly: via a random router of a third group (Zheng & Marguinaud 2018) */
  HNM_ROUTING_UGAL_G          /* dragonfly: UGAL with the candidates' whole paths in view */
};

/* Parse a --routing NAME for a family. Returns 0, or -1 with a message
 * ("--routing: 'x' is not a dragonfly routing (minimal, valiant-group, ...)").
 * Dragonfly also reads the names of earlier versions: "valiant" is
 * valiant-group, "ugal" is ugal-l. */
int hnm_routing_parse(enum hnm_topo_family family, const char *name, enum hnm_routing *out, char *err,
                      size_t errlen);
const char *hnm_routing_name(enum hnm_routing r);
/* 1 when the routing is SimGrid's own zone (written as XML), 0 when it
 * needs hnm's platform library. */
int hnm_routing_is_builtin(enum hnm_routing r);
/* 1 when the routing draws random numbers (a seed changes its routes). */
int hnm_routing_is_random(enum hnm_routing r);

/* Everything the library needs to build the platform. */
struct hnm_rnet_desc {
  struct hnm_topo topo;     /* torus, dragonfly or fattree, checked */
  enum hnm_routing routing;
  uint64_t seed;            /* of every random choice */
  double ugal_threshold;    /* UGAL's T, seconds (see hnm_routing_ugal_prefers_minimal) */
  double bw;                /* bytes/s of one link (dragonfly: x BLUE/BLACK/GREEN as in SimGrid) */
  double lat;               /* seconds per link */
  int splitduplex;          /* 1: one link per direction; 0: SHARED */
  int loopback;             /* 1: a loopback link per host */
  double loopback_bw;       /* bytes/s */
  double loopback_lat;      /* seconds */
  double speed;             /* flop/s per core */
  unsigned long cores;      /* cores (MPI ranks) per host */
};

/* UGAL's threshold when a description gives none (seconds): a diversion
 * must save 10 us of backlog (100 KB at 10 GB/s). Against 0 it keeps the
 * decisions that save little from multiplying the flows' distinct end
 * times, which is what simulating UGAL costs (docs/platforms.md, "Routed
 * platforms": 1.5x minimal's CPU time on a 1024-rank transposition instead
 * of 3.2x, its simulated time 0.82x minimal's instead of 0.71x). */
#define HNM_RNET_UGAL_THRESHOLD 10e-6

/* The first line of a description file. */
#define HNM_RNET_MAGIC "hnm-routed-platform 1"

/* Write a description: the magic line, comment lines ("# ..." for each line
 * of comment, may be NULL), then "key value" lines. Numbers are written so
 * that they read back as the same double. Returns 0 or -1 (errno). */
int hnm_rnet_desc_write(FILE *fp, const struct hnm_rnet_desc *d, const char *comment);

/* 1 if the file at path starts with HNM_RNET_MAGIC, 0 otherwise (also when
 * it cannot be read). */
int hnm_rnet_is_description(const char *path);

/* Read and check a description. Returns 0, or -1 with a one-line message
 * naming the file, line and field ("d.xml:5: bw: '0' must be positive"). */
int hnm_rnet_desc_read(const char *path, struct hnm_rnet_desc *d, char *err, size_t errlen);

/* Link roles, for link-load files and congestion maps. */
enum hnm_link_role {
  HNM_LINK_NONE = 0,     /* an unused index */
  HNM_LINK_NODE_UP,      /* node -> router (a: host) */
  HNM_LINK_NODE_DOWN,    /* router -> node (a: host) */
  HNM_LINK_LOOPBACK,     /* a host to itself (a: host) */
  HNM_LINK_LOCAL,        /* dragonfly router -> router inside a group (a: group, b: from router, c: to router,
                            routers counted inside the group) */
  HNM_LINK_GLOBAL,       /* dragonfly group -> group (a: from group, b: to group, c: copy) */
  HNM_LINK_TORUS,        /* torus (a: dimension, b: from host, c: to host) */
  HNM_LINK_FATTREE_UP,   /* fat tree, level a -> a+1 (b: lower node's index in its level, c: up-port) */
  HNM_LINK_FATTREE_DOWN  /* fat tree, level a+1 -> a (same coordinates) */
};
const char *hnm_link_role_name(enum hnm_link_role r); /* "node-up", "local", ... */

typedef struct hnm_rnet hnm_rnet;

/* Build the link layout of a checked description. Returns NULL with a
 * message on a shape the library cannot build (or out of memory). Free with
 * hnm_rnet_free(). */
hnm_rnet *hnm_rnet_new(const struct hnm_rnet_desc *d, char *err, size_t errlen);
void hnm_rnet_free(hnm_rnet *n);

const struct hnm_rnet_desc *hnm_rnet_get_desc(const hnm_rnet *n);
unsigned long hnm_rnet_hosts(const hnm_rnet *n);
size_t hnm_rnet_link_count(const hnm_rnet *n); /* indices 0 .. count-1, some unused */
/* Longest route hnm_rnet_route() can return (its buffer size). */
int hnm_rnet_max_route(const hnm_rnet *n);
/* Index of host h's loopback link (meaningful when desc->loopback). */
size_t hnm_rnet_loopback(const hnm_rnet *n, unsigned long host);

struct hnm_rnet_link {
  enum hnm_link_role role; /* HNM_LINK_NONE: index unused, nothing else set */
  size_t canonical;        /* the index whose SimGrid link carries this one (itself, or the other direction when
                              SHARED) */
  double bw;               /* bytes/s */
  double lat;              /* seconds */
  int fatpipe;             /* loopback links */
  long a, b, c;            /* role coordinates, see enum hnm_link_role */
  char name[96];           /* SimGrid link name (of the canonical index) */
};
/* Describe link i (< hnm_rnet_link_count()). */
void hnm_rnet_link_info(const hnm_rnet *n, size_t i, struct hnm_rnet_link *out);

/* UGAL's congestion estimate of link i: the time, in seconds, that the
 * link needs to send what is queued on it (hnm_rnet_backlog below, or a
 * hand-built state in tests). */
typedef double (*hnm_rnet_load_fn)(size_t link, void *ctx);

/* The route of one message from host src to host dst: link indices in
 * order into links[0 .. hnm_rnet_max_route()-1]; returns their number.
 * Random choices draw from the network's generator (seeded with
 * desc->seed), so the same calls in the same order give the same routes.
 * load may be NULL (an idle network). src == dst: the loopback, or nothing.
 *
 * UGAL (Kim, Dally, Scott and Abts 2008) compares, for each message between
 * groups, the minimal path with one Valiant (group) candidate, and takes
 * the one with the smaller estimated delay. In a packet network that
 * estimate is q x H (queue length times hops: a packet waits at each hop);
 * in a flow model a message progresses at its bottleneck's pace, so the
 * estimate is the path's q, the largest load() (seconds of backlog) of the
 * links it looks at, plus H link latencies. ugal-l looks at its own host's
 * link and the source group's links up to and including the path's first
 * global link (what the source router sees of its queues once credit
 * back-pressure from its group's global ports has reached it; a flow model
 * has no back-pressure, so the view is given explicitly); ugal-g at every
 * link of the path, both hosts' included. The decision is
 * hnm_routing_ugal_prefers_minimal(). */
int hnm_rnet_route(hnm_rnet *n, unsigned long src, unsigned long dst, size_t *links, hnm_rnet_load_fn load,
                   void *ctx);

/* UGAL's rule: take the minimal path iff
 * q_min + h_min x lat <= q_val + h_val x lat + threshold (q: the path's
 * congestion estimate, seconds; h: its router-to-router hops; lat: seconds
 * per link; threshold: seconds, the description's ugal-threshold, an
 * offset that biases the choice toward minimal routing). Ties, and the idle
 * network, go minimal. */
int hnm_routing_ugal_prefers_minimal(double q_min, int h_min, double q_val, int h_val, double lat, double threshold);

/* A backlog tracker for UGAL: per link, the bytes of the messages routed
 * through it that it has not sent yet if it sends at its full bandwidth
 * (a fluid queue: it grows by each message's size when the message starts
 * and drains at the link's bandwidth). It never holds more than the bytes
 * actually waiting at the link's bottleneck-free rate, and at a saturated
 * link it is the bytes queued there. O(links) memory, O(1) per link and
 * call. Free with hnm_rnet_backlog_free(). */
typedef struct hnm_rnet_backlog hnm_rnet_backlog;
hnm_rnet_backlog *hnm_rnet_backlog_new(const hnm_rnet *n);
void hnm_rnet_backlog_free(hnm_rnet_backlog *b);
/* A message of bytes starts at time now (seconds) on links[0 .. m-1]. */
void hnm_rnet_backlog_add(hnm_rnet_backlog *b, const size_t *links, int m, double bytes, double now);
/* Seconds link i needs to send its backlog at time now (>= the last add). */
double hnm_rnet_backlog_seconds(hnm_rnet_backlog *b, size_t link, double now);

/* The generator (splitmix64), exposed for tests: uniform in [0, n). */
uint64_t hnm_routing_rng_below(uint64_t *state, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif /* HNM_ROUTING_H */
