/* hnm-platform: option table, families, help texts and command-line parsing. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_quantity.h"
#include "hnm_topo.h"
#include "hnm_units.h"


#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hnm_platform_options.h"
#include "hnm_opt.h"
#include "hnm_msg.h"

/* Name and argument of every option, whatever the family. */
static const struct {
  const char *name;
  const char *arg;
} opt_names[PLAT_OPT_COUNT] = {
  [PLAT_OPT_PRESET] = {"--preset", "NAME"},
  [PLAT_OPT_SCALE] = {"--scale", "F"},
  [PLAT_OPT_DIMS] = {"--dims", "AxBx..."},
  [PLAT_OPT_SHAPE] = {"--shape", "SHAPE"},
  [PLAT_OPT_LEVELS] = {"--levels", "N"},
  [PLAT_OPT_DOWN] = {"--down", "LIST"},
  [PLAT_OPT_UP] = {"--up", "LIST"},
  [PLAT_OPT_LINKS] = {"--links", "LIST"},
  [PLAT_OPT_GROUPS] = {"--groups", "N"},
  [PLAT_OPT_CHASSIS] = {"--chassis", "N"},
  [PLAT_OPT_ROUTERS] = {"--routers", "N"},
  [PLAT_OPT_NODES] = {"--nodes", "N"},
  [PLAT_OPT_BLUE] = {"--blue-links", "N"},
  [PLAT_OPT_BLACK] = {"--black-links", "N"},
  [PLAT_OPT_GREEN] = {"--green-links", "N"},
  [PLAT_OPT_CABINET_SIZES] = {"--cabinet-sizes", "LIST"},
  [PLAT_OPT_CABINETS] = {"--cabinets", "N"},
  [PLAT_OPT_BW] = {"--bw", "BANDWIDTH"},
  [PLAT_OPT_USABLE] = {"--usable", "FRACTION"},
  [PLAT_OPT_LAT] = {"--lat", "TIME"},
  [PLAT_OPT_SHARING] = {"--sharing", "POLICY"},
  [PLAT_OPT_LIMITER] = {"--limiter", "FACTOR"},
  [PLAT_OPT_LOOPBACK_BW] = {"--loopback-bw", "BANDWIDTH"},
  [PLAT_OPT_LOOPBACK_LAT] = {"--loopback-lat", "TIME"},
  [PLAT_OPT_SPEED] = {"--speed", "SPEED"},
  [PLAT_OPT_CABINET_BW] = {"--cabinet-bw", "BANDWIDTH"},
  [PLAT_OPT_CABINET_LAT] = {"--cabinet-lat", "TIME"},
  [PLAT_OPT_CABINET_LIMITER] = {"--cabinet-limiter", "BANDWIDTH"},
  [PLAT_OPT_CABINET_SHARING] = {"--cabinet-sharing", "POLICY"},
  [PLAT_OPT_CABINET_ROUTES] = {"--cabinet-routes", "FORM"},
  [PLAT_OPT_OUTPUT] = {"-o", "FILE"},
  [PLAT_OPT_HOSTFILE] = {"--hostfile", "FILE"},
  [PLAT_OPT_PLACEMENT] = {"--placement", "HOW"},
  [PLAT_OPT_RANKS] = {"--ranks-per-host", "K"},
  [PLAT_OPT_ROUTING] = {"--routing", "NAME"},
  [PLAT_OPT_ROUTING_SEED] = {"--routing-seed", "N"},
  [PLAT_OPT_UGAL_THRESHOLD] = {"--ugal-threshold", "TIME"},
};

#define DOC_END {PLAT_OPT_COUNT, NULL, NULL, 0}

