/* hnm_routing_desc.c -- routed platforms' names and description file
 * (hnm_routing.h): the routing names of each family and their parsing, link
 * role names, and the description file hnm-platform --routing writes and
 * libhnmplatform.so reads (format in docs/platforms.md, "Routing"). Pure
 * C11, no SimGrid. The layouts and route choosers are in hnm_routing.c.
 */
#include "hnm_input.h"
#include "hnm_routing.h"
#include "hnm_units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ------------------------------------------------------------- */

static const char *const routing_names[] = {
    [HNM_ROUTING_BUILTIN] = "builtin",         [HNM_ROUTING_MINIMAL] = "minimal",
    [HNM_ROUTING_VALIANT] = "valiant",         [HNM_ROUTING_UGAL_L] = "ugal-l",
    [HNM_ROUTING_DOR] = "dor",                 [HNM_ROUTING_DMODK] = "dmodk",
    [HNM_ROUTING_RANDOM] = "random",           [HNM_ROUTING_VALIANT_GROUP] = "valiant-group",
    [HNM_ROUTING_VALIANT_ROUTER] = "valiant-router", [HNM_ROUTING_UGAL_G] = "ugal-g"};

const char *hnm_routing_name(enum hnm_routing r)
{
  return (unsigned)r < sizeof routing_names / sizeof routing_names[0] ? routing_names[r] : "?";
}

int hnm_routing_is_builtin(enum hnm_routing r)
{
  return r == HNM_ROUTING_BUILTIN || r == HNM_ROUTING_DOR || r == HNM_ROUTING_DMODK;
}

int hnm_routing_is_random(enum hnm_routing r)
{
  return r == HNM_ROUTING_VALIANT || r == HNM_ROUTING_VALIANT_GROUP || r == HNM_ROUTING_VALIANT_ROUTER ||
         r == HNM_ROUTING_UGAL_L || r == HNM_ROUTING_UGAL_G || r == HNM_ROUTING_RANDOM;
}

static int routing__is_ugal(enum hnm_routing r)
{
  return r == HNM_ROUTING_UGAL_L || r == HNM_ROUTING_UGAL_G;
}


int hnm_routing_parse(enum hnm_topo_family family, const char *name, enum hnm_routing *out, char *err,
                      size_t errlen)
{
  static const struct {
    enum hnm_topo_family family;
    const char *name;
    enum hnm_routing routing;
  } allowed[] = {{HNM_TOPO_DRAGONFLY, "minimal", HNM_ROUTING_MINIMAL},
                 {HNM_TOPO_DRAGONFLY, "valiant-group", HNM_ROUTING_VALIANT_GROUP},
                 {HNM_TOPO_DRAGONFLY, "valiant-router", HNM_ROUTING_VALIANT_ROUTER},
                 {HNM_TOPO_DRAGONFLY, "ugal-l", HNM_ROUTING_UGAL_L},
                 {HNM_TOPO_DRAGONFLY, "ugal-g", HNM_ROUTING_UGAL_G},
                 {HNM_TOPO_DRAGONFLY, "valiant", HNM_ROUTING_VALIANT_GROUP}, /* earlier name */
                 {HNM_TOPO_DRAGONFLY, "ugal", HNM_ROUTING_UGAL_L},           /* earlier name */
                 {HNM_TOPO_TORUS, "dor", HNM_ROUTING_DOR},
                 {HNM_TOPO_TORUS, "valiant", HNM_ROUTING_VALIANT},
                 {HNM_TOPO_FATTREE, "dmodk", HNM_ROUTING_DMODK},
                 {HNM_TOPO_FATTREE, "random", HNM_ROUTING_RANDOM}};
  const char *list = family == HNM_TOPO_DRAGONFLY ? "minimal, valiant-group, valiant-router, ugal-l, ugal-g"
                     : family == HNM_TOPO_TORUS   ? "dor, valiant"
                     : family == HNM_TOPO_FATTREE ? "dmodk, random"
                                                  : NULL;
  if (list == NULL) {
    hnm_errf(err, errlen, "--routing: this family has no routing choice (dragonfly, torus and fattree have)");
    return -1;
  }
  for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
    if (allowed[i].family == family && strcmp(name, allowed[i].name) == 0) {
      *out = allowed[i].routing;
      return 0;
    }
  hnm_errf(err, errlen, "--routing: '%s' is not a %s routing (%s)", name,
                family == HNM_TOPO_DRAGONFLY ? "dragonfly" : family == HNM_TOPO_TORUS ? "torus" : "fattree", list);
  return -1;
}

