/* hnm_topo.c -- network shapes of hnm-platform (see the header).
 *
 * Invariant of every count below: each factor is at most HNM_TOPO_MAX_NODES
 * (1e8) and a running product is checked against that bound before the next
 * multiplication, so no product exceeds 1e16 < 2^64 (unsigned long is 64
 * bits on the platforms SimGrid supports).
 */
#include "hnm_topo.h"
#include "hnm_units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Parse the len characters at s as an integer in [1, HNM_TOPO_MAX_NODES].
 * Returns 0, or -1 with *why set to a short reason. */
static int topo__item(const char *s, size_t len, unsigned long *out, const char **why)
{
  unsigned long v = 0;

  if (len == 0) {
    *why = "is empty";
    return -1;
  }
  if (s[0] == '-' && len > 1) {
    *why = "is negative";
    return -1;
  }
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') {
      *why = "is not a positive integer";
      return -1;
    }
    if (v <= HNM_TOPO_MAX_NODES)
      v = v * 10 + (unsigned long)(s[i] - '0');
  }
  if (v == 0) {
    *why = "is 0";
    return -1;
  }
  if (v > HNM_TOPO_MAX_NODES) {
    *why = "is more than 100000000";
    return -1;
  }
  *out = v;
  return 0;
}

int hnm_topo_parse_list(const char *s, char sep, const char *noun, unsigned long *out, int max, int *count,
                        char *err, size_t errlen)
{
  const char *p = s;
  int n = 0;

  if (s == NULL || *s == '\0') {
    hnm_errf(err, errlen, "empty value");
    return -1;
  }
  for (;;) {
    const char *start = p;
    const char *why;
    unsigned long v;

    while (*p != '\0' && *p != sep)
      p++;
    if (n == max) {
      hnm_errf(err, errlen, "'%s': more than %d %ss", s, max, noun);
      return -1;
    }
    if (topo__item(start, (size_t)(p - start), &v, &why) != 0) {
      if (strcmp(why, "is not a positive integer") == 0)
        hnm_errf(err, errlen, "'%s': %s %d ('%.*s') %s", s, noun, n + 1, (int)(p - start), start, why);
      else
        hnm_errf(err, errlen, "'%s': %s %d %s", s, noun, n + 1, why);
      return -1;
    }
    out[n++] = v;
    if (*p == '\0')
      break;
    p++;
  }
  *count = n;
  return 0;
}

int hnm_topo_parse_count(const char *s, unsigned long *out, char *err, size_t errlen)
{
  const char *why;

  if (s == NULL || *s == '\0') {
    hnm_errf(err, errlen, "empty value");
    return -1;
  }
  if (topo__item(s, strlen(s), out, &why) != 0) {
    hnm_errf(err, errlen, "'%s' %s", s, why);
    return -1;
  }
  return 0;
}

/* ---- BG/Q ---------------------------------------------------------------- */

/* Partitions as scheduled on BG/Q (midplane = 512 nodes = 4x4x4x4x2). */
static const struct {
  const char *name;
  unsigned long dims[5];
} topo__bgq_shapes[] = {
  {"512", {4, 4, 4, 4, 2}},
  {"1024", {4, 4, 4, 8, 2}},
  {"2048", {4, 4, 4, 16, 2}},
  {"4096", {4, 4, 8, 16, 2}},
  {"8192", {4, 4, 16, 16, 2}},
  {NULL, {0, 0, 0, 0, 0}}
};

const char *hnm_topo_bgq_named_shape(int i, unsigned long dims[5])
{
  if (i < 0 || topo__bgq_shapes[i].name == NULL)
    return NULL;
  memcpy(dims, topo__bgq_shapes[i].dims, sizeof topo__bgq_shapes[i].dims);
  return topo__bgq_shapes[i].name;
}