/* Link and output options shared by the topology families. */
#define DOC_LINKS(bw, lat, bw_help)                                                                           \
  {PLAT_OPT_BW, bw, bw_help, 0},                                                                                   \
  {PLAT_OPT_LAT, lat, "latency of every link", 0},                                                                 \
  {PLAT_OPT_SHARING, "SPLITDUPLEX", "SPLITDUPLEX (one link per direction) or SHARED (FATPIPE: see below)", 0},     \
  {PLAT_OPT_LIMITER, "0", "node limiter: limiter_link = FACTOR x --bw, 0 = none (see below)", 0},                  \
  {PLAT_OPT_LOOPBACK_BW, "6GBps", "loopback bandwidth (rank to rank on one host), none = no loopback", 0},         \
  {PLAT_OPT_LOOPBACK_LAT, "1us", "loopback latency", 0}

#define DOC_OUTPUT(speed, ranks_help)                                                                         \
  {PLAT_OPT_SPEED, speed, "host speed, flop/s (f, kf, Mf, Gf, Tf)", 0},                                            \
  {PLAT_OPT_RANKS, "1", ranks_help, 0},                                                                            \
  {PLAT_OPT_PLACEMENT, "linear", "rank placement in the hostfile: linear or round-robin (see below)", 0},          \
  {PLAT_OPT_OUTPUT, "standard output", "write the XML to FILE", 0},                                                \
  {PLAT_OPT_HOSTFILE, "none", "write the hostfile to FILE: one host per line, rank 0 first", 0}

#define RANKS_HELP "MPI ranks per host: hostfile lines per host, and core count of each host"

static const struct plat_opt_doc cluster_docs[] = {
  {PLAT_OPT_PRESET, "none", "graphene: 144 nodes in 4 cabinets of 39, 35, 30, 40 (Grid'5000), the defaults below", 0},
  {PLAT_OPT_CABINET_SIZES, "39,35,30,40", "nodes of cabinet 1, 2, ... (cabinets cab1, cab2, ...)", 1},
  {PLAT_OPT_CABINETS, "none", "number of cabinets of --nodes nodes each (instead of --cabinet-sizes)", 1},
  {PLAT_OPT_NODES, "none", "nodes per cabinet, with --cabinets", 1},
  {PLAT_OPT_BW, "1Gbps", "bandwidth of each node link (up and down)", 0},
  {PLAT_OPT_LAT, "10us", "latency of each node link", 0},
  {PLAT_OPT_SHARING, "SPLITDUPLEX", "node links: SPLITDUPLEX (up + down) or SHARED (FATPIPE: see below)", 0},
  {PLAT_OPT_LIMITER, "1.5", "node limiter cabN_link_I_limiter = FACTOR x --bw (Degomme et al. 2013: 1.5), 0 = none", 0},
  {PLAT_OPT_LOOPBACK_BW, "6GBps", "loopback bandwidth (rank to rank on one host), none = no loopback", 0},
  {PLAT_OPT_LOOPBACK_LAT, "1us", "loopback latency", 0},
  {PLAT_OPT_CABINET_BW, "10Gbps", "bandwidth of each cabinet's links cabN-up and cabN-down", 0},
  {PLAT_OPT_CABINET_LAT, "5us", "latency of cabN-up and cabN-down", 0},
  {PLAT_OPT_CABINET_LIMITER, "13Gbps", "cabinet limiter cabN-limiter (graphene: 13Gbps, measured), 0 = none", 0},
  {PLAT_OPT_CABINET_SHARING, "SHARED", "cabinet links: SHARED or FATPIPE", 0},
  {PLAT_OPT_CABINET_ROUTES, "core", "routes between cabinets: core (2 per cabinet, through a core) or pairs (one per pair)", 0},
  DOC_OUTPUT("1Gf", RANKS_HELP),
  DOC_END
};

