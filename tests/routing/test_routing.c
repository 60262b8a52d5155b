/* test_routing -- the pure part of routed platforms (platforms/hnm_routing.c):
 * routing names per family, the description file (round trip, bad input
 * naming file:line:field), the dragonfly and torus link layouts, and route
 * structure for every pair of small machines, walked link by link with
 * router coordinates derived here from the layout rules:
 *   - every route is connected (each hop leaves the router the previous one
 *     reached) and ends at the destination's router;
 *   - dragonfly minimal: exactly one global link between groups, none inside
 *     a group, and on each side exactly the local hops (green if the router
 *     position differs, black if the chassis differs) to the router holding
 *     the copy p mod L of the global links: no detour;
 *   - dragonfly valiant: two global links through a third group, chosen
 *     uniformly (counts over 60000 messages within 2% of the mean);
 *   - ugal: minimal when idle, Valiant when the minimal path's first link
 *     carries flows, the decision rule at its tie and neighbours;
 *   - torus dor: hops = wrap-around distance, dimensions in order; valiant:
 *     hops = distance to a random host + from it, through every host but
 *     src and dst with counts within 10% of the mean;
 *   - same seed, same routes; another seed, other routes.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "hnm_linkrole.h"
#include "hnm_routing.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct hnm_rnet_desc dragonfly(unsigned long G, unsigned long C, unsigned long R, unsigned long N,
                                      unsigned long L, enum hnm_routing r, uint64_t seed)
{
  struct hnm_rnet_desc d;
  memset(&d, 0, sizeof d);
  d.topo.family = HNM_TOPO_DRAGONFLY;
  d.topo.own_routing = 1;
  d.topo.groups = G, d.topo.chassis = C, d.topo.routers = R, d.topo.nodes = N;
  d.topo.blue = L, d.topo.black = 3, d.topo.green = 2;
  d.routing = r;
  d.seed = seed;
  d.bw = 1e9, d.lat = 1e-7, d.splitduplex = 1, d.loopback = 1, d.loopback_bw = 6e9, d.loopback_lat = 1e-6;
  d.speed = 1e9, d.cores = 1;
  return d;
}

static struct hnm_rnet_desc torus(const unsigned long *dims, int nd, enum hnm_routing r, uint64_t seed)
{
  struct hnm_rnet_desc d;
  memset(&d, 0, sizeof d);
  d.topo.family = HNM_TOPO_TORUS;
  d.topo.ndims = nd;
  for (int i = 0; i < nd; i++)
    d.topo.dims[i] = dims[i];
  d.routing = r;
  d.seed = seed;
  d.bw = 1e9, d.lat = 1e-7, d.splitduplex = 1, d.loopback = 1, d.loopback_bw = 6e9, d.loopback_lat = 1e-6;
  d.speed = 1e9, d.cores = 1;
  return d;
}

/* Dragonfly rules, restated: the router of group g at position j mod K
 * holds copy k of g's links to h, j = h' L + k (h' = rank of h among the
 * groups other than g). */
static unsigned long port_router(unsigned long g, unsigned long h, unsigned long k, unsigned long L, unsigned long K)
{
  return (((h < g ? h : h - 1) * L) + k) % K;
}

struct df_walk {
  int globals, locals_src, locals_dst, locals_mid, connected;
  long mid_group;
};

/* Walk a dragonfly route; routers are (group, position). */
static struct df_walk df_walk(const hnm_rnet *n, const struct hnm_rnet_desc *d, unsigned long src, unsigned long dst,
                              const size_t *links, int m)
{
  struct df_walk w = {0, 0, 0, 0, 1, -1};
  unsigned long K = d->topo.chassis * d->topo.routers, N = d->topo.nodes;
  unsigned long g = src / N / K, p = src / N % K;
  struct hnm_rnet_link l;
  hnm_rnet_link_info(n, links[0], &l);
  if (l.role != HNM_LINK_NODE_UP || l.a != (long)src)
    w.connected = 0;
  hnm_rnet_link_info(n, links[m - 1], &l);
  if (l.role != HNM_LINK_NODE_DOWN || l.a != (long)dst)
    w.connected = 0;
  for (int i = 1; i < m - 1; i++) {
    hnm_rnet_link_info(n, links[i], &l);
    if (l.role == HNM_LINK_LOCAL) {
      unsigned long c1 = (unsigned long)l.b / d->topo.routers, r1 = (unsigned long)l.b % d->topo.routers;
      unsigned long c2 = (unsigned long)l.c / d->topo.routers, r2 = (unsigned long)l.c % d->topo.routers;
      if ((unsigned long)l.a != g || (unsigned long)l.b != p || !((c1 == c2) != (r1 == r2)))
        w.connected = 0;
      p = (unsigned long)l.c;
      if (w.globals == 0)
        w.locals_src++;
      else if (g == dst / N / K)
        w.locals_dst++;
      else
        w.locals_mid++;
    } else if (l.role == HNM_LINK_GLOBAL) {
      unsigned long h = (unsigned long)l.b, k = (unsigned long)l.c;
      if ((unsigned long)l.a != g || port_router(g, h, k, d->topo.blue, K) != p)
        w.connected = 0;
      if (w.globals == 1)
        w.mid_group = (long)g;
      p = port_router(h, g, k, d->topo.blue, K);
      g = h;
      w.globals++;
    } else {
      w.connected = 0;
    }
  }
  if (g != dst / N / K || p != dst / N % K)
    w.connected = 0;
  return w;
}

static int local_hops(unsigned long p1, unsigned long p2, unsigned long R)
{
  return (p1 % R != p2 % R) + (p1 / R != p2 / R);
}

/* 1 when the route of M links from host S to itself is S's loopback alone. */
static int own_loopback(const hnm_rnet *n, unsigned long s, const size_t *links, int m)
{
  struct hnm_rnet_link l;
  if (m != 1)
    return 0;
  hnm_rnet_link_info(n, links[0], &l);
  return l.role == HNM_LINK_LOOPBACK && l.a == (long)s;
}

