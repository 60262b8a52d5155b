/* hnm-platform -- write SimGrid 4.1 platform files and their hostfiles.
 *
 *   hnm-platform FAMILY [--preset NAME] [SHAPE OPTIONS] [LINK OPTIONS]
 *                [-o FILE] [--hostfile FILE] [--placement linear|round-robin]
 *
 * One subcommand per family (cluster, torus, fattree, dragonfly, bgq); every
 * parameter is an option with a unit and a default (hnm-platform FAMILY
 * --help). The shapes, presets, scaling and rank placement are computed by
 * hnm_topo.c; this file parses the command line and writes the XML through
 * libxml2's xmlTextWriter, which streams: memory stays bounded whatever the
 * size (the cluster family writes C x (C-1) routes one at a time).
 *
 * Nothing is written on bad input: everything is validated first, then both
 * files are written to temporaries in their target directories and renamed
 * at the end; on any error the temporaries are removed. Exit status: 0; 2 on
 * bad input (one line on stderr naming the option); 1 if writing fails.
 * docs/platforms.md describes the files produced.
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_quantity.h"
#include "hnm_routing.h"
#include "hnm_topo.h"
#include "hnm_units.h"

#include <libxml/xmlwriter.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef HNM_VERSION
#define HNM_VERSION "unknown"
#endif

#define PROG "hnm-platform"

/* ---- Options ------------------------------------------------------------- */

enum opt_id {
  OPT_PRESET, OPT_SCALE,
  OPT_DIMS, OPT_SHAPE,
  OPT_LEVELS, OPT_DOWN, OPT_UP, OPT_LINKS,
  OPT_GROUPS, OPT_CHASSIS, OPT_ROUTERS, OPT_NODES, OPT_BLUE, OPT_BLACK, OPT_GREEN,
  OPT_CABINET_SIZES, OPT_CABINETS,
  OPT_BW, OPT_USABLE, OPT_LAT, OPT_SHARING, OPT_LIMITER, OPT_LOOPBACK_BW, OPT_LOOPBACK_LAT, OPT_SPEED,
  OPT_CABINET_BW, OPT_CABINET_LAT, OPT_CABINET_LIMITER, OPT_CABINET_SHARING,
  OPT_OUTPUT, OPT_HOSTFILE, OPT_PLACEMENT, OPT_RANKS,
  OPT_ROUTING, OPT_ROUTING_SEED,
  OPT_COUNT
};

/* Name and argument of every option, whatever the family. */
static const struct {
  const char *name;
  const char *arg;
} opt_names[OPT_COUNT] = {
  [OPT_PRESET] = {"--preset", "NAME"},
  [OPT_SCALE] = {"--scale", "F"},
  [OPT_DIMS] = {"--dims", "AxBx..."},
  [OPT_SHAPE] = {"--shape", "SHAPE"},
  [OPT_LEVELS] = {"--levels", "N"},
  [OPT_DOWN] = {"--down", "LIST"},
  [OPT_UP] = {"--up", "LIST"},
  [OPT_LINKS] = {"--links", "LIST"},
  [OPT_GROUPS] = {"--groups", "N"},
  [OPT_CHASSIS] = {"--chassis", "N"},
  [OPT_ROUTERS] = {"--routers", "N"},
  [OPT_NODES] = {"--nodes", "N"},
  [OPT_BLUE] = {"--blue-links", "N"},
  [OPT_BLACK] = {"--black-links", "N"},
  [OPT_GREEN] = {"--green-links", "N"},
  [OPT_CABINET_SIZES] = {"--cabinet-sizes", "LIST"},
  [OPT_CABINETS] = {"--cabinets", "N"},
  [OPT_BW] = {"--bw", "BANDWIDTH"},
  [OPT_USABLE] = {"--usable", "FRACTION"},
  [OPT_LAT] = {"--lat", "TIME"},
  [OPT_SHARING] = {"--sharing", "POLICY"},
  [OPT_LIMITER] = {"--limiter", "FACTOR"},
  [OPT_LOOPBACK_BW] = {"--loopback-bw", "BANDWIDTH"},
  [OPT_LOOPBACK_LAT] = {"--loopback-lat", "TIME"},
  [OPT_SPEED] = {"--speed", "SPEED"},
  [OPT_CABINET_BW] = {"--cabinet-bw", "BANDWIDTH"},
  [OPT_CABINET_LAT] = {"--cabinet-lat", "TIME"},
  [OPT_CABINET_LIMITER] = {"--cabinet-limiter", "BANDWIDTH"},
  [OPT_CABINET_SHARING] = {"--cabinet-sharing", "POLICY"},
  [OPT_OUTPUT] = {"-o", "FILE"},
  [OPT_HOSTFILE] = {"--hostfile", "FILE"},
  [OPT_PLACEMENT] = {"--placement", "HOW"},
  [OPT_RANKS] = {"--ranks-per-host", "K"},
  [OPT_ROUTING] = {"--routing", "NAME"},
  [OPT_ROUTING_SEED] = {"--routing-seed", "N"},
};

/* An option as one family documents it. def is the default, parsed like a
 * user's value (or shown only, for the few options that are never parsed
 * from a default: --preset, -o, --hostfile, --levels). shape marks the
 * options a --preset sets. */
struct opt_doc {
  enum opt_id id;
  const char *def;
  const char *help;
  int shape;
};

#define DOC_END {OPT_COUNT, NULL, NULL, 0}

/* Link and output options shared by the topology families. */
#define DOC_LINKS(bw, lat, bw_help)                                                                           \
  {OPT_BW, bw, bw_help, 0},                                                                                   \
  {OPT_LAT, lat, "latency of every link", 0},                                                                 \
  {OPT_SHARING, "SPLITDUPLEX", "SPLITDUPLEX (one link per direction) or SHARED (FATPIPE: see below)", 0},     \
  {OPT_LIMITER, "0", "node limiter: limiter_link = FACTOR x --bw, 0 = none (see below)", 0},                  \
  {OPT_LOOPBACK_BW, "6GBps", "loopback bandwidth (rank to rank on one host), none = no loopback", 0},         \
  {OPT_LOOPBACK_LAT, "1us", "loopback latency", 0}

#define DOC_OUTPUT(speed, ranks_help)                                                                         \
  {OPT_SPEED, speed, "host speed, flop/s (f, kf, Mf, Gf, Tf)", 0},                                            \
  {OPT_RANKS, "1", ranks_help, 0},                                                                            \
  {OPT_PLACEMENT, "linear", "rank placement in the hostfile: linear or round-robin (see below)", 0},          \
  {OPT_OUTPUT, "standard output", "write the XML to FILE", 0},                                                \
  {OPT_HOSTFILE, "none", "write the hostfile to FILE: one host per line, rank 0 first", 0}

#define RANKS_HELP "MPI ranks per host: hostfile lines per host, and core count of each host"

static const struct opt_doc cluster_docs[] = {
  {OPT_PRESET, "none", "graphene: 144 nodes in 4 cabinets of 39, 35, 30, 40 (Grid'5000), the defaults below", 0},
  {OPT_CABINET_SIZES, "39,35,30,40", "nodes of cabinet 1, 2, ... (cabinets cab1, cab2, ...)", 1},
  {OPT_CABINETS, "none", "number of cabinets of --nodes nodes each (instead of --cabinet-sizes)", 1},
  {OPT_NODES, "none", "nodes per cabinet, with --cabinets", 1},
  {OPT_BW, "1Gbps", "bandwidth of each node link (up and down)", 0},
  {OPT_LAT, "10us", "latency of each node link", 0},
  {OPT_SHARING, "SPLITDUPLEX", "node links: SPLITDUPLEX (up + down) or SHARED (FATPIPE: see below)", 0},
  {OPT_LIMITER, "1.5", "node limiter cabN_link_I_limiter = FACTOR x --bw (seed 002: 1.5), 0 = none", 0},
  {OPT_LOOPBACK_BW, "6GBps", "loopback bandwidth (rank to rank on one host), none = no loopback", 0},
  {OPT_LOOPBACK_LAT, "1us", "loopback latency", 0},
  {OPT_CABINET_BW, "10Gbps", "bandwidth of each cabinet's links cabN-up and cabN-down", 0},
  {OPT_CABINET_LAT, "5us", "latency of cabN-up and cabN-down", 0},
  {OPT_CABINET_LIMITER, "13Gbps", "cabinet limiter cabN-limiter (graphene: 13Gbps, measured), 0 = none", 0},
  {OPT_CABINET_SHARING, "SHARED", "cabinet links: SHARED or FATPIPE", 0},
  DOC_OUTPUT("1Gf", RANKS_HELP),
  DOC_END
};