static const struct plat_opt_doc torus_docs[] = {
  {PLAT_OPT_PRESET, "none", "torus-M (25x25x25) or torus-L (75x25x25), Zheng & Marguinaud 2018, Table 1 (see below)", 0},
  {PLAT_OPT_DIMS, "8x8x8", "sizes of the dimensions, 1 to 16 of them; the first is routed first", 1},
  {PLAT_OPT_SCALE, "1", "shrink every dimension by F^(1/dimensions), 0 < F <= 1 (at least 2 each)", 0},
  DOC_LINKS("10GBps", "100ns", "bandwidth of each torus link (per direction with SPLITDUPLEX)"),
  {PLAT_OPT_ROUTING, "dor", "dor (SimGrid's dimension order) or valiant (via a random host; hnm's platform library)", 0},
  {PLAT_OPT_ROUTING_SEED, "1", "seed of valiant's random choices (same seed, same routes; dor: accepted, unused)", 0},
  DOC_OUTPUT("1Gf", RANKS_HELP " (presets: 25)"),
  DOC_END
};

static const struct plat_opt_doc fattree_docs[] = {
  {PLAT_OPT_PRESET, "none", "fattree-M or fattree-L, Zheng & Marguinaud 2018, Table 1 (see below)", 0},
  {PLAT_OPT_LEVELS, "length of --down", "number of switch levels (checked against the lists)", 1},
  {PLAT_OPT_DOWN, "4,4", "down ports (children) of a switch, level 1 (leaf) first", 1},
  {PLAT_OPT_UP, "1,2", "up ports (parents) of a node of level 0 (host), 1, ...", 1},
  {PLAT_OPT_LINKS, "1,2", "parallel links between level l and level l+1, l = 0 first", 1},
  {PLAT_OPT_SCALE, "1", "shrink the down ports by F^(1/levels), 0 < F <= 1 (at least 2 each)", 0},
  DOC_LINKS("10GBps", "100ns", "bandwidth of each link (per direction with SPLITDUPLEX)"),
  {PLAT_OPT_ROUTING, "dmodk", "dmodk (SimGrid's D-mod-k) or random (a random up-port per level and message; hnm's "
                         "platform library)", 0},
  {PLAT_OPT_ROUTING_SEED, "1", "seed of random's choices (same seed, same routes; dmodk: accepted, unused)", 0},
  DOC_OUTPUT("1Gf", RANKS_HELP),
  DOC_END
};

static const struct plat_opt_doc dragonfly_docs[] = {
  {PLAT_OPT_PRESET, "none", "dragonfly-MM, dragonfly-SL, dragonfly-LS or dragonfly-ML, Zheng & Marguinaud 2018, Table 1", 0},
  {PLAT_OPT_GROUPS, "3", "groups (at most --routers without --routing: SimGrid 3.32 routes group g via router g)", 1},
  {PLAT_OPT_CHASSIS, "4", "chassis per group (black links: all-to-all between chassis)", 1},
  {PLAT_OPT_ROUTERS, "5", "routers per chassis (green links: all-to-all inside a chassis)", 1},
  {PLAT_OPT_NODES, "2", "nodes per router", 1},
  {PLAT_OPT_BLUE, "4", "links between two groups (one SimGrid link of N x --bw; N links with --routing)", 1},
  {PLAT_OPT_BLACK, "3", "links between two routers of different chassis (N x --bw)", 1},
  {PLAT_OPT_GREEN, "1", "links between two routers of a chassis (N x --bw)", 1},
  {PLAT_OPT_SCALE, "1", "shrink groups, chassis, routers, nodes by F^(1/4), 0 < F <= 1 (at least 2 each)", 0},
  DOC_LINKS("10GBps", "100ns", "bandwidth of one link (per direction with SPLITDUPLEX)"),
  {PLAT_OPT_ROUTING, "none", "minimal, valiant-group, valiant-router, ugal-l or ugal-g: hnm's platform library, global "
                        "links spread over the routers (see below); none: SimGrid's DRAGONFLY zone", 0},
  {PLAT_OPT_ROUTING_SEED, "1", "seed of the Valiant and UGAL random choices (same seed, same routes; minimal and none: "
                          "accepted, unused)", 0},
  {PLAT_OPT_UGAL_THRESHOLD, "10us", "UGAL's T: minimal iff q_min + h_min lat <= q_val + h_val lat + T (q: seconds of "
                               "backlog)", 0},
  DOC_OUTPUT("1Gf", RANKS_HELP),
  DOC_END
};