static void test_dragonfly_minimal(unsigned long G, unsigned long C, unsigned long R, unsigned long N,
                                   unsigned long L)
{
  struct hnm_rnet_desc d = dragonfly(G, C, R, N, L, HNM_ROUTING_MINIMAL, 1);
  hnm_rnet *n = hnm_rnet_new(&d, NULL, 0);
  size_t links[16];
  unsigned long H = hnm_rnet_hosts(n), K = C * R;
  int bad_connected = 0, bad_globals = 0, bad_detour = 0;
  CHECK_EQ(H, G * K * N);
  CHECK(hnm_rnet_max_route(n) <= 16);
  for (unsigned long s = 0; s < H; s++)
    for (unsigned long t = 0; t < H; t++) {
      int m = hnm_rnet_route(n, s, t, links, NULL, NULL);
      if (s == t) {
        bad_connected += !own_loopback(n, s, links, m);
        continue;
      }
      struct df_walk w = df_walk(n, &d, s, t, links, m);
      unsigned long g = s / N / K, p = s / N % K, h = t / N / K, q = t / N % K;
      bad_connected += !w.connected;
      if (g == h) {
        bad_globals += w.globals != 0;
        bad_detour += w.locals_src != local_hops(p, q, R);
      } else {
        unsigned long k = p % L;
        bad_globals += w.globals != 1;
        bad_detour += w.locals_src != local_hops(p, port_router(g, h, k, L, K), R) ||
                      w.locals_dst != local_hops(port_router(h, g, k, L, K), q, R);
      }
    }
  CHECK_EQ(bad_connected, 0);
  CHECK_EQ(bad_globals, 0);
  CHECK_EQ(bad_detour, 0);
  hnm_rnet_free(n);
}

static void test_dragonfly_valiant(void)
{
  /* 6 groups: a fixed pair has 4 intermediate groups. */
  struct hnm_rnet_desc d = dragonfly(6, 2, 3, 2, 2, HNM_ROUTING_VALIANT_GROUP, 7);
  hnm_rnet *n = hnm_rnet_new(&d, NULL, 0);
  size_t links[16];
  unsigned long per_group = 2 * 3 * 2, src = 1, dst = 3 * per_group + 5; /* group 0 -> group 3 */
  long count[6] = {0};
  int bad = 0;
  const int messages = 60000;
  for (int i = 0; i < messages; i++) {
    int m = hnm_rnet_route(n, src, dst, links, NULL, NULL);
    struct df_walk w = df_walk(n, &d, src, dst, links, m);
    bad += !w.connected || w.globals != 2 || w.mid_group < 0;
    if (w.mid_group >= 0)
      count[w.mid_group]++;
  }
  CHECK_EQ(bad, 0);
  CHECK(count[0] == 0 && count[3] == 0);
  for (int g = 1; g < 6; g++)
    if (g != 3)
      CHECK(labs(count[g] - messages / 4) <= messages / 4 / 50);
  /* Inside a group, valiant is minimal. */
  int m = hnm_rnet_route(n, 0, 11, links, NULL, NULL);
  struct df_walk w = df_walk(n, &d, 0, 11, links, m);
  CHECK(w.connected && w.globals == 0);
  /* Every pair: connected, two global links between groups. */
  int bad_all = 0;
  for (unsigned long s = 0; s < hnm_rnet_hosts(n); s++)
    for (unsigned long t = 0; t < hnm_rnet_hosts(n); t++) {
      if (s == t)
        continue;
      m = hnm_rnet_route(n, s, t, links, NULL, NULL);
      w = df_walk(n, &d, s, t, links, m);
      int diff = s / per_group != t / per_group;
      bad_all += !w.connected || w.globals != (diff ? 2 : 0) ||
                 (diff && (w.mid_group == (long)(s / per_group) || w.mid_group == (long)(t / per_group)));
    }
  CHECK_EQ(bad_all, 0);
  hnm_rnet_free(n);
}

static void test_dragonfly_valiant_router(void)
{
  /* 5 groups of 2 x 3 routers, L = 3 links between two groups: the group
   * variant always lands on one router of the intermediate group and
   * leaves it on one copy; the router variant leaves from a uniform router
   * x of a uniform third group, so on copy x mod 3, each 1/3 of the time. */
  struct hnm_rnet_desc dg = dragonfly(5, 2, 3, 1, 3, HNM_ROUTING_VALIANT_GROUP, 5);
  struct hnm_rnet_desc dr = dragonfly(5, 2, 3, 1, 3, HNM_ROUTING_VALIANT_ROUTER, 5);
  hnm_rnet *ng = hnm_rnet_new(&dg, NULL, 0), *nr = hnm_rnet_new(&dr, NULL, 0);
  size_t links[16];
  unsigned long src = 1, dst = 2 * 6 + 4; /* group 0 -> group 2 */
  long copies_g[3] = {0}, copies_r[3] = {0}, mid[5] = {0};
  int bad = 0;
  const int messages = 30000;
  for (int i = 0; i < messages; i++) {
    int m = hnm_rnet_route(ng, src, dst, links, NULL, NULL);
    struct df_walk w = df_walk(ng, &dg, src, dst, links, m);
    bad += !w.connected || w.globals != 2;
    for (int j = m - 1; j >= 0; j--) {
      struct hnm_rnet_link l;
      hnm_rnet_link_info(ng, links[j], &l);
      if (l.role == HNM_LINK_GLOBAL) {
        copies_g[l.c]++;
        break;
      }
    }
    m = hnm_rnet_route(nr, src, dst, links, NULL, NULL);
    w = df_walk(nr, &dr, src, dst, links, m);
    bad += !w.connected || w.globals != 2 || w.mid_group == 0 || w.mid_group == 2;
    if (w.mid_group >= 0)
      mid[w.mid_group]++;
    for (int j = m - 1; j >= 0; j--) {
      struct hnm_rnet_link l;
      hnm_rnet_link_info(nr, links[j], &l);
      if (l.role == HNM_LINK_GLOBAL) {
        copies_r[l.c]++;
        break;
      }
    }
  }
  CHECK(bad == 0);
  CHECK(copies_g[src % 3] == messages); /* the group variant: one copy */
  for (int k = 0; k < 3; k++)
    CHECK(labs(copies_r[k] - messages / 3) <= messages / 3 / 25);
  for (int g = 1; g < 5; g++)
    if (g != 2)
      CHECK(labs(mid[g] - messages / 3) <= messages / 3 / 25);
  /* Every pair: connected; between groups two global links through a third group. */
  int bad_all = 0;
  unsigned long per_group = 6;
  for (unsigned long s = 0; s < hnm_rnet_hosts(nr); s++)
    for (unsigned long t = 0; t < hnm_rnet_hosts(nr); t++) {
      if (s == t)
        continue;
      int m = hnm_rnet_route(nr, s, t, links, NULL, NULL);
      struct df_walk w = df_walk(nr, &dr, s, t, links, m);
      int diff = s / per_group != t / per_group;
      bad_all += !w.connected || w.globals != (diff ? 2 : 0) || m > hnm_rnet_max_route(nr) ||
                 (diff && (w.mid_group == (long)(s / per_group) || w.mid_group == (long)(t / per_group)));
    }
  CHECK(bad_all == 0);
  hnm_rnet_free(ng);
  hnm_rnet_free(nr);
}