static const struct opt_doc torus_docs[] = {
  {OPT_PRESET, "none", "torus-M (25x25x25) or torus-L (75x25x25), seed 000 Table 1 (see below)", 0},
  {OPT_DIMS, "8x8x8", "sizes of the dimensions, 1 to 16 of them; the first is routed first", 1},
  {OPT_SCALE, "1", "shrink every dimension by F^(1/dimensions), 0 < F <= 1 (at least 2 each)", 0},
  DOC_LINKS("10GBps", "100ns", "bandwidth of each torus link (per direction with SPLITDUPLEX)"),
  {OPT_ROUTING, "dor", "dor (SimGrid's dimension order) or valiant (via a random host; hnm's platform library)", 0},
  {OPT_ROUTING_SEED, "1", "seed of valiant's random choices (same seed, same routes)", 0},
  DOC_OUTPUT("1Gf", RANKS_HELP " (presets: 25)"),
  DOC_END
};

static const struct opt_doc fattree_docs[] = {
  {OPT_PRESET, "none", "fattree-M or fattree-L, seed 000 Table 1 (see below)", 0},
  {OPT_LEVELS, "length of --down", "number of switch levels (checked against the lists)", 1},
  {OPT_DOWN, "4,4", "down ports (children) of a switch, level 1 (leaf) first", 1},
  {OPT_UP, "1,2", "up ports (parents) of a node of level 0 (host), 1, ...", 1},
  {OPT_LINKS, "1,2", "parallel links between level l and level l+1, l = 0 first", 1},
  {OPT_SCALE, "1", "shrink the down ports by F^(1/levels), 0 < F <= 1 (at least 2 each)", 0},
  DOC_LINKS("10GBps", "100ns", "bandwidth of each link (per direction with SPLITDUPLEX)"),
  {OPT_ROUTING, "dmodk", "dmodk (SimGrid's D-mod-k, the only fat-tree routing so far)", 0},
  DOC_OUTPUT("1Gf", RANKS_HELP),
  DOC_END
};

static const struct opt_doc dragonfly_docs[] = {
  {OPT_PRESET, "none", "dragonfly-MM, dragonfly-SL, dragonfly-LS or dragonfly-ML, seed 000 Table 1", 0},
  {OPT_GROUPS, "3", "groups (at most --routers without --routing: SimGrid 3.32 routes group g via router g)", 1},
  {OPT_CHASSIS, "4", "chassis per group (black links: all-to-all between chassis)", 1},
  {OPT_ROUTERS, "5", "routers per chassis (green links: all-to-all inside a chassis)", 1},
  {OPT_NODES, "2", "nodes per router", 1},
  {OPT_BLUE, "4", "links between two groups (one SimGrid link of N x --bw; N links with --routing)", 1},
  {OPT_BLACK, "3", "links between two routers of different chassis (N x --bw)", 1},
  {OPT_GREEN, "1", "links between two routers of a chassis (N x --bw)", 1},
  {OPT_SCALE, "1", "shrink groups, chassis, routers, nodes by F^(1/4), 0 < F <= 1 (at least 2 each)", 0},
  DOC_LINKS("10GBps", "100ns", "bandwidth of one link (per direction with SPLITDUPLEX)"),
  {OPT_ROUTING, "none", "minimal, valiant or ugal: hnm's platform library, global links spread over the routers "
                        "(see below); none: SimGrid's DRAGONFLY zone", 0},
  {OPT_ROUTING_SEED, "1", "seed of valiant's and ugal's random choices (same seed, same routes)", 0},
  DOC_OUTPUT("1Gf", RANKS_HELP),
  DOC_END
};

static const struct opt_doc bgq_docs[] = {
  {OPT_SHAPE, "512", "512, 1024, 2048, 4096, 8192 (named shapes, see below) or AxBxCxDxE with E = 2", 1},
  {OPT_SCALE, "1", "shrink A, B, C, D by F^(1/4), 0 < F <= 1 (at least 2 each; E stays 2)", 0},
  {OPT_BW, "2GBps", "raw bandwidth of a BG/Q link, per direction", 0},
  {OPT_USABLE, "0.9", "usable fraction of --bw: the platform gets --bw x FRACTION (1.8GBps)", 0},
  {OPT_LAT, "40ns", "latency of each link (one hop; an assumption, calibrate it)", 0},
  {OPT_SHARING, "SPLITDUPLEX", "SPLITDUPLEX (one link per direction) or SHARED (FATPIPE: see below)", 0},
  {OPT_LIMITER, "0", "node limiter: limiter_link = FACTOR x usable bandwidth, 0 = none (see below)", 0},
  {OPT_LOOPBACK_BW, "6GBps", "loopback bandwidth (rank to rank on one host), none = no loopback", 0},
  {OPT_LOOPBACK_LAT, "1us", "loopback latency", 0},
  DOC_OUTPUT("204.8Gf", RANKS_HELP " (ABCDET: T fastest)"),
  DOC_END
};

static void cluster_notes(FILE *out);
static void torus_notes(FILE *out);
static void fattree_notes(FILE *out);
static void dragonfly_notes(FILE *out);
static void bgq_notes(FILE *out);

struct family {
  const char *name;
  enum hnm_topo_family topo;
  const char *summary;
  const struct opt_doc *docs;
  void (*notes)(FILE *out);
};

static const struct family families[] = {
  {"cluster", HNM_TOPO_CLUSTER, "hierarchical Ethernet cluster: cabinets of nodes behind a switch (seed 002)",
   cluster_docs, cluster_notes},
  {"torus", HNM_TOPO_TORUS, "torus of any number of dimensions (SimGrid TORUS), one host per router", torus_docs,
   torus_notes},
  {"fattree", HNM_TOPO_FATTREE, "fat tree (SimGrid FAT_TREE: an extended generalized fat tree)", fattree_docs,
   fattree_notes},
  {"dragonfly", HNM_TOPO_DRAGONFLY, "dragonfly: groups of chassis of routers (SimGrid DRAGONFLY)", dragonfly_docs,
   dragonfly_notes},
  {"bgq", HNM_TOPO_BGQ, "Blue Gene/Q partition: 5D torus AxBxCxDxE, BG/Q routing order and rank mapping",
   bgq_docs, bgq_notes},
  {NULL, HNM_TOPO_CLUSTER, NULL, NULL, NULL}
};

static const struct opt_doc *family_doc(const struct family *f, enum opt_id id)
{
  for (const struct opt_doc *d = f->docs; d->id != OPT_COUNT; d++)
    if (d->id == id)
      return d;
  return NULL;
}

/* ---- Help ---------------------------------------------------------------- */

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: %s FAMILY [OPTIONS]\n"
          "Write a SimGrid 4.1 platform (XML, through libxml2) and its MPI hostfile.\n"
          "\n"
          "Families:\n",
          PROG);
  for (const struct family *f = families; f->name != NULL; f++)
    fprintf(out, "  %-10s %s\n", f->name, f->summary);
  fprintf(out,
          "\n"
          "Presets (--preset): graphene (cluster); seed 000's Table 1: torus-M, torus-L (torus),\n"
          "fattree-M, fattree-L (fattree), dragonfly-MM, dragonfly-SL, dragonfly-LS, dragonfly-ML\n"
          "(dragonfly). BG/Q partitions are named shapes: bgq --shape 512 ... 8192.\n"
          "\n"
          "Examples:\n"
          "  %s cluster --preset graphene -o g.xml --hostfile g.hosts\n"
          "  %s bgq --shape 4x4x4x4x2 -o bgq.xml --hostfile bgq.hosts\n"
          "  %s torus --dims 8x8x8 --bw 10GBps --lat 100ns -o t.xml --hostfile t.hosts\n"
          "  %s dragonfly --preset dragonfly-MM --scale 0.01 -o d.xml --hostfile d.hosts\n"
          "\n"
          "The XML goes to standard output unless -o FILE; --hostfile FILE also writes the\n"
          "hostfile (one host name per line, rank 0 on the first line). Hosts are node-0 ..\n"
          "node-(N-1). Files are written to a temporary in their directory and renamed at\n"
          "the end: on any error nothing is written.\n"
          "\n"
          "  -h, --help   this help;  %s FAMILY --help: every option, unit and default\n"
          "  --version    print the version\n"
          "\n"
          "Exit status: 0; 2 on bad input (one line on stderr naming the option); 1 if\n"
          "writing fails. See docs/platforms.md.\n",
          PROG, PROG, PROG, PROG, PROG);
}

