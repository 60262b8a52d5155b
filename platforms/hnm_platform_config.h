/* hnm-platform: option values checked and turned into a configuration. */
#ifndef HNM_PLATFORM_CONFIG_H
#define HNM_PLATFORM_CONFIG_H

#include "hnm_platform_options.h"
#include "hnm_routing.h"

#include <stdint.h>

struct plat_config {
  const struct plat_family *fam;
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
  int cab_pairs;             /* cluster: one zoneRoute per pair of cabinets, else through a core */
  const char *output;       /* NULL or "-": standard output */
  const char *hostfile;     /* NULL: none */
  char scaled[1024];        /* what --scale did, for stderr; empty if not scaled */
  enum hnm_routing routing; /* HNM_ROUTING_BUILTIN or a builtin one: XML; else a description */
  uint64_t routing_seed;
  int seed_unused;          /* --routing-seed given to a routing without random choices (a note, not an error) */
  double ugal_threshold;    /* seconds */
};

int plat_build_config(const struct plat_cli *c, struct plat_config *cfg, char *err, size_t errlen);

#endif