static const struct plat_opt_doc bgq_docs[] = {
  {PLAT_OPT_SHAPE, "512", "512, 1024, 2048, 4096, 8192 (named shapes, see below) or AxBxCxDxE with E = 2", 1},
  {PLAT_OPT_SCALE, "1", "shrink A, B, C, D by F^(1/4), 0 < F <= 1 (at least 2 each; E stays 2)", 0},
  {PLAT_OPT_BW, "2GBps", "raw bandwidth of a BG/Q link, per direction", 0},
  {PLAT_OPT_USABLE, "0.9", "usable fraction of --bw: the platform gets --bw x FRACTION (1.8GBps)", 0},
  {PLAT_OPT_LAT, "40ns", "latency of each link (one hop; an assumption, calibrate it)", 0},
  {PLAT_OPT_SHARING, "SPLITDUPLEX", "SPLITDUPLEX (one link per direction) or SHARED (FATPIPE: see below)", 0},
  {PLAT_OPT_LIMITER, "0", "node limiter: limiter_link = FACTOR x usable bandwidth, 0 = none (see below)", 0},
  {PLAT_OPT_LOOPBACK_BW, "6GBps", "loopback bandwidth (rank to rank on one host), none = no loopback", 0},
  {PLAT_OPT_LOOPBACK_LAT, "1us", "loopback latency", 0},
  DOC_OUTPUT("204.8Gf", RANKS_HELP " (ABCDET: T fastest)"),
  DOC_END
};

static void cluster_notes(FILE *out);
static void torus_notes(FILE *out);
static void fattree_notes(FILE *out);
static void dragonfly_notes(FILE *out);
static void bgq_notes(FILE *out);

