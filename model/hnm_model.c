/* hnm_model.c -- hnm network models: values, LogGPS expansion, queries (see
 * hnm_model.h for the semantics and docs/model-format.md for the file
 * format). The module's other files: hnm_model_load.c (files),
 * hnm_model_spec.c (--model specifications), hnm_model_explain.c.
 *
 * Loading (hnm_model_load.c) is done in three steps, each reporting "FILE:LINE: ..." on failure:
 *   1. libxml2 parses the file (no network, no external DTD loading);
 *   2. the document is validated against our own hnm-model.dtd, whatever
 *      DOCTYPE it declares (a model file without DOCTYPE is fine);
 *   3. the loader checks what a DTD cannot (units, ranges, ordering, pairs of
 *      exclusive attributes) and builds the segment tables.
 * libxml2 never prints anything itself: its errors are captured through a
 * structured error handler installed for the duration of the call.
 *
 * A <loggps> model is expanded into one absolute segment table (Degomme et al. 2013,
 * Figure 1, see model__loggps_expand()); its 8 parameters are kept so that
 * --model overrides can expand it again.
 */
#include "hnm_model.h"
#include "hnm_home.h"
#include "hnm_units.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnm_model_impl.h"

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */

char *model__strdup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);

  if (d != NULL)
    memcpy(d, s, n);
  return d;
}

static void model__reason(char *reason, size_t len, const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(reason, len, fmt, ap);
  va_end(ap);
}

void model__resolve(hnm_model *m)
{
  int c;

  for (c = 0; c < HNM_ROUTE_CLASSES; c++) {
    int t = m->table[c] != NULL ? c : MODEL__ANY;
    m->seg[c] = m->table[t];
    m->nseg[c] = m->table_len[t];
  }
}

/* A double holds whole numbers exactly up to 2^53: 9007199254740993 reads
 * as 9007199254740992, and 1.0000000000000001 as 1. These two look at the
 * value as written (without an exponent or a unit, which scale it) so that
 * such a value is refused, not silently rounded. */

/* Whether V, a run of digits alone, is above MAX (compared exactly). */
static int model__written_above(const char *v, double max)
{
  unsigned long long x = 0, lim = (unsigned long long)max;
  const char *p = v + (*v == '+');
  int above = 0;
  if (*p == '\0')
    return 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    x = x * 10 + (unsigned long long)(*p - '0'); /* below lim * 10 + 10: no overflow */
    if (x > lim) {
      above = 1;
      x = lim + 1;
    }
  }
  return *p == '\0' && above;
}

/* Whether V, digits '.' digits alone, has a non-zero digit after the point. */
static int model__inexact_fraction(const char *v)
{
  const char *p = v + (*v == '+');
  int nonzero = 0;
  while (*p >= '0' && *p <= '9')
    p++;
  if (*p != '.')
    return 0;
  for (p++; *p >= '0' && *p <= '9'; p++)
    nonzero |= *p != '0';
  return *p == '\0' && nonzero;
}

/* ------------------------------------------------------------------ */
/* Values shared by the file loader and --model overrides. Each parser  */
/* writes a reason without file, line or field: the caller adds them.   */