const char *hnm_link_role_name(enum hnm_link_role r)
{
  switch (r) {
    case HNM_LINK_NODE_UP:
      return "node-up";
    case HNM_LINK_NODE_DOWN:
      return "node-down";
    case HNM_LINK_LOOPBACK:
      return "loopback";
    case HNM_LINK_LOCAL:
      return "local";
    case HNM_LINK_GLOBAL:
      return "global";
    case HNM_LINK_TORUS:
      return "torus";
    case HNM_LINK_FATTREE_UP:
      return "fattree-up";
    case HNM_LINK_FATTREE_DOWN:
      return "fattree-down";
    case HNM_LINK_NONE:
      break;
  }
  return "none";
}

/* ---- description file -------------------------------------------------- */

static int desc__shape(const struct hnm_topo *t, char *buf, size_t len)
{
  return hnm_topo_parameters(t, buf, len);
}

int hnm_rnet_desc_write(FILE *fp, const struct hnm_rnet_desc *d, const char *comment)
{
  char shape[512];
  if (desc__shape(&d->topo, shape, sizeof shape) != 0) {
    errno = EINVAL;
    return -1;
  }
  if (fprintf(fp, "%s\n", HNM_RNET_MAGIC) < 0)
    return -1;
  for (const char *c = comment; c != NULL && *c != '\0';) {
    const char *nl = strchr(c, '\n');
    int n = nl ? (int)(nl - c) : (int)strlen(c);
    if (fprintf(fp, "# %.*s\n", n, c) < 0)
      return -1;
    c += n + (nl ? 1 : 0);
  }
  if (fprintf(fp, "family %s\nrouting %s\nseed %llu\nshape %s\n",
              d->topo.family == HNM_TOPO_DRAGONFLY ? "dragonfly"
              : d->topo.family == HNM_TOPO_FATTREE ? "fattree"
                                                   : "torus",
              hnm_routing_name(d->routing),
              (unsigned long long)d->seed, shape) < 0 ||
      fprintf(fp, "bw %.17g\nlat %.17g\nsharing %s\n", d->bw, d->lat, d->splitduplex ? "SPLITDUPLEX" : "SHARED") < 0)
    return -1;
  if (d->loopback ? fprintf(fp, "loopback-bw %.17g\nloopback-lat %.17g\n", d->loopback_bw, d->loopback_lat) < 0
                  : fprintf(fp, "loopback-bw none\n") < 0)
    return -1;
  if (fprintf(fp, "speed %.17g\ncores %lu\n", d->speed, d->cores) < 0)
    return -1;
  if (routing__is_ugal(d->routing) && fprintf(fp, "ugal-threshold %.17g\n", d->ugal_threshold) < 0)
    return -1;
  return 0;
}

int hnm_rnet_is_description(const char *path)
{
  char line[64], why[256];
  FILE *f = hnm_input_open(path, why, sizeof why); /* a named pipe: not one, never a hang */
  int yes = 0;
  if (f == NULL)
    return 0;
  if (fgets(line, sizeof line, f) != NULL)
    yes = strncmp(line, HNM_RNET_MAGIC, strlen(HNM_RNET_MAGIC)) == 0 &&
          (line[strlen(HNM_RNET_MAGIC)] == '\n' || line[strlen(HNM_RNET_MAGIC)] == '\0');
  fclose(f);
  return yes;
}