int hnm_topo_bgq_parse_shape(const char *s, struct hnm_topo *t, char *err, size_t errlen)
{
  unsigned long dims[HNM_TOPO_MAX_DIMS];
  int n;

  if (s != NULL && *s != '\0' && strchr(s, 'x') == NULL) {
    for (int i = 0; topo__bgq_shapes[i].name != NULL; i++) {
      if (strcmp(s, topo__bgq_shapes[i].name) == 0) {
        t->family = HNM_TOPO_BGQ;
        t->ndims = 5;
        memcpy(t->dims, topo__bgq_shapes[i].dims, sizeof topo__bgq_shapes[i].dims);
        return 0;
      }
    }
    hnm_errf(err, errlen, "'%s' is neither a named shape (512, 1024, 2048, 4096, 8192) nor AxBxCxDxE", s);
    return -1;
  }
  if (hnm_topo_parse_list(s, 'x', "dimension", dims, 5, &n, err, errlen) != 0)
    return -1;
  if (n != 5) {
    hnm_errf(err, errlen, "'%s': %d dimension%s, a BG/Q shape has 5 (AxBxCxDxE)", s, n, n == 1 ? "" : "s");
    return -1;
  }
  if (dims[4] != 2) {
    hnm_errf(err, errlen, "'%s': E is %lu, must be 2 (BG/Q's E dimension is always 2, inside a node board)", s,
               dims[4]);
    return -1;
  }
  t->family = HNM_TOPO_BGQ;
  t->ndims = 5;
  memcpy(t->dims, dims, 5 * sizeof dims[0]);
  return 0;
}

void hnm_topo_bgq_order(const struct hnm_topo *t, int order[5])
{
  /* Insertion sort on decreasing size; strict comparison keeps it stable. */
  for (int k = 0; k < 5; k++) {
    int j = k;
    while (j > 0 && t->dims[order[j - 1]] < t->dims[k]) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = k;
  }
}

unsigned long hnm_topo_machine_host(const struct hnm_topo *t, unsigned long j)
{
  unsigned long coord[5];
  unsigned long host = 0, stride = 1;
  int order[5];

  if (t->family != HNM_TOPO_BGQ)
    return j;
  for (int k = 4; k >= 0; k--) { /* E varies fastest in the ABCDE order */
    coord[k] = j % t->dims[k];
    j /= t->dims[k];
  }
  hnm_topo_bgq_order(t, order);
  for (int k = 0; k < 5; k++) { /* SimGrid: topo_parameters' dimension 0 varies fastest */
    host += coord[order[k]] * stride;
    stride *= t->dims[order[k]];
  }
  return host;
}

/* ---- Counts and checks --------------------------------------------------- */

/* Product of n factors, or 0 if it exceeds HNM_TOPO_MAX_NODES. */
static unsigned long topo__product(const unsigned long *v, int n)
{
  unsigned long p = 1;

  for (int i = 0; i < n; i++) {
    p *= v[i];
    if (p > HNM_TOPO_MAX_NODES)
      return 0;
  }
  return p;
}

/* Switches at fat-tree level (1..ndims), or 0 if more than the maximum. */
static unsigned long topo__fattree_level(const struct hnm_topo *t, int level)
{
  unsigned long p = 1;

  for (int j = 0; j < t->ndims; j++) {
    p *= j < level ? t->up[j] : t->dims[j];
    if (p > HNM_TOPO_MAX_NODES)
      return 0;
  }
  return p;
}

static int topo__list_text(const unsigned long *v, int n, char sep, char *buf, size_t len)
{
  size_t used = 0;

  if (len == 0)
    return -1;
  buf[0] = '\0';
  for (int i = 0; i < n; i++) {
    int w;

    if (i == 0)
      w = snprintf(buf + used, len - used, "%lu", v[i]);
    else
      w = snprintf(buf + used, len - used, "%c%lu", sep, v[i]);
    if (w < 0 || (size_t)w >= len - used)
      return -1;
    used += (size_t)w;
  }
  return 0;
}