int model__parse_value(const char *v, enum model__kind kind, double *out, char *reason, size_t len)
{
  double x;

  switch (kind) {
  case KIND_TIME:
    if (hnm_parse_time(v, &x, reason, len) < 0)
      return -1;
    if (x < 0) {
      model__reason(reason, len, "'%s' is negative (must be >= 0)", v);
      return -1;
    }
    if (x > MODEL__MAX_TIME) {
      model__reason(reason, len, "'%s' is above %gs (not a network's latency or overhead)", v, MODEL__MAX_TIME);
      return -1;
    }
    break;
  case KIND_UPTO:
    if (strcmp(v, "inf") == 0) {
      x = INFINITY;
      break;
    }
    /* Otherwise a whole number of bytes, as KIND_BYTES. */
    /* fall through */
  case KIND_BYTES:
    if (hnm_parse_size(v, &x, reason, len) < 0)
      return -1;
    if (x < 0) {
      model__reason(reason, len, "'%s' is negative (must be >= 0)", v);
      return -1;
    }
    if (x != floor(x) || model__inexact_fraction(v)) {
      model__reason(reason, len, "'%s' is not a whole number of bytes", v);
      return -1;
    }
    if (x > MODEL__MAX_BYTES || model__written_above(v, MODEL__MAX_BYTES)) {
      model__reason(reason, len, "'%s' is too large (at most %.0f bytes)", v, MODEL__MAX_BYTES);
      return -1;
    }
    break;
  case KIND_FACTOR:
    if (hnm_parse_number(v, &x, reason, len) < 0)
      return -1;
    if (!(x >= MODEL__MIN_FACTOR && x <= MODEL__MAX_FACTOR)) {
      model__reason(reason, len, "'%s' is out of range (a factor from %g to %g)", v, MODEL__MIN_FACTOR,
                    MODEL__MAX_FACTOR);
      return -1;
    }
    break;
  case KIND_BANDWIDTH:
    if (hnm_parse_bandwidth(v, &x, reason, len) < 0)
      return -1;
    if (x <= 0) {
      model__reason(reason, len, "'%s' must be > 0", v);
      return -1;
    }
    if (x > MODEL__MAX_BANDWIDTH) {
      model__reason(reason, len, "'%s' is above %gBps (hnm's 'no limit')", v, MODEL__MAX_BANDWIDTH);
      return -1;
    }
    break;
  default:
    assert(!"unknown value kind");
    return -1;
  }
  *out = x;
  return 0;
}

/* A protocol threshold: "none" (-1) or a whole number of bytes. */
int model__parse_ports(const char *v, enum hnm_ports *out, char *reason, size_t len)
{
  if (hnm_ports_parse(v, out) == 0)
    return 0;
  model__reason(reason, len, "'%s' is not single, duplex or multi", v);
  return -1;
}

/* A gap spaces the messages of one port; multi has no port. */
int model__check_gap(enum hnm_ports ports, double gap, char *reason, size_t len)
{
  if (ports == HNM_PORTS_MULTI && gap > 0) {
    model__reason(reason, len, "gap = %g s needs ports=single or duplex (ports=multi has no port to space)", gap);
    return -1;
  }
  return 0;
}

int model__parse_threshold(const char *v, long *out, char *reason, size_t len)
{
  double x;

  if (strcmp(v, "none") == 0) {
    *out = -1;
    return 0;
  }
  if (model__parse_value(v, KIND_BYTES, &x, reason, len) < 0) {
    size_t n = strlen(reason);
    if (n + 1 < len)
      snprintf(reason + n, len - n, " (or 'none')");
    return -1;
  }
  *out = (long)x;
  return 0;
}

/* The node limiter: "keep", "off" or a factor > 0. */
int model__parse_limiter(const char *v, enum hnm_limiter_mode *mode, double *factor,
                         char *reason, size_t len)
{
  double x;

  if (strcmp(v, "keep") == 0) {
    *mode = HNM_LIMITER_KEEP;
    *factor = 0;
    return 0;
  }
  if (strcmp(v, "off") == 0) {
    *mode = HNM_LIMITER_OFF;
    *factor = 0;
    return 0;
  }
  if (model__parse_value(v, KIND_FACTOR, &x, reason, len) < 0) {
    size_t n = strlen(reason);
    if (n + 1 < len)
      snprintf(reason + n, len - n, " (give a factor > 0, 'off' or 'keep')");
    return -1;
  }
  *mode = HNM_LIMITER_FACTOR;
  *factor = x;
  return 0;
}

/* Eager messages are also detached: async set implies detached set and
 * async <= detached. blame, if not NULL, is the field reported (the one a
 * --model spec changed); otherwise the natural one is. */
