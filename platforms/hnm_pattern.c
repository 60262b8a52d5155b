/* hnm_pattern.c -- generated communication patterns and pattern files (hnm_pattern.h). */
#define _POSIX_C_SOURCE 200809L
#include "hnm_pattern.h"

#include "hnm_input.h"
#include "hnm_units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* A pair's bytes: at most 2^53 (docs/model-format.md's range of a size,
 * the largest whole number a double holds); 1e300 B would make GLPK's
 * problem meaningless (no flow for a pair) rather than refused. */
#define PATTERN_MAX_BYTES 9007199254740992.0

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
  if (pp->bytes > PATTERN_MAX_BYTES) {
    hnm_errf(err, errlen, "--bytes: %.17g B is above 2^53 B (docs/model-format.md's range of a size)", pp->bytes);
    return -1;
  }
  switch (pp->kind) {
    case HNM_PATTERN_AGGREGATION: {
      unsigned long g = pp->group ? pp->group : 16;
      if (g < 2 || g > p) {
        hnm_errf(err, errlen, "--group: '%lu' is not in 2 .. %lu (the partition)", g, p);
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
        hnm_errf(err, errlen, "--sources: '%lu' is more than the %lu nodes", m, p);
        return -1;
      }
      if (n > p) {
        hnm_errf(err, errlen, "--dests: '%lu' is more than the %lu nodes", n, p);
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
          hnm_errf(err, errlen, "--overlap: '%lu' is more than the sources (%lu) or destinations (%lu)", o, m, n);
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
  long got;

  out->npairs = 0;
  out->pairs = NULL;
  while ((got = hnm_input_getline(&line, &linecap, f, HNM_INPUT_MAX_LINE)) != -1) {
    char *tok[4], *save = NULL, *hash;
    char why[200];
    uint32_t r[2];
    double bytes;
    int nt = 0;

    lineno++;
    /* Bounded lines, text only: a gigabyte without a newline costs 64 KiB. */
    if (got == -2 || (size_t)got != strlen(line)) {
      hnm_errf(err, errlen, "%s:%zu: %s", name, lineno,
               got == -2 ? "line longer than 64 KiB (not a pattern file)" : "NUL byte in the line (not text)");
      goto fail;
    }
    hash = strchr(line, '#');
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
    if (!(bytes > 0) || !isfinite(bytes) || bytes > PATTERN_MAX_BYTES) {
      hnm_errf(err, errlen, "%s:%zu: bytes: '%s' %s", name, lineno, tok[2],
               bytes < 0                 ? "is negative"
               : bytes > PATTERN_MAX_BYTES ? "is above 2^53 B (docs/model-format.md's range of a size)"
                                           : "must be positive");
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