static void family_usage(const struct family *f, FILE *out)
{
  fprintf(out, "Usage: %s %s [OPTIONS]\n%s.\n\nOptions (default in brackets):\n", PROG, f->name, f->summary);
  for (const struct opt_doc *d = f->docs; d->id != OPT_COUNT; d++) {
    char left[64];
    snprintf(left, sizeof left, "%s%s %s", opt_names[d->id].name, d->id == OPT_OUTPUT ? ", --output" : "",
             opt_names[d->id].arg);
    fprintf(out, "  %-28s %s [%s]\n", left, d->help, d->def);
  }
  fprintf(out, "  %-28s %s\n", "-h, --help", "this help");
  fprintf(out, "  %-28s %s\n", "--version", "print the version");
  fprintf(out,
          "\n"
          "Units: BANDWIDTH as in SimGrid (10Gbps = bits/s, 1.25GBps = bytes/s, 1GiBps; a unit is\n"
          "required), TIME (10us, 1.5ms, 100ns, 0s), SPEED (1Gf = 1e9 flop/s), LIST = N,N,...\n"
          "Options accept --name VALUE or --name=VALUE; a later option overrides an earlier one.\n"
          "\n");
  f->notes(out);
  fprintf(out,
          "\n"
          "Sharing: SimGrid 3.32 creates the links of a <cluster> SHARED whatever its\n"
          "sharing_policy says unless it is SPLITDUPLEX, so FATPIPE is refused rather than\n"
          "silently ignored; hnm-run --model loggps makes every link a FATPIPE at run time.\n");
}

static void cluster_notes(FILE *out)
{
  fprintf(out,
          "Layout (as platforms/default.xml): <zone id=\"world\" routing=\"Full\"> holding one\n"
          "<cluster id=\"cabN\"> per cabinet (N from 1) with router cabN-router, contiguous hosts\n"
          "node-<global index>, per-node up/down links plus a limiter cabN_link_I_limiter (which\n"
          "hnm's models resize), and links cabN-up, cabN-down, cabN-limiter per cabinet. Every\n"
          "ordered pair of cabinets A, B gets a zoneRoute (symmetrical=\"NO\") through cabA-up,\n"
          "cabA-limiter, cabB-limiter, cabB-down.\n"
          "\n"
          "Placement: linear puts rank r on node-r (cabinet by cabinet); round-robin deals the\n"
          "ranks over the cabinets in turn (rank r in cabinet r mod C while all have room),\n"
          "skipping full cabinets; inside a cabinet, nodes are filled in order.\n");
}

static void torus_notes(FILE *out)
{
  fprintf(out,
          "Layout: <cluster id=\"torus\" topology=\"TORUS\" topo_parameters=\"A,B,...\"> as the root\n"
          "zone; host node-i has coordinate k = (i / (d0 x ... x d(k-1))) mod dk: dimension 0 varies\n"
          "fastest and SimGrid routes it first, then dimension 1, ... Each ring is travelled the\n"
          "short way; at exactly half a ring SimGrid goes the positive way, except from\n"
          "coordinate d/2 to 0, which goes the negative way (TorusZone::get_local_route).\n"
          "\n"
          "Presets: SimGrid's TORUS has exactly one host per router, so seed 000's 25 nodes\n"
          "per switch cannot be expressed. torus-M / torus-L write the 25x25x25 / 75x25x25\n"
          "router torus (15625 / 46875 hosts) and put 25 MPI ranks on each host (core=25,\n"
          "--ranks-per-host 25): 390625 / 1171875 ranks as in Table 1. The 25 ranks of one\n"
          "router share its torus links; between themselves they use the loopback.\n"
          "\n"
          "Placement: every host is its own router. linear: rank r on node-(r / K); round-robin:\n"
          "rank r on node-(r mod N). Both are node-r when K = 1.\n"
          "\n"
          "Limiter: SimGrid's torus puts a node's limiter on every route through that node, not\n"
          "only on the routes it sends or receives: hence no limiter by default.\n");
}

static void fattree_notes(FILE *out)
{
  fprintf(out,
          "Layout: <cluster id=\"fattree\" topology=\"FAT_TREE\" topo_parameters=\"L;DOWN;UP;LINKS\">\n"
          "(SimGrid's XGFT): N = product of DOWN hosts; level l has product(UP[0..l-1]) x\n"
          "product(DOWN[l..]) switches. Host node-i hangs off leaf switch group i / DOWN[0].\n"
          "\n"
          "Presets: Table 1's fattree-M (4 layers incl. nodes, 25 ports) and fattree-L (33) become\n"
          "3 switch levels with K = 25 (33) nodes per leaf switch and full bisection:\n"
          "DOWN = K,K,K^2, UP = 1,K,K, LINKS = 1,1,1. Nodes: 390625 (1185921) as in Table 1;\n"
          "switches: K^3 + K^3 + K^2 = 31875 (72963), Table 1 says 3 x K^3 = 46875 (107811).\n"
          "No XGFT with 3 switch levels has 25 down ports everywhere and 25^4 nodes.\n"
          "\n"
          "Placement: routers are leaf switch groups. linear: rank r on node-(r / K); round-robin:\n"
          "rank r on leaf switch r mod R, so consecutive ranks land on different leaf switches.\n"
          "\n"
          "Limiter: SimGrid gives every switch a limiter of the same bandwidth and names it like\n"
          "a host's (fattree_link_ID_limiter, switches from 2N-1 down), so a limiter caps switch\n"
          "throughput and is refused when switches outnumber hosts: none by default.\n");
}

static void dragonfly_notes(FILE *out)
{
  fprintf(out,
          "Layout: <cluster id=\"dragonfly\" topology=\"DRAGONFLY\"\n"
          "topo_parameters=\"GROUPS,BLUE;CHASSIS,BLACK;ROUTERS,GREEN;NODES\">. Host node-i is on\n"
          "router i / NODES; routers are numbered group, then chassis, then router.\n"
          "\n"
          "Presets: a Table 1 group mesh R x C becomes CHASSIS = R, ROUTERS = C (each dimension\n"
          "all-to-all, as Cray Cascade), BLUE = R x C (the seed has one global link per router\n"
          "and other group; SimGrid joins two groups through one router each, so they become\n"
          "one link of R x C links' bandwidth). SimGrid 3.32 needs GROUPS <= ROUTERS, so\n"
          "dragonfly-SL (125 groups) and dragonfly-ML (75 groups) use a 5 x 125 mesh instead of\n"
          "25 x 25: same 625 routers per group, nodes and groups. Table 1 prints 15625\n"
          "switches for SL and LS; their geometry makes 78125 routers, which is what is written.\n"
          "\n"
          "Placement: linear: rank r on node-(r / K); round-robin: rank r on router r mod R.\n"
          "\n"
          "Limiter: SimGrid also puts a limiter of the same bandwidth on every router a route\n"
          "crosses: none by default.\n"
          "\n"
          "Routing (--routing minimal|valiant|ugal): writes a description for hnm's platform\n"
          "library instead of XML (hnm-run -platform FILE loads it). BLUE then counts separate\n"
          "global links of --bw between two groups, spread over the routers (copy k of group g's\n"
          "links to group h on router (h' x BLUE + k) mod routers-per-group, h' = h's rank among\n"
          "the other groups; BLUE = routers per group gives Table 1's one link per router and\n"
          "group), and GROUPS may exceed ROUTERS. minimal: one global link, copy (source router)\n"
          "mod BLUE; valiant: via a uniform random third group; ugal: UGAL-L, minimal unless\n"
          "its flows in progress on the source router's first link x hops exceed Valiant's.\n");
}