int model__check_protocol(long async, long detached, const char *blame, const char **field,
                          char *reason, size_t len)
{
  if (async >= 0 && detached < 0) {
    *field = blame != NULL ? blame : "detached";
    model__reason(reason, len,
                  "detached is 'none' but async is %ld bytes: eager messages are also detached, "
                  "so detached must be set and >= async", async);
    return -1;
  }
  if (async > detached) {
    *field = blame != NULL ? blame : "async";
    model__reason(reason, len, "async > detached (%ld > %ld bytes): eager messages are also detached",
                  async, detached);
    return -1;
  }
  return 0;
}

static double model__rate(double per_byte_s)
{
  if (per_byte_s <= 0 || 1.0 / per_byte_s > HNM_MAX_BANDWIDTH)
    return HNM_MAX_BANDWIDTH;
  return 1.0 / per_byte_s;
}

/* Expand LogGPS parameters p (SI units, already checked >= 0 and whole
 * sizes) into m's single "any" table, and set the protocol and sharing they
 * imply. With T2(k) = L + k g for k < s, L + s g + (k - s) G otherwise:
 *   eager (k <= S):  latency L (k < s) or L + s (g - G), rate 1/g or 1/G,
 *                    send o + k Os, isend o, recv o + k Or;
 *   rendez-vous:     latency 6 o + 3 L (+ s (g - G) if k >= s), per-byte time
 *                    (g or G) + Os + Or, no send/recv overhead, isend o:
 *                    SMPI completes both sides together, so the handshake and
 *                    the overheads are folded into the transfer.
 * The breakpoints are s - 1 (if s >= 1), S and inf; within each segment
 * "k < s" and "k <= S" are constant, so they are evaluated at its upto.
 * m is changed only on success. */
int model__loggps_expand(hnm_model *m, const double p[LG_COUNT], const char **field,
                         char *reason, size_t len)
{
  const double L = p[LG_L], o = p[LG_o], g = p[LG_g], G = p[LG_G];
  const double s = p[LG_s], S = p[LG_S], Os = p[LG_Os], Or = p[LG_Or];
  struct hnm_segment *t;
  double bp[3];
  size_t n = 0, i;
  int c;

  if (L + s * (g - G) < 0) {
    *field = "G";
    model__reason(reason, len,
                  "L + s*(g-G) = %g s is negative: with G > g, messages of s bytes or more would have "
                  "a negative latency (lower G or s, or raise L or g)", L + s * (g - G));
    return -1;
  }

  if (s >= 1)
    bp[n++] = s - 1;
  if (n == 0 || bp[0] != S)
    bp[n++] = S;
  if (n == 2 && bp[0] > bp[1]) {
    double tmp = bp[0];
    bp[0] = bp[1];
    bp[1] = tmp;
  }
  bp[n++] = INFINITY;

  t = calloc(n, sizeof *t);
  if (t == NULL) {
    *field = "loggps";
    model__reason(reason, len, "out of memory");
    return -1;
  }
  for (i = 0; i < n; i++) {
    struct hnm_segment *seg = &t[i];
    const int below_s = bp[i] < s; /* false for inf */
    const int eager = bp[i] <= S;  /* false for inf */
    const double per_byte = below_s ? g : G;

    seg->upto = bp[i];
    seg->latency_absolute = 1;
    seg->bandwidth_absolute = 1;
    seg->lat_factor = 1;
    seg->bw_factor = 1;
    if (eager) {
      seg->latency_s = below_s ? L : L + s * (g - G);
      seg->bandwidth_Bps = model__rate(per_byte);
      seg->send_o = o;
      seg->send_O = Os;
      seg->isend_o = o;
      seg->isend_O = 0;
      seg->recv_o = o;
      seg->recv_O = Or;
    } else {
      seg->latency_s = 6 * o + 3 * L + (below_s ? 0 : s * (g - G));
      seg->bandwidth_Bps = model__rate(per_byte + Os + Or);
      seg->isend_o = o;
    }
  }

  for (c = 0; c < MODEL__TABLES; c++) {
    free(m->table[c]);
    m->table[c] = NULL;
    m->table_len[c] = 0;
  }
  m->table[MODEL__ANY] = t;
  m->table_len[MODEL__ANY] = n;
  model__resolve(m);
  m->async_max = (long)S;
  m->detached_max = (long)S;
  m->limiter = HNM_LIMITER_OFF;
  m->limiter_factor = 0;
  m->contention = HNM_CONTENTION_NONE;
  m->crosstraffic = HNM_CROSSTRAFFIC_OFF;
  m->is_loggps = 1;
  memcpy(m->loggps, p, sizeof m->loggps);
  return 0;
}

