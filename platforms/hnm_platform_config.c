/* hnm-platform: option values (units, ranges, presets, scaling) checked and
 * turned into a configuration; nothing is written before this succeeds. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_quantity.h"
#include "hnm_topo.h"
#include "hnm_units.h"


#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hnm_platform_config.h"
#include "hnm_platform_options.h"

static int get_bandwidth(const struct plat_cli *c, enum plat_opt_id id, int allow_zero, double *out, char *err, size_t errlen)
{
  char why[256];
  const char *s = plat_value_of(c, id);

  if (allow_zero && strcmp(s, "0") == 0) {
    *out = 0;
    return 0;
  }
  if (hnm_parse_bandwidth(s, out, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "%s: %s", plat_opt_name(id), why);
  if (!(*out > 0))
    return hnm_fail(err, errlen, "%s: '%s' must be positive%s", plat_opt_name(id), s, allow_zero ? " (or 0 for none)" : "");
  if (*out > HNM_QUANTITY_MAX_BANDWIDTH)
    return hnm_fail(err, errlen, "%s: '%s' is above %gBps (not a link's bandwidth; docs/platforms.md)", plat_opt_name(id),
                    s, HNM_QUANTITY_MAX_BANDWIDTH);
  return 0;
}

static int get_time(const struct plat_cli *c, enum plat_opt_id id, double *out, char *err, size_t errlen)
{
  char why[256];
  const char *s = plat_value_of(c, id);

  if (hnm_parse_time(s, out, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "%s: %s", plat_opt_name(id), why);
  if (*out < 0)
    return hnm_fail(err, errlen, "%s: '%s' is negative", plat_opt_name(id), s);
  /* docs/model-format.md's range of a latency: a link of more than 1 s is
   * a typing mistake (1e300s would saturate the simulated clock). */
  if (*out > 1)
    return hnm_fail(err, errlen, "%s: '%s' is above 1 s (not a link's latency; docs/model-format.md)", plat_opt_name(id),
                     s);
  return 0;
}