/* A hand-built queue state: seconds of backlog by link index. */
static double queue_state[4096];
static double load_table(size_t link, void *ctx)
{
  (void)ctx;
  return link < sizeof queue_state / sizeof queue_state[0] ? queue_state[link] : 0;
}

/* Index of a dragonfly link by role and coordinates (-1 if none). */
static long find_link(const hnm_rnet *n, enum hnm_link_role role, long a, long b, long c)
{
  for (size_t i = 0; i < hnm_rnet_link_count(n); i++) {
    struct hnm_rnet_link l;
    hnm_rnet_link_info(n, i, &l);
    if (l.role == role && l.a == a && (b < 0 || l.b == b) && (c < 0 || l.c == c))
      return (long)i;
  }
  return -1;
}

/* Route host 0 -> dst with the queue state; 1 if it took two global links. */
static int went_valiant(hnm_rnet *n, const struct hnm_rnet_desc *d, unsigned long dst)
{
  size_t links[16];
  int m = hnm_rnet_route(n, 0, dst, links, load_table, NULL);
  struct df_walk w = df_walk(n, d, 0, dst, links, m);
  CHECK(w.connected);
  return w.globals == 2;
}

static void test_ugal(void)
{
  /* The rule: minimal iff q_min + h_min lat <= q_val + h_val lat + T (ties
   * minimal); binary fractions, so that the sums are exact. */
  CHECK(hnm_routing_ugal_prefers_minimal(0, 3, 0, 5, 0.25, 0) == 1);        /* idle */
  CHECK(hnm_routing_ugal_prefers_minimal(2, 3, 1.5, 5, 0.25, 0) == 1);      /* 2.75 = 2.75 */
  CHECK(hnm_routing_ugal_prefers_minimal(2.125, 3, 1.5, 5, 0.25, 0) == 0);  /* 2.875 > 2.75 */
  CHECK(hnm_routing_ugal_prefers_minimal(1.875, 3, 1.5, 5, 0.25, 0) == 1);  /* 2.625 < 2.75 */
  CHECK(hnm_routing_ugal_prefers_minimal(2.125, 3, 1.5, 5, 0.25, 0.125) == 1); /* 2.875 = 2.875 */
  CHECK(hnm_routing_ugal_prefers_minimal(2.25, 3, 1.5, 5, 0.25, 0.125) == 0);  /* 3 > 2.875 */
  CHECK(hnm_routing_ugal_prefers_minimal(1, 1, 0, 2, 0, 0) == 0);
  CHECK(hnm_routing_ugal_prefers_minimal(1, 1, 1, 2, 0, 0) == 1);

  /* Decisions on a hand-built queue state. 3 groups (so the Valiant
   * candidate always goes through group 2) of 2 chassis x 2 routers, one
   * node each, L = 1. Host 0 (group 0, router 0) -> host 7 (group 1,
   * router 3): minimal = global g0->g1 (held by router 0 of both groups),
   * then green and black in group 1; Valiant = green to router 1 of group
   * 0, global g0->g2, green in group 2, global g2->g1, black in group 1. */
  for (int v = 0; v < 2; v++) {
    enum hnm_routing r = v == 0 ? HNM_ROUTING_UGAL_L : HNM_ROUTING_UGAL_G;
    struct hnm_rnet_desc d = dragonfly(3, 2, 2, 1, 1, r, 1);
    d.lat = 0.25;
    hnm_rnet *n = hnm_rnet_new(&d, NULL, 0);
    long up0 = find_link(n, HNM_LINK_NODE_UP, 0, -1, -1), down7 = find_link(n, HNM_LINK_NODE_DOWN, 7, -1, -1);
    long g01 = find_link(n, HNM_LINK_GLOBAL, 0, 1, 0), g02 = find_link(n, HNM_LINK_GLOBAL, 0, 2, 0);
    long g21 = find_link(n, HNM_LINK_GLOBAL, 2, 1, 0), green1 = find_link(n, HNM_LINK_LOCAL, 1, 0, 1);
    long black1_val = find_link(n, HNM_LINK_LOCAL, 1, 1, 3);
    CHECK(up0 >= 0 && down7 >= 0 && g01 >= 0 && g02 >= 0 && g21 >= 0 && green1 >= 0 && black1_val >= 0);
    if (up0 < 0 || down7 < 0 || g01 < 0 || g02 < 0 || g21 < 0 || green1 < 0 || black1_val < 0 ||
        hnm_rnet_link_count(n) > sizeof queue_state / sizeof queue_state[0]) {
      hnm_rnet_free(n);
      continue;
    }
    memset(queue_state, 0, sizeof queue_state);
    CHECK(went_valiant(n, &d, 7) == 0); /* idle: minimal (3 hops against 5) */
    queue_state[g01] = 0.5;             /* 0.5 + 0.75 = 0 + 1.25: a tie, minimal */
    CHECK(went_valiant(n, &d, 7) == 0);
    queue_state[g01] = 0.5 + 0.0625; /* 1.3125 > 1.25 */
    CHECK(went_valiant(n, &d, 7) == 1);
    queue_state[g01] = 0.5 - 0.0625; /* 1.1875 < 1.25 */
    CHECK(went_valiant(n, &d, 7) == 0);
    queue_state[g01] = 2;
    queue_state[g02] = 1.5; /* Valiant's first global link: both see it; 2.75 = 2.75, a tie: minimal */
    CHECK(went_valiant(n, &d, 7) == 0);
    queue_state[g02] = 1.25; /* 2.75 > 2.5 */
    CHECK(went_valiant(n, &d, 7) == 1);
    /* The host's own link bounds both candidates: 3 + 0.75 <= 3 + 1.25. */
    queue_state[up0] = 3;
    CHECK(went_valiant(n, &d, 7) == 0);
    queue_state[up0] = 0;
    /* Beyond the first global link only ugal-g looks: Valiant's second
     * global link, the minimal path's hops in group 1, the destination. */
    queue_state[g21] = 5;
    CHECK(went_valiant(n, &d, 7) == (r == HNM_ROUTING_UGAL_L)); /* l: 2.75 > 2.5; g: 2.75 <= 6.25 */
    queue_state[g21] = 0;
    queue_state[g01] = 0, queue_state[g02] = 0;
    queue_state[green1] = 4;
    CHECK(went_valiant(n, &d, 7) == (r == HNM_ROUTING_UGAL_G)); /* l: idle; g: 4.75 > 1.25 */
    queue_state[down7] = 4;
    CHECK(went_valiant(n, &d, 7) == 0); /* g: 4.75 <= 4 + 1.25 (the destination bounds both) */
    queue_state[green1] = 0, queue_state[down7] = 0;
    /* The threshold: 0.625 + 0.75 > 1.25, but not with T = 0.125 (1.375 <= 1.375). */
    queue_state[g01] = 0.625;
    d.ugal_threshold = 0.125;
    hnm_rnet *nt = hnm_rnet_new(&d, NULL, 0);
    CHECK(went_valiant(nt, &d, 7) == 0);
    queue_state[g01] = 0.6875; /* 1.4375 > 1.375 */
    CHECK(went_valiant(nt, &d, 7) == 1);
    hnm_rnet_free(nt);
    /* Without a load function: minimal. */
    size_t links[16];
    int m = hnm_rnet_route(n, 0, 7, links, NULL, NULL);
    CHECK(df_walk(n, &d, 0, 7, links, m).globals == 1);
    hnm_rnet_free(n);
  }
}

