/* hnm_paths.c -- path sets: default routes of a pattern, k shortest paths,
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

static int pathset__len(const struct hnm_pathset *ps, size_t p)
{
  return (int)(ps->off[p + 1] - ps->off[p]);
}

/* 1 when a path of PS is ARCS (LEN arcs). */
static int pathset__has(const struct hnm_pathset *ps, const uint32_t *arcs, int len)
{
  for (size_t p = 0; p < ps->npaths; p++)
    if (pathset__len(ps, p) == len && memcmp(ps->arcs + ps->off[p], arcs, (size_t)len * sizeof *arcs) == 0)
      return 1;
  return 0;
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

int hnm_paths_kshortest(const struct hnm_torus *g, const struct hnm_pattern *pt, int k, int slack,
                        struct hnm_pathset *out, char *err, size_t errlen)
{
  struct yen__ctx c;
  struct hnm_pathset cand = {0}; /* one pair's candidates (B in Yen's terms), pairs unused */
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
  if (pathset__init(out, pt->npairs) != 0 || pathset__init(&cand, 0) != 0)
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
    cand.npaths = cand.narcs = 0;
    /* A[0]: the default route, a shortest path. */
    int len0 = hnm_torus_default_route(g, src, dst, buf);
    if (pathset__add(out, buf, len0, 0) != 0)
      goto oom;
    while (out->npaths - first < (size_t)k) {
      size_t prev = out->npaths - 1;
      const uint32_t *pa = out->arcs + out->off[prev];
      int plen = pathset__len(out, prev);
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
          int qlen = pathset__len(out, q);
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
        if (!pathset__has(&cand, buf, i + sl)) {
          if (pathset__add(&cand, buf, i + sl, 0) != 0)
            goto oom;
          if (cand.npaths > captaken) {
            size_t ncap = 2 * cand.npaths;
            char *nt = realloc(taken, ncap);
            if (nt == NULL)
              goto oom;
            taken = nt;
            captaken = ncap;
          }
          taken[cand.npaths - 1] = 0;
        }
      }
      /* The shortest candidate not yet taken, first found on ties. */
      for (size_t q = 0; q < cand.npaths; q++)
        if (!taken[q] && (best == (size_t)-1 || pathset__len(&cand, q) < pathset__len(&cand, best)))
          best = q;
      if (best == (size_t)-1)
        break;
      taken[best] = 1;
      if (pathset__add(out, cand.arcs + cand.off[best], pathset__len(&cand, best), 0) != 0)
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
  hnm_pathset_free(&cand);
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
