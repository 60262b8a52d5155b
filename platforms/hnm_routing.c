/* hnm_routing.c -- routed platforms: link layout and route choosers (see
 * hnm_routing.h; the description file and the names are in
 * hnm_routing_desc.c). Pure C11, no SimGrid.
 *
 * Dragonfly layout (G groups, C chassis of R routers per group, K = C x R
 * routers per group, N nodes per router, L = BLUE links between two groups).
 * Router x = g*K + c*R + r sits at position p = c*R + r of group g.
 *   - green: router (c, r1) -> (c, r2) of the same chassis, bw x GREEN;
 *   - black: router (c1, r) -> (c2, r) of the same position, bw x BLACK;
 *   - global: L links of bw between every two groups g and h. Copy k of
 *     them is global port j = h' x L + k of group g (h' = h's rank among
 *     the groups other than g), held by the router at position j mod K.
 *     With L = K (the presets: one link per router of a group) router p of
 *     every group links router p of every other group, the machine of Zheng
 *     & Marguinaud 2018, Table 1 (radix = nodes + local + groups - 1).
 * Minimal route between groups g and h from router position p: copy
 * k = p mod L (so traffic between two groups spreads over the copies by
 * source router), i.e. local hops to that copy's router in g (green then
 * black, at most 2), the global link, local hops from the landing router to
 * the destination router (at most 2). Inside a group: green then black.
 *
 * Fat-tree layout: SimGrid's XGFT(h; m; w; p) (m = down ports, w = up ports,
 * p = parallel links per level). A node of level l has digits d1..dh, d_i in
 * [0, w_i) for i <= l and in [0, m_i) above, index d1 + r1 (d2 + r2 (...))
 * (r_i the digit's radix): hosts (level 0) are numbered as SimGrid numbers
 * them (host i under the leaf switches of group i / m1). Up-port u of a
 * level-l node leads to the node with digit l+1 replaced by u. Random
 * routing climbs to the lowest level L at which source and destination
 * share every digit above L, choosing up-port and parallel link uniformly at
 * each level, then descends the unique way (digit l set to the
 * destination's), choosing the parallel link uniformly.
 *
 * Torus layout: exactly SimGrid 3.32's TorusZone (names, one link per host
 * and dimension toward its + neighbour, UP = that way, DOWN = back), and
 * DOR is SimGrid's algorithm line for line, half-ring ties included.
 *
 * One file for the three families: their link layouts and route choosers
 * index the same private struct hnm_rnet and its link arithmetic, which a
 * split per family would have to expose in a header.
 */
#include "hnm_routing.h"
#include "hnm_units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DF_MAX_ROUTE 12 /* up, <=2 local, global, <=2 local, global, <=2 local, down: 10 */

struct hnm_rnet {
  struct hnm_rnet_desc d;
  uint64_t rng;
  unsigned long hosts;
  size_t nlinks;
  int max_route;
  /* dragonfly */
  unsigned long G, C, R, K, N, L, routers;
  size_t lb, gr, bl, gl; /* first index of loopback, green, black, global links */
  /* fat tree: levels, m, w, p, nodes and first link index per level */
  int h;
  unsigned long fm[HNM_TOPO_MAX_DIMS], fw[HNM_TOPO_MAX_DIMS], fp[HNM_TOPO_MAX_DIMS];
  unsigned long fnodes[HNM_TOPO_MAX_DIMS + 1];
  size_t fbase[HNM_TOPO_MAX_DIMS + 1];
  /* torus */
  int D;
  unsigned long dims[HNM_TOPO_MAX_DIMS];
  unsigned long stride[HNM_TOPO_MAX_DIMS];
};

/* ---- random numbers ---------------------------------------------------- */