/* ------------------------------------------------------------------ */
/* Queries                                                              */

void hnm_model_free(hnm_model *m)
{
  int c;

  if (m == NULL)
    return;
  for (c = 0; c < MODEL__TABLES; c++) {
    for (size_t i = 0; m->owns_residuals && m->table[c] != NULL && i < m->table_len[c]; i++)
      model__free_residuals(&m->table[c][i]);
    free(m->table[c]);
  }
  free(m->name);
  free(m->description);
  free(m->source);
  free(m->overrides);
  free(m);
}

const char *hnm_model_dir(void)
{
  static char home_models[4096];
  const char *dir = getenv("HNM_MODEL_DIR");

  if (dir != NULL && *dir != '\0')
    return dir;
  /* Without a home the literal name tells the user what to set. */
  if (hnm_home_path(home_models, sizeof home_models, HNM_HOME_MODELS) != 0)
    return "$HNM_HOME/" HNM_HOME_MODELS;
  return home_models;
}

const char *hnm_model_dtd_path(void)
{
  static char path[4096];

  snprintf(path, sizeof path, "%s/hnm-model.dtd", hnm_model_dir());
  return path;
}

const char *hnm_model_name(const hnm_model *m)
{
  return m->name;
}

long hnm_model_async_max(const hnm_model *m)
{
  return m->async_max;
}

long hnm_model_detached_max(const hnm_model *m)
{
  return m->detached_max;
}

enum hnm_limiter_mode hnm_model_limiter_mode(const hnm_model *m)
{
  return m->limiter;
}

double hnm_model_limiter_factor(const hnm_model *m)
{
  return m->limiter_factor;
}

enum hnm_contention hnm_model_contention(const hnm_model *m)
{
  return m->contention;
}

enum hnm_crosstraffic hnm_model_crosstraffic(const hnm_model *m)
{
  return m->crosstraffic;
}

enum hnm_update hnm_model_update(const hnm_model *m)
{
  return m->update;
}

const struct hnm_segment *hnm_model_segments(const hnm_model *m, enum hnm_route_class c, size_t *count)
{
  assert(c >= 0 && c < HNM_ROUTE_CLASSES);
  if (count != NULL)
    *count = m->nseg[c];
  return m->seg[c];
}

const struct hnm_segment *hnm_model_segment(const hnm_model *m, enum hnm_route_class c, double k)
{
  const struct hnm_segment *t;
  size_t lo = 0, hi;

  assert(c >= 0 && c < HNM_ROUTE_CLASSES);
  t = m->seg[c];
  hi = m->nseg[c] - 1;
  /* Invariant: the answer is in [lo, hi]; t[hi].upto is INFINITY, so a NaN
   * k (no comparison true) lands on the last segment. */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (k <= t[mid].upto)
      hi = mid;
    else
      lo = mid + 1;
  }
  return &t[lo];
}

double hnm_segment_lat_factor(const struct hnm_segment *s, double payload_bytes, double route_lat_s, int *lost)
{
  double want;

  /* The factor depends on the envelope, a constant, not on the size. */
  (void)payload_bytes;
  if (!s->latency_absolute)
    return s->lat_factor;
  /* SimGrid charges (k + 16)/rate: remove the 16 bytes' share from the
   * latency when the rate is ours (absolute bandwidth). */
  want = s->latency_s;
  if (s->bandwidth_absolute)
    want -= HNM_SMPI_ENVELOPE_BYTES / s->bandwidth_Bps;
  if (want < 0)
    want = 0;
  if (!(route_lat_s > 0)) {
    /* SimGrid multiplies the route latency: from 0 no factor gets there. */
    if (want > 0 && lost != NULL)
      *lost = 1;
    return 1;
  }
  return want / route_lat_s;
}