static int topo__check_sizes(const unsigned long *v, int n, const char *option, const char *noun, char *err,
                             size_t errlen)
{
  for (int i = 0; i < n; i++) {
    if (v[i] == 0 || v[i] > HNM_TOPO_MAX_NODES) {
      hnm_errf(err, errlen, "%s: %s %d is %lu (must be 1 to 100000000)", option, noun, i + 1, v[i]);
      return -1;
    }
  }
  return 0;
}

static int topo__check_cluster(const struct hnm_topo *t, char *err, size_t errlen)
{
  unsigned long total = 0;

  if (t->cabinets < 1 || t->cabinets > HNM_TOPO_MAX_CABINETS) {
    hnm_errf(err, errlen, "--cabinets: '%d' is not in 1 .. %d (for more nodes, give each cabinet more with --nodes)",
               t->cabinets, HNM_TOPO_MAX_CABINETS);
    return -1;
  }
  if (topo__check_sizes(t->cabinet_nodes, t->cabinets, "--nodes", "cabinet", err, errlen) != 0)
    return -1;
  for (int c = 0; c < t->cabinets; c++) {
    total += t->cabinet_nodes[c];
    if (total > HNM_TOPO_MAX_NODES) {
      hnm_errf(err, errlen, "--nodes: %d cabinets make more than 100000000 nodes", t->cabinets);
      return -1;
    }
  }
  return 0;
}

static int topo__check_dims(const struct hnm_topo *t, const char *option, char *err, size_t errlen)
{
  char text[256];

  if (t->ndims < 1 || t->ndims > HNM_TOPO_MAX_DIMS) {
    hnm_errf(err, errlen, "%s: %d dimensions, must be 1 to %d", option, t->ndims, HNM_TOPO_MAX_DIMS);
    return -1;
  }
  if (topo__check_sizes(t->dims, t->ndims, option, "dimension", err, errlen) != 0)
    return -1;
  if (topo__product(t->dims, t->ndims) == 0) {
    topo__list_text(t->dims, t->ndims, 'x', text, sizeof text);
    hnm_errf(err, errlen, "%s: '%s' makes more than 100000000 nodes", option, text);
    return -1;
  }
  return 0;
}

static int topo__check_fattree(const struct hnm_topo *t, char *err, size_t errlen)
{
  char text[256];

  if (t->ndims < 1 || t->ndims > HNM_TOPO_MAX_DIMS) {
    hnm_errf(err, errlen, "--down: %d levels, must be 1 to %d", t->ndims, HNM_TOPO_MAX_DIMS);
    return -1;
  }
  if (topo__check_sizes(t->dims, t->ndims, "--down", "level", err, errlen) != 0 ||
      topo__check_sizes(t->up, t->ndims, "--up", "level", err, errlen) != 0 ||
      topo__check_sizes(t->links, t->ndims, "--links", "level", err, errlen) != 0)
    return -1;
  if (topo__product(t->dims, t->ndims) == 0) {
    topo__list_text(t->dims, t->ndims, ',', text, sizeof text);
    hnm_errf(err, errlen, "--down: '%s' makes more than 100000000 nodes", text);
    return -1;
  }
  for (int level = 1; level <= t->ndims; level++) {
    unsigned long below = level == 1 ? topo__product(t->dims, t->ndims) : topo__fattree_level(t, level - 1);
    unsigned long cables;

    if (topo__fattree_level(t, level) == 0) {
      topo__list_text(t->up, t->ndims, ',', text, sizeof text);
      hnm_errf(err, errlen, "--up: '%s' makes more than 100000000 switches at level %d", text, level);
      return -1;
    }
    /* SimGrid creates every cable as a link (two with SPLITDUPLEX). */
    cables = below * t->up[level - 1];
    if (cables > HNM_TOPO_MAX_NODES || cables * t->links[level - 1] > HNM_TOPO_MAX_NODES) {
      hnm_errf(err, errlen, "--links: more than 100000000 links between levels %d and %d", level - 1, level);
      return -1;
    }
  }
  return 0;
}