static void test_backlog(void)
{
  /* Links of 1e9 B/s (global) and 2e9 B/s (green, x2): a backlog grows by
   * each message and drains at the link's bandwidth. */
  struct hnm_rnet_desc d = dragonfly(3, 2, 2, 1, 1, HNM_ROUTING_UGAL_G, 1);
  hnm_rnet *n = hnm_rnet_new(&d, NULL, 0);
  hnm_rnet_backlog *b = hnm_rnet_backlog_new(n);
  size_t g01 = (size_t)find_link(n, HNM_LINK_GLOBAL, 0, 1, 0), green = (size_t)find_link(n, HNM_LINK_LOCAL, 1, 0, 1);
  size_t route[2] = {g01, green};
  CHECK(b != NULL);
  hnm_rnet_backlog_add(b, route, 2, 1e6, 0);
  hnm_rnet_backlog_add(b, route, 1, 5e5, 0);
  CHECK(hnm_rnet_backlog_seconds(b, g01, 0) == 1.5e-3);   /* 1.5e6 B at 1e9 B/s */
  CHECK(hnm_rnet_backlog_seconds(b, green, 0) == 0.5e-3); /* 1e6 B at 2e9 B/s */
  CHECK(hnm_rnet_backlog_seconds(b, g01, 1e-3) == 0.5e-3);
  CHECK(hnm_rnet_backlog_seconds(b, green, 1e-3) == 0); /* drained at 0.5 ms, not below 0 */
  hnm_rnet_backlog_add(b, route, 2, 2e6, 1e-3);
  CHECK(hnm_rnet_backlog_seconds(b, g01, 1e-3) == 2.5e-3);
  CHECK(hnm_rnet_backlog_seconds(b, green, 1.5e-3) == 0.5e-3);
  CHECK(hnm_rnet_backlog_seconds(b, green, 2e-3) == 0);
  CHECK(hnm_rnet_backlog_seconds(b, hnm_rnet_link_count(n), 0) == 0); /* out of range: none */
  hnm_rnet_backlog_free(b);
  hnm_rnet_free(n);
}

static unsigned long torus_dist(const unsigned long *dims, int nd, unsigned long a, unsigned long b)
{
  unsigned long s = 1, dist = 0;
  for (int k = 0; k < nd; k++) {
    long x = (long)((a / s) % dims[k]) - (long)((b / s) % dims[k]);
    unsigned long ax = (unsigned long)labs(x);
    dist += ax < dims[k] - ax ? ax : dims[k] - ax;
    s *= dims[k];
  }
  return dist;
}

/* Walk a torus route: each link leaves the current host; returns the
 * number of dimension changes backwards (0 for dor) or -1 if disconnected. */
static int torus_walk(const hnm_rnet *n, unsigned long src, unsigned long dst, const size_t *links, int m,
                      unsigned long via)
{
  unsigned long cur = src;
  int back = 0, last = -1, passed = via == (unsigned long)-1;
  for (int i = 0; i < m; i++) {
    struct hnm_rnet_link l;
    hnm_rnet_link_info(n, links[i], &l);
    if (l.role != HNM_LINK_TORUS || (unsigned long)l.b != cur)
      return -1;
    if (l.a < last)
      back++;
    last = (int)l.a;
    cur = (unsigned long)l.c;
    if (cur == via)
      passed = 1;
  }
  return cur == dst && passed ? back : -1;
}