double hnm_segment_bw_factor(const struct hnm_segment *s, double route_min_bw_Bps)
{
  if (!s->bandwidth_absolute)
    return s->bw_factor;
  /* A route without a finite positive bound cannot be rescaled. */
  if (!(route_min_bw_Bps > 0) || isinf(route_min_bw_Bps))
    return 1;
  return s->bandwidth_Bps / route_min_bw_Bps;
}

double hnm_segment_send_overhead(const struct hnm_segment *s, double k)
{
  return s->send_o + k * s->send_O;
}

double hnm_segment_isend_overhead(const struct hnm_segment *s, double k)
{
  return s->isend_o + k * s->isend_O;
}

double hnm_segment_recv_overhead(const struct hnm_segment *s, double k)
{
  return s->recv_o + k * s->recv_O;
}

long hnm_model_smpi_async_thresh(const hnm_model *m)
{
  return m->async_max < 0 ? 0 : m->async_max + 1;
}

long hnm_model_smpi_detached_thresh(const hnm_model *m)
{
  return m->detached_max < 0 ? 0 : m->detached_max + 1;
}

int hnm_model_loggps(const hnm_model *m, struct hnm_loggps *out)
{
  if (!m->is_loggps)
    return 0;
  out->L = m->loggps[LG_L];
  out->o = m->loggps[LG_o];
  out->g = m->loggps[LG_g];
  out->G = m->loggps[LG_G];
  out->s = m->loggps[LG_s];
  out->S = m->loggps[LG_S];
  out->Os = m->loggps[LG_Os];
  out->Or = m->loggps[LG_Or];
  out->gap = m->gap;
  out->ports = m->ports;
  out->from_route = m->loggps_from_route;
  return 1;
}

int hnm_model_rma(const hnm_model *m, struct hnm_rma *out)
{
  if (!m->has_rma)
    return 0;
  *out = m->rma;
  return 1;
}

int hnm_model_needs_full_update(const hnm_model *m)
{
  /* LogGPS ports: which of two same-instant transfers takes a port first
   * follows SimGrid's completion order, which Lazy draws from last-bit
   * differences of event dates (platform dependent), Full from the order
   * the transfers were started. */
  if (m->is_loggps)
    return 1;
  /* Max-min models: SimGrid's selective update is right once mended (the
   * plugin does, or falls back to Full itself: hnm_lmm_fix.h), and faster
   * than Full (docs/models.md); smpi-default keeps it, defect included. */
  return 0;
}

int hnm_model_stochastic(const hnm_model *m)
{
  return m->stochastic;
}

unsigned long long hnm_model_seed(const hnm_model *m)
{
  return m->has_seed ? m->seed : 1;
}

#define MODEL__GOLDEN 0x9e3779b97f4a7c15ULL

static unsigned long long model__mix64(unsigned long long z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double hnm_random_uniform(unsigned long long seed, unsigned long long n)
{
  unsigned long long state = model__mix64(seed) + (n + 1) * MODEL__GOLDEN;
  return (double)(model__mix64(state) >> 11) * 0x1.0p-53;
}

/* The inverse of the piecewise-linear distribution function through the
 * N >= 2 quantiles Q, at probability U. */
static double model__quantile(const double *q, size_t n, double u)
{
  double h = u * (double)(n - 1);
  if (!(h > 0))
    return q[0];
  size_t i = (size_t)h;
  if (i + 1 >= n)
    return q[n - 1];
  return q[i] + (h - (double)i) * (q[i + 1] - q[i]);
}

double hnm_segment_residual(const struct hnm_segment *s, double u)
{
  if (s->nresiduals < 2 || s->residuals == NULL)
    return 1.0;
  return model__quantile(s->residuals, s->nresiduals, u);
}

const struct hnm_residual_table *hnm_segment_residual_table(const struct hnm_segment *s, double k)
{
  if (s->nsized == 0 || s->sized == NULL)
    return NULL;
  /* The first table with k <= upto; the last one's upto is infinite. */
  size_t lo = 0, hi = s->nsized - 1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (k <= s->sized[mid].upto)
      hi = mid;
    else
      lo = mid + 1;
  }
  return &s->sized[lo];
}