static void bgq_notes(FILE *out)
{
  unsigned long d[5];
  const char *name;

  fprintf(out, "Named shapes (nodes: AxBxCxDxE):");
  for (int i = 0; (name = hnm_topo_bgq_named_shape(i, d)) != NULL; i++)
    fprintf(out, "%s %s: %lux%lux%lux%lux%lu", i == 0 ? "" : ",", name, d[0], d[1], d[2], d[3], d[4]);
  fprintf(out,
          ".\n"
          "\n"
          "Routing: BG/Q routes deterministically along the longest dimension first and the\n"
          "shortest last; SimGrid's torus routes topo_parameters' dimension 0 first. So the\n"
          "dimensions are written sorted by size, longest first (A before B ... among equal\n"
          "sizes): 4x4x4x8x2 gives topo_parameters=\"8,4,4,4,2\" (D,A,B,C,E). Half-way ties:\n"
          "positive, except from coordinate d/2 to 0 (negative), as SimGrid's torus does.\n"
          "\n"
          "Rank mapping: MPI rank r runs on the node with BG/Q coordinates (a,b,c,d,e) where\n"
          "r = ((((a*B+b)*C+c)*D+d)*E+e) (BG/Q's default ABCDE mapping, E fastest; with K ranks\n"
          "per host, ABCDET: r / K is that index). That node is SimGrid host node-i with\n"
          "i = x0 + S0*(x1 + S1*(x2 + S2*(x3 + S3*x4))), x0..x4 the coordinates in topo_parameters'\n"
          "order and S0..S3 their sizes; the XML's comment spells it out for the shape written.\n"
          "linear follows that mapping; round-robin gives rank r to node r mod N of the ABCDE\n"
          "order (TABCDE): the same when K = 1.\n"
          "\n"
          "Limiter: SimGrid's torus puts a node's limiter on every route through that node: none\n"
          "by default.\n");
}

/* ---- Command line -------------------------------------------------------- */

struct cli {
  const struct family *fam;
  const char *val[OPT_COUNT]; /* as given, NULL if absent */
};

static int bad(const char *fmt, ...)
{
  va_list ap;

  fprintf(stderr, "%s: ", PROG);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return -1;
}

static const char *opt_name(enum opt_id id)
{
  return opt_names[id].name;
}

/* The value of an option: given, or the family's default. */
static const char *value_of(const struct cli *c, enum opt_id id)
{
  const struct opt_doc *d;

  if (c->val[id] != NULL)
    return c->val[id];
  d = family_doc(c->fam, id);
  return d == NULL ? NULL : d->def;
}

/* Parse argv[first..] into c->val. Returns 0, 1 if help was printed, -1 on error. */
static int cli_parse(struct cli *c, int argc, char **argv, int first)
{
  for (int i = first; i < argc; i++)
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      family_usage(c->fam, stdout);
      return 1;
    }
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    const char *eq = strchr(a, '=');
    size_t n = eq != NULL && strncmp(a, "--", 2) == 0 ? (size_t)(eq - a) : strlen(a);
    const struct opt_doc *d = NULL;

    if (a[0] != '-')
      return bad("unexpected argument '%s' (see %s %s --help)", a, PROG, c->fam->name);
    if (strcmp(a, "--version") == 0) {
      printf("%s %s\n", PROG, HNM_VERSION);
      return 1;
    }
    for (const struct opt_doc *x = c->fam->docs; x->id != OPT_COUNT && d == NULL; x++) {
      const char *name = opt_names[x->id].name;
      if ((strlen(name) == n && strncmp(a, name, n) == 0) || (x->id == OPT_OUTPUT && n == 8 && strncmp(a, "--output", 8) == 0))
        d = x;
    }
    if (d == NULL)
      return bad("unknown option '%.*s' for %s (see %s %s --help)", (int)n, a, c->fam->name, PROG, c->fam->name);
    if (n < strlen(a)) {
      c->val[d->id] = a + n + 1;
    } else {
      if (i + 1 >= argc)
        return bad("%s needs a value (%s)", opt_name(d->id), opt_names[d->id].arg);
      c->val[d->id] = argv[++i];
    }
  }
  return 0;
}

/* ---- Values -------------------------------------------------------------- */

struct config {
  const struct family *fam;
  struct hnm_topo topo;
  const struct hnm_topo_preset *preset;
  enum hnm_placement placement;
  unsigned long ranks_per_host;
  double speed;             /* flop/s */
  double bw;                /* bytes/s written for node / topology links */
  double lat;               /* s */
  int splitduplex;          /* else SHARED */
  double limiter;           /* factor; 0 = none */
  int loopback;             /* write loopback_bw / loopback_lat */
  double loopback_bw, loopback_lat;
  double cab_bw, cab_lat, cab_limiter; /* cluster: bytes/s, s, bytes/s (0 = none) */
  int cab_fatpipe;
  const char *output;       /* NULL or "-": standard output */
  const char *hostfile;     /* NULL: none */
  char scaled[1024];        /* what --scale did, for stderr; empty if not scaled */
  enum hnm_routing routing; /* HNM_ROUTING_BUILTIN or a builtin one: XML; else a description */
  uint64_t routing_seed;
};

static int get_bandwidth(const struct cli *c, enum opt_id id, int allow_zero, double *out)
{
  char err[256];
  const char *s = value_of(c, id);

  if (allow_zero && strcmp(s, "0") == 0) {
    *out = 0;
    return 0;
  }
  if (hnm_parse_bandwidth(s, out, err, sizeof err) != 0)
    return bad("%s: %s", opt_name(id), err);
  if (!(*out > 0))
    return bad("%s: '%s' must be positive%s", opt_name(id), s, allow_zero ? " (or 0 for none)" : "");
  return 0;
}

static int get_time(const struct cli *c, enum opt_id id, double *out)
{
  char err[256];
  const char *s = value_of(c, id);

  if (hnm_parse_time(s, out, err, sizeof err) != 0)
    return bad("%s: %s", opt_name(id), err);
  if (*out < 0)
    return bad("%s: '%s' is negative", opt_name(id), s);
  return 0;
}

static int get_number(const struct cli *c, enum opt_id id, double *out)
{
  char err[256];

  if (hnm_parse_number(value_of(c, id), out, err, sizeof err) != 0)
    return bad("%s: %s", opt_name(id), err);
  return 0;
}

static int get_count(const struct cli *c, enum opt_id id, unsigned long *out)
{
  char err[256];

  if (hnm_topo_parse_count(value_of(c, id), out, err, sizeof err) != 0)
    return bad("%s: %s", opt_name(id), err);
  return 0;
}

static int get_list(const struct cli *c, enum opt_id id, char sep, const char *noun, unsigned long *out, int max,
                    int *n)
{
  char err[256];

  if (hnm_topo_parse_list(value_of(c, id), sep, noun, out, max, n, err, sizeof err) != 0)
    return bad("%s: %s", opt_name(id), err);
  return 0;
}

/* SPLITDUPLEX -> 1, SHARED -> 0; FATPIPE refused (see family_usage). */
static int get_sharing(const struct cli *c, enum opt_id id, int *splitduplex)
{
  const char *s = value_of(c, id);

  if (strcmp(s, "SPLITDUPLEX") == 0 || strcmp(s, "SHARED") == 0) {
    *splitduplex = s[1] == 'P';
    return 0;
  }
  if (strcmp(s, "FATPIPE") == 0)
    return bad("%s: FATPIPE: SimGrid 3.32 creates a <cluster>'s links SHARED whatever its sharing_policy "
               "(only SPLITDUPLEX is honoured); use SHARED, or hnm-run --model loggps for contention-free links",
               opt_name(id));
  return bad("%s: '%s' is not a sharing policy (SPLITDUPLEX, SHARED)", opt_name(id), s);
}