static void test_torus(void)
{
  const unsigned long dims[3] = {4, 3, 5};
  struct hnm_rnet_desc d = torus(dims, 3, HNM_ROUTING_DOR, 1);
  hnm_rnet *n = hnm_rnet_new(&d, NULL, 0);
  size_t links[64];
  int bad = 0;
  for (unsigned long s = 0; s < 60; s++)
    for (unsigned long t = 0; t < 60; t++) {
      if (s == t)
        continue;
      int m = hnm_rnet_route(n, s, t, links, NULL, NULL);
      bad += (unsigned long)m != torus_dist(dims, 3, s, t) || torus_walk(n, s, t, links, m, (unsigned long)-1) != 0;
    }
  CHECK_EQ(bad, 0);
  /* SimGrid's half-ring rule on a ring of 4: 0 -> 2 upwards, 2 -> 0 downwards. */
  struct hnm_rnet_link l;
  CHECK(hnm_rnet_route(n, 0, 2, links, NULL, NULL) == 2);
  hnm_rnet_link_info(n, links[0], &l);
  CHECK(strcmp(l.name, "torus_link_from_0_to_1_UP") == 0);
  CHECK(hnm_rnet_route(n, 2, 0, links, NULL, NULL) == 2);
  hnm_rnet_link_info(n, links[0], &l);
  CHECK(strcmp(l.name, "torus_link_from_1_to_2_DOWN") == 0);
  hnm_rnet_free(n);

  /* valiant: through a host v, hops = d(s, v) + d(v, t); v uniform. */
  d = torus(dims, 3, HNM_ROUTING_VALIANT, 3);
  n = hnm_rnet_new(&d, NULL, 0);
  uint64_t shadow = 3; /* the network's generator, replayed */
  long count[60] = {0};
  bad = 0;
  const int messages = 58 * 2000;
  for (int i = 0; i < messages; i++) {
    unsigned long s = 7, t = 44;
    unsigned long v = (unsigned long)hnm_routing_rng_below(&shadow, 58);
    if (v >= 7)
      v++;
    if (v >= 44)
      v++;
    count[v]++;
    int m = hnm_rnet_route(n, s, t, links, NULL, NULL);
    bad += (unsigned long)m != torus_dist(dims, 3, s, v) + torus_dist(dims, 3, v, t) ||
           torus_walk(n, s, t, links, m, v) < 0;
  }
  CHECK_EQ(bad, 0);
  CHECK(count[7] == 0 && count[44] == 0);
  int off = 0;
  for (int v = 0; v < 60; v++)
    if (v != 7 && v != 44)
      off += labs(count[v] - 2000) > 200; /* 4.5 standard deviations */
  CHECK_EQ(off, 0);
  hnm_rnet_free(n);
}

/* Route the same 200 messages under two seeds: *same = identical routes. */
static void seeded_routes(enum hnm_routing r, uint64_t s1, uint64_t s2, int *same, hnm_rnet_load_fn load)
{
  struct hnm_rnet_desc a = dragonfly(5, 2, 2, 1, 2, r, s1), c = a;
  c.seed = s2;
  hnm_rnet *na = hnm_rnet_new(&a, NULL, 0), *nc = hnm_rnet_new(&c, NULL, 0);
  size_t la[16], lc[16];
  *same = 1;
  for (int i = 0; i < 200; i++) {
    unsigned long s = (unsigned long)i % 20, t = (unsigned long)(i * 7 + 3) % 20;
    int ma = hnm_rnet_route(na, s, t, la, load, NULL), mc = hnm_rnet_route(nc, s, t, lc, load, NULL);
    *same &= ma == mc && memcmp(la, lc, (size_t)ma * sizeof la[0]) == 0;
  }
  hnm_rnet_free(na);
  hnm_rnet_free(nc);
}

static double load_minimal_busy(size_t link, void *ctx)
{
  (void)ctx;
  return (double)(link % 7); /* any uneven state: UGAL takes some Valiant candidates */
}

static void test_seeds(void)
{
  static const enum hnm_routing random[] = {HNM_ROUTING_VALIANT_GROUP, HNM_ROUTING_VALIANT_ROUTER,
                                            HNM_ROUTING_UGAL_L, HNM_ROUTING_UGAL_G};
  int same;
  for (size_t i = 0; i < sizeof random / sizeof random[0]; i++) {
    CHECK(hnm_routing_is_random(random[i]));
    seeded_routes(random[i], 42, 42, &same, load_minimal_busy);
    CHECK(same); /* same seed, same routes */
    seeded_routes(random[i], 42, 43, &same, load_minimal_busy);
    CHECK(!same); /* another seed, other routes */
  }
  /* Minimal takes a seed and ignores it. */
  CHECK(!hnm_routing_is_random(HNM_ROUTING_MINIMAL) && !hnm_routing_is_random(HNM_ROUTING_DOR));
  seeded_routes(HNM_ROUTING_MINIMAL, 42, 43, &same, NULL);
  CHECK(same);
}

static void test_layout(void)
{
  struct hnm_rnet_desc d = dragonfly(3, 2, 2, 1, 4, HNM_ROUTING_MINIMAL, 1);
  d.splitduplex = 0;
  hnm_rnet *n = hnm_rnet_new(&d, NULL, 0);
  struct hnm_rnet_link l, r;
  size_t globals = 0, locals = 0, nodes = 0, canon = 0;
  int bad = 0;
  for (size_t i = 0; i < hnm_rnet_link_count(n); i++) {
    hnm_rnet_link_info(n, i, &l);
    if (l.role == HNM_LINK_NONE)
      continue;
    canon += l.canonical == i;
    globals += l.role == HNM_LINK_GLOBAL && l.canonical == i;
    locals += l.role == HNM_LINK_LOCAL && l.canonical == i;
    nodes += (l.role == HNM_LINK_NODE_UP || l.role == HNM_LINK_NODE_DOWN) && l.canonical == i;
    hnm_rnet_link_info(n, l.canonical, &r);
    bad += strcmp(l.name, r.name) != 0 || r.canonical != l.canonical;
  }
  /* 3 groups x 2 pairs... : C(3,2) x 4 global, per group 2 green + 2 black, 12 nodes */
  CHECK_EQ(globals, 3 * 4);
  CHECK_EQ(locals, 3 * (2 + 2));
  CHECK_EQ(nodes, 12);
  CHECK_EQ(canon, globals + locals + nodes + 12 /* loopbacks */);
  CHECK_EQ(bad, 0);
  /* Global bandwidth is one link's, local ones are multiplied (green 2, black 3). */
  double global_bw = 0, local_bw_sum = 0;
  for (size_t i = 0; i < hnm_rnet_link_count(n); i++) {
    hnm_rnet_link_info(n, i, &l);
    if (l.role == HNM_LINK_GLOBAL)
      global_bw = l.bw;
    if (l.role == HNM_LINK_LOCAL && l.canonical == i)
      local_bw_sum += l.bw;
  }
  CHECK_EQ(global_bw, 1e9);
  CHECK_EQ(local_bw_sum, 3 * (2 * 2e9 + 2 * 3e9));
  hnm_rnet_free(n);
}

