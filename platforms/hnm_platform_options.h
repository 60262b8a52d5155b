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
  PLAT_OPT_PRESET, PLAT_OPT_SCALE,
  PLAT_OPT_DIMS, PLAT_OPT_SHAPE,
  PLAT_OPT_LEVELS, PLAT_OPT_DOWN, PLAT_OPT_UP, PLAT_OPT_LINKS,
  PLAT_OPT_GROUPS, PLAT_OPT_CHASSIS, PLAT_OPT_ROUTERS, PLAT_OPT_NODES, PLAT_OPT_BLUE, PLAT_OPT_BLACK, PLAT_OPT_GREEN,
  PLAT_OPT_CABINET_SIZES, PLAT_OPT_CABINETS,
  PLAT_OPT_BW, PLAT_OPT_USABLE, PLAT_OPT_LAT, PLAT_OPT_SHARING, PLAT_OPT_LIMITER, PLAT_OPT_LOOPBACK_BW, PLAT_OPT_LOOPBACK_LAT, PLAT_OPT_SPEED,
  PLAT_OPT_CABINET_BW, PLAT_OPT_CABINET_LAT, PLAT_OPT_CABINET_LIMITER, PLAT_OPT_CABINET_SHARING, PLAT_OPT_CABINET_ROUTES,
  PLAT_OPT_OUTPUT, PLAT_OPT_HOSTFILE, PLAT_OPT_PLACEMENT, PLAT_OPT_RANKS,
  PLAT_OPT_ROUTING, PLAT_OPT_ROUTING_SEED, PLAT_OPT_UGAL_THRESHOLD,
  PLAT_OPT_COUNT
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
  const char *val[PLAT_OPT_COUNT]; /* as given, NULL if absent */
};

extern const struct plat_family plat_families[];

const struct plat_opt_doc *plat_family_doc(const struct plat_family *f, enum plat_opt_id id);
/* The family named by argv[1] (its index in families), or a negative
 * hnm_opt_parse() result after hnm-platform --help, --version or an error
 * (hnm_opt_command(): the tool's help comes from the families' table). */
int plat_family_command(int argc, char **argv, char *err, size_t errlen);
const char *plat_opt_name(enum plat_opt_id id);
const char *plat_value_of(const struct plat_cli *c, enum plat_opt_id id);
/* Parse argv[first..] into c->val: 0, 1 after --help or --version, -1 on
 * bad usage with the one line in err (nothing printed). */
int plat_cli_parse(struct plat_cli *c, int argc, char **argv, int first, char *err, size_t errlen);

#endif
