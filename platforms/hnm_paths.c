/* hnm_paths.c -- torus graph, default routes, patterns, k shortest paths,
 * heuristic and evaluation (see hnm_paths.h). No GLPK here: the LP is in
 * hnm_paths_lp.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_paths.h"
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

/* SimGrid 3.32, TorusZone::get_local_route: "route to the right" iff
 * (t > m && t <= m + d/2) || (m > d/2 && (m + d/2) % d >= t), with m the
 * source's coordinate (not the current node's) and integer d/2. */
int hnm_torus_direction(int d, int m, int t)
{
  if ((t > m && t <= m + d / 2) || (m > d / 2 && (m + d / 2) % d >= t))
    return 1;
  return -1;
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
    dir = hnm_torus_direction(d, m, t);
    steps = dir > 0 ? (t - m + d) % d : (m - t + d) % d;
    for (int s = 0; s < steps; s++) {
      uint32_t a = cur * HNM_PATHS_DEGREE + 2 * (uint32_t)k + (dir > 0 ? 0 : 1);
      arcs[len++] = a;
      cur = (uint32_t)hnm_torus_arc_head(g, a);
    }
  }
  return len;
}

/* ---- Patterns ------------------------------------------------------------ */

static const char *const pattern__names[] = {"aggregation", "disjoint", "overlap", "subset1", "subset2"};

int hnm_pattern_parse_kind(const char *s, enum hnm_pattern_kind *kind, char *err, size_t errlen)
{
  for (int i = 0; i < 5; i++) {
    if (strcmp(s, pattern__names[i]) == 0) {
      *kind = (enum hnm_pattern_kind)i;
      return 0;
    }
  }
  if (strcmp(s, "subset") == 0) {
    *kind = HNM_PATTERN_SUBSET1;
    return 0;
  }
  hnm_errf(err, errlen, "--pattern: '%s' is not a pattern (aggregation, disjoint, overlap, subset, subset1, subset2)",
              s);
  return -1;
}

const char *hnm_pattern_kind_name(enum hnm_pattern_kind kind)
{
  return (unsigned)kind < 5 ? pattern__names[kind] : "?";
}

static int pattern__push(struct hnm_pattern *pt, size_t *cap, uint32_t src, uint32_t dst, double bytes)
{
  if (src == dst)
    return 0;
  if (pt->npairs == *cap) {
    size_t ncap = *cap ? 2 * *cap : 256;
    struct hnm_pair *np = realloc(pt->pairs, ncap * sizeof *np);
    if (np == NULL)
      return -1;
    pt->pairs = np;
    *cap = ncap;
  }
  pt->pairs[pt->npairs].src = src;
  pt->pairs[pt->npairs].dst = dst;
  pt->pairs[pt->npairs].bytes = bytes;
  pt->npairs++;
  return 0;
}

/* The authors' m-to-n mapping (OPTIQ, dev/comm_patterns/patterns.c): with
 * n >= m, source i sends to the r = n/m consecutive destinations i*r ..
 * i*r + r - 1; with m > n, the r = m/n consecutive sources k*r .. k*r + r - 1
 * send to destination k. dst(k) maps a destination index to a rank. */
static int pattern__m_to_n(struct hnm_pattern *pt, size_t *cap, unsigned long m, unsigned long n,
                           unsigned long (*dst)(unsigned long k, const unsigned long *ctx), const unsigned long *ctx,
                           double bytes)
{
  if (n >= m) {
    unsigned long r = n / m;
    for (unsigned long i = 0; i < m; i++)
      for (unsigned long j = 0; j < r; j++)
        if (pattern__push(pt, cap, (uint32_t)i, (uint32_t)dst(i * r + j, ctx), bytes) != 0)
          return -1;
  } else {
    unsigned long r = m / n;
    for (unsigned long k = 0; k < n; k++)
      for (unsigned long j = 0; j < r; j++)
        if (pattern__push(pt, cap, (uint32_t)(k * r + j), (uint32_t)dst(k, ctx), bytes) != 0)
          return -1;
  }
  return 0;
}