static int topo__check_dragonfly(const struct hnm_topo *t, char *err, size_t errlen)
{
  const struct {
    const char *option;
    unsigned long value;
  } fields[] = {{"--groups", t->groups},        {"--chassis", t->chassis},         {"--routers", t->routers},
                {"--nodes", t->nodes},          {"--blue-links", t->blue},         {"--black-links", t->black},
                {"--green-links", t->green}};
  unsigned long v[4] = {t->groups, t->chassis, t->routers, t->nodes};

  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    if (fields[i].value == 0 || fields[i].value > HNM_TOPO_MAX_NODES) {
      hnm_errf(err, errlen, "%s: %lu, must be 1 to 100000000", fields[i].option, fields[i].value);
      return -1;
    }
  }
  /* SimGrid 3.32's DragonflyZone wires group j's global (blue) link to the
   * router of index j of every other group, and routes toward it through
   * green_links_[j] of the source chassis: an index into the routers of one
   * chassis. With more groups than routers per chassis the route reads past
   * that vector (checked: garbage routes). */
  if (t->groups > t->routers && !t->own_routing) {
    hnm_errf(err, errlen,
               "--groups: %lu groups for %lu routers per chassis; SimGrid 3.32 reaches group g through router g "
               "of the chassis, so --groups must not exceed --routers",
               t->groups, t->routers);
    return -1;
  }
  if (topo__product(v, 4) == 0) {
    hnm_errf(err, errlen, "--nodes: %lu groups x %lu chassis x %lu routers x %lu nodes is more than 100000000",
               t->groups, t->chassis, t->routers, t->nodes);
    return -1;
  }
  return 0;
}

int hnm_topo_check(const struct hnm_topo *t, char *err, size_t errlen)
{
  switch (t->family) {
    case HNM_TOPO_CLUSTER:
      return topo__check_cluster(t, err, errlen);
    case HNM_TOPO_TORUS:
      return topo__check_dims(t, "--dims", err, errlen);
    case HNM_TOPO_BGQ:
      if (t->ndims != 5 || t->dims[4] != 2) {
        hnm_errf(err, errlen, "--shape: a BG/Q shape has 5 dimensions with E = 2");
        return -1;
      }
      return topo__check_dims(t, "--shape", err, errlen);
    case HNM_TOPO_FATTREE:
      return topo__check_fattree(t, err, errlen);
    case HNM_TOPO_DRAGONFLY:
      return topo__check_dragonfly(t, err, errlen);
  }
  hnm_errf(err, errlen, "unknown family");
  return -1;
}

int hnm_topo_torus_direction(unsigned long d, unsigned long m, unsigned long t)
{
  /* "route to the right" iff (t > m && t <= m + d/2) || (m > d/2 && (m + d/2) % d >= t),
   * integer d/2. */
  return (t > m && t <= m + d / 2) || (m > d / 2 && (m + d / 2) % d >= t) ? 1 : -1;
}

unsigned long hnm_topo_hosts(const struct hnm_topo *t)
{
  unsigned long total = 0;

  switch (t->family) {
    case HNM_TOPO_CLUSTER:
      for (int c = 0; c < t->cabinets; c++)
        total += t->cabinet_nodes[c];
      return total;
    case HNM_TOPO_TORUS:
    case HNM_TOPO_BGQ:
    case HNM_TOPO_FATTREE:
      return topo__product(t->dims, t->ndims);
    case HNM_TOPO_DRAGONFLY:
      return t->groups * t->chassis * t->routers * t->nodes;
  }
  return 0;
}