static uint64_t rng__next(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t hnm_routing_rng_below(uint64_t *state, uint64_t n)
{
  uint64_t threshold, x;
  if (n <= 1)
    return 0;
  threshold = (0 - n) % n; /* reject the first 2^64 mod n values: no modulo bias */
  do
    x = rng__next(state);
  while (x < threshold);
  return x % n;
}

int hnm_routing_ugal_prefers_minimal(double q_min, int h_min, double q_val, int h_val, double lat, double threshold)
{
  return q_min + h_min * lat <= q_val + h_val * lat + threshold;
}

/* ---- layout ------------------------------------------------------------ */

hnm_rnet *hnm_rnet_new(const struct hnm_rnet_desc *d, char *err, size_t errlen)
{
  hnm_rnet *n = calloc(1, sizeof *n);
  if (n == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return NULL;
  }
  n->d = *d;
  n->rng = d->seed;
  n->hosts = hnm_topo_hosts(&d->topo);
  if (d->topo.family == HNM_TOPO_DRAGONFLY) {
    const struct hnm_topo *t = &d->topo;
    n->G = t->groups, n->C = t->chassis, n->R = t->routers, n->N = t->nodes, n->L = t->blue;
    n->K = n->C * n->R;
    n->routers = n->G * n->K;
    n->lb = 2 * (size_t)n->hosts;
    n->gr = n->lb + n->hosts;
    n->bl = n->gr + (size_t)n->routers * n->R;
    n->gl = n->bl + (size_t)n->routers * n->C;
    if (n->G > 100000 || (double)n->G * n->G * n->L > 1e9) {
      hnm_errf(err, errlen, "%lu groups x %lu groups x %lu global links: too many links", n->G, n->G, n->L);
      free(n);
      return NULL;
    }
    n->nlinks = n->gl + (size_t)n->G * n->G * n->L;
    n->max_route = DF_MAX_ROUTE;
  } else if (d->topo.family == HNM_TOPO_TORUS) {
    unsigned long s = 1, half = 0;
    n->D = d->topo.ndims;
    for (int k = 0; k < n->D; k++) {
      n->dims[k] = d->topo.dims[k];
      n->stride[k] = s;
      s *= n->dims[k];
      half += n->dims[k] / 2;
    }
    n->lb = 2 * (size_t)n->hosts * (size_t)n->D;
    n->nlinks = n->lb + n->hosts;
    n->max_route = (int)(2 * half + 2);
  } else if (d->topo.family == HNM_TOPO_FATTREE) {
    n->h = d->topo.ndims;
    for (int l = 0; l < n->h; l++)
      n->fm[l] = d->topo.dims[l], n->fw[l] = d->topo.up[l], n->fp[l] = d->topo.links[l];
    for (int l = 0; l <= n->h; l++) {
      double c = 1;
      for (int i = 0; i < n->h; i++)
        c *= (double)(i < l ? n->fw[i] : n->fm[i]);
      n->fnodes[l] = (unsigned long)c;
    }
    n->fbase[0] = 0;
    double total = 0;
    for (int l = 0; l < n->h; l++) {
      total += 2.0 * (double)n->fnodes[l] * (double)n->fw[l] * (double)n->fp[l];
      n->fbase[l + 1] = n->fbase[l] + 2 * (size_t)n->fnodes[l] * n->fw[l] * n->fp[l];
    }
    if (total > 1e9) {
      hnm_errf(err, errlen, "fat tree of %.0f links: too many", total);
      free(n);
      return NULL;
    }
    n->lb = n->fbase[n->h];
    n->nlinks = n->lb + n->hosts;
    n->max_route = 2 * n->h + 2;
  } else {
    hnm_errf(err, errlen, "hnm's platform library routes dragonfly, torus and fattree only");
    free(n);
    return NULL;
  }
  return n;
}

void hnm_rnet_free(hnm_rnet *n)
{
  free(n);
}

const struct hnm_rnet_desc *hnm_rnet_get_desc(const hnm_rnet *n)
{
  return &n->d;
}
unsigned long hnm_rnet_hosts(const hnm_rnet *n)
{
  return n->hosts;
}
size_t hnm_rnet_link_count(const hnm_rnet *n)
{
  return n->nlinks;
}
int hnm_rnet_max_route(const hnm_rnet *n)
{
  return n->max_route;
}
size_t hnm_rnet_loopback(const hnm_rnet *n, unsigned long host)
{
  return n->lb + host;
}

/* Fat tree: digit i (0-based) of node x at level l, and x with digit i set
 * to v where the node's level becomes nl (radices change at digit i). */
static unsigned long ft_radix(const hnm_rnet *n, int level, int i)
{
  return i < level ? n->fw[i] : n->fm[i];
}
static unsigned long ft_digit(const hnm_rnet *n, int level, unsigned long x, int i)
{
  for (int k = 0; k < i; k++)
    x /= ft_radix(n, level, k);
  return x % ft_radix(n, level, i);
}
static unsigned long ft_replace(const hnm_rnet *n, int level, unsigned long x, int i, unsigned long v, int nlevel)
{
  unsigned long digits[HNM_TOPO_MAX_DIMS], y = 0;
  for (int k = 0; k < n->h; k++) {
    digits[k] = x % ft_radix(n, level, k);
    x /= ft_radix(n, level, k);
  }
  digits[i] = v;
  for (int k = n->h - 1; k >= 0; k--)
    y = y * ft_radix(n, nlevel, k) + digits[k];
  return y;
}
static size_t ft_link(const hnm_rnet *n, int level, unsigned long x, unsigned long u, unsigned long c, int down)
{
  return n->fbase[level] + (((size_t)x * n->fw[level] + u) * n->fp[level] + c) * 2 + (size_t)down;
}

static void ft_link_info(const hnm_rnet *n, size_t i, struct hnm_rnet_link *o)
{
  o->lat = n->d.lat;
  o->canonical = i;
  if (i >= n->lb) {
    unsigned long h = (unsigned long)(i - n->lb);
    o->role = HNM_LINK_LOOPBACK;
    o->bw = n->d.loopback_bw, o->lat = n->d.loopback_lat, o->fatpipe = 1;
    o->a = (long)h;
    snprintf(o->name, sizeof o->name, "fattree_node_%lu_loopback", h);
    return;
  }
  int l = 0;
  while (l + 1 < n->h && i >= n->fbase[l + 1])
    l++;
  size_t j = (i - n->fbase[l]) / 2;
  int down = (i - n->fbase[l]) % 2 == 1;
  unsigned long c = (unsigned long)(j % n->fp[l]), u = (unsigned long)(j / n->fp[l] % n->fw[l]);
  unsigned long x = (unsigned long)(j / n->fp[l] / n->fw[l]);
  o->role = down ? HNM_LINK_FATTREE_DOWN : HNM_LINK_FATTREE_UP;
  o->bw = n->d.bw;
  o->a = l, o->b = (long)x, o->c = (long)u;
  if (!n->d.splitduplex)
    o->canonical = i - (size_t)down;
  if (n->d.splitduplex)
    snprintf(o->name, sizeof o->name, "fattree_l%d_n%lu_u%lu_c%lu_%s", l, x, u, c, down ? "DOWN" : "UP");
  else
    snprintf(o->name, sizeof o->name, "fattree_l%d_n%lu_u%lu_c%lu", l, x, u, c);
}

static int ft_route(hnm_rnet *n, unsigned long src, unsigned long dst, size_t *links)
{
  int m = 0, top = 0;
  if (src == dst) {
    if (n->d.loopback)
      links[m++] = n->lb + src;
    return m;
  }
  for (int i = 0; i < n->h; i++)
    if (ft_digit(n, 0, src, i) != ft_digit(n, 0, dst, i))
      top = i + 1;
  unsigned long x = src;
  for (int l = 0; l < top; l++) { /* up: digit l becomes the up-port */
    unsigned long u = (unsigned long)hnm_routing_rng_below(&n->rng, n->fw[l]);
    unsigned long c = (unsigned long)hnm_routing_rng_below(&n->rng, n->fp[l]);
    links[m++] = ft_link(n, l, x, u, c, 0);
    x = ft_replace(n, l, x, l, u, l + 1);
  }
  for (int l = top; l > 0; l--) { /* down: digit l-1 becomes the destination's */
    unsigned long u = ft_digit(n, l, x, l - 1);
    unsigned long child = ft_replace(n, l, x, l - 1, ft_digit(n, 0, dst, l - 1), l - 1);
    unsigned long c = (unsigned long)hnm_routing_rng_below(&n->rng, n->fp[l - 1]);
    links[m++] = ft_link(n, l - 1, child, u, c, 1);
    x = child;
  }
  return m;
}

/* Dragonfly link indices. */
static size_t df_up(unsigned long host)
{
  return 2 * (size_t)host;
}
static size_t df_down(unsigned long host)
{
  return 2 * (size_t)host + 1;
}
static size_t df_green(const hnm_rnet *n, unsigned long router, unsigned long to_r)
{
  return n->gr + (size_t)router * n->R + to_r;
}
static size_t df_black(const hnm_rnet *n, unsigned long router, unsigned long to_c)
{
  return n->bl + (size_t)router * n->C + to_c;
}
static size_t df_global(const hnm_rnet *n, unsigned long g, unsigned long h, unsigned long k)
{
  return n->gl + ((size_t)g * n->G + h) * n->L + k;
}
/* Position (inside group g) of the router holding copy k of g's links to h. */
static unsigned long df_port_router(const hnm_rnet *n, unsigned long g, unsigned long h, unsigned long k)
{
  unsigned long hp = h < g ? h : h - 1;
  return (unsigned long)(((unsigned long long)hp * n->L + k) % n->K);
}

static void torus_link(const hnm_rnet *n, size_t i, struct hnm_rnet_link *o)
{
  if (i >= n->lb) {
    unsigned long h = (unsigned long)(i - n->lb);
    o->role = HNM_LINK_LOOPBACK;
    o->canonical = i;
    o->bw = n->d.loopback_bw, o->lat = n->d.loopback_lat, o->fatpipe = 1;
    o->a = (long)h;
    snprintf(o->name, sizeof o->name, "torus_link_%lu_loopback", h);
    return;
  }
  size_t pair = i / 2;
  unsigned long host = (unsigned long)(pair / (size_t)n->D);
  int k = (int)(pair % (size_t)n->D);
  unsigned long d = n->dims[k], s = n->stride[k];
  unsigned long nb = (host / s) % d == d - 1 ? host - (d - 1) * s : host + s;
  int up = i % 2 == 0;
  o->role = HNM_LINK_TORUS;
  o->canonical = n->d.splitduplex ? i : 2 * pair;
  o->bw = n->d.bw, o->lat = n->d.lat;
  o->a = k;
  o->b = (long)(up ? host : nb);
  o->c = (long)(up ? nb : host);
  if (n->d.splitduplex)
    snprintf(o->name, sizeof o->name, "torus_link_from_%lu_to_%lu_%s", host, nb, up ? "UP" : "DOWN");
  else
    snprintf(o->name, sizeof o->name, "torus_link_from_%lu_to_%lu", host, nb);
}

/* Local link J (counted from the first of its kind) of a group's mesh of
 * chassis x routers: ROW, green, joins router r1 to r2 of one chassis c
 * ("dragonfly_green_gG_cC_rR1_r(or _to_r)R2"); else black, joins chassis c1
 * to c2 at one router position r ("dragonfly_black_gG_rR_cC1_c(_to_c)C2").
 * In both, FROM is the coordinate that changes, TO its value at the other
 * end, and FIXED the one both ends share. */
static void df_local_link(const hnm_rnet *n, size_t j, int row, struct hnm_rnet_link *o)
{
  const int sd = n->d.splitduplex;
  unsigned long x = (unsigned long)(j / (row ? n->R : n->C)), to = (unsigned long)(j % (row ? n->R : n->C));
  unsigned long g = x / n->K, p = x % n->K;
  unsigned long from = row ? p % n->R : p / n->R, fixed = row ? p / n->R : p % n->R;
  if (from == to) {
    o->role = HNM_LINK_NONE;
    return;
  }
  unsigned long peer = row ? fixed * n->R + to : to * n->R + fixed; /* the other end's position in the group */
  o->role = HNM_LINK_LOCAL;
  o->bw = n->d.bw * (double)(row ? n->d.topo.green : n->d.topo.black);
  o->a = (long)g, o->b = (long)p, o->c = (long)peer;
  if (!sd && from > to)
    o->canonical = row ? df_green(n, g * n->K + peer, from) : df_black(n, g * n->K + peer, from);
  unsigned long lo = sd || from < to ? from : to, hi = sd || from < to ? to : from;
  char fc = row ? 'c' : 'r', mc = row ? 'r' : 'c';
  snprintf(o->name, sizeof o->name, "dragonfly_%s_g%lu_%c%lu_%c%lu_%s%c%lu", row ? "green" : "black", g, fc, fixed, mc,
           lo, sd ? "to_" : "", mc, hi);
}

static void df_link(const hnm_rnet *n, size_t i, struct hnm_rnet_link *o)
{
  const int sd = n->d.splitduplex;
  o->lat = n->d.lat;
  o->canonical = i;
  if (i < n->lb) {
    unsigned long h = (unsigned long)(i / 2);
    int up = i % 2 == 0;
    o->role = up ? HNM_LINK_NODE_UP : HNM_LINK_NODE_DOWN;
    o->bw = n->d.bw;
    o->a = (long)h;
    o->canonical = sd ? i : df_up(h);
    if (sd)
      snprintf(o->name, sizeof o->name, "dragonfly_node_%lu_%s", h, up ? "up" : "down");
    else
      snprintf(o->name, sizeof o->name, "dragonfly_node_%lu", h);
  } else if (i < n->gr) {
    unsigned long h = (unsigned long)(i - n->lb);
    o->role = HNM_LINK_LOOPBACK;
    o->bw = n->d.loopback_bw, o->lat = n->d.loopback_lat, o->fatpipe = 1;
    o->a = (long)h;
    snprintf(o->name, sizeof o->name, "dragonfly_node_%lu_loopback", h);
  } else if (i < n->bl) {
    df_local_link(n, i - n->gr, 1, o);
  } else if (i < n->gl) {
    df_local_link(n, i - n->bl, 0, o);
  } else {
    size_t j = i - n->gl;
    unsigned long k = (unsigned long)(j % n->L), pair = (unsigned long)(j / n->L);
    unsigned long g = pair / n->G, h = pair % n->G;
    if (g == h) {
      o->role = HNM_LINK_NONE;
      return;
    }
    o->role = HNM_LINK_GLOBAL;
    o->bw = n->d.bw;
    o->a = (long)g, o->b = (long)h, o->c = (long)k;
    if (!sd && g > h)
      o->canonical = df_global(n, h, g, k);
    unsigned long lo = sd || g < h ? g : h, hi = sd || g < h ? h : g;
    snprintf(o->name, sizeof o->name, "dragonfly_global_g%lu_r%lu%sg%lu_r%lu_k%lu", lo,
             df_port_router(n, lo, hi, k), sd ? "_to_" : "_", hi, df_port_router(n, hi, lo, k), k);
  }
}

void hnm_rnet_link_info(const hnm_rnet *n, size_t i, struct hnm_rnet_link *out)
{
  memset(out, 0, sizeof *out);
  if (i >= n->nlinks)
    return;
  if (n->d.topo.family == HNM_TOPO_DRAGONFLY)
    df_link(n, i, out);
  else if (n->d.topo.family == HNM_TOPO_FATTREE)
    ft_link_info(n, i, out);
  else
    torus_link(n, i, out);
}

/* ---- routes ------------------------------------------------------------ */

/* Local hops inside group g from position p1 to p2: green then black. */
static int df_local(const hnm_rnet *n, unsigned long g, unsigned long p1, unsigned long p2, size_t *out)
{
  int m = 0;
  unsigned long c1 = p1 / n->R, r1 = p1 % n->R, c2 = p2 / n->R, r2 = p2 % n->R;
  if (r1 != r2)
    out[m++] = df_green(n, g * n->K + p1, r2);
  if (c1 != c2)
    out[m++] = df_black(n, g * n->K + c1 * n->R + r2, c2);
  return m;
}

/* Router-to-router hops from router position p of group g to router
 * position q of group h (minimal: one global link if g != h). */
static int df_minimal(const hnm_rnet *n, unsigned long g, unsigned long p, unsigned long h, unsigned long q,
                      size_t *out)
{
  if (g == h)
    return df_local(n, g, p, q, out);
  unsigned long k = p % n->L;
  unsigned long gw = df_port_router(n, g, h, k), land = df_port_router(n, h, g, k);
  int m = df_local(n, g, p, gw, out);
  out[m++] = df_global(n, g, h, k);
  return m + df_local(n, h, land, q, out + m);
}

static int df_valiant_router(const hnm_rnet *n, unsigned long g, unsigned long p, unsigned long v, unsigned long x,
                             unsigned long h, unsigned long q, size_t *out);

/* Via group v: minimal to v's router holding the link from g, then minimal to (h, q). */
static int df_valiant(const hnm_rnet *n, unsigned long g, unsigned long p, unsigned long v, unsigned long h,
                      unsigned long q, size_t *out)
{
  unsigned long land = df_port_router(n, v, g, p % n->L);
  return df_valiant_router(n, g, p, v, land, h, q, out);
}

/* Via router x of group v: minimal to it, then minimal to (h, q). */
static int df_valiant_router(const hnm_rnet *n, unsigned long g, unsigned long p, unsigned long v, unsigned long x,
                             unsigned long h, unsigned long q, size_t *out)
{
  int m = df_minimal(n, g, p, v, x, out);
  return m + df_minimal(n, v, x, h, q, out + m);
}

/* A uniform number of [0, COUNT) other than A and B (A != B, COUNT >= 3):
 * a group, or a host, through which Valiant's routes go. */
static unsigned long rng_other_than(hnm_rnet *n, unsigned long count, unsigned long a, unsigned long b)
{
  unsigned long v = (unsigned long)hnm_routing_rng_below(&n->rng, count - 2);
  unsigned long lo = a < b ? a : b, hi = a < b ? b : a;
  if (v >= lo)
    v++;
  if (v >= hi)
    v++;
  return v;
}

/* UGAL's congestion estimate of a path of router links (see hnm_rnet_route):
 * the largest load, over the source group's links up to the first global
 * link (ugal-l) or over the whole path (ugal-g), and at least floor. */
static double df_path_load(const hnm_rnet *n, const size_t *path, int m, hnm_rnet_load_fn load, void *ctx,
                           double floor)
{
  double q = floor;
  for (int i = 0; i < m; i++) {
    double x = load(path[i], ctx);
    if (x > q)
      q = x;
    if (n->d.routing == HNM_ROUTING_UGAL_L && path[i] >= n->gl)
      break;
  }
  return q;
}

static int df_route(hnm_rnet *n, unsigned long src, unsigned long dst, size_t *links, hnm_rnet_load_fn load,
                    void *ctx)
{
  unsigned long rs = src / n->N, rd = dst / n->N;
  unsigned long g = rs / n->K, p = rs % n->K, h = rd / n->K, q = rd % n->K;
  int m = 0;
  if (src == dst) {
    if (n->d.loopback)
      links[m++] = n->lb + src;
    return m;
  }
  links[m++] = df_up(src);
  if (g == h || n->d.routing == HNM_ROUTING_MINIMAL || n->G < 3) {
    m += df_minimal(n, g, p, h, q, links + m);
  } else if (n->d.routing == HNM_ROUTING_VALIANT_ROUTER) {
    /* A uniform router of a third group: draw the group, then the router. */
    unsigned long v = rng_other_than(n, n->G, g, h);
    unsigned long x = (unsigned long)hnm_routing_rng_below(&n->rng, n->K);
    m += df_valiant_router(n, g, p, v, x, h, q, links + m);
  } else {
    unsigned long v = rng_other_than(n, n->G, g, h);
    if (n->d.routing == HNM_ROUTING_VALIANT_GROUP) {
      m += df_valiant(n, g, p, v, h, q, links + m);
    } else {
      size_t val[DF_MAX_ROUTE];
      int hm = df_minimal(n, g, p, h, q, links + m);
      int hv = df_valiant(n, g, p, v, h, q, val);
      /* The hosts' links are on both candidates: their backlog bounds the
       * message's progress on either (ugal-l sees its own host's only). */
      double qh = 0, qm = 0, qv = 0;
      if (load != NULL) {
        qh = load(df_up(src), ctx);
        if (n->d.routing == HNM_ROUTING_UGAL_G && load(df_down(dst), ctx) > qh)
          qh = load(df_down(dst), ctx);
        qm = df_path_load(n, links + m, hm, load, ctx, qh);
        qv = df_path_load(n, val, hv, load, ctx, qh);
      }
      if (hnm_routing_ugal_prefers_minimal(qm, hm, qv, hv, n->d.lat, n->d.ugal_threshold)) {
        m += hm;
      } else {
        memcpy(links + m, val, (size_t)hv * sizeof *val);
        m += hv;
      }
    }
  }
  links[m++] = df_down(dst);
  return m;
}

/* ---- UGAL's backlog ---------------------------------------------------- */

struct hnm_rnet_backlog {
  size_t count;
  double *bw;    /* bytes/s, by link index (0: unused index) */
  double *bytes; /* backlog at time t[i] */
  double *t;     /* seconds */
  size_t *canonical;
};

hnm_rnet_backlog *hnm_rnet_backlog_new(const hnm_rnet *n)
{
  hnm_rnet_backlog *b = calloc(1, sizeof *b);
  if (b == NULL)
    return NULL;
  b->count = n->nlinks;
  b->bw = calloc(b->count, sizeof *b->bw);
  b->bytes = calloc(b->count, sizeof *b->bytes);
  b->t = calloc(b->count, sizeof *b->t);
  b->canonical = calloc(b->count, sizeof *b->canonical);
  if (b->bw == NULL || b->bytes == NULL || b->t == NULL || b->canonical == NULL) {
    hnm_rnet_backlog_free(b);
    return NULL;
  }
  for (size_t i = 0; i < b->count; i++) {
    struct hnm_rnet_link info;
    hnm_rnet_link_info(n, i, &info);
    b->bw[i] = info.role == HNM_LINK_NONE ? 0 : info.bw;
    b->canonical[i] = info.role == HNM_LINK_NONE ? i : info.canonical;
  }
  return b;
}

void hnm_rnet_backlog_free(hnm_rnet_backlog *b)
{
  if (b == NULL)
    return;
  free(b->bw);
  free(b->bytes);
  free(b->t);
  free(b->canonical);
  free(b);
}

/* Drain link c (a canonical index) up to time now. */
static void backlog__drain(hnm_rnet_backlog *b, size_t c, double now)
{
  if (now > b->t[c]) {
    double left = b->bytes[c] - b->bw[c] * (now - b->t[c]);
    b->bytes[c] = left > 0 ? left : 0;
    b->t[c] = now;
  }
}

void hnm_rnet_backlog_add(hnm_rnet_backlog *b, const size_t *links, int m, double bytes, double now)
{
  for (int i = 0; i < m; i++) {
    if (links[i] >= b->count)
      continue;
    size_t c = b->canonical[links[i]];
    backlog__drain(b, c, now);
    b->bytes[c] += bytes;
  }
}

double hnm_rnet_backlog_seconds(hnm_rnet_backlog *b, size_t link, double now)
{
  if (link >= b->count)
    return 0;
  size_t c = b->canonical[link];
  if (!(b->bw[c] > 0))
    return 0;
  backlog__drain(b, c, now);
  return b->bytes[c] / b->bw[c];
}

/* SimGrid 3.32's TorusZone::get_local_route, without limiters. */
static int torus_dor(const hnm_rnet *n, unsigned long src, unsigned long dst, size_t *links)
{
  int m = 0;
  unsigned long cur = src;
  while (cur != dst) {
    unsigned long next = cur;
    size_t link = 0;
    for (int j = 0; j < n->D; j++) {
      unsigned long d = n->dims[j], s = n->stride[j];
      unsigned long mine = (src / s) % d, target = (dst / s) % d;
      if ((cur / s) % d == target)
        continue;
      if (hnm_topo_torus_direction(d, mine, target) > 0) {
        next = (cur / s) % d == d - 1 ? cur + s - s * d : cur + s;
        link = 2 * ((size_t)cur * n->D + j); /* UP of cur's link toward next */
      } else {
        next = (cur / s) % d == 0 ? cur - s + s * d : cur - s;
        link = 2 * ((size_t)next * n->D + j) + 1; /* DOWN of next's link toward cur */
      }
      break;
    }
    links[m++] = link;
    cur = next;
  }
  return m;
}

static int torus_route(hnm_rnet *n, unsigned long src, unsigned long dst, size_t *links)
{
  if (src == dst) {
    if (n->d.loopback) {
      links[0] = n->lb + src;
      return 1;
    }
    return 0;
  }
  if (n->d.routing == HNM_ROUTING_VALIANT && n->hosts > 2) {
    unsigned long v = rng_other_than(n, n->hosts, src, dst);
    int m = torus_dor(n, src, v, links);
    return m + torus_dor(n, v, dst, links + m);
  }
  return torus_dor(n, src, dst, links);
}

int hnm_rnet_route(hnm_rnet *n, unsigned long src, unsigned long dst, size_t *links, hnm_rnet_load_fn load,
                   void *ctx)
{
  if (src >= n->hosts || dst >= n->hosts)
    return 0;
  if (n->d.topo.family == HNM_TOPO_DRAGONFLY)
    return df_route(n, src, dst, links, load, ctx);
  if (n->d.topo.family == HNM_TOPO_FATTREE)
    return ft_route(n, src, dst, links);
  return torus_route(n, src, dst, links);
}