const struct plat_family plat_families[] = {
  {"cluster", HNM_TOPO_CLUSTER, "hierarchical Ethernet cluster: cabinets of nodes behind a switch (Degomme et al. 2013)",
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

const struct plat_opt_doc *plat_family_doc(const struct plat_family *f, enum plat_opt_id id)
{
  for (const struct plat_opt_doc *d = f->docs; d->id != PLAT_OPT_COUNT; d++)
    if (d->id == id)
      return d;
  return NULL;
}

/* ---- Help ---------------------------------------------------------------- */

/* After the list of families in hnm-platform --help. */
static void tool_notes(FILE *out)
{
  fprintf(out,
          "\n"
          "Presets (--preset): graphene (cluster); Table 1 of Zheng & Marguinaud 2018: torus-M, torus-L (torus),\n"
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
          "Exit status: 0; 2 on bad input (one line on stderr naming the option); 1 if\n"
          "writing fails (one line naming the file; nothing left). See docs/platforms.md.\n",
          PROG, PROG, PROG, PROG);
}

int plat_family_command(int argc, char **argv, char *err, size_t errlen)
{
  struct hnm_opt_command cmds[sizeof plat_families / sizeof plat_families[0]];
  size_t n = 0;
  for (; plat_families[n].name != NULL; n++)
    cmds[n] = (struct hnm_opt_command){plat_families[n].name, NULL, plat_families[n].summary};
  cmds[n] = (struct hnm_opt_command){NULL, NULL, NULL};
  const struct hnm_opt_tool tool = {PROG, "FAMILY", "Families",
                                    "Write a SimGrid 4.1 platform (XML) and its MPI hostfile.",
                                    NULL, tool_notes};
  return hnm_opt_command(&tool, cmds, argc, argv, err, errlen);
}

/* The family whose --help is being printed (hnm_opt's notes take no context). */
static const struct plat_family *usage__family;

/* After the option list of FAMILY --help: units, the family's notes. */
static void family_notes(FILE *out)
{
  fprintf(out,
          "\n"
          "Units: BANDWIDTH as in SimGrid (10Gbps = bits/s, 1.25GBps = bytes/s, 1GiBps; a unit is\n"
          "required), TIME (10us, 1.5ms, 100ns, 0s), SPEED (1Gf = 1e9 flop/s), LIST = N,N,...\n"
          "Ranges (docs/platforms.md): a BANDWIDTH above 0 and at most 1e15Bps (so is a limiter\n"
          "link), a TIME at most 1s, a SPEED above 0 and at most 1e18f, --limiter 0 or 1e-6 .. 1e6.\n"
          "Options accept --name VALUE or --name=VALUE; a later option overrides an earlier one.\n"
          "\n");
  usage__family->notes(out);
  fprintf(out,
          "\n"
          "Sharing: SimGrid 3.32 creates the links of a <cluster> SHARED whatever its\n"
          "sharing_policy says unless it is SPLITDUPLEX, so FATPIPE is refused rather than\n"
          "silently ignored; hnm-run --model loggps makes every link a FATPIPE at run time.\n");
}

static void cluster_notes(FILE *out)
{
  fprintf(out,
          "Layout (as platforms/default.xml): <zone id=\"world\"> holding one <cluster id=\"cabN\">\n"
          "per cabinet (N from 1) with router cabN-router, contiguous hosts node-<global index>,\n"
          "per-node up/down links plus a limiter cabN_link_I_limiter (which hnm's models resize),\n"
          "and links cabN-up, cabN-down, cabN-limiter per cabinet. The route from cabinet A to\n"
          "cabinet B is cabA-up, cabA-limiter, cabB-limiter, cabB-down. --cabinet-routes core\n"
          "(default): world is a DijkstraCache zone with a zone \"core\" (router core-router) and\n"
          "two zoneRoutes per cabinet, up to and down from the core: linear size; SimGrid knows\n"
          "its routes once the platform is sealed (the simulation's start). pairs: world is a\n"
          "Full zone with one zoneRoute (symmetrical=\"NO\") per ordered pair of cabinets:\n"
          "C x (C-1) routes, known as soon as the file is loaded. Both give the same routes.\n"
          "\n"
          "Placement: linear puts rank r on node-r (cabinet by cabinet); round-robin deals the\n"
          "ranks over the cabinets in turn (rank r in cabinet r mod C while all have room),\n"
          "skipping full cabinets; inside a cabinet, nodes are filled in order.\n");
}

static void torus_notes(FILE *out)
{
  fprintf(out,
          "Layout: <cluster id=\"torus\" topology=\"TORUS\" topo_parameters=\"A,B,...\"> alone in\n"
          "<zone id=\"torus-root\"> (SimGrid 4.0 and 4.1 cannot load such a cluster straight under\n"
          "<platform>); host node-i has coordinate k = (i / (d0 x ... x d(k-1))) mod dk: dimension 0 varies\n"
          "fastest and SimGrid routes it first, then dimension 1, ... Each ring is travelled the\n"
          "short way; at exactly half a ring SimGrid goes the positive way, except from\n"
          "coordinate d/2 to 0, which goes the negative way (TorusZone::get_local_route).\n"
          "\n"
          "Presets: SimGrid's TORUS has exactly one host per router, so the 25 nodes of Zheng & Marguinaud 2018\n"
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
          "alone in <zone id=\"fattree-root\">\n"
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
          "topo_parameters=\"GROUPS,BLUE;CHASSIS,BLACK;ROUTERS,GREEN;NODES\"> alone in\n"
          "<zone id=\"dragonfly-root\">. Host node-i is on\n"
          "router i / NODES; routers are numbered group, then chassis, then router.\n"
          "\n"
          "Presets: a Table 1 group mesh R x C becomes CHASSIS = R, ROUTERS = C (each dimension\n"
          "all-to-all, as Cray Cascade), BLUE = R x C (the paper has one global link per router\n"
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
          "Routing (--routing NAME): writes a description for hnm's platform\n"
          "library instead of XML (hnm-run -platform FILE loads it). BLUE then counts separate\n"
          "global links of --bw between two groups, spread over the routers (copy k of group g's\n"
          "links to group h on router (h' x BLUE + k) mod routers-per-group, h' = h's rank among\n"
          "the other groups; BLUE = routers per group gives Table 1's one link per router and\n"
          "group), and GROUPS may exceed ROUTERS. minimal: one global link, copy (source router)\n"
          "mod BLUE; valiant-group (or valiant): via a uniform random third group, landing\n"
          "where the link from the source's copy lands; valiant-router: via a uniform random\n"
          "router of a third group (Zheng & Marguinaud 2018); ugal-l (or ugal), ugal-g: per\n"
          "message, minimal unless a Valiant (group) candidate has a smaller estimated delay:\n"
          "the largest backlog (seconds of bytes not yet sent) on the links seen, plus one\n"
          "latency per hop, plus --ugal-threshold for Valiant. ugal-l sees its host's link and\n"
          "the source group's links up to the first global link, ugal-g the whole path.\n"
          "--routing-seed is accepted and ignored (with a note) by minimal and none.\n");
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

const char *plat_opt_name(enum plat_opt_id id)
{
  return opt_names[id].name;
}

/* The value of an option: given, or the family's default. */
const char *plat_value_of(const struct plat_cli *c, enum plat_opt_id id)
{
  const struct plat_opt_doc *d;

  if (c->val[id] != NULL)
    return c->val[id];
  d = plat_family_doc(c->fam, id);
  return d == NULL ? NULL : d->def;
}

/* Parse argv[first..] into c->val. Returns 0, 1 if help was printed, -1 on
 * error with err filled (the caller prints it). */
int plat_cli_parse(struct plat_cli *c, int argc, char **argv, int first, char *err, size_t errlen)
{
  /* The family's options as an hnm_opt table: each stores its text in
   * c->val[id] (NULL when absent: plat_value_of() then takes the family's
   * default, shown in brackets in --help), parsed with units later. */
  struct hnm_opt opts[PLAT_OPT_COUNT + 1];
  char help[PLAT_OPT_COUNT][512], prog[64];
  size_t n = 0;
  for (const struct plat_opt_doc *d = c->fam->docs; d->id != PLAT_OPT_COUNT && n < PLAT_OPT_COUNT; d++, n++) {
    snprintf(help[n], sizeof help[n], "%s [%s]", d->help, d->def);
    opts[n] = (struct hnm_opt){d->id == PLAT_OPT_OUTPUT ? "output" : opt_names[d->id].name + 2,
                               d->id == PLAT_OPT_OUTPUT ? 'o' : 0,
                               HNM_OPT_STRING,
                               opt_names[d->id].arg,
                               NULL,
                               NULL,
                               help[n],
                               (void *)&c->val[d->id],
                               0,
                               0,
                               NULL};
  }
  opts[n] = (struct hnm_opt){NULL, 0, HNM_OPT_FLAG, NULL, NULL, NULL, NULL, NULL, 0, 0, NULL};
  snprintf(prog, sizeof prog, "%s %s", PROG, c->fam->name);
  char summary[256];
  snprintf(summary, sizeof summary, "%s.", c->fam->summary);
  const struct hnm_opt_cmd cmd = {prog, "[OPTIONS]", summary, NULL, family_notes, 0, NULL};
  usage__family = c->fam;
  int i = hnm_opt_parse(&cmd, opts, argc - (first - 1), argv + (first - 1), err, errlen);
  if (i < 0)
    return i == HNM_OPT_DONE ? 1 : -1;
  i += first - 1;
  if (i < argc)
    return hnm_fail(err, errlen, "unexpected argument '%s' (see %s %s --help)", argv[i], PROG, c->fam->name);
  return 0;
}