unsigned long hnm_topo_routers(const struct hnm_topo *t)
{
  switch (t->family) {
    case HNM_TOPO_CLUSTER:
      return (unsigned long)t->cabinets;
    case HNM_TOPO_TORUS:
    case HNM_TOPO_BGQ:
      return hnm_topo_hosts(t);
    case HNM_TOPO_FATTREE:
      return hnm_topo_hosts(t) / t->dims[0];
    case HNM_TOPO_DRAGONFLY:
      return t->groups * t->chassis * t->routers;
  }
  return 0;
}

unsigned long hnm_topo_fattree_level_switches(const struct hnm_topo *t, int level)
{
  if (t->family != HNM_TOPO_FATTREE || level < 1 || level > t->ndims)
    return 0;
  return topo__fattree_level(t, level);
}

unsigned long hnm_topo_switches(const struct hnm_topo *t)
{
  unsigned long total = 0;

  if (t->family != HNM_TOPO_FATTREE)
    return hnm_topo_routers(t);
  for (int level = 1; level <= t->ndims; level++)
    total += topo__fattree_level(t, level);
  return total;
}

/* ---- Text ---------------------------------------------------------------- */

/* A fat tree's down ports, up ports and parallel links per level, each as
 * "N,N,..." in a buffer of TOPO__TEXT bytes. */
#define TOPO__TEXT 256
static int topo__fattree_lists(const struct hnm_topo *t, char *down, char *up, char *links)
{
  if (topo__list_text(t->dims, t->ndims, ',', down, TOPO__TEXT) != 0 ||
      topo__list_text(t->up, t->ndims, ',', up, TOPO__TEXT) != 0 ||
      topo__list_text(t->links, t->ndims, ',', links, TOPO__TEXT) != 0)
    return -1;
  return 0;
}

int hnm_topo_parameters(const struct hnm_topo *t, char *buf, size_t len)
{
  char a[TOPO__TEXT], b[TOPO__TEXT], c[TOPO__TEXT];
  unsigned long sorted[5];
  int order[5];
  int w;

  switch (t->family) {
    case HNM_TOPO_CLUSTER:
      if (len == 0)
        return -1;
      buf[0] = '\0';
      return 0;
    case HNM_TOPO_TORUS:
      return topo__list_text(t->dims, t->ndims, ',', buf, len);
    case HNM_TOPO_BGQ:
      hnm_topo_bgq_order(t, order);
      for (int k = 0; k < 5; k++)
        sorted[k] = t->dims[order[k]];
      return topo__list_text(sorted, 5, ',', buf, len);
    case HNM_TOPO_FATTREE:
      if (topo__fattree_lists(t, a, b, c) != 0)
        return -1;
      w = snprintf(buf, len, "%d;%s;%s;%s", t->ndims, a, b, c);
      break;
    case HNM_TOPO_DRAGONFLY:
      w = snprintf(buf, len, "%lu,%lu;%lu,%lu;%lu,%lu;%lu", t->groups, t->blue, t->chassis, t->black, t->routers,
                   t->green, t->nodes);
      break;
    default:
      return -1;
  }
  return w < 0 || (size_t)w >= len ? -1 : 0;
}