static int desc__number(const char *s, double *out)
{
  char *end;
  errno = 0;
  *out = strtod(s, &end);
  return (end == s || *end != '\0' || errno != 0 || !isfinite(*out)) ? -1 : 0;
}

/* "G,BLUE;C,BLACK;R,GREEN;N" */
static int desc__dragonfly_shape(const char *s, struct hnm_topo *t)
{
  unsigned long v[7];
  int n = 0;
  const char *p = s;
  for (; n < 7; n++) {
    char *end;
    if (!isdigit((unsigned char)*p))
      return -1;
    errno = 0;
    v[n] = strtoul(p, &end, 10);
    if (errno != 0)
      return -1;
    p = end;
    if (n == 6)
      break;
    if (*p != (n % 2 == 0 ? ',' : ';'))
      return -1;
    p++;
  }
  if (*p != '\0')
    return -1;
  t->groups = v[0], t->blue = v[1], t->chassis = v[2], t->black = v[3], t->routers = v[4], t->green = v[5];
  t->nodes = v[6];
  return 0;
}

/* "LEVELS;DOWN;UP;LINKS" (SimGrid's FAT_TREE topo_parameters) */
static int desc__fattree_shape(const char *s, struct hnm_topo *t, char *err, size_t errlen)
{
  char buf[1024], *parts[4], *save = NULL;
  int n = 0, count[3];
  snprintf(buf, sizeof buf, "%s", s);
  for (char *p = strtok_r(buf, ";", &save); p != NULL && n < 4; p = strtok_r(NULL, ";", &save))
    parts[n++] = p;
  if (n != 4 || strtok_r(NULL, ";", &save) != NULL) {
    hnm_errf(err, errlen, "not LEVELS;DOWN;UP;LINKS");
    return -1;
  }
  t->ndims = atoi(parts[0]);
  if (hnm_topo_parse_list(parts[1], ',', "level", t->dims, HNM_TOPO_MAX_DIMS, &count[0], err, errlen) != 0 ||
      hnm_topo_parse_list(parts[2], ',', "level", t->up, HNM_TOPO_MAX_DIMS, &count[1], err, errlen) != 0 ||
      hnm_topo_parse_list(parts[3], ',', "level", t->links, HNM_TOPO_MAX_DIMS, &count[2], err, errlen) != 0)
    return -1;
  if (count[0] != t->ndims || count[1] != t->ndims || count[2] != t->ndims) {
    hnm_errf(err, errlen, "LEVELS is %d but the lists have %d, %d, %d items", t->ndims, count[0], count[1],
                  count[2]);
    return -1;
  }
  return 0;
}

/* The fields of a description, in the order hnm_rnet_desc_write() writes them. */
enum {
  DESC__FAMILY, DESC__ROUTING, DESC__SEED, DESC__SHAPE, DESC__BW, DESC__LAT, DESC__SHARING, DESC__LBW, DESC__LLAT,
  DESC__SPEED, DESC__CORES, DESC__UGAL_T, DESC__COUNT
};
static const char *const desc__keys[DESC__COUNT] = {"family",  "routing",     "seed",         "shape", "bw",    "lat",
                                                    "sharing", "loopback-bw", "loopback-lat", "speed", "cores",
                                                    "ugal-threshold"};

/* What the reader keeps between lines: the line of each field seen (0:
 * not seen), and routing and shape, checked once the family is known. */
struct desc__state {
  int seen[DESC__COUNT];
  char routing[256];
  char shape[1024];
};

