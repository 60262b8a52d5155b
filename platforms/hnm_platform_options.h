/* hnm-platform: the option table (name, argument, per-family default and
 * help), the families, --help, and the command line into raw values. */
#ifndef HNM_PLATFORM_OPTIONS_H
#define HNM_PLATFORM_OPTIONS_H

#include "hnm_topo.h"

#include <stdio.h>

#include "hnm_opt.h"
#include "hnm_version.h"

#define PROG "hnm-platform"

enum plat_opt_id {
  OPT_PRESET, OPT_SCALE,
  OPT_DIMS, OPT_SHAPE,
  OPT_LEVELS, OPT_DOWN, OPT_UP, OPT_LINKS,
  OPT_GROUPS, OPT_CHASSIS, OPT_ROUTERS, OPT_NODES, OPT_BLUE, OPT_BLACK, OPT_GREEN,
  OPT_CABINET_SIZES, OPT_CABINETS,
  OPT_BW, OPT_USABLE, OPT_LAT, OPT_SHARING, OPT_LIMITER, OPT_LOOPBACK_BW, OPT_LOOPBACK_LAT, OPT_SPEED,
  OPT_CABINET_BW, OPT_CABINET_LAT, OPT_CABINET_LIMITER, OPT_CABINET_SHARING, OPT_CABINET_ROUTES,
  OPT_OUTPUT, OPT_HOSTFILE, OPT_PLACEMENT, OPT_RANKS,
  OPT_ROUTING, OPT_ROUTING_SEED, OPT_UGAL_THRESHOLD,
  OPT_COUNT
};

/* An option as one family documents it. def is the default, parsed like a
 * user's value (or shown only, for the few options that are never parsed
 * from a default: --preset, -o, --hostfile, --levels). shape marks the
 * options a --preset sets. */
struct plat_opt_doc {
  enum plat_opt_id id;
  const char *def;
  const char *help;
  int shape;
};

struct plat_family {
  const char *name;
  enum hnm_topo_family topo;
  const char *summary;
  const struct plat_opt_doc *docs;
  void (*notes)(FILE *out);
};

struct plat_cli {
  const struct plat_family *fam;
  const char *val[OPT_COUNT]; /* as given, NULL if absent */
};

extern const struct plat_family plat_families[];

const struct plat_opt_doc *plat_family_doc(const struct plat_family *f, enum plat_opt_id id);
/* The family named by argv[1] (its index in families), or a negative
 * hnm_opt_parse() result after hnm-platform --help, --version or an error
 * (hnm_opt_command(): the tool's help comes from the families' table). */
int plat_family_command(int argc, char **argv);
const char *plat_opt_name(enum plat_opt_id id);
const char *plat_value_of(const struct plat_cli *c, enum plat_opt_id id);
int plat_cli_parse(struct plat_cli *c, int argc, char **argv, int first);

#endif