static int build_shape(const struct cli *c, struct config *cfg)
{
  struct hnm_topo *t = &cfg->topo;
  int n, nu, nl;

  t->family = c->fam->topo;
  switch (c->fam->topo) {
    case HNM_TOPO_CLUSTER:
      if (c->val[OPT_CABINETS] != NULL || c->val[OPT_NODES] != NULL) {
        unsigned long cabinets, nodes;
        if (c->val[OPT_CABINET_SIZES] != NULL)
          return bad("%s: cannot be combined with --cabinet-sizes",
                     opt_name(c->val[OPT_CABINETS] != NULL ? OPT_CABINETS : OPT_NODES));
        if (c->val[OPT_CABINETS] == NULL || c->val[OPT_NODES] == NULL)
          return bad("%s: needs %s too", opt_name(c->val[OPT_CABINETS] != NULL ? OPT_CABINETS : OPT_NODES),
                     opt_name(c->val[OPT_CABINETS] != NULL ? OPT_NODES : OPT_CABINETS));
        if (get_count(c, OPT_CABINETS, &cabinets) != 0 || get_count(c, OPT_NODES, &nodes) != 0)
          return -1;
        if (cabinets > HNM_TOPO_MAX_CABINETS)
          return bad("--cabinets: %lu cabinets, must be 1 to %d (the Full zone holds C x (C-1) routes)", cabinets,
                     HNM_TOPO_MAX_CABINETS);
        t->cabinets = (int)cabinets;
        for (int i = 0; i < t->cabinets; i++)
          t->cabinet_nodes[i] = nodes;
        return 0;
      }
      return get_list(c, OPT_CABINET_SIZES, ',', "cabinet", t->cabinet_nodes, HNM_TOPO_MAX_CABINETS,
                      &t->cabinets);
    case HNM_TOPO_TORUS:
      return get_list(c, OPT_DIMS, 'x', "dimension", t->dims, HNM_TOPO_MAX_DIMS, &t->ndims);
    case HNM_TOPO_BGQ: {
      char err[256];
      if (hnm_topo_bgq_parse_shape(value_of(c, OPT_SHAPE), t, err, sizeof err) != 0)
        return bad("--shape: %s", err);
      return 0;
    }
    case HNM_TOPO_FATTREE:
      if (get_list(c, OPT_DOWN, ',', "level", t->dims, HNM_TOPO_MAX_DIMS, &n) != 0 ||
          get_list(c, OPT_UP, ',', "level", t->up, HNM_TOPO_MAX_DIMS, &nu) != 0 ||
          get_list(c, OPT_LINKS, ',', "level", t->links, HNM_TOPO_MAX_DIMS, &nl) != 0)
        return -1;
      if (c->val[OPT_LEVELS] != NULL) {
        unsigned long levels;
        if (get_count(c, OPT_LEVELS, &levels) != 0)
          return -1;
        if (levels != (unsigned long)n)
          return bad("--levels: %lu, but --down '%s' has %d level%s", levels, value_of(c, OPT_DOWN), n,
                     n == 1 ? "" : "s");
      }
      if (nu != n)
        return bad("--up: '%s' has %d level%s, --down '%s' has %d", value_of(c, OPT_UP), nu, nu == 1 ? "" : "s",
                   value_of(c, OPT_DOWN), n);
      if (nl != n)
        return bad("--links: '%s' has %d level%s, --down '%s' has %d", value_of(c, OPT_LINKS), nl,
                   nl == 1 ? "" : "s", value_of(c, OPT_DOWN), n);
      t->ndims = n;
      return 0;
    case HNM_TOPO_DRAGONFLY:
      if (get_count(c, OPT_GROUPS, &t->groups) != 0 || get_count(c, OPT_CHASSIS, &t->chassis) != 0 ||
          get_count(c, OPT_ROUTERS, &t->routers) != 0 || get_count(c, OPT_NODES, &t->nodes) != 0 ||
          get_count(c, OPT_BLUE, &t->blue) != 0 || get_count(c, OPT_BLACK, &t->black) != 0 ||
          get_count(c, OPT_GREEN, &t->green) != 0)
        return -1;
      return 0;
  }
  return -1;
}

static int build_config(const struct cli *c, struct config *cfg)
{
  char err[512], before[256], after[256];
  unsigned long hosts;
  double scale = 1, usable = 1;

  memset(cfg, 0, sizeof *cfg);
  cfg->fam = c->fam;
  cfg->output = c->val[OPT_OUTPUT];
  cfg->hostfile = c->val[OPT_HOSTFILE];

  /* Shape: a preset, or the shape options (with their defaults). */
  if (c->val[OPT_PRESET] != NULL) {
    const struct hnm_topo_preset *p = hnm_topo_preset_find(c->val[OPT_PRESET]);
    if (p == NULL || p->family != c->fam->topo) {
      char names[256] = "";
      for (int i = 0; hnm_topo_preset_at(i) != NULL; i++)
        if (hnm_topo_preset_at(i)->family == c->fam->topo) {
          strncat(names, names[0] ? ", " : "", sizeof names - strlen(names) - 1);
          strncat(names, hnm_topo_preset_at(i)->name, sizeof names - strlen(names) - 1);
        }
      return bad("--preset: unknown %s preset '%s' (%s)", c->fam->name, c->val[OPT_PRESET], names);
    }
    for (const struct opt_doc *d = c->fam->docs; d->id != OPT_COUNT; d++)
      if (d->shape && c->val[d->id] != NULL)
        return bad("%s: cannot be combined with --preset (the preset sets the shape)", opt_name(d->id));
    cfg->preset = p;
    hnm_topo_preset_apply(p, &cfg->topo);
  } else if (build_shape(c, cfg) != 0) {
    return -1;
  }

  /* --routing first: a routed dragonfly is not bound by SimGrid's rules. */
  if (c->val[OPT_ROUTING] != NULL) {
    if (hnm_routing_parse(c->fam->topo, c->val[OPT_ROUTING], &cfg->routing, err, sizeof err) != 0)
      return bad("%s", err);
    cfg->topo.own_routing = !hnm_routing_is_builtin(cfg->routing);
  }
  if (c->val[OPT_ROUTING_SEED] != NULL) {
    char *end;
    const char *v = c->val[OPT_ROUTING_SEED];
    errno = 0;
    cfg->routing_seed = (uint64_t)strtoull(v, &end, 10);
    if (!isdigit((unsigned char)v[0]) || *end != '\0' || errno != 0)
      return bad("--routing-seed: '%s' is not an integer in [0, 2^64)", v);
    if (cfg->routing != HNM_ROUTING_VALIANT && cfg->routing != HNM_ROUTING_UGAL)
      return bad("--routing-seed: routing '%s' makes no random choice (valiant and ugal do)",
                 c->val[OPT_ROUTING] != NULL ? c->val[OPT_ROUTING] : "none");
  } else {
    cfg->routing_seed = 1;
  }

  /* --scale, then the checks of the final shape. */
  if (family_doc(c->fam, OPT_SCALE) != NULL) {
    if (get_number(c, OPT_SCALE, &scale) != 0)
      return -1;
    if (!(scale > 0 && scale <= 1))
      return bad("--scale: '%s' is not in (0, 1]", value_of(c, OPT_SCALE));
  }
  if (hnm_topo_check(&cfg->topo, err, sizeof err) != 0)
    return bad("%s", err);
  if (c->val[OPT_SCALE] != NULL) {
    unsigned long was = hnm_topo_hosts(&cfg->topo);
    hnm_topo_describe(&cfg->topo, before, sizeof before);
    if (hnm_topo_scale(&cfg->topo, scale, err, sizeof err) != 0 || hnm_topo_check(&cfg->topo, err, sizeof err) != 0)
      return bad("%s", err);
    hnm_topo_describe(&cfg->topo, after, sizeof after);
    snprintf(cfg->scaled, sizeof cfg->scaled, "--scale %s: %s, %lu hosts (%.3g of %s, %lu hosts)",
             value_of(c, OPT_SCALE), after, hnm_topo_hosts(&cfg->topo),
             (double)hnm_topo_hosts(&cfg->topo) / (double)was, before, was);
  }
  hosts = hnm_topo_hosts(&cfg->topo);

  /* Ranks and placement. */
  cfg->ranks_per_host = cfg->preset != NULL ? cfg->preset->ranks_per_host : 1;
  if (c->val[OPT_RANKS] != NULL && get_count(c, OPT_RANKS, &cfg->ranks_per_host) != 0)
    return -1;
  if (cfg->ranks_per_host > HNM_TOPO_MAX_NODES / hosts)
    return bad("--ranks-per-host: %lu ranks on each of %lu hosts is more than 100000000 ranks", cfg->ranks_per_host,
               hosts);
  if (hnm_topo_parse_placement(value_of(c, OPT_PLACEMENT), &cfg->placement, err, sizeof err) != 0)
    return bad("--placement: %s", err);

  /* Links and hosts. */
  if (get_bandwidth(c, OPT_BW, 0, &cfg->bw) != 0 || get_time(c, OPT_LAT, &cfg->lat) != 0 ||
      get_sharing(c, OPT_SHARING, &cfg->splitduplex) != 0 || get_number(c, OPT_LIMITER, &cfg->limiter) != 0)
    return -1;
  if (cfg->limiter < 0)
    return bad("--limiter: '%s' is negative (0 = no limiter)", value_of(c, OPT_LIMITER));
  if (!hnm_routing_is_builtin(cfg->routing) && cfg->limiter > 0)
    return bad("--limiter: routed platforms (--routing %s) have no limiter links", hnm_routing_name(cfg->routing));
  if (cfg->routing == HNM_ROUTING_UGAL && !cfg->splitduplex)
    return bad("--sharing: ugal counts the flows of each direction of a link: use SPLITDUPLEX");
  if (family_doc(c->fam, OPT_USABLE) != NULL) {
    if (get_number(c, OPT_USABLE, &usable) != 0)
      return -1;
    if (!(usable > 0 && usable <= 1))
      return bad("--usable: '%s' is not in (0, 1]", value_of(c, OPT_USABLE));
    cfg->bw *= usable;
  }
  if (cfg->limiter > 0 && cfg->topo.family == HNM_TOPO_FATTREE && hnm_topo_switches(&cfg->topo) > hosts)
    return bad("--limiter: %lu switches for %lu hosts: SimGrid names switch limiters like host limiters "
               "(ids from 2N-1 down), so they would collide; use --limiter 0",
               hnm_topo_switches(&cfg->topo), hosts);
  if (strcmp(value_of(c, OPT_LOOPBACK_BW), "none") == 0) {
    if (c->val[OPT_LOOPBACK_LAT] != NULL)
      return bad("--loopback-lat: no loopback (--loopback-bw none)");
  } else {
    cfg->loopback = 1;
    if (get_bandwidth(c, OPT_LOOPBACK_BW, 0, &cfg->loopback_bw) != 0 ||
        get_time(c, OPT_LOOPBACK_LAT, &cfg->loopback_lat) != 0)
      return -1;
  }
  if (hnm_quantity_parse_speed(value_of(c, OPT_SPEED), &cfg->speed, err, sizeof err) != 0)
    return bad("--speed: %s", err);
  if (!(cfg->speed > 0))
    return bad("--speed: '%s' must be positive", value_of(c, OPT_SPEED));
  if (c->fam->topo == HNM_TOPO_CLUSTER) {
    if (get_bandwidth(c, OPT_CABINET_BW, 0, &cfg->cab_bw) != 0 || get_time(c, OPT_CABINET_LAT, &cfg->cab_lat) != 0 ||
        get_bandwidth(c, OPT_CABINET_LIMITER, 1, &cfg->cab_limiter) != 0)
      return -1;
    if (strcmp(value_of(c, OPT_CABINET_SHARING), "FATPIPE") == 0)
      cfg->cab_fatpipe = 1;
    else if (strcmp(value_of(c, OPT_CABINET_SHARING), "SHARED") != 0)
      return bad("--cabinet-sharing: '%s' is not SHARED or FATPIPE", value_of(c, OPT_CABINET_SHARING));
  }

  /* Output files. */
  if (cfg->output != NULL && cfg->output[0] == '\0')
    return bad("-o: empty file name");
  if (cfg->hostfile != NULL && (cfg->hostfile[0] == '\0' || strcmp(cfg->hostfile, "-") == 0))
    return bad("--hostfile: '%s' is not a file name", cfg->hostfile);
  if (cfg->output != NULL && cfg->hostfile != NULL && strcmp(cfg->output, cfg->hostfile) == 0)
    return bad("--hostfile: '%s' is also the -o file", cfg->hostfile);
  return 0;
}