/* A number field (bw, lat, loopback-bw, loopback-lat, speed) into d. */
static int desc__number_field(int k, const char *key, const char *val, struct hnm_rnet_desc *d, const char *path,
                              int lineno, char *err, size_t errlen)
{
  double x = 0;

  if (k == DESC__LBW && strcmp(val, "none") == 0) {
    d->loopback = 0;
    return 0;
  }
  if (desc__number(val, &x) != 0 || x < 0 || ((k == DESC__BW || k == DESC__LBW || k == DESC__SPEED) && !(x > 0)))
    return hnm_fail(err, errlen, "%s:%d: %s: '%s' must be a %s number", path, lineno, key, val,
                    (k == DESC__LAT || k == DESC__LLAT) ? "non-negative" : "positive");
  if (k == DESC__BW)
    d->bw = x;
  else if (k == DESC__LAT)
    d->lat = x;
  else if (k == DESC__LBW)
    d->loopback = 1, d->loopback_bw = x;
  else if (k == DESC__LLAT)
    d->loopback_lat = x;
  else
    d->speed = x;
  return 0;
}

/* One 'key value' line (k: the key's index) into d or st. */
static int desc__field(int k, const char *key, const char *val, struct hnm_rnet_desc *d, struct desc__state *st,
                       const char *path, int lineno, char *err, size_t errlen)
{
  char why[256];
  double x = 0;

  switch (k) {
    case DESC__FAMILY:
      if (strcmp(val, "dragonfly") == 0)
        d->topo.family = HNM_TOPO_DRAGONFLY;
      else if (strcmp(val, "torus") == 0)
        d->topo.family = HNM_TOPO_TORUS;
      else if (strcmp(val, "fattree") == 0)
        d->topo.family = HNM_TOPO_FATTREE;
      else
        return hnm_fail(err, errlen, "%s:%d: family: '%s' is not dragonfly, torus or fattree", path, lineno, val);
      return 0;
    case DESC__ROUTING:
      snprintf(st->routing, sizeof st->routing, "%s", val);
      return 0;
    case DESC__SHAPE:
      snprintf(st->shape, sizeof st->shape, "%s", val);
      return 0;
    case DESC__SEED: {
      char *end;
      errno = 0;
      unsigned long long s = strtoull(val, &end, 10);
      if (!isdigit((unsigned char)val[0]) || *end != '\0' || errno != 0)
        return hnm_fail(err, errlen, "%s:%d: seed: '%s' is not an integer in [0, 2^64)", path, lineno, val);
      d->seed = (uint64_t)s;
      return 0;
    }
    case DESC__UGAL_T:
      if (desc__number(val, &x) != 0 || x < 0)
        return hnm_fail(err, errlen, "%s:%d: ugal-threshold: '%s' must be a non-negative number of seconds", path,
                        lineno, val);
      d->ugal_threshold = x;
      return 0;
    case DESC__SHARING:
      if (strcmp(val, "SPLITDUPLEX") != 0 && strcmp(val, "SHARED") != 0)
        return hnm_fail(err, errlen, "%s:%d: sharing: '%s' is not SPLITDUPLEX or SHARED", path, lineno, val);
      d->splitduplex = val[1] == 'P';
      return 0;
    case DESC__CORES:
      if (hnm_topo_parse_count(val, &d->cores, why, sizeof why) != 0)
        return hnm_fail(err, errlen, "%s:%d: cores: %s", path, lineno, why);
      return 0;
    default:
      return desc__number_field(k, key, val, d, path, lineno, err, errlen);
  }
}

/* One line (its newline removed): the magic on line 1, comments and blank
 * lines skipped, else a field. */
static int desc__line(char *line, struct hnm_rnet_desc *d, struct desc__state *st, const char *path, int lineno,
                      char *err, size_t errlen)
{
  char *key, *val;
  int k;

  if (lineno == 1) {
    if (strcmp(line, HNM_RNET_MAGIC) != 0)
      return hnm_fail(err, errlen, "%s:1: not an hnm routed platform (first line '%s' expected)", path,
                      HNM_RNET_MAGIC);
    return 0;
  }
  if (line[0] == '#' || line[0] == '\0')
    return 0;
  key = line;
  val = strchr(line, ' ');
  if (val == NULL)
    return hnm_fail(err, errlen, "%s:%d: '%s': expected 'key value'", path, lineno, line);
  *val++ = '\0';
  for (k = 0; k < DESC__COUNT && strcmp(key, desc__keys[k]) != 0; k++)
    ;
  if (k == DESC__COUNT)
    return hnm_fail(err, errlen, "%s:%d: unknown field '%s'", path, lineno, key);
  if (st->seen[k]++)
    return hnm_fail(err, errlen, "%s:%d: %s: given twice", path, lineno, key);
  if (desc__field(k, key, val, d, st, path, lineno, err, errlen) != 0)
    return -1;
  st->seen[k] = lineno;
  return 0;
}

