/* hnm_routing_desc.c -- routed platforms' names and description file
 * (hnm_routing.h): the routing names of each family and their parsing, link
 * role names, and the description file hnm-platform --routing writes and
 * libhnmplatform.so reads (format in docs/platforms.md, "Routing"). Pure
 * C11, no SimGrid. The layouts and route choosers are in hnm_routing.c.
 */
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
  char line[64];
  FILE *f = fopen(path, "r");
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

int hnm_rnet_desc_read(const char *path, struct hnm_rnet_desc *d, char *err, size_t errlen)
{
  enum {
    K_FAMILY, K_ROUTING, K_SEED, K_SHAPE, K_BW, K_LAT, K_SHARING, K_LBW, K_LLAT, K_SPEED, K_CORES, K_UGAL_T, K_COUNT
  };
  static const char *const keys[K_COUNT] = {"family",  "routing",     "seed",         "shape", "bw",    "lat",
                                            "sharing", "loopback-bw", "loopback-lat", "speed", "cores", "ugal-threshold"};
  int seen[K_COUNT] = {0};
  int lineno = 0, rc = -1;
  char line[1024], topo_err[256];
  const char *shape = NULL;
  char shape_buf[1024];
  FILE *f = fopen(path, "r");

  memset(d, 0, sizeof *d);
  d->ugal_threshold = HNM_RNET_UGAL_THRESHOLD;
  if (f == NULL) {
    hnm_errf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    return -1;
  }
  while (fgets(line, sizeof line, f) != NULL) {
    size_t n = strlen(line);
    char *key, *val;
    int k;
    lineno++;
    if (n > 0 && line[n - 1] == '\n')
      line[--n] = '\0';
    else if (!feof(f)) {
      hnm_errf(err, errlen, "%s:%d: line too long", path, lineno);
      goto out;
    }
    if (lineno == 1) {
      if (strcmp(line, HNM_RNET_MAGIC) != 0) {
        hnm_errf(err, errlen, "%s:1: not an hnm routed platform (first line '%s' expected)", path,
                      HNM_RNET_MAGIC);
        goto out;
      }
      continue;
    }
    if (line[0] == '#' || line[0] == '\0')
      continue;
    key = line;
    val = strchr(line, ' ');
    if (val == NULL) {
      hnm_errf(err, errlen, "%s:%d: '%s': expected 'key value'", path, lineno, line);
      goto out;
    }
    *val++ = '\0';
    for (k = 0; k < K_COUNT && strcmp(key, keys[k]) != 0; k++)
      ;
    if (k == K_COUNT) {
      hnm_errf(err, errlen, "%s:%d: unknown field '%s'", path, lineno, key);
      goto out;
    }
    if (seen[k]++) {
      hnm_errf(err, errlen, "%s:%d: %s: given twice", path, lineno, key);
      goto out;
    }
    double x = 0;
    switch (k) {
      case K_FAMILY:
        if (strcmp(val, "dragonfly") == 0)
          d->topo.family = HNM_TOPO_DRAGONFLY;
        else if (strcmp(val, "torus") == 0)
          d->topo.family = HNM_TOPO_TORUS;
        else if (strcmp(val, "fattree") == 0)
          d->topo.family = HNM_TOPO_FATTREE;
        else {
          hnm_errf(err, errlen, "%s:%d: family: '%s' is not dragonfly, torus or fattree", path, lineno, val);
          goto out;
        }
        break;
      case K_ROUTING:
      case K_SHAPE:
        /* checked once the family is known */
        if (k == K_SHAPE) {
          snprintf(shape_buf, sizeof shape_buf, "%s", val);
          shape = shape_buf;
        } else {
          snprintf(topo_err, sizeof topo_err, "%s", val);
        }
        seen[k] = lineno;
        break;
      case K_SEED: {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(val, &end, 10);
        if (!isdigit((unsigned char)val[0]) || *end != '\0' || errno != 0) {
          hnm_errf(err, errlen, "%s:%d: seed: '%s' is not an integer in [0, 2^64)", path, lineno, val);
          goto out;
        }
        d->seed = (uint64_t)s;
        break;
      }
      case K_UGAL_T:
        if (desc__number(val, &x) != 0 || x < 0) {
          hnm_errf(err, errlen, "%s:%d: ugal-threshold: '%s' must be a non-negative number of seconds", path,
                        lineno, val);
          goto out;
        }
        d->ugal_threshold = x;
        break;
      case K_BW:
      case K_LAT:
      case K_LBW:
      case K_LLAT:
      case K_SPEED:
        if (k == K_LBW && strcmp(val, "none") == 0) {
          d->loopback = 0;
          break;
        }
        if (desc__number(val, &x) != 0 || x < 0 || ((k == K_BW || k == K_LBW || k == K_SPEED) && !(x > 0))) {
          hnm_errf(err, errlen, "%s:%d: %s: '%s' must be a %s number", path, lineno, key, val,
                        (k == K_LAT || k == K_LLAT) ? "non-negative" : "positive");
          goto out;
        }
        if (k == K_BW)
          d->bw = x;
        else if (k == K_LAT)
          d->lat = x;
        else if (k == K_LBW)
          d->loopback = 1, d->loopback_bw = x;
        else if (k == K_LLAT)
          d->loopback_lat = x;
        else
          d->speed = x;
        break;
      case K_SHARING:
        if (strcmp(val, "SPLITDUPLEX") == 0 || strcmp(val, "SHARED") == 0)
          d->splitduplex = val[1] == 'P';
        else {
          hnm_errf(err, errlen, "%s:%d: sharing: '%s' is not SPLITDUPLEX or SHARED", path, lineno, val);
          goto out;
        }
        break;
      case K_CORES:
        if (hnm_topo_parse_count(val, &d->cores, topo_err, sizeof topo_err) != 0) {
          hnm_errf(err, errlen, "%s:%d: cores: %s", path, lineno, topo_err);
          goto out;
        }
        break;
    }
  }
  if (ferror(f)) {
    hnm_errf(err, errlen, "%s: read error: %s", path, strerror(errno));
    goto out;
  }
  if (lineno == 0) {
    hnm_errf(err, errlen, "%s: empty file", path);
    goto out;
  }
  for (int k = 0; k < K_COUNT; k++)
    if (!seen[k] && k != K_LLAT && k != K_UGAL_T) {
      hnm_errf(err, errlen, "%s: %s: missing", path, keys[k]);
      goto out;
    }
  /* routing, then shape, now that the family is known */
  if (hnm_routing_parse(d->topo.family, topo_err, &d->routing, line, sizeof line) != 0) {
    hnm_errf(err, errlen, "%s:%d: routing: %s", path, seen[K_ROUTING], line + strlen("--routing: "));
    goto out;
  }
  if (d->topo.family == HNM_TOPO_DRAGONFLY) {
    d->topo.own_routing = 1;
    if (desc__dragonfly_shape(shape, &d->topo) != 0) {
      hnm_errf(err, errlen, "%s:%d: shape: '%s' is not GROUPS,BLUE;CHASSIS,BLACK;ROUTERS,GREEN;NODES", path,
                    seen[K_SHAPE], shape);
      goto out;
    }
  } else if (d->topo.family == HNM_TOPO_FATTREE) {
    if (desc__fattree_shape(shape, &d->topo, topo_err, sizeof topo_err) != 0) {
      hnm_errf(err, errlen, "%s:%d: shape: '%s': %s", path, seen[K_SHAPE], shape, topo_err);
      goto out;
    }
  } else if (hnm_topo_parse_list(shape, ',', "dimension", d->topo.dims, HNM_TOPO_MAX_DIMS, &d->topo.ndims, topo_err,
                                 sizeof topo_err) != 0) {
    hnm_errf(err, errlen, "%s:%d: shape: %s", path, seen[K_SHAPE], topo_err);
    goto out;
  }
  if (hnm_topo_check(&d->topo, topo_err, sizeof topo_err) != 0) {
    hnm_errf(err, errlen, "%s:%d: shape: %s", path, seen[K_SHAPE], topo_err);
    goto out;
  }
  if (d->loopback && !seen[K_LLAT]) {
    hnm_errf(err, errlen, "%s: loopback-lat: missing", path);
    goto out;
  }
  rc = 0;
out:
  fclose(f);
  return rc;
}