/* ---- Output files -------------------------------------------------------- */

/* A file written under a temporary name in its own directory and renamed
 * into place by outfile_commit(); path NULL or "-" is standard output. */
struct outfile {
  const char *path;
  char *tmp;
  FILE *fp;
};

static int outfile_open(struct outfile *o, const char *path, const char *option)
{
  mode_t mask;
  int fd;

  o->path = path;
  o->tmp = NULL;
  o->fp = NULL;
  if (path == NULL || strcmp(path, "-") == 0) {
    o->fp = stdout;
    return 0;
  }
  o->tmp = malloc(strlen(path) + 8);
  if (o->tmp == NULL)
    return bad("%s: out of memory", option);
  sprintf(o->tmp, "%s.XXXXXX", path);
  fd = mkstemp(o->tmp);
  if (fd < 0) {
    bad("%s: cannot create a file next to '%s': %s", option, path, strerror(errno));
    free(o->tmp);
    o->tmp = NULL;
    return -1;
  }
  /* mkstemp() creates 0600; give the file the mode a plain fopen() would. */
  mask = umask(0);
  umask(mask);
  if (fchmod(fd, 0666 & ~mask) != 0 || (o->fp = fdopen(fd, "w")) == NULL) {
    bad("%s: '%s': %s", option, o->tmp, strerror(errno));
    close(fd);
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return -1;
  }
  return 0;
}

/* Close (or flush) and rename into place. Returns 0 or -1 (message printed;
 * the temporary is removed). */
static int outfile_commit(struct outfile *o, const char *what)
{
  int failed;

  if (o->tmp == NULL) {
    failed = fflush(o->fp) != 0 || ferror(o->fp);
    o->fp = NULL;
    return failed ? bad("writing the %s to standard output failed", what) : 0;
  }
  failed = ferror(o->fp) != 0;
  failed = fclose(o->fp) != 0 || failed;
  o->fp = NULL;
  if (failed || rename(o->tmp, o->path) != 0) {
    bad("writing the %s to '%s' failed: %s", what, o->path, strerror(errno));
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return -1;
  }
  free(o->tmp);
  o->tmp = NULL;
  return 0;
}

static void outfile_abort(struct outfile *o)
{
  if (o->fp != NULL && o->fp != stdout)
    fclose(o->fp);
  o->fp = NULL;
  if (o->tmp != NULL) {
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
  }
}

/* ---- XML ----------------------------------------------------------------- */

static int xml_attr(xmlTextWriterPtr w, const char *name, const char *value)
{
  return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST value) < 0 ? -1 : 0;
}

static int xml_attr_ulong(xmlTextWriterPtr w, const char *name, unsigned long value)
{
  char buf[32];

  snprintf(buf, sizeof buf, "%lu", value);
  return xml_attr(w, name, buf);
}

static int xml_attr_bw(xmlTextWriterPtr w, const char *name, double bytes_per_second)
{
  char buf[64];

  if (hnm_quantity_format_bandwidth(bytes_per_second, buf, sizeof buf) != 0)
    return -1;
  return xml_attr(w, name, buf);
}

static int xml_attr_time(xmlTextWriterPtr w, const char *name, double seconds)
{
  char buf[64];

  if (hnm_quantity_format_time(seconds, buf, sizeof buf) != 0)
    return -1;
  return xml_attr(w, name, buf);
}

static int xml_attr_radical(xmlTextWriterPtr w, unsigned long first, unsigned long count)
{
  char buf[64];

  snprintf(buf, sizeof buf, "%lu-%lu", first, first + count - 1);
  return xml_attr(w, "radical", buf);
}

/* The attributes every <cluster> shares, after id, prefix, suffix, radical. */
static int xml_cluster_common(xmlTextWriterPtr w, const struct config *cfg)
{
  char speed[64];

  if (hnm_quantity_format_speed(cfg->speed, speed, sizeof speed) != 0 || xml_attr(w, "speed", speed) != 0)
    return -1;
  if (cfg->ranks_per_host > 1 && xml_attr_ulong(w, "core", cfg->ranks_per_host) != 0)
    return -1;
  if (xml_attr_bw(w, "bw", cfg->bw) != 0 || xml_attr_time(w, "lat", cfg->lat) != 0 ||
      xml_attr(w, "sharing_policy", cfg->splitduplex ? "SPLITDUPLEX" : "SHARED") != 0)
    return -1;
  return 0;
}