int hnm_topo_describe(const struct hnm_topo *t, char *buf, size_t len)
{
  char a[TOPO__TEXT], b[TOPO__TEXT], c[TOPO__TEXT];
  int w, uniform = 1;

  switch (t->family) {
    case HNM_TOPO_CLUSTER:
      for (int i = 1; i < t->cabinets; i++)
        uniform = uniform && t->cabinet_nodes[i] == t->cabinet_nodes[0];
      if (uniform)
        w = snprintf(buf, len, "%d cabinet%s of %lu nodes", t->cabinets, t->cabinets == 1 ? "" : "s",
                     t->cabinet_nodes[0]);
      else if (topo__list_text(t->cabinet_nodes, t->cabinets, ',', a, sizeof a) == 0)
        w = snprintf(buf, len, "%d cabinets of %s nodes", t->cabinets, a);
      else
        w = snprintf(buf, len, "%d cabinets, %lu nodes", t->cabinets, hnm_topo_hosts(t));
      break;
    case HNM_TOPO_TORUS:
    case HNM_TOPO_BGQ:
      return topo__list_text(t->dims, t->ndims, 'x', buf, len);
    case HNM_TOPO_FATTREE:
      if (topo__fattree_lists(t, a, b, c) != 0)
        return -1;
      w = snprintf(buf, len, "%d levels, down %s, up %s, links %s", t->ndims, a, b, c);
      break;
    case HNM_TOPO_DRAGONFLY:
      w = snprintf(buf, len, "%lu groups x %lu chassis x %lu routers x %lu nodes, blue/black/green links %lu/%lu/%lu",
                   t->groups, t->chassis, t->routers, t->nodes, t->blue, t->black, t->green);
      break;
    default:
      return -1;
  }
  return w < 0 || (size_t)w >= len ? -1 : 0;
}

/* ---- Scaling ------------------------------------------------------------- */

static unsigned long topo__shrink(unsigned long d, double g)
{
  double v = round((double)d * g);
  unsigned long s = v < 2 ? 2 : (unsigned long)v;

  return s > d ? d : s;
}

int hnm_topo_scale(struct hnm_topo *t, double f, char *err, size_t errlen)
{
  double g;

  if (!(f > 0 && f <= 1)) {
    hnm_errf(err, errlen, "--scale: '%g' is not in (0, 1]", f);
    return -1;
  }
  switch (t->family) {
    case HNM_TOPO_CLUSTER:
      hnm_errf(err, errlen, "--scale: not available for cluster (set --cabinets and --nodes instead)");
      return -1;
    case HNM_TOPO_TORUS:
    case HNM_TOPO_FATTREE:
      g = pow(f, 1.0 / t->ndims);
      for (int i = 0; i < t->ndims; i++)
        t->dims[i] = topo__shrink(t->dims[i], g);
      if (t->family == HNM_TOPO_FATTREE && t->full_bisection)
        for (int i = 1; i < t->ndims; i++)
          t->up[i] = t->dims[i - 1];
      return 0;
    case HNM_TOPO_BGQ:
      g = pow(f, 1.0 / 4);
      for (int i = 0; i < 4; i++)
        t->dims[i] = topo__shrink(t->dims[i], g);
      return 0;
    case HNM_TOPO_DRAGONFLY:
      g = pow(f, 1.0 / 4);
      t->groups = topo__shrink(t->groups, g);
      t->chassis = topo__shrink(t->chassis, g);
      t->routers = topo__shrink(t->routers, g);
      t->nodes = topo__shrink(t->nodes, g);
      if (t->blue_per_router)
        t->blue = t->chassis * t->routers;
      return 0;
  }
  hnm_errf(err, errlen, "--scale: unknown family");
  return -1;
}

/* ---- Presets ------------------------------------------------------------- */

/* Zheng & Marguinaud 2018, Table 1, and graphene (Degomme et al. 2013). The
 * SimGrid shapes and every departure from the table are argued in
 * docs/platforms.md; the notes are what a user sees on stderr. */
