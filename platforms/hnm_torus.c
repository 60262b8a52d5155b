/* hnm_torus.c -- the BG/Q torus graph and its default routes (hnm_torus.h). */
#define _POSIX_C_SOURCE 200809L
#include "hnm_torus.h"
#include "hnm_units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Torus --------------------------------------------------------------- */

struct hnm_torus *hnm_torus_new(const struct hnm_topo *t, char *err, size_t errlen)
{
  struct hnm_torus *g;
  int order[5];
  unsigned long n = 1;

  if (t->family != HNM_TOPO_BGQ || t->ndims != 5) {
    hnm_errf(err, errlen, "--shape: a BG/Q shape has 5 dimensions");
    return NULL;
  }
  for (int k = 0; k < 5; k++) {
    if (t->dims[k] < 1 || t->dims[k] > HNM_PATHS_MAX_DIM) {
      hnm_errf(err, errlen, "--shape: dimension %d is %lu, hnm-route takes 1 to %d", k + 1, t->dims[k],
                  HNM_PATHS_MAX_DIM);
      return NULL;
    }
    n *= t->dims[k];
  }
  if (n > HNM_PATHS_MAX_NODES) {
    hnm_errf(err, errlen, "--shape: %lu nodes, hnm-route takes at most %lu", n, HNM_PATHS_MAX_NODES);
    return NULL;
  }
  g = calloc(1, sizeof *g);
  if (g == NULL)
    goto oom;
  g->n = n;
  hnm_topo_bgq_order(t, order);
  for (int k = 0, s = 1; k < 5; k++) {
    g->dims[k] = (int)t->dims[order[k]];
    g->bgq_dim[k] = order[k];
    g->stride[k] = (unsigned long)s;
    s *= g->dims[k];
  }
  g->host_of_rank = malloc(n * sizeof *g->host_of_rank);
  g->rank_of_host = malloc(n * sizeof *g->rank_of_host);
  if (g->host_of_rank == NULL || g->rank_of_host == NULL)
    goto oom;
  for (unsigned long r = 0; r < n; r++) {
    unsigned long h = hnm_topo_machine_host(t, r);
    g->host_of_rank[r] = (uint32_t)h;
    g->rank_of_host[h] = (uint32_t)r;
  }
  return g;
oom:
  hnm_torus_free(g);
  hnm_errf(err, errlen, "out of memory");
  return NULL;
}

void hnm_torus_free(struct hnm_torus *g)
{
  if (g == NULL)
    return;
  free(g->host_of_rank);
  free(g->rank_of_host);
  free(g);
}

static inline int torus__coord(const struct hnm_torus *g, uint32_t h, int k)
{
  return (int)((h / g->stride[k]) % (unsigned long)g->dims[k]);
}

long hnm_torus_arc_head(const struct hnm_torus *g, uint32_t a)
{
  uint32_t h = a / HNM_PATHS_DEGREE;
  int k = (int)(a % HNM_PATHS_DEGREE) / 2, minus = (int)(a % 2);
  int d = g->dims[k], c, nc;

  if (d == 1 || h >= g->n)
    return -1;
  c = torus__coord(g, h, k);
  if (d == 2 && g->simgrid_links && c != minus)
    return -1;
  nc = minus ? (c + d - 1) % d : (c + 1) % d;
  return (long)h + ((long)nc - c) * (long)g->stride[k];
}

int hnm_torus_distance(const struct hnm_torus *g, uint32_t src, uint32_t dst)
{
  int hops = 0;

  for (int k = 0; k < 5; k++) {
    int d = g->dims[k], delta = abs(torus__coord(g, src, k) - torus__coord(g, dst, k));
    hops += delta < d - delta ? delta : d - delta;
  }
  return hops;
}

int hnm_torus_default_route(const struct hnm_torus *g, uint32_t src, uint32_t dst, uint32_t *arcs)
{
  uint32_t cur = src;
  int len = 0;

  for (int k = 0; k < 5; k++) {
    int d = g->dims[k], m = torus__coord(g, src, k), t = torus__coord(g, dst, k);
    int dir, steps;

    if (m == t)
      continue;
    dir = hnm_topo_torus_direction((unsigned long)d, (unsigned long)m, (unsigned long)t);
    steps = dir > 0 ? (t - m + d) % d : (m - t + d) % d;
    for (int s = 0; s < steps; s++) {
      uint32_t a = cur * HNM_PATHS_DEGREE + 2 * (uint32_t)k + (dir > 0 ? 0 : 1);
      arcs[len++] = a;
      cur = (uint32_t)hnm_torus_arc_head(g, a);
    }
  }
  return len;
}