static void test_names(void)
{
  enum hnm_routing r;
  char err[256];
  CHECK(hnm_routing_parse(HNM_TOPO_DRAGONFLY, "ugal", &r, err, sizeof err) == 0 && r == HNM_ROUTING_UGAL_L);
  CHECK(hnm_routing_parse(HNM_TOPO_DRAGONFLY, "ugal-l", &r, err, sizeof err) == 0 && r == HNM_ROUTING_UGAL_L);
  CHECK(hnm_routing_parse(HNM_TOPO_DRAGONFLY, "ugal-g", &r, err, sizeof err) == 0 && r == HNM_ROUTING_UGAL_G);
  CHECK(hnm_routing_parse(HNM_TOPO_DRAGONFLY, "valiant", &r, err, sizeof err) == 0 &&
        r == HNM_ROUTING_VALIANT_GROUP);
  CHECK(hnm_routing_parse(HNM_TOPO_DRAGONFLY, "valiant-group", &r, err, sizeof err) == 0 &&
        r == HNM_ROUTING_VALIANT_GROUP);
  CHECK(hnm_routing_parse(HNM_TOPO_DRAGONFLY, "valiant-router", &r, err, sizeof err) == 0 &&
        r == HNM_ROUTING_VALIANT_ROUTER);
  CHECK(strcmp(hnm_routing_name(HNM_ROUTING_UGAL_L), "ugal-l") == 0 &&
        strcmp(hnm_routing_name(HNM_ROUTING_VALIANT_GROUP), "valiant-group") == 0);
  CHECK(hnm_routing_parse(HNM_TOPO_TORUS, "valiant-router", &r, err, sizeof err) == -1);
  CHECK(hnm_routing_parse(HNM_TOPO_DRAGONFLY, "dor", &r, err, sizeof err) == -1 &&
        strcmp(err, "--routing: 'dor' is not a dragonfly routing (minimal, valiant-group, valiant-router, ugal-l, "
                    "ugal-g)") == 0);
  CHECK(hnm_routing_parse(HNM_TOPO_TORUS, "valiant", &r, err, sizeof err) == 0 && r == HNM_ROUTING_VALIANT);
  CHECK(hnm_routing_parse(HNM_TOPO_TORUS, "dor", &r, err, sizeof err) == 0 && hnm_routing_is_builtin(r));
  CHECK(hnm_routing_parse(HNM_TOPO_FATTREE, "dmodk", &r, err, sizeof err) == 0 && hnm_routing_is_builtin(r));
  CHECK_EQ(hnm_routing_parse(HNM_TOPO_TORUS, "ugal", &r, err, sizeof err), -1);
  CHECK(strcmp(err, "--routing: 'ugal' is not a torus routing (dor, valiant)") == 0);
  CHECK_EQ(hnm_routing_parse(HNM_TOPO_BGQ, "dor", &r, err, sizeof err), -1);
  CHECK_EQ(hnm_routing_parse(HNM_TOPO_DRAGONFLY, "dor", &r, err, sizeof err), -1);
}

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static void test_description(void)
{
  char path[] = "/tmp/test_routing_XXXXXX", err[512];
  int fd = mkstemp(path);
  struct hnm_rnet_desc d = dragonfly(7, 2, 3, 4, 6, HNM_ROUTING_UGAL_L, 18446744073709551615ULL), back;
  d.bw = 1.25e9 / 3, d.lat = 1e-7 * 3, d.ugal_threshold = 1e-6 / 3;
  FILE *f = fdopen(fd, "w");
  CHECK_EQ(hnm_rnet_desc_write(f, &d, "a comment\non two lines"), 0);
  fclose(f);
  CHECK_EQ(hnm_rnet_is_description(path), 1);
  CHECK_EQ(hnm_rnet_desc_read(path, &back, err, sizeof err), 0);
  CHECK(back.topo.groups == 7 && back.topo.chassis == 2 && back.topo.routers == 3 && back.topo.nodes == 4 &&
        back.topo.blue == 6 && back.topo.black == 3 && back.topo.green == 2);
  CHECK(back.routing == HNM_ROUTING_UGAL_L && back.seed == 18446744073709551615ULL);
  CHECK(back.ugal_threshold == d.ugal_threshold);
  CHECK(back.bw == d.bw && back.lat == d.lat && back.loopback_bw == d.loopback_bw &&
        back.loopback_lat == d.loopback_lat && back.speed == d.speed && back.cores == 1 && back.splitduplex == 1);

  static const struct {
    const char *text, *msg;
  } bad[] = {
      {"not it\n", ":1: not an hnm routed platform"},
      {HNM_RNET_MAGIC "\nfamily bgq\n", ":2: family: 'bgq' is not dragonfly, torus or fattree"},
      {HNM_RNET_MAGIC "\nfamily torus\nrouting ugal\nseed 1\nshape 4,4\nbw 1\nlat 0\nsharing SHARED\n"
                      "loopback-bw none\nspeed 1\ncores 1\n",
       ":3: routing: 'ugal' is not a torus routing (dor, valiant)"},
      {HNM_RNET_MAGIC "\nfamily torus\nrouting dor\nseed 1\nshape 4,0\nbw 1\nlat 0\nsharing SHARED\n"
                      "loopback-bw none\nspeed 1\ncores 1\n",
       ":5: shape: "},
      {HNM_RNET_MAGIC "\nfamily torus\nrouting dor\nseed 1\nshape 4,4\nbw 0\n", ":6: bw: '0' must be a positive"},
      {HNM_RNET_MAGIC "\nfamily torus\nrouting dor\nseed 1\nshape 4,4\nbw 1\nlat 0\nsharing SHARED\n"
                      "loopback-bw none\nspeed 1\n",
       ": cores: missing"},
      {HNM_RNET_MAGIC "\nfamily torus\nfamily torus\n", ":3: family: given twice"},
      {HNM_RNET_MAGIC "\ncolour blue\n", ":2: unknown field 'colour'"},
      {HNM_RNET_MAGIC "\nfamily dragonfly\nugal-threshold -1\n", ":3: ugal-threshold: '-1' must be a non-negative"},
      {HNM_RNET_MAGIC "\nugal-threshold 1us\n", ":2: ugal-threshold: '1us' must be a non-negative"},
      {HNM_RNET_MAGIC "\nfamily dragonfly\nrouting minimal\nseed 1\nshape 3,4;4\nbw 1\nlat 0\nsharing SHARED\n"
                      "loopback-bw none\nspeed 1\ncores 1\n",
       ":5: shape: '3,4;4' is not GROUPS,BLUE;CHASSIS,BLACK;ROUTERS,GREEN;NODES"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    write_file(path, bad[i].text);
    err[0] = '\0';
    int rc = hnm_rnet_desc_read(path, &back, err, sizeof err);
    CHECK_EQ(rc, -1);
    CHECK(strncmp(err, path, strlen(path)) == 0 && strstr(err, bad[i].msg) == err + strlen(path));
    if (rc != -1 || strstr(err, bad[i].msg) != err + strlen(path))
      fprintf(stderr, "  case %zu: %s\n", i, err);
  }
  unlink(path);
  CHECK_EQ(hnm_rnet_is_description(path), 0);
  /* A named pipe: refused at once, never waited on. */
  CHECK_EQ(mkfifo(path, 0600), 0);
  CHECK_EQ(hnm_rnet_is_description(path), 0);
  CHECK_EQ(hnm_rnet_desc_read(path, &back, err, sizeof err), -1);
  CHECK(strstr(err, ": not a regular file (a named pipe)") != NULL);
  unlink(path);
}

static int role_is(const char *name, const struct hnm_linkrole_topo *t, const char *role, long a, long b, long c)
{
  struct hnm_linkrole r;
  hnm_linkrole_of(name, t, &r);
  if (strcmp(r.role, role) == 0 && r.a == a && r.b == b && r.c == c)
    return 1;
  fprintf(stderr, "  %s: %s %ld %ld %ld\n", name, r.role, r.a, r.b, r.c);
  return 0;
}

/* Link roles from names: SimGrid 3.32's zones and hnm's routed platforms. */
static void test_linkrole(void)
{
  struct hnm_linkrole_topo t, none;
  memset(&none, 0, sizeof none);
  /* Torus 4x3x5: host 5 = (1,1,0), 17 = (1,1,1): dimension 2; 3 -> 0 wraps dimension 0. */
  CHECK(hnm_linkrole_topo_parse("TORUS", "4,3,5", &t) == 0 && t.known);
  CHECK(role_is("torus_link_from_5_to_17_UP", &t, "torus", 2, 5, 17));
  CHECK(role_is("torus_link_from_5_to_17_DOWN", &t, "torus", 2, 17, 5));
  CHECK(role_is("torus_link_from_3_to_0_UP", &t, "torus", 0, 3, 0));
  CHECK(role_is("torus_link_from_3_to_0_UP", &none, "torus", -1, 3, 0));
  CHECK(role_is("torus_link_7_loopback", &t, "loopback", 7, -1, -1));
  /* Fat tree 2;4,4;1,2;1,2: 16 hosts (ids 0..15), 4 leaf switches (ids 31..28), 2 top (27, 26). */
  CHECK_EQ(hnm_linkrole_topo_parse("FAT_TREE", "2;4,4;1,2;1,2", &t), 0);
  CHECK(role_is("link_from_5_30_12_UP", &t, "fattree-up", 0, 5, 30));
  CHECK(role_is("link_from_28_26_40_DOWN", &t, "fattree-down", 1, 28, 26));
  CHECK(role_is("link_from_29_26_40", &t, "fattree-up", 1, 29, 26));
  /* SimGrid's dragonfly 3,4;4,3;5,1;2: 60 routers x 2 nodes = 120 node links (ids 0..119),
   * green links from id 120, 10 per chassis: id 135 is chassis instance 1 (group 0), id 145 instance 2. */
  CHECK_EQ(hnm_linkrole_topo_parse("DRAGONFLY", "3,4;4,3;5,1;2", &t), 0);
  CHECK(role_is("local_link_from_router_7_to_node_1_15_UP", &t, "node-up", 15, -1, -1));
  CHECK(role_is("local_link_from_router_7_to_node_1_15_DOWN", &t, "node-down", 15, -1, -1));
  CHECK(role_is("green_link_in_chassis_1_between_routers_0_and_3_135_UP", &t, "local", 0, 5, 8));
  CHECK(role_is("green_link_in_chassis_1_between_routers_0_and_3_135_DOWN", &t, "local", 0, 8, 5));
  CHECK(role_is("green_link_in_chassis_0_between_routers_0_and_3_200_UP", &t, "local", 2, 0, 3));
  CHECK(role_is("black_link_in_group_2_between_chassis_1_and_3_blade_4_300_DOWN", &t, "local", 2, 19, 9));
  CHECK(role_is("blue_link_between_group_0_and_2_routers_2_and_40_400_DOWN", &t, "global", 2, 0, -1));
  /* hnm's routed dragonfly, 5 routers per chassis. */
  CHECK(hnm_linkrole_topo_parse("hnm-dragonfly", "3,4;4,3;5,1;2", &t) == 0 && t.routed);
  CHECK(role_is("dragonfly_node_12_up", &t, "node-up", 12, -1, -1));
  CHECK(role_is("dragonfly_node_12_loopback", &t, "loopback", 12, -1, -1));
  CHECK(role_is("dragonfly_green_g1_c2_r0_to_r4", &t, "local", 1, 10, 14));
  CHECK(role_is("dragonfly_black_g2_r3_c0_to_c3", &t, "local", 2, 3, 18));
  CHECK(role_is("dragonfly_global_g0_r4_to_g2_r0_k0", &t, "global", 0, 2, 0));
  /* hnm-platform cluster */
  CHECK(role_is("cab2_link_40_UP", &none, "node-up", 40, -1, -1));
  CHECK(role_is("cab2_link_40_limiter", &none, "limiter", 40, -1, -1));
  CHECK(role_is("cab4-down", &none, "cabinet-down", 4, -1, -1));
  CHECK(role_is("something", &none, "other", -1, -1, -1));
  CHECK(hnm_linkrole_topo_parse("TORUS", "4,x", &t) == -1 && !t.known);
}

/* The node limiter naming rule (one definition for libhnm and hnm-hosts):
 * BASE_limiter with a non-empty BASE, the node's own link BASE_UP, then BASE. */
static void test_limiter_rule(void)
{
  CHECK(hnm_linkrole_limiter_base("cab2_link_40_limiter") == strlen("cab2_link_40"));
  CHECK(hnm_linkrole_limiter_base("x_limiter") == 1);
  CHECK(hnm_linkrole_limiter_base("_limiter") == 0);       /* empty BASE */
  CHECK(hnm_linkrole_limiter_base("limiter") == 0);
  CHECK(hnm_linkrole_limiter_base("cab4-limiter") == 0);   /* a cabinet's: no underscore */
  CHECK(hnm_linkrole_limiter_base("a_limiter_UP") == 0);
  CHECK(hnm_linkrole_limiter_base("") == 0);
  CHECK(strcmp(hnm_linkrole_limiter_owner[0], "_UP") == 0 && strcmp(hnm_linkrole_limiter_owner[1], "") == 0 &&
        hnm_linkrole_limiter_owner[2] == NULL);
}

/* Fat tree XGFT(h; m; w; p), random routing. Every route is walked with
 * the node numbering restated here: a level-l node has digits d1..dh, d_i
 * in [0, w_i) for i <= l, [0, m_i) above. Checks: up links then down
 * links, 2 x (level of the nearest common ancestor) of them, each leaving
 * the node the previous one reached, ending at the destination; over many
 * messages every up-port and parallel link of the first hop is used, close
 * to uniformly. */
static void test_fattree(const unsigned long *m, const unsigned long *w, const unsigned long *p, int h)
{
  struct hnm_rnet_desc d;
  memset(&d, 0, sizeof d);
  d.topo.family = HNM_TOPO_FATTREE;
  d.topo.ndims = h;
  for (int i = 0; i < h; i++)
    d.topo.dims[i] = m[i], d.topo.up[i] = w[i], d.topo.links[i] = p[i];
  d.routing = HNM_ROUTING_RANDOM, d.seed = 9, d.bw = 1e9, d.lat = 1e-7, d.splitduplex = 1, d.loopback = 1;
  d.loopback_bw = 6e9, d.loopback_lat = 1e-6, d.speed = 1e9, d.cores = 1;
  hnm_rnet *n = hnm_rnet_new(&d, NULL, 0);
  size_t links[64];
  unsigned long H = 1;
  for (int i = 0; i < h; i++)
    H *= m[i];
  CHECK_EQ(hnm_rnet_hosts(n), H);
  int bad = 0;
  for (unsigned long s = 0; s < H; s++)
    for (unsigned long t = 0; t < H; t++) {
      int k = hnm_rnet_route(n, s, t, links, NULL, NULL);
      if (s == t) {
        bad += !own_loopback(n, s, links, k);
        continue;
      }
      int top = 0;
      unsigned long a = s, b = t;
      for (int i = 0; i < h; i++) {
        if (a % m[i] != b % m[i])
          top = i + 1;
        a /= m[i], b /= m[i];
      }
      if (k != 2 * top) {
        bad++;
        continue;
      }
      /* walk: (level, node index) */
      int level = 0;
      unsigned long x = s;
      for (int i = 0; i < k; i++) {
        struct hnm_rnet_link l;
        hnm_rnet_link_info(n, links[i], &l);
        int up = l.role == HNM_LINK_FATTREE_UP;
        if ((up && i >= top) || (!up && (i < top || l.role != HNM_LINK_FATTREE_DOWN))) {
          bad++;
          break;
        }
        /* the link joins lower node (l.a, l.b) and its parent through port l.c */
        unsigned long digits[16], lower = (unsigned long)l.b, y = 0;
        for (int j = 0; j < h; j++) {
          unsigned long r = j < l.a ? w[j] : m[j];
          digits[j] = lower % r;
          lower /= r;
        }
        digits[l.a] = (unsigned long)l.c;
        for (int j = h - 1; j >= 0; j--)
          y = y * (j < l.a + 1 ? w[j] : m[j]) + digits[j];
        if (up) {
          if (l.a != level || (unsigned long)l.b != x) {
            bad++;
            break;
          }
          level++, x = y;
        } else {
          if (l.a + 1 != level || y != x) {
            bad++;
            break;
          }
          level--, x = (unsigned long)l.b;
        }
      }
      bad += level != 0 || x != t;
    }
  CHECK_EQ(bad, 0);
  /* First hop from host 0 to the last host: up-port x parallel link uniform. */
  long count[64] = {0};
  int cells = (int)(w[0] * p[0]), msgs = 400 * cells;
  for (int i = 0; i < msgs; i++) {
    hnm_rnet_route(n, 0, H - 1, links, NULL, NULL);
    struct hnm_rnet_link l;
    hnm_rnet_link_info(n, links[0], &l);
    count[(links[0] / 2) % (size_t)cells]++;
  }
  int off = 0;
  for (int c = 0; c < cells; c++)
    off += labs(count[c] - 400) > 100; /* 5 standard deviations */
  CHECK_EQ(off, 0);
  hnm_rnet_free(n);
}

int main(void)
{
  test_names();
  test_description();
  test_layout();
  test_dragonfly_minimal(3, 4, 5, 2, 4);  /* hnm-platform's default shape */
  test_dragonfly_minimal(4, 2, 3, 1, 6);  /* L = K: router p of every group linked to router p */
  test_dragonfly_minimal(6, 1, 2, 2, 1);  /* more groups than routers */
  test_dragonfly_minimal(5, 3, 2, 1, 10); /* L > K: a router holds several links to one group */
  test_dragonfly_valiant();
  test_dragonfly_valiant_router();
  test_ugal();
  test_backlog();
  test_torus();
  test_seeds();
  test_linkrole();
  test_limiter_rule();
  {
    const unsigned long m1[2] = {4, 4}, w1[2] = {1, 2}, p1[2] = {1, 2}; /* SimGrid's example 2;4,4;1,2;1,2 */
    const unsigned long m2[3] = {2, 3, 2}, w2[3] = {2, 2, 3}, p2[3] = {2, 1, 1};
    test_fattree(m1, w1, p1, 2);
    test_fattree(m2, w2, p2, 3);
  }
  return check_finish();
}