static const struct hnm_topo_preset topo__presets[] = {
  {"graphene", HNM_TOPO_CLUSTER, "4 cabinets of 39,35,30,40 nodes", 0, 144, 1, NULL, {39, 35, 30, 40}},
  {"torus-M", HNM_TOPO_TORUS, "25,25,25", 15625, 390625, 25,
   "torus-M: SimGrid's TORUS has exactly one host per router, so Table 1's 25 nodes per switch cannot be "
   "expressed; writing the 25x25x25 router torus, one host per router running 25 ranks (core=25, 390625 ranks)",
   {25, 25, 25}},
  {"torus-L", HNM_TOPO_TORUS, "75,25,25", 46875, 1171875, 25,
   "torus-L: SimGrid's TORUS has exactly one host per router, so Table 1's 25 nodes per switch cannot be "
   "expressed; writing the 75x25x25 router torus, one host per router running 25 ranks (core=25, 1171875 ranks)",
   {75, 25, 25}},
  {"fattree-M", HNM_TOPO_FATTREE, "4,25", 46875, 390625, 1,
   "fattree-M: SimGrid FAT_TREE 3;25,25,625;1,25,25;1,1,1 has Table 1's 390625 nodes and 25 nodes per leaf "
   "switch, but 31875 switches (15625+15625+625, top switches with 625 down ports), not 46875",
   {25}},
  {"fattree-L", HNM_TOPO_FATTREE, "4,33", 107811, 1185921, 1,
   "fattree-L: SimGrid FAT_TREE 3;33,33,1089;1,33,33;1,1,1 has Table 1's 1185921 nodes and 33 nodes per leaf "
   "switch, but 72963 switches (35937+35937+1089, top switches with 1089 down ports), not 107811",
   {33}},
  {"dragonfly-MM", HNM_TOPO_DRAGONFLY, "25,25,25", 15625, 390625, 1,
   "dragonfly-MM: SimGrid joins two groups by one router each; the 625 global links between them become "
   "one blue link of 625 links' bandwidth",
   {25, 25, 25, 25}},
  {"dragonfly-SL", HNM_TOPO_DRAGONFLY, "25,25,125", 15625, 390625, 1,
   "dragonfly-SL: group mesh 5x125 instead of 25x25 (SimGrid 3.32 needs groups <= routers per chassis); "
   "78125 routers as the geometry implies (Table 1 prints 15625); 625 global links per group pair as one",
   {125, 5, 125, 5}},
  {"dragonfly-LS", HNM_TOPO_DRAGONFLY, "125,125,5", 15625, 390625, 1,
   "dragonfly-LS: 78125 routers as the geometry implies (Table 1 prints 15625); the 15625 global links "
   "between two groups become one blue link of 15625 links' bandwidth",
   {5, 125, 125, 5}},
  {"dragonfly-ML", HNM_TOPO_DRAGONFLY, "25,25,75", 46875, 1171875, 1,
   "dragonfly-ML: group mesh 5x125 instead of 25x25 (SimGrid 3.32 needs groups <= routers per chassis); "
   "625 global links per group pair as one blue link",
   {75, 5, 125, 25}},
  {NULL, HNM_TOPO_CLUSTER, NULL, 0, 0, 0, NULL, {0}}
};

const struct hnm_topo_preset *hnm_topo_preset_at(int i)
{
  if (i < 0 || i >= (int)(sizeof topo__presets / sizeof topo__presets[0]) - 1)
    return NULL;
  return &topo__presets[i];
}

const struct hnm_topo_preset *hnm_topo_preset_find(const char *name)
{
  for (int i = 0; topo__presets[i].name != NULL; i++)
    if (strcmp(topo__presets[i].name, name) == 0)
      return &topo__presets[i];
  return NULL;
}