/* After the last line: every field there, then routing and shape, now that
 * the family is known. */
static int desc__finish(struct hnm_rnet_desc *d, const struct desc__state *st, const char *path, char *err,
                        size_t errlen)
{
  char why[1024];

  for (int k = 0; k < DESC__COUNT; k++)
    if (!st->seen[k] && k != DESC__LLAT && k != DESC__UGAL_T)
      return hnm_fail(err, errlen, "%s: %s: missing", path, desc__keys[k]);
  if (hnm_routing_parse(d->topo.family, st->routing, &d->routing, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "%s:%d: routing: %s", path, st->seen[DESC__ROUTING], why + strlen("--routing: "));
  if (d->topo.family == HNM_TOPO_DRAGONFLY) {
    d->topo.own_routing = 1;
    if (desc__dragonfly_shape(st->shape, &d->topo) != 0)
      return hnm_fail(err, errlen, "%s:%d: shape: '%s' is not GROUPS,BLUE;CHASSIS,BLACK;ROUTERS,GREEN;NODES", path,
                      st->seen[DESC__SHAPE], st->shape);
  } else if (d->topo.family == HNM_TOPO_FATTREE) {
    if (desc__fattree_shape(st->shape, &d->topo, why, 256) != 0)
      return hnm_fail(err, errlen, "%s:%d: shape: '%s': %s", path, st->seen[DESC__SHAPE], st->shape, why);
  } else if (hnm_topo_parse_list(st->shape, ',', "dimension", d->topo.dims, HNM_TOPO_MAX_DIMS, &d->topo.ndims, why,
                                 256) != 0) {
    return hnm_fail(err, errlen, "%s:%d: shape: %s", path, st->seen[DESC__SHAPE], why);
  }
  if (hnm_topo_check(&d->topo, why, 256) != 0)
    return hnm_fail(err, errlen, "%s:%d: shape: %s", path, st->seen[DESC__SHAPE], why);
  if (d->loopback && !st->seen[DESC__LLAT])
    return hnm_fail(err, errlen, "%s: loopback-lat: missing", path);
  return 0;
}

int hnm_rnet_desc_read(const char *path, struct hnm_rnet_desc *d, char *err, size_t errlen)
{
  static struct desc__state zero;
  struct desc__state st = zero;
  int lineno = 0, rc = -1;
  char line[1024], why[256];
  FILE *f = hnm_input_open(path, why, sizeof why);

  memset(d, 0, sizeof *d);
  d->ugal_threshold = HNM_RNET_UGAL_THRESHOLD;
  if (f == NULL)
    return hnm_fail(err, errlen, "%s: %s", path, why);
  while (fgets(line, sizeof line, f) != NULL) {
    size_t n = strlen(line);
    lineno++;
    if (n > 0 && line[n - 1] == '\n')
      line[--n] = '\0';
    else if (!feof(f)) {
      hnm_errf(err, errlen, "%s:%d: line too long", path, lineno);
      goto out;
    }
    if (desc__line(line, d, &st, path, lineno, err, errlen) != 0)
      goto out;
  }
  if (ferror(f)) {
    hnm_errf(err, errlen, "%s: read error: %s", path, strerror(errno));
    goto out;
  }
  if (lineno == 0) {
    hnm_errf(err, errlen, "%s: empty file", path);
    goto out;
  }
  rc = desc__finish(d, &st, path, err, errlen);
out:
  fclose(f);
  return rc;
}