static int xml_limiter_and_loopback(xmlTextWriterPtr w, const struct config *cfg)
{
  if (cfg->limiter > 0 && xml_attr_bw(w, "limiter_link", cfg->limiter * cfg->bw) != 0)
    return -1;
  if (cfg->loopback &&
      (xml_attr_bw(w, "loopback_bw", cfg->loopback_bw) != 0 || xml_attr_time(w, "loopback_lat", cfg->loopback_lat) != 0))
    return -1;
  return 0;
}

static const char *topology_name(enum hnm_topo_family f)
{
  switch (f) {
    case HNM_TOPO_TORUS:
    case HNM_TOPO_BGQ:
      return "TORUS";
    case HNM_TOPO_FATTREE:
      return "FAT_TREE";
    case HNM_TOPO_DRAGONFLY:
      return "DRAGONFLY";
    default:
      return "FLAT";
  }
}

/* Append to buf (len bytes, *used of them taken); truncates silently. */
static void appendf(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
  va_list ap;
  int w;

  if (*used >= len)
    return;
  va_start(ap, fmt);
  w = vsnprintf(buf + *used, len - *used, fmt, ap);
  va_end(ap);
  if (w > 0)
    *used = *used + (size_t)w < len ? *used + (size_t)w : len;
}

/* The comment at the top of the file: what was generated, and how hosts are
 * numbered. Never contains "--" (not allowed in an XML comment). */
static void describe_platform(const struct config *cfg, char *buf, size_t len)
{
  const struct hnm_topo *t = &cfg->topo;
  char shape[256], params[512];
  size_t used = 0;
  unsigned long hosts = hnm_topo_hosts(t);

  hnm_topo_describe(t, shape, sizeof shape);
  hnm_topo_parameters(t, params, sizeof params);
  appendf(buf, len, &used, " hnm-platform %s%s%s: %s; %lu hosts node-0 .. node-%lu, %lu MPI rank%s each",
          cfg->fam->name, cfg->preset ? " preset " : "", cfg->preset ? cfg->preset->name : "", shape, hosts,
          hosts - 1, cfg->ranks_per_host, cfg->ranks_per_host == 1 ? "" : "s");
  switch (t->family) {
    case HNM_TOPO_CLUSTER:
      appendf(buf, len, &used,
              ".\n     Cabinet N is <cluster id=\"cabN\"> (router cabN-router, contiguous hosts); each node has"
              " up/down links\n     and a limiter cabN_link_I_limiter. A route between cabinets A and B crosses"
              " cabA-up,\n     cabA-limiter, cabB-limiter, cabB-down.");
      break;
    case HNM_TOPO_TORUS:
      appendf(buf, len, &used,
              ".\n     SimGrid TORUS %s: host node-i has coordinate k = (i / (d0 x .. x d(k-1))) mod dk;"
              "\n     dimension 0 varies fastest and is routed first.",
              params);
      break;
    case HNM_TOPO_BGQ: {
      int order[5];
      char formula[256];
      size_t f = 0;

      /* i = x0 + S0*(x1 + S1*(x2 + S2*(x3 + S3*x4))) */
      hnm_topo_bgq_order(t, order);
      for (int k = 0; k < 4; k++)
        appendf(formula, sizeof formula, &f, k < 3 ? "%c + %lu*(" : "%c + %lu*", "abcde"[order[k]],
                t->dims[order[k]]);
      appendf(formula, sizeof formula, &f, "%c)))", "abcde"[order[4]]);
      appendf(buf, len, &used,
              ".\n     topo_parameters %s = %c,%c,%c,%c,%c: BG/Q routes the longest dimension first, SimGrid routes"
              "\n     dimension 0 first. MPI rank r (ABCDE mapping, E fastest) is the node (a,b,c,d,e) with"
              "\n     r = (((a*%lu + b)*%lu + c)*%lu + d)*%lu + e, and runs on host node-i with"
              "\n     i = %s.",
              params, "ABCDE"[order[0]], "ABCDE"[order[1]], "ABCDE"[order[2]], "ABCDE"[order[3]],
              "ABCDE"[order[4]], t->dims[1], t->dims[2], t->dims[3], t->dims[4], formula);
      break;
    }
    case HNM_TOPO_FATTREE:
      appendf(buf, len, &used,
              ".\n     SimGrid FAT_TREE %s: %lu switches; host node-i hangs off leaf switch group i / %lu.", params,
              hnm_topo_switches(t), t->dims[0]);
      break;
    case HNM_TOPO_DRAGONFLY:
      appendf(buf, len, &used,
              ".\n     SimGrid DRAGONFLY %s: %lu routers; host node-i is on router i / %lu"
              " (group, chassis, router order).",
              params, hnm_topo_switches(t), t->nodes);
      break;
  }
  if (cfg->preset != NULL && cfg->preset->note != NULL)
    appendf(buf, len, &used, "\n     Preset note (at full size): %s.", cfg->preset->note);
  appendf(buf, len, &used, " ");
  /* Keep the invariant above whatever the texts become. */
  for (char *p = strstr(buf, "--"); p != NULL; p = strstr(p, "--"))
    p[1] = ' ';
}

static int xml_topology_cluster(xmlTextWriterPtr w, const struct config *cfg)
{
  char params[512];

  if (hnm_topo_parameters(&cfg->topo, params, sizeof params) != 0)
    return -1;
  if (xmlTextWriterStartElement(w, BAD_CAST "cluster") < 0 || xml_attr(w, "id", cfg->fam->name) != 0 ||
      xml_attr(w, "prefix", "node-") != 0 || xml_attr(w, "suffix", "") != 0 ||
      xml_attr_radical(w, 0, hnm_topo_hosts(&cfg->topo)) != 0 || xml_cluster_common(w, cfg) != 0 ||
      xml_attr(w, "topology", topology_name(cfg->topo.family)) != 0 || xml_attr(w, "topo_parameters", params) != 0 ||
      xml_limiter_and_loopback(w, cfg) != 0 || xmlTextWriterEndElement(w) < 0)
    return -1;
  return 0;
}

static int xml_link(xmlTextWriterPtr w, int cabinet, const char *kind, double bw, double lat, int fatpipe)
{
  char id[64];

  snprintf(id, sizeof id, "cab%d-%s", cabinet, kind);
  if (xmlTextWriterStartElement(w, BAD_CAST "link") < 0 || xml_attr(w, "id", id) != 0 ||
      xml_attr_bw(w, "bandwidth", bw) != 0 || xml_attr_time(w, "latency", lat) != 0 ||
      (fatpipe && xml_attr(w, "sharing_policy", "FATPIPE") != 0) || xmlTextWriterEndElement(w) < 0)
    return -1;
  return 0;
}

static int xml_link_ctn(xmlTextWriterPtr w, int cabinet, const char *kind)
{
  char id[64];

  snprintf(id, sizeof id, "cab%d-%s", cabinet, kind);
  if (xmlTextWriterStartElement(w, BAD_CAST "link_ctn") < 0 || xml_attr(w, "id", id) != 0 ||
      xmlTextWriterEndElement(w) < 0)
    return -1;
  return 0;
}

/* The cluster family: platforms/default.xml generalised. Streams the
 * C x (C-1) zoneRoutes. */