double hnm_segment_residual_at(const struct hnm_segment *s, double k, double u)
{
  const struct hnm_residual_table *t = hnm_segment_residual_table(s, k);
  if (t == NULL)
    return hnm_segment_residual(s, u);
  return model__quantile(t->q, t->n, u);
}

void model__free_residuals(struct hnm_segment *s)
{
  for (size_t i = 0; s->sized != NULL && i < s->nsized; i++)
    free((double *)s->sized[i].q);
  free((struct hnm_residual_table *)s->sized);
  free((double *)s->residuals);
  s->sized = NULL;
  s->nsized = 0;
  s->residuals = NULL;
  s->nresiduals = 0;
}

double hnm_segment_residual_mean(const struct hnm_segment *s)
{
  if (s->nresiduals < 2 || s->residuals == NULL)
    return 1.0;
  double sum = 0;
  for (size_t i = 0; i + 1 < s->nresiduals; i++)
    sum += (s->residuals[i] + s->residuals[i + 1]) / 2;
  return sum / (double)(s->nresiduals - 1);
}

double hnm_segment_residual_variance(const struct hnm_segment *s)
{
  if (s->nresiduals < 2 || s->residuals == NULL)
    return 0.0;
  double m2 = 0;
  for (size_t i = 0; i + 1 < s->nresiduals; i++) {
    double a = s->residuals[i], b = s->residuals[i + 1];
    m2 += (a * a + a * b + b * b) / 3;
  }
  m2 /= (double)(s->nresiduals - 1);
  double mean = hnm_segment_residual_mean(s);
  double v = m2 - mean * mean;
  return v > 0 ? v : 0;
}

double hnm_wire_multiplier(double rho, double over_s, double wire_s)
{
  if (!(wire_s > 0))
    return 1.0;
  double w = 1 + (rho - 1) * (over_s + wire_s) / wire_s;
  return w > HNM_MIN_WIRE_MULTIPLIER ? w : HNM_MIN_WIRE_MULTIPLIER;
}

int model__parse_seed(const char *v, unsigned long long *out, char *reason, size_t len)
{
  const char *p = v;
  unsigned long long x = 0;
  if (*p == '\0') {
    hnm_errf(reason, len, "empty (give a whole number from 0 to %llu)", ULLONG_MAX);
    return -1;
  }
  for (; *p != '\0'; p++)
    if (*p < '0' || *p > '9') {
      hnm_errf(reason, len, "'%s' is not a whole number from 0 to %llu", v, ULLONG_MAX);
      return -1;
    }
  for (p = v; *p != '\0'; p++) {
    if (x > (ULLONG_MAX - (unsigned long long)(*p - '0')) / 10) {
      hnm_errf(reason, len, "'%s' is out of range (a whole number from 0 to %llu)", v, ULLONG_MAX);
      return -1;
    }
    x = x * 10 + (unsigned long long)(*p - '0');
  }
  *out = x;
  return 0;
}

/* Stochastic mode needs a segment model with residuals somewhere. */
int model__check_stochastic(const hnm_model *m, char *reason, size_t len)
{
  if (!m->stochastic)
    return 0;
  if (m->is_loggps) {
    hnm_errf(reason, len, "'on' needs a model of segments with residuals; a LogGPS model has none");
    return -1;
  }
  for (int c = 0; c < MODEL__TABLES; c++)
    for (size_t i = 0; m->table[c] != NULL && i < m->table_len[c]; i++)
      if (m->table[c][i].nresiduals >= 2 || m->table[c][i].nsized > 0)
        return 0;
  hnm_errf(reason, len, "'on' but no segment has residuals (hnm-calibrate fit writes them; "
           "docs/model-format.md, \"Stochastic mode\")");
  return -1;
}
