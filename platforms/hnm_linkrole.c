/* hnm_linkrole.c -- link roles from link names (see hnm_linkrole.h).
 *
 * Names recognised (SimGrid 3.32's zones, ZONE = the cluster's id):
 *   ZONE_link_I_loopback, ZONE_link_I_limiter            loopback, limiter
 *   ZONE_link_from_I_to_J[_UP|_DOWN]                      torus (UP: I -> J)
 *   link_from_C_P_U[_UP|_DOWN]                            fat tree (UP: C -> P)
 *   local_link_from_router_R_to_node_N_U[_UP|_DOWN]       dragonfly node (UP: node -> router)
 *   blue_link_between_group_I_and_J_routers_X_and_Y_U[_UP|_DOWN]  global (UP: I -> J)
 *   green_link_in_chassis_..., black_link_in_group_...    local (UP: first router named -> second)
 *   cabN_link_I_UP / _DOWN, cabN-up / cabN-down           hnm-platform cluster
 * and hnm's routed platforms: dragonfly_node_I_up|down, dragonfly_green_gG_cC_rA_to_rB,
 * dragonfly_black_gG_rR_cA_to_cB, dragonfly_global_gA_rX_to_gB_rY_kK, and the
 * torus names above.
 */
#include "hnm_linkrole.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hnm_linkrole_topo_parse(const char *topology, const char *params, struct hnm_linkrole_topo *t)
{
  char err[256], buf[512];
  memset(t, 0, sizeof *t);
  if (topology == NULL || params == NULL)
    return -1;
  if (strcmp(topology, "hnm-torus") == 0 || strcmp(topology, "hnm-dragonfly") == 0 || strcmp(topology, "hnm-fattree") == 0)
    t->routed = 1;
  if (strcmp(topology, "TORUS") == 0 || strcmp(topology, "hnm-torus") == 0) {
    t->topo.family = HNM_TOPO_TORUS;
    if (hnm_topo_parse_list(params, ',', "dimension", t->topo.dims, HNM_TOPO_MAX_DIMS, &t->topo.ndims, err,
                            sizeof err) != 0)
      return -1;
  } else if (strcmp(topology, "FAT_TREE") == 0 || strcmp(topology, "hnm-fattree") == 0) {
    /* levels;down;up;links */
    char *parts[4], *save = NULL;
    int n = 0, count;
    snprintf(buf, sizeof buf, "%s", params);
    for (char *p = strtok_r(buf, ";", &save); p != NULL && n < 4; p = strtok_r(NULL, ";", &save))
      parts[n++] = p;
    if (n != 4)
      return -1;
    t->topo.family = HNM_TOPO_FATTREE;
    t->topo.ndims = atoi(parts[0]);
    if (hnm_topo_parse_list(parts[1], ',', "level", t->topo.dims, HNM_TOPO_MAX_DIMS, &count, err, sizeof err) != 0 ||
        count != t->topo.ndims ||
        hnm_topo_parse_list(parts[2], ',', "level", t->topo.up, HNM_TOPO_MAX_DIMS, &count, err, sizeof err) != 0 ||
        hnm_topo_parse_list(parts[3], ',', "level", t->topo.links, HNM_TOPO_MAX_DIMS, &count, err, sizeof err) != 0)
      return -1;
  } else if (strcmp(topology, "DRAGONFLY") == 0 || strcmp(topology, "hnm-dragonfly") == 0) {
    unsigned long v[7];
    if (sscanf(params, "%lu,%lu;%lu,%lu;%lu,%lu;%lu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) != 7)
      return -1;
    t->topo.family = HNM_TOPO_DRAGONFLY;
    t->topo.groups = v[0], t->topo.blue = v[1], t->topo.chassis = v[2], t->topo.black = v[3];
    t->topo.routers = v[4], t->topo.green = v[5], t->topo.nodes = v[6];
    t->topo.own_routing = t->routed;
  } else {
    return -1;
  }
  if (hnm_topo_check(&t->topo, err, sizeof err) != 0)
    return -1;
  t->known = 1;
  return 0;
}

const char *const hnm_linkrole_limiter_owner[] = {"_UP", "", NULL};

size_t hnm_linkrole_limiter_base(const char *name)
{
  static const char suffix[] = "_limiter";
  size_t n = strlen(name), k = sizeof suffix - 1;
  return n > k && strcmp(name + n - k, suffix) == 0 ? n - k : 0;
}

/* Direction suffix: 1 for _UP / _up, 0 for _DOWN / _down, -1 for none. */
static int linkrole__direction(const char *name)
{
  size_t n = strlen(name);
  if (n > 3 && (strcmp(name + n - 3, "_UP") == 0 || strcmp(name + n - 3, "_up") == 0))
    return 1;
  if (n > 5 && (strcmp(name + n - 5, "_DOWN") == 0 || strcmp(name + n - 5, "_down") == 0))
    return 0;
  return -1;
}

static long torus_dimension(const struct hnm_linkrole_topo *t, unsigned long from, unsigned long to)
{
  unsigned long s = 1;
  if (!t->known || t->topo.family != HNM_TOPO_TORUS)
    return -1;
  for (int k = 0; k < t->topo.ndims; k++) {
    unsigned long d = t->topo.dims[k];
    if ((from / s) % d != (to / s) % d)
      return k;
    s *= d;
  }
  return -1;
}

/* SimGrid's fat tree numbers hosts 0..N-1 and switches from 2N-1 down,
 * level 1 first. */
static long fattree_level(const struct hnm_linkrole_topo *t, long id)
{
  unsigned long hosts, next;
  if (!t->known || t->topo.family != HNM_TOPO_FATTREE)
    return -1;
  hosts = hnm_topo_hosts(&t->topo);
  if (id >= 0 && (unsigned long)id < hosts)
    return 0;
  next = 2 * hosts; /* ids of level l are [next - count, next) */
  for (int l = 1; l <= t->topo.ndims; l++) {
    unsigned long count = hnm_topo_fattree_level_switches(&t->topo, l);
    if ((unsigned long)id < next && (unsigned long)id >= next - count)
      return l;
    next -= count;
  }
  return -1;
}

/* hnm's routed dragonfly's local links (platforms/hnm_routing.c): green,
 * "dragonfly_green_gG_cC_rR1_(to_)rR2", joins two routers of a chassis;
 * black, "dragonfly_black_gG_rR_cC1_(to_)cC2", two chassis at one router
 * position. b and c: the two ends' positions in the group (-1 when the
 * shape is not known). 1 when NAME is one. */
static int linkrole__local(const char *name, const struct hnm_linkrole_topo *t, struct hnm_linkrole *out)
{
  static const struct {
    const char *split, *shared;
    int row; /* green: FIXED is the chassis, the ends are routers */
  } kinds[] = {
    {"dragonfly_green_g%lu_c%lu_r%lu_to_r%lu", "dragonfly_green_g%lu_c%lu_r%lu_r%lu", 1},
    {"dragonfly_black_g%lu_r%lu_c%lu_to_c%lu", "dragonfly_black_g%lu_r%lu_c%lu_c%lu", 0},
  };
  unsigned long g, fixed, from, to, R = t->known ? t->topo.routers : 0;

  for (int k = 0; k < 2; k++)
    if (sscanf(name, kinds[k].split, &g, &fixed, &from, &to) == 4 ||
        sscanf(name, kinds[k].shared, &g, &fixed, &from, &to) == 4) {
      out->role = "local";
      out->a = (long)g;
      out->b = R ? (long)(kinds[k].row ? fixed * R + from : from * R + fixed) : -1;
      out->c = R ? (long)(kinds[k].row ? fixed * R + to : to * R + fixed) : -1;
      return 1;
    }
  return 0;
}

void hnm_linkrole_of(const char *name, const struct hnm_linkrole_topo *t, struct hnm_linkrole *out)
{
  unsigned long x, y, z, w, u;
  long ll;
  int pos = 0, dir = linkrole__direction(name);
  const char *p;
  char word[16];

  out->role = "other";
  out->a = out->b = out->c = -1;

  /* hnm's routed dragonfly */
  if (sscanf(name, "dragonfly_node_%lu_%n", &x, &pos) == 1 && pos > 0) {
    out->a = (long)x;
    out->role = strcmp(name + pos, "loopback") == 0 ? "loopback" : dir == 1 ? "node-up" : dir == 0 ? "node-down" : "node";
    return;
  }
  if (linkrole__local(name, t, out))
    return;
  if (sscanf(name, "dragonfly_global_g%lu_r%*u_to_g%lu_r%*u_k%lu", &x, &y, &z) == 3 ||
      sscanf(name, "dragonfly_global_g%lu_r%*u_g%lu_r%*u_k%lu", &x, &y, &z) == 3) {
    out->role = "global";
    out->a = (long)x, out->b = (long)y, out->c = (long)z;
    return;
  }

  /* hnm's routed fat tree: fattree_lL_nX_uU_cC[_UP|_DOWN] */
  if (sscanf(name, "fattree_l%lu_n%lu_u%lu_c%lu", &x, &y, &z, &w) == 4) {
    out->role = dir == 0 ? "fattree-down" : "fattree-up";
    out->a = (long)x, out->b = (long)y, out->c = (long)z;
    return;
  }
  if (sscanf(name, "fattree_node_%lu_loopback", &x) == 1) {
    out->role = "loopback";
    out->a = (long)x;
    return;
  }

  /* SimGrid's dragonfly */
  if (sscanf(name, "local_link_from_router_%lu_to_node_%lu_%lu", &x, &y, &z) == 3) {
    out->role = dir == 1 ? "node-up" : dir == 0 ? "node-down" : "node";
    out->a = t->known && t->topo.family == HNM_TOPO_DRAGONFLY ? (long)(x * t->topo.nodes + y) : -1;
    return;
  }
  if (sscanf(name, "blue_link_between_group_%lu_and_%lu_", &x, &y) == 2) {
    out->role = "global";
    out->a = (long)(dir == 0 ? y : x), out->b = (long)(dir == 0 ? x : y);
    return;
  }
  if (strncmp(name, "green_link_in_chassis_", 22) == 0 || strncmp(name, "black_link_in_group_", 20) == 0) {
    unsigned long R = t->known && t->topo.family == HNM_TOPO_DRAGONFLY ? t->topo.routers : 0;
    out->role = "local";
    /* UP goes from the first router named to the second, DOWN back. */
    if (sscanf(name, "black_link_in_group_%lu_between_chassis_%lu_and_%lu_blade_%lu_", &x, &y, &z, &w) == 4) {
      out->a = (long)x;
      if (R > 0) {
        out->b = (long)((dir == 0 ? z : y) * R + w);
        out->c = (long)((dir == 0 ? y : z) * R + w);
      }
    } else if (sscanf(name, "green_link_in_chassis_%lu_between_routers_%lu_and_%lu_", &x, &y, &z) == 3 && R > 0) {
      out->b = (long)(x * R + (dir == 0 ? z : y));
      out->c = (long)(x * R + (dir == 0 ? y : z));
    }
    if (name[0] == 'b' && out->a < 0 && sscanf(name, "black_link_in_group_%lu_", &x) == 1)
      out->a = (long)x;
    else if (name[0] == 'g' && t->known && t->topo.family == HNM_TOPO_DRAGONFLY && (p = strrchr(name, '_')) != NULL) {
      /* green: the unique id after the node links, per chassis R(R-1)/2 */
      const struct hnm_topo *g = &t->topo;
      const char *idp = dir >= 0 ? NULL : p + 1;
      if (idp == NULL) { /* _UP/_DOWN: the id is the field before */
        const char *q = p - 1;
        while (q > name && *q != '_')
          q--;
        idp = q + 1;
      }
      unsigned long id = strtoul(idp, NULL, 10), first = g->groups * g->chassis * g->routers * g->nodes;
      unsigned long pairs = g->routers * (g->routers - 1) / 2;
      if (pairs > 0 && id >= first)
        out->a = (long)((id - first) / pairs / g->chassis);
    }
    return;
  }

  /* SimGrid's fat tree */
  if (sscanf(name, "link_from_%ld_%lu_%lu", &ll, &x, &y) == 3) {
    out->role = dir == 0 ? "fattree-down" : "fattree-up";
    out->a = fattree_level(t, ll);
    out->b = ll, out->c = (long)x;
    return;
  }

  /* Cluster families and the torus (any zone id): ..._link_I_loopback|limiter, ..._link_from_I_to_J */
  if ((p = strstr(name, "_link_from_")) != NULL && sscanf(p, "_link_from_%lu_to_%lu", &x, &y) == 2) {
    out->role = "torus";
    out->b = (long)(dir == 0 ? y : x), out->c = (long)(dir == 0 ? x : y);
    out->a = torus_dimension(t, x, y);
    return;
  }
  if ((p = strstr(name, "_link_")) != NULL && sscanf(p, "_link_%lu_%15[a-zA-Z]%n", &x, word, &pos) == 2 &&
      p[pos] == '\0') {
    out->a = (long)x;
    out->role = strcmp(word, "loopback") == 0  ? "loopback"
                : strcmp(word, "limiter") == 0 ? "limiter"
                : strcmp(word, "UP") == 0      ? "node-up"
                : strcmp(word, "DOWN") == 0    ? "node-down"
                                               : "other";
    if (strcmp(out->role, "other") == 0)
      out->a = -1;
    return;
  }
  if (sscanf(name, "cab%lu-%15[a-z]%n", &u, word, &pos) == 2 && name[pos] == '\0') {
    out->a = (long)u;
    out->role = strcmp(word, "up") == 0 ? "cabinet-up" : strcmp(word, "down") == 0 ? "cabinet-down"
                : strcmp(word, "limiter") == 0 ? "cabinet-limiter" : "other";
    return;
  }
}