static int xml_cabinets(xmlTextWriterPtr w, const struct config *cfg)
{
  const struct hnm_topo *t = &cfg->topo;
  unsigned long first = 0;
  char id[32], router[48];

  if (xmlTextWriterStartElement(w, BAD_CAST "zone") < 0 || xml_attr(w, "id", "world") != 0 ||
      xml_attr(w, "routing", "Full") != 0)
    return -1;
  for (int c = 1; c <= t->cabinets; c++) {
    snprintf(id, sizeof id, "cab%d", c);
    snprintf(router, sizeof router, "cab%d-router", c);
    if (xmlTextWriterStartElement(w, BAD_CAST "cluster") < 0 || xml_attr(w, "id", id) != 0 ||
        xml_attr(w, "prefix", "node-") != 0 || xml_attr(w, "suffix", "") != 0 ||
        xml_attr_radical(w, first, t->cabinet_nodes[c - 1]) != 0 || xml_cluster_common(w, cfg) != 0 ||
        xml_limiter_and_loopback(w, cfg) != 0 || xml_attr(w, "router_id", router) != 0 ||
        xmlTextWriterEndElement(w) < 0)
      return -1;
    first += t->cabinet_nodes[c - 1];
  }
  for (int c = 1; c <= t->cabinets; c++) {
    if (xml_link(w, c, "up", cfg->cab_bw, cfg->cab_lat, cfg->cab_fatpipe) != 0 ||
        xml_link(w, c, "down", cfg->cab_bw, cfg->cab_lat, cfg->cab_fatpipe) != 0 ||
        (cfg->cab_limiter > 0 && xml_link(w, c, "limiter", cfg->cab_limiter, 0, cfg->cab_fatpipe) != 0))
      return -1;
  }
  for (int a = 1; a <= t->cabinets; a++) {
    for (int b = 1; b <= t->cabinets; b++) {
      char src[32], dst[32], gw_src[48], gw_dst[48];
      if (a == b)
        continue;
      snprintf(src, sizeof src, "cab%d", a);
      snprintf(dst, sizeof dst, "cab%d", b);
      snprintf(gw_src, sizeof gw_src, "cab%d-router", a);
      snprintf(gw_dst, sizeof gw_dst, "cab%d-router", b);
      if (xmlTextWriterStartElement(w, BAD_CAST "zoneRoute") < 0 || xml_attr(w, "src", src) != 0 ||
          xml_attr(w, "dst", dst) != 0 || xml_attr(w, "gw_src", gw_src) != 0 || xml_attr(w, "gw_dst", gw_dst) != 0 ||
          xml_attr(w, "symmetrical", "NO") != 0 || xml_link_ctn(w, a, "up") != 0 ||
          (cfg->cab_limiter > 0 && (xml_link_ctn(w, a, "limiter") != 0 || xml_link_ctn(w, b, "limiter") != 0)) ||
          xml_link_ctn(w, b, "down") != 0 || xmlTextWriterEndElement(w) < 0)
        return -1;
    }
  }
  return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

static int write_xml(FILE *fp, const struct config *cfg)
{
  xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(fp, NULL);
  xmlTextWriterPtr w;
  char comment[4096];
  int rc = -1;

  if (buf == NULL)
    return -1;
  w = xmlNewTextWriter(buf); /* owns buf from here on */
  if (w == NULL) {
    xmlOutputBufferClose(buf);
    return -1;
  }
  describe_platform(cfg, comment, sizeof comment);
  if (xmlTextWriterSetIndent(w, 1) < 0 || xmlTextWriterSetIndentString(w, BAD_CAST "  ") < 0 ||
      xmlTextWriterStartDocument(w, NULL, NULL, NULL) < 0 ||
      xmlTextWriterWriteRaw(w, BAD_CAST "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n") < 0 ||
      xmlTextWriterWriteComment(w, BAD_CAST comment) < 0 || xmlTextWriterStartElement(w, BAD_CAST "platform") < 0 ||
      xml_attr(w, "version", "4.1") != 0)
    goto err;
  if (cfg->topo.family == HNM_TOPO_CLUSTER ? xml_cabinets(w, cfg) != 0 : xml_topology_cluster(w, cfg) != 0)
    goto err;
  if (xmlTextWriterEndElement(w) < 0 || xmlTextWriterEndDocument(w) < 0 || xmlTextWriterFlush(w) < 0)
    goto err;
  rc = 0;
err:
  xmlFreeTextWriter(w);
  return rc;
}

/* A routed platform: the description hnm's platform library reads
 * (platforms/hnm_routing.h); hnm-run recognises it by its first line. */
static int write_description(FILE *fp, const struct config *cfg)
{
  struct hnm_rnet_desc d;
  char shape[512], comment[1024];

  memset(&d, 0, sizeof d);
  d.topo = cfg->topo;
  d.routing = cfg->routing;
  d.seed = cfg->routing_seed;
  d.bw = cfg->bw;
  d.lat = cfg->lat;
  d.splitduplex = cfg->splitduplex;
  d.loopback = cfg->loopback;
  d.loopback_bw = cfg->loopback_bw;
  d.loopback_lat = cfg->loopback_lat;
  d.speed = cfg->speed;
  d.cores = cfg->ranks_per_host;
  hnm_topo_describe(&cfg->topo, shape, sizeof shape);
  snprintf(comment, sizeof comment,
           "%s %s --routing %s: %s; %lu hosts node-0 .. node-%lu.\n"
           "Not a SimGrid XML file: run it with hnm-run -platform FILE (which loads it through\n"
           "hnm's platform library, libhnmplatform.so); see docs/platforms.md, \"Routing\".",
           PROG, cfg->fam->name, hnm_routing_name(cfg->routing), shape, hnm_topo_hosts(&cfg->topo),
           hnm_topo_hosts(&cfg->topo) - 1);
  return hnm_rnet_desc_write(fp, &d, comment);
}

/* ---- Hostfile ------------------------------------------------------------ */

static int emit_host(unsigned long host, void *ctx)
{
  return fprintf((FILE *)ctx, "node-%lu\n", host) < 0 ? -1 : 0;
}

static int write_hostfile(FILE *fp, const struct config *cfg)
{
  return hnm_topo_place(&cfg->topo, cfg->placement, cfg->ranks_per_host, emit_host, fp);
}

/* ---- Main ---------------------------------------------------------------- */

static void quiet_xml_error(void *ctx, const char *fmt, ...)
{
  (void)ctx;
  (void)fmt;
}

static int generate(const struct config *cfg)
{
  struct outfile xml, hosts = {NULL, NULL, NULL};

  if (outfile_open(&xml, cfg->output, "-o") != 0)
    return 2;
  if (cfg->hostfile != NULL && outfile_open(&hosts, cfg->hostfile, "--hostfile") != 0) {
    outfile_abort(&xml);
    return 2;
  }
  if ((hnm_routing_is_builtin(cfg->routing) ? write_xml(xml.fp, cfg) : write_description(xml.fp, cfg)) != 0) {
    bad("writing the platform failed%s%s", errno ? ": " : "", errno ? strerror(errno) : "");
    goto err;
  }
  if (hosts.fp != NULL && write_hostfile(hosts.fp, cfg) != 0) {
    bad("writing the hostfile failed: %s", strerror(errno));
    goto err;
  }
  if (hosts.fp != NULL && outfile_commit(&hosts, "hostfile") != 0)
    goto err;
  if (outfile_commit(&xml, "platform") != 0) {
    if (cfg->hostfile != NULL)
      unlink(cfg->hostfile); /* keep the pair consistent: both or neither */
    goto err;
  }
  return 0;
err:
  outfile_abort(&hosts);
  outfile_abort(&xml);
  return 1;
}

int main(int argc, char **argv)
{
  struct cli cli;
  struct config cfg;
  int rc;

  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("%s %s\n", PROG, HNM_VERSION);
    return 0;
  }
  memset(&cli, 0, sizeof cli);
  for (const struct family *f = families; f->name != NULL && cli.fam == NULL; f++)
    if (strcmp(argv[1], f->name) == 0)
      cli.fam = f;
  if (cli.fam == NULL) {
    bad("unknown family '%s' (cluster, torus, fattree, dragonfly, bgq; see %s --help)", argv[1], PROG);
    return 2;
  }
  rc = cli_parse(&cli, argc, argv, 2);
  if (rc != 0)
    return rc > 0 ? 0 : 2;
  if (build_config(&cli, &cfg) != 0)
    return 2;
  /* Valid input: say what departs from the request, then write. */
  if (cfg.preset != NULL && !hnm_routing_is_builtin(cfg.routing) && cfg.topo.family == HNM_TOPO_DRAGONFLY)
    fprintf(stderr, "%s: note: %s with --routing: the group shape of the XML preset, with its %lu global links "
                    "between two groups kept separate, one per router\n", PROG, cfg.preset->name, cfg.topo.blue);
  else if (cfg.preset != NULL && cfg.preset->note != NULL)
    fprintf(stderr, "%s: note: %s\n", PROG, cfg.preset->note);
  if (cfg.scaled[0] != '\0')
    fprintf(stderr, "%s: %s\n", PROG, cfg.scaled);
  /* Write errors are reported once, by us, not by libxml2 as well. */
  xmlSetGenericErrorFunc(NULL, quiet_xml_error);
  xmlSetStructuredErrorFunc(NULL, NULL);
  rc = generate(&cfg);
  xmlCleanupParser();
  return rc;
}