/* ctx[0] = first destination rank. */
static unsigned long pattern__block(unsigned long k, const unsigned long *ctx)
{
  return ctx[0] + k;
}

/* ctx[0] = spacing s: destination k is k*s + s/2. */
static unsigned long pattern__spread(unsigned long k, const unsigned long *ctx)
{
  return k * ctx[0] + ctx[0] / 2;
}

int hnm_pattern_generate(const struct hnm_pattern_params *pp, unsigned long p, struct hnm_pattern *out, char *err,
                         size_t errlen)
{
  unsigned long m = pp->sources, n = pp->dests, ctx[1];
  size_t cap = 0;
  int rc = 0;

  out->npairs = 0;
  out->pairs = NULL;
  if (!(pp->bytes > 0) || !isfinite(pp->bytes)) {
    hnm_errf(err, errlen, "--bytes: must be positive");
    return -1;
  }
  switch (pp->kind) {
    case HNM_PATTERN_AGGREGATION: {
      unsigned long g = pp->group ? pp->group : 16;
      if (g < 2 || g > p) {
        hnm_errf(err, errlen, "--group: %lu, must be 2 .. %lu (the partition)", g, p);
        return -1;
      }
      for (unsigned long i = 0; i < p && rc == 0; i++) {
        unsigned long start = i / g * g, size = start + g <= p ? g : p - start;
        rc = pattern__push(out, &cap, (uint32_t)i, (uint32_t)(start + size / 2), pp->bytes);
      }
      break;
    }
    case HNM_PATTERN_DISJOINT:
    case HNM_PATTERN_OVERLAP:
    case HNM_PATTERN_SUBSET1:
    case HNM_PATTERN_SUBSET2: {
      int small = pp->kind == HNM_PATTERN_SUBSET1 || pp->kind == HNM_PATTERN_SUBSET2;
      if (m == 0)
        m = small ? p / 16 : p / 4;
      if (n == 0)
        n = small ? p / 2 : p / 4;
      if (m == 0)
        m = 1;
      if (n == 0)
        n = 1;
      if (m > p) {
        hnm_errf(err, errlen, "--sources: %lu, more than the %lu nodes", m, p);
        return -1;
      }
      if (n > p) {
        hnm_errf(err, errlen, "--dests: %lu, more than the %lu nodes", n, p);
        return -1;
      }
      if (pp->kind == HNM_PATTERN_DISJOINT) {
        if (m + n > p) {
          hnm_errf(err, errlen, "--dests: %lu sources and %lu destinations do not fit disjoint in %lu nodes", m,
                      n, p);
          return -1;
        }
        ctx[0] = p - n;
        rc = pattern__m_to_n(out, &cap, m, n, pattern__block, ctx, pp->bytes);
      } else if (pp->kind == HNM_PATTERN_OVERLAP) {
        unsigned long o = pp->overlap ? pp->overlap : (m / 2 ? m / 2 : 1);
        if (o > m || o > n) {
          hnm_errf(err, errlen, "--overlap: %lu, more than the sources (%lu) or destinations (%lu)", o, m, n);
          return -1;
        }
        if (m - o + n > p) {
          hnm_errf(err, errlen, "--dests: destinations %lu .. %lu run past the %lu nodes", m - o, m - o + n - 1,
                      p);
          return -1;
        }
        ctx[0] = m - o;
        rc = pattern__m_to_n(out, &cap, m, n, pattern__block, ctx, pp->bytes);
      } else if (pp->kind == HNM_PATTERN_SUBSET1) {
        ctx[0] = p - n;
        rc = pattern__m_to_n(out, &cap, m, n, pattern__block, ctx, pp->bytes);
      } else {
        ctx[0] = p / n;
        rc = pattern__m_to_n(out, &cap, m, n, pattern__spread, ctx, pp->bytes);
      }
      break;
    }
    default:
      hnm_errf(err, errlen, "--pattern: unknown pattern");
      return -1;
  }
  if (rc != 0) {
    hnm_pattern_free(out);
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  if (out->npairs == 0) {
    hnm_errf(err, errlen, "--pattern: %s makes no pair on %lu nodes", hnm_pattern_kind_name(pp->kind), p);
    hnm_pattern_free(out);
    return -1;
  }
  return 0;
}

void hnm_pattern_free(struct hnm_pattern *pt)
{
  free(pt->pairs);
  pt->pairs = NULL;
  pt->npairs = 0;
}

static int pattern__rank(const char *s, unsigned long p, uint32_t *out)
{
  char *end;
  unsigned long v;

  if (!isdigit((unsigned char)s[0]))
    return -1;
  errno = 0;
  v = strtoul(s, &end, 10);
  if (errno != 0 || *end != '\0' || v >= p)
    return -1;
  *out = (uint32_t)v;
  return 0;
}

struct pattern__key {
  uint32_t src, dst;
  size_t line;
};

static int pattern__key_cmp(const void *a, const void *b)
{
  const struct pattern__key *x = a, *y = b;

  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  if (x->dst != y->dst)
    return x->dst < y->dst ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

int hnm_pattern_read(FILE *f, const char *name, unsigned long p, struct hnm_pattern *out, char *err, size_t errlen)
{
  static const char *const field[3] = {"src", "dst", "bytes"};
  struct pattern__key *keys = NULL;
  char *line = NULL;
  size_t linecap = 0, cap = 0, lineno = 0;
  ssize_t got;

  out->npairs = 0;
  out->pairs = NULL;
  while ((got = getline(&line, &linecap, f)) != -1) {
    char *tok[4], *save = NULL, *hash = strchr(line, '#');
    char why[200];
    uint32_t r[2];
    double bytes;
    int nt = 0;

    lineno++;
    if (hash != NULL)
      *hash = '\0';
    for (char *s = strtok_r(line, " \t\r\n", &save); s != NULL; s = strtok_r(NULL, " \t\r\n", &save)) {
      if (nt == 3) {
        hnm_errf(err, errlen, "%s:%zu: more than 3 fields (src dst bytes)", name, lineno);
        goto fail;
      }
      tok[nt++] = s;
    }
    if (nt == 0)
      continue;
    if (nt < 3) {
      hnm_errf(err, errlen, "%s:%zu: %s: missing (a line is: src dst bytes)", name, lineno, field[nt]);
      goto fail;
    }
    for (int i = 0; i < 2; i++) {
      if (pattern__rank(tok[i], p, &r[i]) != 0) {
        hnm_errf(err, errlen, "%s:%zu: %s: '%s' is not a node of the partition (ranks 0 .. %lu)", name, lineno,
                    field[i], tok[i], p - 1);
        goto fail;
      }
    }
    if (hnm_parse_size(tok[2], &bytes, why, sizeof why) != 0) {
      hnm_errf(err, errlen, "%s:%zu: bytes: %s", name, lineno, why);
      goto fail;
    }
    if (!(bytes > 0) || !isfinite(bytes)) {
      hnm_errf(err, errlen, "%s:%zu: bytes: '%s' %s", name, lineno, tok[2],
                  bytes < 0 ? "is negative" : "must be positive");
      goto fail;
    }
    if (r[0] == r[1]) {
      hnm_errf(err, errlen, "%s:%zu: dst: %u is the source itself", name, lineno, r[0]);
      goto fail;
    }
    if (out->npairs == cap) {
      size_t ncap = cap ? 2 * cap : 256;
      struct hnm_pair *np = realloc(out->pairs, ncap * sizeof *np);
      struct pattern__key *nk = realloc(keys, ncap * sizeof *nk);
      if (np != NULL)
        out->pairs = np;
      if (nk != NULL)
        keys = nk;
      if (np == NULL || nk == NULL) {
        hnm_errf(err, errlen, "%s: out of memory", name);
        goto fail;
      }
      cap = ncap;
    }
    out->pairs[out->npairs] = (struct hnm_pair){r[0], r[1], bytes};
    keys[out->npairs] = (struct pattern__key){r[0], r[1], lineno};
    out->npairs++;
  }
  if (ferror(f)) {
    hnm_errf(err, errlen, "%s: read error", name);
    goto fail;
  }
  if (out->npairs == 0) {
    hnm_errf(err, errlen, "%s:%zu: no pair (a line is: src dst bytes)", name, lineno);
    goto fail;
  }
  /* Duplicates are refused (not merged): a pair given twice is more likely
   * a mistake than an intent, and merging would hide it. */
  qsort(keys, out->npairs, sizeof *keys, pattern__key_cmp);
  for (size_t i = 1; i < out->npairs; i++) {
    if (keys[i].src == keys[i - 1].src && keys[i].dst == keys[i - 1].dst) {
      hnm_errf(err, errlen, "%s:%zu: src dst: pair %u %u already given on line %zu (duplicates are refused, not merged)", name, keys[i].line, keys[i].src,
                  keys[i].dst, keys[i - 1].line);
      goto fail;
    }
  }
  free(keys);
  free(line);
  return 0;
fail:
  free(keys);
  free(line);
  hnm_pattern_free(out);
  return -1;
}

/* ---- Path sets ----------------------------------------------------------- */

void hnm_pathset_free(struct hnm_pathset *ps)
{
  free(ps->first);
  free(ps->off);
  free(ps->arcs);
  free(ps->bytes);
  memset(ps, 0, sizeof *ps);
}

static int pathset__init(struct hnm_pathset *ps, size_t npairs)
{
  memset(ps, 0, sizeof *ps);
  ps->npairs = npairs;
  ps->first = calloc(npairs + 1, sizeof *ps->first);
  ps->cap_paths = npairs + 16;
  ps->cap_arcs = 8 * npairs + 64;
  ps->off = malloc((ps->cap_paths + 1) * sizeof *ps->off);
  ps->bytes = malloc(ps->cap_paths * sizeof *ps->bytes);
  ps->arcs = malloc(ps->cap_arcs * sizeof *ps->arcs);
  if (ps->first == NULL || ps->off == NULL || ps->bytes == NULL || ps->arcs == NULL) {
    hnm_pathset_free(ps);
    return -1;
  }
  ps->off[0] = 0;
  return 0;
}

/* Append a path to the current pair (pairs are filled in order; call
 * pathset__end_pair(ps, j) after the last path of pair j). */
static int pathset__add(struct hnm_pathset *ps, const uint32_t *arcs, int len, double bytes)
{
  if (ps->npaths == ps->cap_paths) {
    size_t ncap = 2 * ps->cap_paths;
    size_t *noff = realloc(ps->off, (ncap + 1) * sizeof *noff);
    double *nb;
    if (noff == NULL)
      return -1;
    ps->off = noff;
    nb = realloc(ps->bytes, ncap * sizeof *nb);
    if (nb == NULL)
      return -1;
    ps->bytes = nb;
    ps->cap_paths = ncap;
  }
  if (ps->narcs + (size_t)len > ps->cap_arcs) {
    size_t ncap = 2 * ps->cap_arcs + (size_t)len;
    uint32_t *na = realloc(ps->arcs, ncap * sizeof *na);
    if (na == NULL)
      return -1;
    ps->arcs = na;
    ps->cap_arcs = ncap;
  }
  memcpy(ps->arcs + ps->narcs, arcs, (size_t)len * sizeof *arcs);
  ps->narcs += (size_t)len;
  ps->bytes[ps->npaths] = bytes;
  ps->npaths++;
  ps->off[ps->npaths] = ps->narcs;
  return 0;
}

static void pathset__end_pair(struct hnm_pathset *ps, size_t j)
{
  ps->first[j + 1] = ps->npaths;
}

int hnm_paths_default(const struct hnm_torus *g, const struct hnm_pattern *pt, struct hnm_pathset *out, char *err,
                      size_t errlen)
{
  uint32_t arcs[HNM_PATHS_MAX_HOPS];

  if (pathset__init(out, pt->npairs) != 0)
    goto oom;
  for (size_t j = 0; j < pt->npairs; j++) {
    int len = hnm_torus_default_route(g, g->host_of_rank[pt->pairs[j].src], g->host_of_rank[pt->pairs[j].dst], arcs);
    if (pathset__add(out, arcs, len, pt->pairs[j].bytes) != 0)
      goto oom;
    pathset__end_pair(out, j);
  }
  return 0;
oom:
  hnm_pathset_free(out);
  hnm_errf(err, errlen, "out of memory");
  return -1;
}

/* ---- k shortest paths (Yen) ---------------------------------------------- */

/* A* search state, reused across searches: an entry of a stamp array is valid
 * only if it equals the current stamp, so nothing is cleared between
 * searches (each costs what it explores, not the graph's size). */
struct yen__heap_item {
  int f, g;
  uint32_t node;
};

struct yen__ctx {
  const struct hnm_torus *g;
  uint32_t *seen;        /* [n] stamp: node reached in this search */
  uint32_t *done;        /* [n] stamp: node expanded */
  uint16_t *dist;        /* [n] hops from the spur node */
  uint32_t *via;         /* [n] arc that reached the node */
  uint32_t *ban_node;    /* [n] stamp: node banned */
  uint32_t *ban_arc;     /* [n*10] stamp: arc banned */
  uint32_t search, ban;  /* current stamps */
  struct yen__heap_item *heap;
  size_t nheap, capheap;
};

/* Heap order: smaller f first, then deeper (larger g: finishes a path
 * before widening), then smaller node index: deterministic. */
static int yen__before(const struct yen__heap_item *a, const struct yen__heap_item *b)
{
  if (a->f != b->f)
    return a->f < b->f;
  if (a->g != b->g)
    return a->g > b->g;
  return a->node < b->node;
}

static int yen__push(struct yen__ctx *c, struct yen__heap_item it)
{
  size_t i;

  if (c->nheap == c->capheap) {
    size_t ncap = c->capheap ? 2 * c->capheap : 1024;
    struct yen__heap_item *nh = realloc(c->heap, ncap * sizeof *nh);
    if (nh == NULL)
      return -1;
    c->heap = nh;
    c->capheap = ncap;
  }
  i = c->nheap++;
  while (i > 0 && yen__before(&it, &c->heap[(i - 1) / 2])) {
    c->heap[i] = c->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  c->heap[i] = it;
  return 0;
}

static struct yen__heap_item yen__pop(struct yen__ctx *c)
{
  struct yen__heap_item top = c->heap[0], last = c->heap[--c->nheap];
  size_t i = 0;

  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    const struct yen__heap_item *best = &last;
    if (l < c->nheap && yen__before(&c->heap[l], best)) {
      m = l;
      best = &c->heap[l];
    }
    if (r < c->nheap && yen__before(&c->heap[r], best))
      m = r;
    if (m == i)
      break;
    c->heap[i] = c->heap[m];
    i = m;
  }
  if (c->nheap > 0)
    c->heap[i] = last;
  return top;
}

/* Shortest path from src to dst avoiding banned nodes and arcs, at most
 * budget hops: A* with the torus distance (exact without bans, so the
 * search follows a shortest path when one is free). Writes the arcs to out
 * and returns their number, 0 if there is none (src != dst), -2 if out of
 * memory. */
static int yen__search(struct yen__ctx *c, uint32_t src, uint32_t dst, int budget, uint32_t *out)
{
  const struct hnm_torus *g = c->g;
  int h0 = hnm_torus_distance(g, src, dst);

  if (h0 > budget)
    return 0;
  c->search++;
  c->nheap = 0;
  c->seen[src] = c->search;
  c->dist[src] = 0;
  if (yen__push(c, (struct yen__heap_item){h0, 0, src}) != 0)
    return -2;
  while (c->nheap > 0) {
    struct yen__heap_item it = yen__pop(c);
    uint32_t u = it.node;

    if (c->done[u] == c->search || it.g != c->dist[u])
      continue;
    c->done[u] = c->search;
    if (u == dst) {
      int len = it.g;
      for (int i = len - 1; i >= 0; i--) {
        out[i] = c->via[u];
        u = c->via[u] / HNM_PATHS_DEGREE;
      }
      return len;
    }
    for (uint32_t a = u * HNM_PATHS_DEGREE; a < (u + 1) * HNM_PATHS_DEGREE; a++) {
      long hv = hnm_torus_arc_head(g, a);
      uint32_t v;
      int gv, fv;

      if (hv < 0 || c->ban_arc[a] == c->ban)
        continue;
      v = (uint32_t)hv;
      if (c->ban_node[v] == c->ban || c->done[v] == c->search)
        continue;
      gv = it.g + 1;
      if (c->seen[v] == c->search && c->dist[v] <= gv)
        continue;
      fv = gv + hnm_torus_distance(g, v, dst);
      if (fv > budget)
        continue;
      c->seen[v] = c->search;
      c->dist[v] = (uint16_t)gv;
      c->via[v] = a;
      if (yen__push(c, (struct yen__heap_item){fv, gv, v}) != 0)
        return -2;
    }
  }
  return 0;
}

/* Paths of one pair, in a small pool. */
struct yen__set {
  uint32_t *arcs;
  size_t narcs, caparcs;
  size_t *off; /* off[i]: start of path i; paths are appended */
  int *len;
  size_t n, cap;
};

static int yen__set_add(struct yen__set *s, const uint32_t *arcs, int len)
{
  if (s->n == s->cap) {
    size_t ncap = s->cap ? 2 * s->cap : 64;
    size_t *no = realloc(s->off, ncap * sizeof *no);
    int *nl;
    if (no == NULL)
      return -1;
    s->off = no;
    nl = realloc(s->len, ncap * sizeof *nl);
    if (nl == NULL)
      return -1;
    s->len = nl;
    s->cap = ncap;
  }
  if (s->narcs + (size_t)len > s->caparcs) {
    size_t ncap = 2 * s->caparcs + (size_t)len + 256;
    uint32_t *na = realloc(s->arcs, ncap * sizeof *na);
    if (na == NULL)
      return -1;
    s->arcs = na;
    s->caparcs = ncap;
  }
  memcpy(s->arcs + s->narcs, arcs, (size_t)len * sizeof *arcs);
  s->off[s->n] = s->narcs;
  s->len[s->n] = len;
  s->narcs += (size_t)len;
  s->n++;
  return 0;
}

static int yen__set_has(const struct yen__set *s, const uint32_t *arcs, int len)
{
  for (size_t i = 0; i < s->n; i++)
    if (s->len[i] == len && memcmp(s->arcs + s->off[i], arcs, (size_t)len * sizeof *arcs) == 0)
      return 1;
  return 0;
}

int hnm_paths_kshortest(const struct hnm_torus *g, const struct hnm_pattern *pt, int k, int slack,
                        struct hnm_pathset *out, char *err, size_t errlen)
{
  struct yen__ctx c;
  struct yen__set cand = {0};
  uint32_t buf[HNM_PATHS_MAX_HOPS], spur[HNM_PATHS_MAX_HOPS];
  uint32_t nodes[HNM_PATHS_MAX_HOPS + 1];
  char *taken = NULL; /* taken[i]: candidate i already moved to the result */
  size_t captaken = 0;
  int rc = -1;

  memset(&c, 0, sizeof c);
  c.g = g;
  if (k < 1 || slack < 0) {
    hnm_errf(err, errlen, "--k: must be at least 1");
    return -1;
  }
  if (pathset__init(out, pt->npairs) != 0)
    goto oom;
  c.seen = calloc(g->n, sizeof *c.seen);
  c.done = calloc(g->n, sizeof *c.done);
  c.dist = calloc(g->n, sizeof *c.dist);
  c.via = calloc(g->n, sizeof *c.via);
  c.ban_node = calloc(g->n, sizeof *c.ban_node);
  c.ban_arc = calloc(g->n * HNM_PATHS_DEGREE, sizeof *c.ban_arc);
  if (c.seen == NULL || c.done == NULL || c.dist == NULL || c.via == NULL || c.ban_node == NULL ||
      c.ban_arc == NULL)
    goto oom;

  for (size_t j = 0; j < pt->npairs; j++) {
    uint32_t src = g->host_of_rank[pt->pairs[j].src], dst = g->host_of_rank[pt->pairs[j].dst];
    int limit = hnm_torus_distance(g, src, dst) + slack;
    size_t first = out->npaths;

    if (limit > HNM_PATHS_MAX_HOPS - 1)
      limit = HNM_PATHS_MAX_HOPS - 1;
    cand.n = cand.narcs = 0;
    /* A[0]: the default route, a shortest path. */
    int len0 = hnm_torus_default_route(g, src, dst, buf);
    if (pathset__add(out, buf, len0, 0) != 0)
      goto oom;
    while (out->npaths - first < (size_t)k) {
      size_t prev = out->npaths - 1;
      const uint32_t *pa = out->arcs + out->off[prev];
      int plen = (int)(out->off[prev + 1] - out->off[prev]);
      size_t best = (size_t)-1;

      nodes[0] = src;
      for (int i = 0; i < plen; i++)
        nodes[i + 1] = (uint32_t)hnm_torus_arc_head(g, pa[i]);
      for (int i = 0; i < plen; i++) {
        int sl;
        c.ban++;
        /* Ban the next arc of every result path sharing this root. */
        for (size_t q = first; q < out->npaths; q++) {
          const uint32_t *qa = out->arcs + out->off[q];
          int qlen = (int)(out->off[q + 1] - out->off[q]);
          if (qlen > i && memcmp(qa, pa, (size_t)i * sizeof *pa) == 0)
            c.ban_arc[qa[i]] = c.ban;
        }
        for (int r = 0; r < i; r++)
          c.ban_node[nodes[r]] = c.ban;
        sl = yen__search(&c, nodes[i], dst, limit - i, spur);
        if (sl == -2)
          goto oom;
        if (sl == 0)
          continue;
        memcpy(buf, pa, (size_t)i * sizeof *pa);
        memcpy(buf + i, spur, (size_t)sl * sizeof *spur);
        if (!yen__set_has(&cand, buf, i + sl)) {
          if (yen__set_add(&cand, buf, i + sl) != 0)
            goto oom;
          if (cand.n > captaken) {
            size_t ncap = 2 * cand.n;
            char *nt = realloc(taken, ncap);
            if (nt == NULL)
              goto oom;
            taken = nt;
            captaken = ncap;
          }
          taken[cand.n - 1] = 0;
        }
      }
      /* The shortest candidate not yet taken, first found on ties. */
      for (size_t q = 0; q < cand.n; q++)
        if (!taken[q] && (best == (size_t)-1 || cand.len[q] < cand.len[best]))
          best = q;
      if (best == (size_t)-1)
        break;
      taken[best] = 1;
      if (pathset__add(out, cand.arcs + cand.off[best], cand.len[best], 0) != 0)
        goto oom;
    }
    pathset__end_pair(out, j);
  }
  rc = 0;
  goto done;
oom:
  hnm_pathset_free(out);
  hnm_errf(err, errlen, "out of memory");
done:
  free(c.seen);
  free(c.done);
  free(c.dist);
  free(c.via);
  free(c.ban_node);
  free(c.ban_arc);
  free(c.heap);
  free(cand.arcs);
  free(cand.off);
  free(cand.len);
  free(taken);
  return rc;
}

/* ---- Heuristic (Algorithm 2) --------------------------------------------- */

/* The load a link of candidate p would reach with p taken: the largest
 * count of selected paths over its links, plus one. */
static uint32_t heuristic__need(const struct hnm_pathset *cand, const uint32_t *count, size_t p)
{
  uint32_t need = 0;
  for (size_t a = cand->off[p]; a < cand->off[p + 1]; a++)
    if (count[cand->arcs[a]] + 1 > need)
      need = count[cand->arcs[a]] + 1;
  return need;
}

int hnm_paths_heuristic(const struct hnm_torus *g, const struct hnm_pattern *pt, const struct hnm_pathset *cand,
                        struct hnm_pathset *out, int *maxload_out, char *err, size_t errlen)
{
  uint32_t *count = calloc(g->n * HNM_PATHS_DEGREE, sizeof *count);
  size_t *next = malloc(pt->npairs * sizeof *next);
  size_t *nsel = calloc(pt->npairs, sizeof *nsel);
  char *sel = calloc(cand->npaths ? cand->npaths : 1, 1);
  uint32_t maxload = *maxload_out > 0 ? (uint32_t)*maxload_out : 1;
  int progress = 1;

  if (count == NULL || next == NULL || nsel == NULL || sel == NULL)
    goto oom;
  for (size_t j = 0; j < pt->npairs; j++)
    next[j] = cand->first[j];
  /* Rounds over the pairs: each pair looks at its next candidate; it takes
   * it if no link would carry more than maxload selected paths, drops it
   * otherwise. A pair with no path yet looks at all its remaining
   * candidates, in order, for the first that fits; if none does, maxload is
   * raised (by 1 until one fits: to the smallest need) and that one taken. */
  while (progress) {
    progress = 0;
    for (size_t j = 0; j < pt->npairs; j++) {
      size_t p = next[j], end = cand->first[j + 1];
      uint32_t need = 0;

      if (p == end)
        continue;
      progress = 1;
      if (nsel[j] == 0) {
        size_t best = end;
        uint32_t bestneed = UINT32_MAX;
        for (size_t q = p; q < end; q++) {
          uint32_t nq = heuristic__need(cand, count, q);
          if (nq < bestneed) {
            bestneed = nq;
            best = q;
          }
          if (nq <= maxload)
            break;
        }
        p = best;
        need = bestneed;
        if (need > maxload)
          maxload = need;
        /* Candidates skipped on the way stay for later rounds. */
        if (p == next[j])
          next[j]++;
      } else {
        while (p < end && sel[p])
          p++;
        next[j] = p + 1 <= end ? p + 1 : end;
        if (p == end)
          continue;
        need = heuristic__need(cand, count, p);
        if (need > maxload)
          continue;
      }
      sel[p] = 1;
      nsel[j]++;
      for (size_t a = cand->off[p]; a < cand->off[p + 1]; a++)
        count[cand->arcs[a]]++;
    }
  }
  if (pathset__init(out, pt->npairs) != 0)
    goto oom;
  for (size_t j = 0; j < pt->npairs; j++) {
    for (size_t p = cand->first[j]; p < cand->first[j + 1]; p++)
      if (sel[p] && pathset__add(out, cand->arcs + cand->off[p], (int)(cand->off[p + 1] - cand->off[p]),
                                 pt->pairs[j].bytes / (double)nsel[j]) != 0) {
        hnm_pathset_free(out);
        goto oom;
      }
    pathset__end_pair(out, j);
  }
  *maxload_out = (int)maxload;
  free(count);
  free(next);
  free(nsel);
  free(sel);
  return 0;
oom:
  free(count);
  free(next);
  free(nsel);
  free(sel);
  hnm_errf(err, errlen, "out of memory");
  return -1;
}

/* ---- Evaluation ---------------------------------------------------------- */

int hnm_paths_evaluate(const struct hnm_torus *g, const struct hnm_pathset *ps, const struct hnm_pattern *pt,
                       double capacity, struct hnm_paths_eval *ev, char *err, size_t errlen)
{
  double *load = calloc(g->n * HNM_PATHS_DEGREE, sizeof *load);
  double hopbytes = 0, total = 0, max = 0;

  if (load == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  memset(ev, 0, sizeof *ev);
  for (size_t p = 0; p < ps->npaths; p++) {
    if (ps->bytes[p] <= 0)
      continue;
    ev->paths++;
    hopbytes += ps->bytes[p] * (double)(ps->off[p + 1] - ps->off[p]);
    for (size_t a = ps->off[p]; a < ps->off[p + 1]; a++)
      load[ps->arcs[a]] += ps->bytes[p];
  }
  for (size_t a = 0; a < g->n * HNM_PATHS_DEGREE; a++)
    if (load[a] > max)
      max = load[a];
  for (size_t j = 0; j < pt->npairs; j++)
    total += pt->pairs[j].bytes;
  free(load);
  ev->total_bytes = total;
  ev->max_link_load_B = max;
  ev->time_s = max / capacity;
  ev->throughput_Bps = ev->time_s > 0 ? total / ev->time_s : 0;
  ev->mean_hops = total > 0 ? hopbytes / total : 0;
  return 0;
}