/* The shape of preset P from its four numbers (hnm_topo.h). */
void hnm_topo_preset_apply(const struct hnm_topo_preset *p, struct hnm_topo *t)
{
  const unsigned long *n = p->shape;

  memset(t, 0, sizeof *t);
  t->family = p->family;
  switch (p->family) {
    case HNM_TOPO_CLUSTER:
      t->cabinets = 4;
      memcpy(t->cabinet_nodes, n, 4 * sizeof *n);
      break;
    case HNM_TOPO_TORUS:
      t->ndims = 3;
      memcpy(t->dims, n, 3 * sizeof *n);
      break;
    case HNM_TOPO_BGQ: /* no preset */
      break;
    case HNM_TOPO_FATTREE:
      /* Full-bisection XGFT with k nodes per leaf switch and 3 switch
       * levels: down k, k, k^2 and up 1, k, k (see docs/platforms.md). */
      t->ndims = 3;
      t->dims[0] = t->dims[1] = n[0];
      t->dims[2] = n[0] * n[0];
      t->up[0] = 1;
      t->up[1] = t->up[2] = n[0];
      t->links[0] = t->links[1] = t->links[2] = 1;
      t->full_bisection = 1;
      break;
    case HNM_TOPO_DRAGONFLY:
      /* Group mesh chassis x routers, one global link per router and
       * other group in the paper, hence chassis x routers links between
       * two groups. */
      t->groups = n[0];
      t->chassis = n[1];
      t->routers = n[2];
      t->nodes = n[3];
      t->blue = n[1] * n[2];
      t->black = 1;
      t->green = 1;
      t->blue_per_router = 1;
      break;
  }
}

/* ---- Placement ----------------------------------------------------------- */

int hnm_topo_parse_placement(const char *s, enum hnm_placement *p, char *err, size_t errlen)
{
  if (s != NULL && strcmp(s, "linear") == 0) {
    *p = HNM_PLACEMENT_LINEAR;
    return 0;
  }
  if (s != NULL && strcmp(s, "round-robin") == 0) {
    *p = HNM_PLACEMENT_ROUND_ROBIN;
    return 0;
  }
  hnm_errf(err, errlen, "'%s' is not a placement (linear, round-robin)", s == NULL ? "" : s);
  return -1;
}

/* Round-robin over cabinets of unequal sizes: round s gives one rank to
 * every cabinet that still has a free slot, in cabinet order; a cabinet
 * leaves the list once its K x nodes slots are used. Every round costs the
 * length of the list, so the whole deal costs O(ranks + cabinets). */
static int topo__deal_cabinets(const struct hnm_topo *t, unsigned long k, int (*emit)(unsigned long, void *),
                               void *ctx)
{
  unsigned long start[HNM_TOPO_MAX_CABINETS];
  int active[HNM_TOPO_MAX_CABINETS];
  unsigned long first = 0;
  int n = t->cabinets;

  for (int c = 0; c < n; c++) {
    start[c] = first;
    first += t->cabinet_nodes[c];
    active[c] = c;
  }
  for (unsigned long round = 0; n > 0; round++) {
    int kept = 0;
    for (int i = 0; i < n; i++) {
      int c = active[i];
      int rc = emit(start[c] + round / k, ctx);
      if (rc != 0)
        return rc;
      if (round + 1 < t->cabinet_nodes[c] * k)
        active[kept++] = c;
    }
    n = kept;
  }
  return 0;
}

int hnm_topo_place(const struct hnm_topo *t, enum hnm_placement p, unsigned long ranks_per_host,
                   int (*emit)(unsigned long host, void *ctx), void *ctx)
{
  unsigned long hosts = hnm_topo_hosts(t);
  unsigned long k = ranks_per_host == 0 ? 1 : ranks_per_host;
  unsigned long routers, per_router;
  int rc;

  if (p == HNM_PLACEMENT_LINEAR) {
    for (unsigned long j = 0; j < hosts; j++) {
      unsigned long host = hnm_topo_machine_host(t, j);
      for (unsigned long i = 0; i < k; i++)
        if ((rc = emit(host, ctx)) != 0)
          return rc;
    }
    return 0;
  }
  if (t->family == HNM_TOPO_CLUSTER)
    return topo__deal_cabinets(t, k, emit, ctx);
  /* Every router has per_router hosts, contiguous in the machine order. */
  routers = hnm_topo_routers(t);
  per_router = hosts / routers;
  for (unsigned long r = 0; r < hosts * k; r++) {
    unsigned long slot = r / routers;
    if ((rc = emit(hnm_topo_machine_host(t, (r % routers) * per_router + slot / k), ctx)) != 0)
      return rc;
  }
  return 0;
}