static int get_number(const struct plat_cli *c, enum plat_opt_id id, double *out, char *err, size_t errlen)
{
  char why[256];

  if (hnm_parse_number(plat_value_of(c, id), out, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "%s: %s", plat_opt_name(id), why);
  return 0;
}

static int get_count(const struct plat_cli *c, enum plat_opt_id id, unsigned long *out, char *err, size_t errlen)
{
  char why[256];

  if (hnm_topo_parse_count(plat_value_of(c, id), out, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "%s: %s", plat_opt_name(id), why);
  return 0;
}

static int get_list(const struct plat_cli *c, enum plat_opt_id id, char sep, const char *noun, unsigned long *out, int max,
                    int *n, char *err, size_t errlen)
{
  char why[256];

  if (hnm_topo_parse_list(plat_value_of(c, id), sep, noun, out, max, n, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "%s: %s", plat_opt_name(id), why);
  return 0;
}

/* SPLITDUPLEX -> 1, SHARED -> 0; FATPIPE refused (see family_usage). */
static int get_sharing(const struct plat_cli *c, enum plat_opt_id id, int *splitduplex, char *err, size_t errlen)
{
  const char *s = plat_value_of(c, id);

  if (strcmp(s, "SPLITDUPLEX") == 0 || strcmp(s, "SHARED") == 0) {
    *splitduplex = s[1] == 'P';
    return 0;
  }
  if (strcmp(s, "FATPIPE") == 0)
    return hnm_fail(err, errlen,
                     "%s: FATPIPE: SimGrid 3.32 creates a <cluster>'s links SHARED whatever its sharing_policy "
               "(only SPLITDUPLEX is honoured); use SHARED, or hnm-run --model loggps for contention-free links",
               plat_opt_name(id));
  return hnm_fail(err, errlen, "%s: '%s' is not a sharing policy (SPLITDUPLEX, SHARED)", plat_opt_name(id), s);
}

static int build_shape(const struct plat_cli *c, struct plat_config *cfg, char *err, size_t errlen)
{
  struct hnm_topo *t = &cfg->topo;
  int n, nu, nl;

  t->family = c->fam->topo;
  switch (c->fam->topo) {
    case HNM_TOPO_CLUSTER:
      if (c->val[PLAT_OPT_CABINETS] != NULL || c->val[PLAT_OPT_NODES] != NULL) {
        unsigned long cabinets, nodes;
        if (c->val[PLAT_OPT_CABINET_SIZES] != NULL)
          return hnm_fail(err, errlen, "%s: cannot be combined with --cabinet-sizes",
                     plat_opt_name(c->val[PLAT_OPT_CABINETS] != NULL ? PLAT_OPT_CABINETS : PLAT_OPT_NODES));
        if (c->val[PLAT_OPT_CABINETS] == NULL || c->val[PLAT_OPT_NODES] == NULL)
          return hnm_fail(err, errlen, "%s: needs %s too",
                           plat_opt_name(c->val[PLAT_OPT_CABINETS] != NULL ? PLAT_OPT_CABINETS : PLAT_OPT_NODES),
                     plat_opt_name(c->val[PLAT_OPT_CABINETS] != NULL ? PLAT_OPT_NODES : PLAT_OPT_CABINETS));
        if (get_count(c, PLAT_OPT_CABINETS, &cabinets, err, errlen) != 0 ||
            get_count(c, PLAT_OPT_NODES, &nodes, err, errlen) != 0)
          return -1;
        if (cabinets > HNM_TOPO_MAX_CABINETS)
          return hnm_fail(err, errlen, "--cabinets: '%lu' is not in 1 .. %d (for more nodes, give each cabinet more with --nodes)",
                           cabinets, HNM_TOPO_MAX_CABINETS);
        t->cabinets = (int)cabinets;
        for (int i = 0; i < t->cabinets; i++)
          t->cabinet_nodes[i] = nodes;
        return 0;
      }
      return get_list(c, PLAT_OPT_CABINET_SIZES, ',', "cabinet", t->cabinet_nodes, HNM_TOPO_MAX_CABINETS,
                      &t->cabinets, err, errlen);
    case HNM_TOPO_TORUS:
      return get_list(c, PLAT_OPT_DIMS, 'x', "dimension", t->dims, HNM_TOPO_MAX_DIMS, &t->ndims, err, errlen);
    case HNM_TOPO_BGQ: {
      char why[256];
      if (hnm_topo_bgq_parse_shape(plat_value_of(c, PLAT_OPT_SHAPE), t, why, sizeof why) != 0)
        return hnm_fail(err, errlen, "--shape: %s", why);
      return 0;
    }
    case HNM_TOPO_FATTREE:
      if (get_list(c, PLAT_OPT_DOWN, ',', "level", t->dims, HNM_TOPO_MAX_DIMS, &n, err, errlen) != 0 ||
          get_list(c, PLAT_OPT_UP, ',', "level", t->up, HNM_TOPO_MAX_DIMS, &nu, err, errlen) != 0 ||
          get_list(c, PLAT_OPT_LINKS, ',', "level", t->links, HNM_TOPO_MAX_DIMS, &nl, err, errlen) != 0)
        return -1;
      if (c->val[PLAT_OPT_LEVELS] != NULL) {
        unsigned long levels;
        if (get_count(c, PLAT_OPT_LEVELS, &levels, err, errlen) != 0)
          return -1;
        if (levels != (unsigned long)n)
          return hnm_fail(err, errlen, "--levels: '%lu' but --down '%s' has %d level%s", levels,
                           plat_value_of(c, PLAT_OPT_DOWN), n, n == 1 ? "" : "s");
      }
      if (nu != n)
        return hnm_fail(err, errlen, "--up: '%s' has %d level%s, --down '%s' has %d", plat_value_of(c, PLAT_OPT_UP), nu,
                         nu == 1 ? "" : "s",
                   plat_value_of(c, PLAT_OPT_DOWN), n);
      if (nl != n)
        return hnm_fail(err, errlen, "--links: '%s' has %d level%s, --down '%s' has %d", plat_value_of(c, PLAT_OPT_LINKS), nl,
                   nl == 1 ? "" : "s", plat_value_of(c, PLAT_OPT_DOWN), n);
      t->ndims = n;
      return 0;
    case HNM_TOPO_DRAGONFLY:
      if (get_count(c, PLAT_OPT_GROUPS, &t->groups, err, errlen) != 0 ||
          get_count(c, PLAT_OPT_CHASSIS, &t->chassis, err, errlen) != 0 ||
          get_count(c, PLAT_OPT_ROUTERS, &t->routers, err, errlen) != 0 ||
          get_count(c, PLAT_OPT_NODES, &t->nodes, err, errlen) != 0 ||
          get_count(c, PLAT_OPT_BLUE, &t->blue, err, errlen) != 0 || get_count(c, PLAT_OPT_BLACK, &t->black, err, errlen) != 0 ||
          get_count(c, PLAT_OPT_GREEN, &t->green, err, errlen) != 0)
        return -1;
      return 0;
  }
  return -1;
}

/* The shape: a preset, or the shape options (with their defaults). */
static int plat_config__shape(const struct plat_cli *c, struct plat_config *cfg, char *err, size_t errlen)
{
  if (c->val[PLAT_OPT_PRESET] != NULL) {
    const struct hnm_topo_preset *p = hnm_topo_preset_find(c->val[PLAT_OPT_PRESET]);
    if (p == NULL || p->family != c->fam->topo) {
      char names[256] = "";
      for (int i = 0; hnm_topo_preset_at(i) != NULL; i++)
        if (hnm_topo_preset_at(i)->family == c->fam->topo) {
          strncat(names, names[0] ? ", " : "", sizeof names - strlen(names) - 1);
          strncat(names, hnm_topo_preset_at(i)->name, sizeof names - strlen(names) - 1);
        }
      return hnm_fail(err, errlen, "--preset: '%s' is not a %s preset (%s)", c->val[PLAT_OPT_PRESET], c->fam->name, names);
    }
    for (const struct plat_opt_doc *d = c->fam->docs; d->id != PLAT_OPT_COUNT; d++)
      if (d->shape && c->val[d->id] != NULL)
        return hnm_fail(err, errlen, "%s: cannot be combined with --preset (the preset sets the shape)",
                         plat_opt_name(d->id));
    cfg->preset = p;
    hnm_topo_preset_apply(p, &cfg->topo);
  } else if (build_shape(c, cfg, err, errlen) != 0) {
    return -1;
  }
  return 0;
}

/* --routing and --routing-seed; --routing first: a routed dragonfly is not bound by SimGrid's rules. */
static int plat_config__routing(const struct plat_cli *c, struct plat_config *cfg, char *err, size_t errlen)
{
  char why[512];

  if (c->val[PLAT_OPT_ROUTING] != NULL) {
    if (hnm_routing_parse(c->fam->topo, c->val[PLAT_OPT_ROUTING], &cfg->routing, why, sizeof why) != 0)
      return hnm_fail(err, errlen, "%s", why);
    cfg->topo.own_routing = !hnm_routing_is_builtin(cfg->routing);
  }
  if (c->val[PLAT_OPT_ROUTING_SEED] != NULL) {
    char *end;
    const char *v = c->val[PLAT_OPT_ROUTING_SEED];
    errno = 0;
    cfg->routing_seed = (uint64_t)strtoull(v, &end, 10);
    if (!isdigit((unsigned char)v[0]) || *end != '\0' || errno != 0)
      return hnm_fail(err, errlen, "--routing-seed: '%s' is not an integer in [0, 2^64)", v);
    /* A loop over routings passes one seed to all: accepted, noted by main. */
    cfg->seed_unused = !hnm_routing_is_random(cfg->routing);
  } else {
    cfg->routing_seed = 1;
  }
  return 0;
}

/* --scale, then the checks of the final shape. */
static int plat_config__scale(const struct plat_cli *c, struct plat_config *cfg, char *err, size_t errlen)
{
  char why[512], before[256], after[256];
  double scale = 1;

  if (plat_family_doc(c->fam, PLAT_OPT_SCALE) != NULL) {
    if (get_number(c, PLAT_OPT_SCALE, &scale, err, errlen) != 0)
      return -1;
    if (!(scale > 0 && scale <= 1))
      return hnm_fail(err, errlen, "--scale: '%s' is not in (0, 1]", plat_value_of(c, PLAT_OPT_SCALE));
  }
  if (hnm_topo_check(&cfg->topo, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "%s", why);
  if (c->val[PLAT_OPT_SCALE] != NULL) {
    unsigned long was = hnm_topo_hosts(&cfg->topo);
    hnm_topo_describe(&cfg->topo, before, sizeof before);
    if (hnm_topo_scale(&cfg->topo, scale, why, sizeof why) != 0 || hnm_topo_check(&cfg->topo, why, sizeof why) != 0)
      return hnm_fail(err, errlen, "%s", why);
    hnm_topo_describe(&cfg->topo, after, sizeof after);
    snprintf(cfg->scaled, sizeof cfg->scaled, "--scale %s: %s, %lu hosts (%.3g of %s, %lu hosts)",
             plat_value_of(c, PLAT_OPT_SCALE), after, hnm_topo_hosts(&cfg->topo),
             (double)hnm_topo_hosts(&cfg->topo) / (double)was, before, was);
  }
  return 0;
}

/* Ranks per host and their placement. */
static int plat_config__ranks(const struct plat_cli *c, struct plat_config *cfg, char *err, size_t errlen)
{
  char why[512];
  unsigned long hosts = hnm_topo_hosts(&cfg->topo);

  cfg->ranks_per_host = cfg->preset != NULL ? cfg->preset->ranks_per_host : 1;
  if (c->val[PLAT_OPT_RANKS] != NULL && get_count(c, PLAT_OPT_RANKS, &cfg->ranks_per_host, err, errlen) != 0)
    return -1;
  if (cfg->ranks_per_host > HNM_TOPO_MAX_NODES / hosts)
    return hnm_fail(err, errlen, "--ranks-per-host: '%lu' on each of %lu hosts is more than 100000000 ranks",
                     cfg->ranks_per_host, hosts);
  if (hnm_topo_parse_placement(plat_value_of(c, PLAT_OPT_PLACEMENT), &cfg->placement, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "--placement: %s", why);
  return 0;
}

/* Links and hosts: bandwidths, latencies, sharing, limiters, UGAL's threshold, loopback, speed. */
static int plat_config__links(const struct plat_cli *c, struct plat_config *cfg, char *err, size_t errlen)
{
  char why[512];
  unsigned long hosts = hnm_topo_hosts(&cfg->topo);
  double usable = 1;

  if (get_bandwidth(c, PLAT_OPT_BW, 0, &cfg->bw, err, errlen) != 0 || get_time(c, PLAT_OPT_LAT, &cfg->lat, err, errlen) != 0 ||
      get_sharing(c, PLAT_OPT_SHARING, &cfg->splitduplex, err, errlen) != 0 ||
      get_number(c, PLAT_OPT_LIMITER, &cfg->limiter, err, errlen) != 0)
    return -1;
  if (cfg->limiter < 0)
    return hnm_fail(err, errlen, "--limiter: '%s' is negative (0 = no limiter)", plat_value_of(c, PLAT_OPT_LIMITER));
  if (cfg->limiter != 0 && !(cfg->limiter >= HNM_QUANTITY_MIN_FACTOR && cfg->limiter <= HNM_QUANTITY_MAX_FACTOR))
    return hnm_fail(err, errlen, "--limiter: '%s' is not 0 nor in %g .. %g (a factor; docs/platforms.md)",
                    plat_value_of(c, PLAT_OPT_LIMITER), HNM_QUANTITY_MIN_FACTOR, HNM_QUANTITY_MAX_FACTOR);
  if (!hnm_routing_is_builtin(cfg->routing) && cfg->limiter > 0)
    return hnm_fail(err, errlen, "--limiter: routed platforms (--routing %s) have no limiter links",
                     hnm_routing_name(cfg->routing));
  if ((cfg->routing == HNM_ROUTING_UGAL_L || cfg->routing == HNM_ROUTING_UGAL_G) && !cfg->splitduplex)
    return hnm_fail(err, errlen, "--sharing: %s keeps a backlog per direction of a link: use SPLITDUPLEX",
                     hnm_routing_name(cfg->routing));
  cfg->ugal_threshold = HNM_RNET_UGAL_THRESHOLD;
  if (plat_family_doc(c->fam, PLAT_OPT_UGAL_THRESHOLD) != NULL) {
    if (get_time(c, PLAT_OPT_UGAL_THRESHOLD, &cfg->ugal_threshold, err, errlen) != 0)
      return -1;
    if (c->val[PLAT_OPT_UGAL_THRESHOLD] != NULL && cfg->routing != HNM_ROUTING_UGAL_L &&
        cfg->routing != HNM_ROUTING_UGAL_G)
      return hnm_fail(err, errlen, "--ugal-threshold: only ugal-l and ugal-g have a threshold (--routing %s)",
                       c->val[PLAT_OPT_ROUTING] != NULL ? c->val[PLAT_OPT_ROUTING] : "none");
  }
  if (plat_family_doc(c->fam, PLAT_OPT_USABLE) != NULL) {
    if (get_number(c, PLAT_OPT_USABLE, &usable, err, errlen) != 0)
      return -1;
    if (!(usable > 0 && usable <= 1))
      return hnm_fail(err, errlen, "--usable: '%s' is not in (0, 1]", plat_value_of(c, PLAT_OPT_USABLE));
    cfg->bw *= usable;
  }
  if (cfg->limiter * cfg->bw > HNM_QUANTITY_MAX_BANDWIDTH)
    return hnm_fail(err, errlen, "--limiter: '%s' x the links' %gBps is above %gBps (docs/platforms.md)",
                    plat_value_of(c, PLAT_OPT_LIMITER), cfg->bw, HNM_QUANTITY_MAX_BANDWIDTH);
  if (cfg->limiter > 0 && cfg->topo.family == HNM_TOPO_FATTREE && hnm_topo_switches(&cfg->topo) > hosts)
    return hnm_fail(err, errlen,
                     "--limiter: %lu switches for %lu hosts: SimGrid names switch limiters like host limiters "
               "(ids from 2N-1 down), so they would collide; use --limiter 0",
               hnm_topo_switches(&cfg->topo), hosts);
  if (strcmp(plat_value_of(c, PLAT_OPT_LOOPBACK_BW), "none") == 0) {
    if (c->val[PLAT_OPT_LOOPBACK_LAT] != NULL)
      return hnm_fail(err, errlen, "--loopback-lat: no loopback (--loopback-bw none)");
  } else {
    cfg->loopback = 1;
    if (get_bandwidth(c, PLAT_OPT_LOOPBACK_BW, 0, &cfg->loopback_bw, err, errlen) != 0 ||
        get_time(c, PLAT_OPT_LOOPBACK_LAT, &cfg->loopback_lat, err, errlen) != 0)
      return -1;
  }
  if (hnm_quantity_parse_speed(plat_value_of(c, PLAT_OPT_SPEED), &cfg->speed, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "--speed: %s", why);
  if (!(cfg->speed > 0))
    return hnm_fail(err, errlen, "--speed: '%s' must be positive", plat_value_of(c, PLAT_OPT_SPEED));
  if (cfg->speed > HNM_QUANTITY_MAX_SPEED)
    return hnm_fail(err, errlen, "--speed: '%s' is above %gf (not a host's speed; docs/platforms.md)",
                    plat_value_of(c, PLAT_OPT_SPEED), HNM_QUANTITY_MAX_SPEED);
  return 0;
}

/* The cluster family's cabinet links. */
static int plat_config__cabinets(const struct plat_cli *c, struct plat_config *cfg, char *err, size_t errlen)
{
  if (c->fam->topo == HNM_TOPO_CLUSTER) {
    if (get_bandwidth(c, PLAT_OPT_CABINET_BW, 0, &cfg->cab_bw, err, errlen) != 0 || get_time(c, PLAT_OPT_CABINET_LAT,
                      &cfg->cab_lat, err, errlen) != 0 ||
        get_bandwidth(c, PLAT_OPT_CABINET_LIMITER, 1, &cfg->cab_limiter, err, errlen) != 0)
      return -1;
    if (strcmp(plat_value_of(c, PLAT_OPT_CABINET_SHARING), "FATPIPE") == 0)
      cfg->cab_fatpipe = 1;
    else if (strcmp(plat_value_of(c, PLAT_OPT_CABINET_SHARING), "SHARED") != 0)
      return hnm_fail(err, errlen, "--cabinet-sharing: '%s' is not SHARED or FATPIPE",
                       plat_value_of(c, PLAT_OPT_CABINET_SHARING));
    if (strcmp(plat_value_of(c, PLAT_OPT_CABINET_ROUTES), "pairs") == 0)
      cfg->cab_pairs = 1;
    else if (strcmp(plat_value_of(c, PLAT_OPT_CABINET_ROUTES), "core") != 0)
      return hnm_fail(err, errlen, "--cabinet-routes: '%s' is not core or pairs", plat_value_of(c, PLAT_OPT_CABINET_ROUTES));
  }
  return 0;
}

/* The output files: named, and not the same. */
static int plat_config__outputs(const struct plat_config *cfg, char *err, size_t errlen)
{
  if (cfg->output != NULL && cfg->output[0] == '\0')
    return hnm_fail(err, errlen, "-o: empty file name");
  if (cfg->hostfile != NULL && (cfg->hostfile[0] == '\0' || strcmp(cfg->hostfile, "-") == 0))
    return hnm_fail(err, errlen, "--hostfile: '%s' is not a file name", cfg->hostfile);
  if (cfg->output != NULL && cfg->hostfile != NULL && strcmp(cfg->output, cfg->hostfile) == 0)
    return hnm_fail(err, errlen, "--hostfile: '%s' is also the -o file", cfg->hostfile);
  return 0;
}

int plat_build_config(const struct plat_cli *c, struct plat_config *cfg, char *err, size_t errlen)
{
  memset(cfg, 0, sizeof *cfg);
  cfg->fam = c->fam;
  cfg->output = c->val[PLAT_OPT_OUTPUT];
  cfg->hostfile = c->val[PLAT_OPT_HOSTFILE];
  if (plat_config__shape(c, cfg, err, errlen) != 0 || plat_config__routing(c, cfg, err, errlen) != 0 ||
      plat_config__scale(c, cfg, err, errlen) != 0 || plat_config__ranks(c, cfg, err, errlen) != 0 ||
      plat_config__links(c, cfg, err, errlen) != 0 || plat_config__cabinets(c, cfg, err, errlen) != 0 ||
      plat_config__outputs(cfg, err, errlen) != 0)
    return -1;
  return 0;
}
