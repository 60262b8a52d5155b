/* hnm_model.c -- load, check and query hnm network models (see hnm_model.h
 * for the semantics and docs/model-format.md for the file format).
 *
 * Loading is done in three steps, each reporting "FILE:LINE: ..." on failure:
 *   1. libxml2 parses the file (no network, no external DTD loading);
 *   2. the document is validated against our own hnm-model.dtd, whatever
 *      DOCTYPE it declares (a model file without DOCTYPE is fine);
 *   3. this file checks what a DTD cannot (units, ranges, ordering, pairs of
 *      exclusive attributes) and builds the segment tables.
 * libxml2 never prints anything itself: its errors are captured through a
 * structured error handler installed for the duration of the call.
 *
 * A <loggps> model is expanded into one absolute segment table (seed 002,
 * Figure 1, see model__loggps_expand()); its 8 parameters are kept so that
 * --model overrides can expand it again.
 */
#include "hnm_model.h"
#include "hnm_input.h"
#include "hnm_units.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/valid.h>
#include <libxml/xmlerror.h>

#ifndef HNM_BUILTIN_MODEL_DIR
#error "compile with -DHNM_BUILTIN_MODEL_DIR=\"<source tree>/plugin/models\""
#endif

/* Tables are stored per route class, plus one for route="any". */
#define MODEL__ANY HNM_ROUTE_CLASSES
#define MODEL__TABLES (HNM_ROUTE_CLASSES + 1)

/* Largest byte count accepted for a protocol threshold or a LogGPS size:
 * the largest whole number a double holds exactly (2^53), and less than
 * LONG_MAX so that the SMPI threshold (value + 1) still fits in a long. */
#if LONG_MAX > 9007199254740992L
#define MODEL__MAX_BYTES 9007199254740992.0
#else
#define MODEL__MAX_BYTES ((double)(LONG_MAX - 1))
#endif

/* Physical sanity ranges (docs/model-format.md, "Ranges"): values outside
 * are typing mistakes or broken fits, not networks. A time (latency,
 * overhead, gap; also per byte) above 1 s is three orders of magnitude above
 * any network's latency or software overhead and would let the simulated
 * clock run away (1e300 s saturates it); a bandwidth is at most
 * HNM_MAX_BANDWIDTH (1e20 B/s, hnm's "no limit", what a per-byte time of 0
 * means); a factor above 1e6 (or below 1e-6) multiplies a route's latency
 * or bandwidth beyond anything a calibration measures. */
#define MODEL__MAX_TIME 1.0                /* seconds, or seconds per byte */
#define MODEL__MAX_BANDWIDTH HNM_MAX_BANDWIDTH /* bytes per second */
#define MODEL__MIN_FACTOR 1e-6
#define MODEL__MAX_FACTOR 1e6

#define MODEL__REASON 512

static const char *const model__route_names[MODEL__TABLES] = {"same-host", "same-zone", "remote", "any"};

static const char model__bundled[] = "graphene, smpi-default, fluid, loggps";

/* LogGPS parameters, in the order of the <loggps> element. */
enum model__lg { LG_L, LG_o, LG_g, LG_G, LG_s, LG_S, LG_Os, LG_Or, LG_COUNT };

/* How an attribute or --model value is read. */
enum model__kind {
  KIND_TIME,      /* time, 0 <= v <= MODEL__MAX_TIME (seconds, or seconds per byte) */
  KIND_BYTES,     /* whole number of bytes, 0 <= v <= MODEL__MAX_BYTES */
  KIND_UPTO,      /* "inf" or a KIND_BYTES */
  KIND_FACTOR,    /* plain number, MODEL__MIN_FACTOR <= v <= MODEL__MAX_FACTOR */
  KIND_BANDWIDTH  /* bandwidth, 0 < v <= MODEL__MAX_BANDWIDTH */
};

static const struct {
  const char *name;
  enum model__kind kind;
} model__lg_params[LG_COUNT] = {
  {"L", KIND_TIME}, {"o", KIND_TIME}, {"g", KIND_TIME}, {"G", KIND_TIME},
  {"s", KIND_BYTES}, {"S", KIND_BYTES}, {"Os", KIND_TIME}, {"Or", KIND_TIME}
};

struct hnm_model {
  char *name;        /* the name attribute of <hnm-model> */
  char *description; /* may be NULL */
  char *source;      /* path of the file it was loaded from */
  char *overrides;   /* the "k=v,k=v" part of a --model spec, or NULL */
  long async_max;    /* bytes, -1 = never */
  long detached_max; /* bytes, -1 = never */
  enum hnm_limiter_mode limiter;
  double limiter_factor; /* dimensionless, 0 unless HNM_LIMITER_FACTOR */
  enum hnm_contention contention;
  enum hnm_crosstraffic crosstraffic;
  /* Owned tables, indexed by route class then MODEL__ANY; NULL if absent. */
  struct hnm_segment *table[MODEL__TABLES];
  size_t table_len[MODEL__TABLES];
  /* Table used by each class: its own, else the "any" one (model__resolve()). */
  const struct hnm_segment *seg[HNM_ROUTE_CLASSES];
  size_t nseg[HNM_ROUTE_CLASSES];
  int is_loggps;
  double loggps[LG_COUNT]; /* SI units, meaningful if is_loggps */
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */

static char *model__strdup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);

  if (d != NULL)
    memcpy(d, s, n);
  return d;
}

static void model__fail(hnm_error *err, const char *fmt, ...)
{
  va_list ap;

  if (err == NULL)
    return;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
}

static void model__reason(char *reason, size_t len, const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(reason, len, fmt, ap);
  va_end(ap);
}

static void model__resolve(hnm_model *m)
{
  int c;

  for (c = 0; c < HNM_ROUTE_CLASSES; c++) {
    int t = m->table[c] != NULL ? c : MODEL__ANY;
    m->seg[c] = m->table[t];
    m->nseg[c] = m->table_len[t];
  }
}

/* ------------------------------------------------------------------ */
/* Values shared by the file loader and --model overrides. Each parser  */
/* writes a reason without file, line or field: the caller adds them.   */

static int model__parse_value(const char *v, enum model__kind kind, double *out, char *reason, size_t len)
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
    if (x != floor(x)) {
      model__reason(reason, len, "'%s' is not a whole number of bytes", v);
      return -1;
    }
    if (x > MODEL__MAX_BYTES) {
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
static int model__parse_threshold(const char *v, long *out, char *reason, size_t len)
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
static int model__parse_limiter(const char *v, enum hnm_limiter_mode *mode, double *factor,
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
static int model__check_protocol(long async, long detached, const char *blame, const char **field,
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
static int model__loggps_expand(hnm_model *m, const double p[LG_COUNT], const char **field,
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
/* libxml2 error capture                                                */

struct model__xmlerr {
  int set;
  int code;
  long line;
  char msg[512];
};

static void model__xmlerr_record(struct model__xmlerr *cap, int code, long line, const char *msg)
{
  size_t n;

  /* Keep the first error, except that an undeclared element or attribute
   * replaces the content-model error its parent reported just before: it
   * points at the line to fix. */
  if (cap->set && !(cap->code == XML_DTD_CONTENT_MODEL &&
                    (code == XML_DTD_UNKNOWN_ELEM || code == XML_DTD_UNKNOWN_ATTRIBUTE)))
    return;
  cap->set = 1;
  cap->code = code;
  cap->line = line;
  snprintf(cap->msg, sizeof cap->msg, "%s", msg != NULL ? msg : "unknown error");
  n = strlen(cap->msg);
  while (n > 0 && (cap->msg[n - 1] == '\n' || cap->msg[n - 1] == ' '))
    cap->msg[--n] = '\0';
}

#if LIBXML_VERSION >= 21200
static void model__xml_structured(void *ctx, const xmlError *e)
#else
static void model__xml_structured(void *ctx, xmlErrorPtr e)
#endif
{
  struct model__xmlerr *cap = ctx;
  long line;

  if (cap == NULL || e == NULL || e->level < XML_ERR_ERROR)
    return;
  line = e->line;
  if (e->node != NULL && ((const xmlNode *)e->node)->type == XML_ELEMENT_NODE)
    line = xmlGetLineNo((const xmlNode *)e->node);
  model__xmlerr_record(cap, e->code, line, e->message);
}

/* libxml2 routes validity errors to the structured handler when one is
 * installed; this one only catches what would otherwise go to stderr. */
static void model__xml_valid_error(void *ctx, const char *fmt, ...)
{
  struct model__xmlerr *cap = ctx;
  char buf[512];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  model__xmlerr_record(cap, 0, 0, buf);
}

static void model__xml_silent(void *ctx, const char *fmt, ...)
{
  (void)ctx;
  (void)fmt;
}

/* ------------------------------------------------------------------ */
/* Loading a file                                                       */

struct model__load {
  const char *path;
  hnm_error *err;
};

/* "FILE:LINE: <element> attribute '<attr>': reason". Returns -1. */
static int load__fail(const struct model__load *ld, const xmlNode *n, const char *attr, const char *fmt, ...)
{
  char reason[MODEL__REASON];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  if (attr != NULL)
    model__fail(ld->err, "%s:%ld: %s attribute '%s': %s", ld->path, xmlGetLineNo(n),
                (const char *)n->name, attr, reason);
  else
    model__fail(ld->err, "%s:%ld: %s: %s", ld->path, xmlGetLineNo(n), (const char *)n->name, reason);
  return -1;
}

static int load__is(const xmlNode *n, const char *name)
{
  return n->type == XML_ELEMENT_NODE && xmlStrcmp(n->name, (const xmlChar *)name) == 0;
}

/* Parse attribute attr of n (if present) as kind into *out; *present tells
 * whether it was there (may be NULL). */
static int load__value(const struct model__load *ld, const xmlNode *n, const char *attr,
                       enum model__kind kind, double *out, int *present)
{
  char reason[MODEL__REASON];
  xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
  int rc = 0;

  if (present != NULL)
    *present = v != NULL;
  if (v == NULL)
    return 0;
  if (model__parse_value((const char *)v, kind, out, reason, sizeof reason) < 0)
    rc = load__fail(ld, n, attr, "%s", reason);
  xmlFree(v);
  return rc;
}

/* A required attribute; the DTD already demands it, this guards against a
 * DTD edited out of sync. */
static int load__required(const struct model__load *ld, const xmlNode *n, const char *attr,
                          enum model__kind kind, double *out)
{
  int present;

  if (load__value(ld, n, attr, kind, out, &present) < 0)
    return -1;
  if (!present)
    return load__fail(ld, n, attr, "missing");
  return 0;
}

static int load__protocol(const struct model__load *ld, const xmlNode *n, hnm_model *m)
{
  static const char *const attrs[2] = {"async", "detached"};
  long *dst[2] = {&m->async_max, &m->detached_max};
  char reason[MODEL__REASON];
  const char *field;
  int i;

  for (i = 0; i < 2; i++) {
    xmlChar *v = xmlGetProp(n, (const xmlChar *)attrs[i]);
    int rc;

    if (v == NULL)
      return load__fail(ld, n, attrs[i], "missing");
    rc = model__parse_threshold((const char *)v, dst[i], reason, sizeof reason);
    xmlFree(v);
    if (rc < 0)
      return load__fail(ld, n, attrs[i], "%s", reason);
  }
  if (model__check_protocol(m->async_max, m->detached_max, NULL, &field, reason, sizeof reason) < 0)
    return load__fail(ld, n, field, "%s", reason);
  return 0;
}

static int load__limiter(const struct model__load *ld, const xmlNode *n, hnm_model *m)
{
  char reason[MODEL__REASON];
  xmlChar *v = xmlGetProp(n, (const xmlChar *)"factor");
  int rc;

  if (v == NULL)
    return load__fail(ld, n, "factor", "missing");
  rc = model__parse_limiter((const char *)v, &m->limiter, &m->limiter_factor, reason, sizeof reason);
  xmlFree(v);
  if (rc < 0)
    return load__fail(ld, n, "factor", "%s", reason);
  return 0;
}

static int load__sharing(const struct model__load *ld, const xmlNode *n, hnm_model *m)
{
  xmlChar *v;
  int rc = 0;

  v = xmlGetProp(n, (const xmlChar *)"contention");
  if (v == NULL || xmlStrcmp(v, (const xmlChar *)"maxmin") == 0)
    m->contention = HNM_CONTENTION_MAXMIN;
  else if (xmlStrcmp(v, (const xmlChar *)"none") == 0)
    m->contention = HNM_CONTENTION_NONE;
  else
    rc = load__fail(ld, n, "contention", "'%s' is not maxmin or none", (const char *)v);
  xmlFree(v);
  if (rc < 0)
    return -1;

  v = xmlGetProp(n, (const xmlChar *)"crosstraffic");
  if (v == NULL || xmlStrcmp(v, (const xmlChar *)"simgrid") == 0)
    m->crosstraffic = HNM_CROSSTRAFFIC_SIMGRID;
  else if (xmlStrcmp(v, (const xmlChar *)"on") == 0)
    m->crosstraffic = HNM_CROSSTRAFFIC_ON;
  else if (xmlStrcmp(v, (const xmlChar *)"off") == 0)
    m->crosstraffic = HNM_CROSSTRAFFIC_OFF;
  else
    rc = load__fail(ld, n, "crosstraffic", "'%s' is not simgrid, on or off", (const char *)v);
  xmlFree(v);
  return rc;
}

/* One <segment>; prev_upto is the previous segment's upto (-1 for the first). */
static int load__segment(const struct model__load *ld, const xmlNode *n, struct hnm_segment *seg,
                         double prev_upto, int is_last)
{
  static const struct {
    const char *attr;
    size_t offset;
  } overheads[] = {
    {"send-o", offsetof(struct hnm_segment, send_o)},
    {"send-per-byte", offsetof(struct hnm_segment, send_O)},
    {"isend-o", offsetof(struct hnm_segment, isend_o)},
    {"isend-per-byte", offsetof(struct hnm_segment, isend_O)},
    {"recv-o", offsetof(struct hnm_segment, recv_o)},
    {"recv-per-byte", offsetof(struct hnm_segment, recv_O)},
  };
  int has_factor, has_abs;
  size_t i;

  memset(seg, 0, sizeof *seg);
  if (load__required(ld, n, "upto", KIND_UPTO, &seg->upto) < 0)
    return -1;
  if (isinf(seg->upto) && !is_last)
    return load__fail(ld, n, "upto", "'inf' is only allowed on the last segment of a table");
  if (!isinf(seg->upto) && is_last)
    return load__fail(ld, n, "upto", "the last segment of a table must have upto=\"inf\" (got %.15g bytes)",
                      seg->upto);
  if (!(seg->upto > prev_upto))
    return load__fail(ld, n, "upto", "%.15g bytes is not greater than the previous segment's upto (%.15g bytes)",
                      seg->upto, prev_upto);

  if (load__value(ld, n, "lat-factor", KIND_FACTOR, &seg->lat_factor, &has_factor) < 0 ||
      load__value(ld, n, "latency", KIND_TIME, &seg->latency_s, &has_abs) < 0)
    return -1;
  if (has_factor && has_abs)
    return load__fail(ld, n, "latency", "give either lat-factor or latency, not both");
  if (!has_factor && !has_abs)
    return load__fail(ld, n, "lat-factor", "neither lat-factor nor latency is given (exactly one is required)");
  seg->latency_absolute = has_abs;
  if (!has_factor)
    seg->lat_factor = 1;

  if (load__value(ld, n, "bw-factor", KIND_FACTOR, &seg->bw_factor, &has_factor) < 0 ||
      load__value(ld, n, "bandwidth", KIND_BANDWIDTH, &seg->bandwidth_Bps, &has_abs) < 0)
    return -1;
  if (has_factor && has_abs)
    return load__fail(ld, n, "bandwidth", "give either bw-factor or bandwidth, not both");
  if (!has_factor && !has_abs)
    return load__fail(ld, n, "bw-factor", "neither bw-factor nor bandwidth is given (exactly one is required)");
  seg->bandwidth_absolute = has_abs;
  if (!has_factor)
    seg->bw_factor = 1;

  for (i = 0; i < sizeof overheads / sizeof overheads[0]; i++) {
    double *dst = (double *)((char *)seg + overheads[i].offset);
    if (load__value(ld, n, overheads[i].attr, KIND_TIME, dst, NULL) < 0)
      return -1;
  }
  return 0;
}

static int load__segments(const struct model__load *ld, const xmlNode *n, hnm_model *m)
{
  struct hnm_segment *t = NULL;
  const xmlNode *c;
  xmlChar *route = xmlGetProp(n, (const xmlChar *)"route");
  size_t count = 0, i;
  double prev = -1;
  int idx = -1, k;

  for (k = 0; k < MODEL__TABLES; k++) {
    if (xmlStrcmp(route != NULL ? route : (const xmlChar *)"any", (const xmlChar *)model__route_names[k]) == 0)
      idx = k;
  }
  if (idx < 0) {
    load__fail(ld, n, "route", "'%s' is not any, same-host, same-zone or remote", (const char *)route);
    goto err;
  }
  if (m->table[idx] != NULL) {
    load__fail(ld, n, "route", "a second table for route '%s' (each route class takes at most one table)",
               model__route_names[idx]);
    goto err;
  }

  for (c = n->children; c != NULL; c = c->next) {
    if (load__is(c, "segment"))
      count++;
  }
  if (count == 0) {
    load__fail(ld, n, NULL, "a table needs at least one segment");
    goto err;
  }
  t = calloc(count, sizeof *t);
  if (t == NULL) {
    load__fail(ld, n, NULL, "out of memory");
    goto err;
  }
  i = 0;
  for (c = n->children; c != NULL; c = c->next) {
    if (!load__is(c, "segment"))
      continue;
    if (load__segment(ld, c, &t[i], prev, i + 1 == count) < 0)
      goto err;
    prev = t[i].upto;
    i++;
  }
  m->table[idx] = t;
  m->table_len[idx] = count;
  xmlFree(route);
  return 0;

err:
  free(t);
  xmlFree(route);
  return -1;
}

static int load__loggps(const struct model__load *ld, const xmlNode *n, hnm_model *m)
{
  char reason[MODEL__REASON];
  const char *field;
  double p[LG_COUNT];
  int i;

  for (i = 0; i < LG_COUNT; i++) {
    if (load__required(ld, n, model__lg_params[i].name, model__lg_params[i].kind, &p[i]) < 0)
      return -1;
  }
  if (model__loggps_expand(m, p, &field, reason, sizeof reason) < 0)
    return load__fail(ld, n, field, "%s", reason);
  return 0;
}

/* Build the model from a document that follows the DTD. */
/* SimGrid 3.32 hands SMPI's receive-cost callback a null source host when
 * the message reached the receiver before MPI_Recv was posted (the usual
 * case for eager and detached sends), so the route class of a receive is not
 * known there. Receive overheads must therefore be the same function of k
 * for every route class. Returns the first class that differs from
 * same-host, or -1. Walks the merged breakpoints of the two tables. */
static int model__recv_class_mismatch(const hnm_model *m)
{
  for (int c = 1; c < HNM_ROUTE_CLASSES; c++) {
    const struct hnm_segment *a = m->seg[0], *b = m->seg[c];
    size_t i = 0, j = 0, na = m->nseg[0], nb = m->nseg[c];
    if (a == b)
      continue;
    for (;;) {
      if (a[i].recv_o != b[j].recv_o || a[i].recv_O != b[j].recv_O)
        return c;
      if (i + 1 == na && j + 1 == nb)
        break;
      double ua = a[i].upto, ub = b[j].upto;
      if (ua <= ub && i + 1 < na)
        i++;
      if (ub <= ua && j + 1 < nb)
        j++;
    }
  }
  return -1;
}

static hnm_model *load__model(const struct model__load *ld, const xmlNode *root)
{
  const xmlNode *c, *last_segments = NULL;
  hnm_model *m;
  xmlChar *v = NULL;
  int k;

  m = calloc(1, sizeof *m);
  if (m == NULL) {
    model__fail(ld->err, "%s: out of memory", ld->path);
    return NULL;
  }
  m->async_max = -1;
  m->detached_max = -1;
  m->limiter = HNM_LIMITER_KEEP;
  m->contention = HNM_CONTENTION_MAXMIN;
  m->crosstraffic = HNM_CROSSTRAFFIC_SIMGRID;

  if (root == NULL || !load__is(root, "hnm-model")) {
    model__fail(ld->err, "%s:%ld: the root element must be <hnm-model>", ld->path,
                root != NULL ? xmlGetLineNo(root) : 1L);
    goto err;
  }
  v = xmlGetProp(root, (const xmlChar *)"version");
  if (v == NULL || xmlStrcmp(v, (const xmlChar *)"1") != 0) {
    load__fail(ld, root, "version", "'%s' is not supported (this hnm reads version 1)",
               v != NULL ? (const char *)v : "");
    goto err;
  }
  xmlFree(v);
  v = xmlGetProp(root, (const xmlChar *)"name");
  if (v == NULL || *v == '\0') {
    load__fail(ld, root, "name", "must not be empty");
    goto err;
  }
  m->name = model__strdup((const char *)v);
  xmlFree(v);
  v = NULL;
  if (m->name == NULL) {
    model__fail(ld->err, "%s: out of memory", ld->path);
    goto err;
  }

  for (c = root->children; c != NULL; c = c->next) {
    int rc = 0;

    if (c->type != XML_ELEMENT_NODE)
      continue;
    if (load__is(c, "description")) {
      v = xmlNodeGetContent(c);
      if (v != NULL) {
        free(m->description);
        m->description = model__strdup((const char *)v);
        xmlFree(v);
        v = NULL;
      }
    } else if (load__is(c, "protocol")) {
      rc = load__protocol(ld, c, m);
    } else if (load__is(c, "limiter")) {
      rc = load__limiter(ld, c, m);
    } else if (load__is(c, "sharing")) {
      rc = load__sharing(ld, c, m);
    } else if (load__is(c, "segments")) {
      rc = load__segments(ld, c, m);
      last_segments = c;
    } else if (load__is(c, "loggps")) {
      rc = load__loggps(ld, c, m);
    } else {
      rc = load__fail(ld, c, NULL, "unknown element");
    }
    if (rc < 0)
      goto err;
  }

  if (!m->is_loggps) {
    if (last_segments == NULL) {
      load__fail(ld, root, NULL, "no <segments> table and no <loggps> element");
      goto err;
    }
    if (m->table[MODEL__ANY] == NULL) {
      for (k = 0; k < HNM_ROUTE_CLASSES; k++) {
        if (m->table[k] == NULL) {
          load__fail(ld, last_segments, "route",
                     "no table for route '%s' (give a route=\"any\" table, or one table for each of "
                     "same-host, same-zone and remote)", model__route_names[k]);
          goto err;
        }
      }
    }
    model__resolve(m);
    k = model__recv_class_mismatch(m);
    if (k >= 0) {
      load__fail(ld, last_segments, "recv-o",
                 "route '%s' has other receive overheads than 'same-host'; SimGrid 3.32 does not tell "
                 "the receive-cost callback where a message came from, so recv-o and recv-per-byte must "
                 "be the same for every route class", model__route_names[k]);
      goto err;
    }
  }
  return m;

err:
  xmlFree(v);
  hnm_model_free(m);
  return NULL;
}

hnm_model *hnm_model_load(const char *path, hnm_error *err)
{
  struct model__load ld = {path, err};
  struct model__xmlerr cap;
  xmlStructuredErrorFunc old_serror = xmlStructuredError;
  void *old_sctx = xmlStructuredErrorContext;
  xmlGenericErrorFunc old_gerror = xmlGenericError;
  void *old_gctx = xmlGenericErrorContext;
  const char *dtd_path = hnm_model_dtd_path();
  xmlDocPtr doc = NULL;
  xmlDtdPtr dtd = NULL;
  xmlValidCtxtPtr vctxt = NULL;
  hnm_model *m = NULL;
  FILE *f;

  if (path == NULL || *path == '\0') {
    model__fail(err, "(no file): empty model file name");
    return NULL;
  }
  {
    /* A named pipe or a device would block or stream forever in libxml2. */
    char why[512];
    if (hnm_input_check(path, why, sizeof why) != 0) {
      model__fail(err, "%s: model file: %s", path, why);
      return NULL;
    }
  }

  memset(&cap, 0, sizeof cap);
  xmlSetStructuredErrorFunc(&cap, model__xml_structured);
  xmlSetGenericErrorFunc(NULL, model__xml_silent);

  doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
  if (doc == NULL || cap.set) {
    model__fail(err, "%s:%ld: malformed XML: %s", path, cap.set && cap.line > 0 ? cap.line : 1L,
                cap.set ? cap.msg : "cannot parse");
    goto out;
  }

  f = fopen(dtd_path, "r");
  if (f == NULL) {
    model__fail(err, "%s: cannot open the model DTD %s: %s (check HNM_MODEL_DIR)", path, dtd_path,
                strerror(errno));
    goto out;
  }
  fclose(f);
  dtd = xmlParseDTD(NULL, (const xmlChar *)dtd_path);
  if (dtd == NULL) {
    model__fail(err, "%s: cannot load the model DTD %s: %s (check HNM_MODEL_DIR)", path, dtd_path,
                cap.set ? cap.msg : "parse error");
    goto out;
  }
  vctxt = xmlNewValidCtxt();
  if (vctxt == NULL) {
    model__fail(err, "%s: out of memory", path);
    goto out;
  }
  vctxt->userData = &cap;
  vctxt->error = model__xml_valid_error;
  vctxt->warning = model__xml_silent;
  memset(&cap, 0, sizeof cap);
  if (xmlValidateDtd(vctxt, doc, dtd) != 1) {
    model__fail(err, "%s:%ld: invalid model: %s (checked against %s)", path,
                cap.set && cap.line > 0 ? cap.line : 1L, cap.set ? cap.msg : "validation failed", dtd_path);
    goto out;
  }

  m = load__model(&ld, xmlDocGetRootElement(doc));
  if (m == NULL)
    goto out;
  m->source = model__strdup(path);
  if (m->source == NULL) {
    model__fail(err, "%s: out of memory", path);
    hnm_model_free(m);
    m = NULL;
  }

out:
  /* xmlFreeValidCtxt() is not NULL-safe in libxml2 2.9. */
  if (vctxt != NULL)
    xmlFreeValidCtxt(vctxt);
  if (dtd != NULL)
    xmlFreeDtd(dtd);
  if (doc != NULL)
    xmlFreeDoc(doc);
  xmlSetStructuredErrorFunc(old_sctx, old_serror);
  xmlSetGenericErrorFunc(old_gctx, old_gerror);
  return m;
}

/* ------------------------------------------------------------------ */
/* --model specifications                                               */

enum spec__key { KEY_ASYNC, KEY_DETACHED, KEY_LIMITER, KEY_LOGGPS /* + LG_* */ };

/* "--model: key 'X': reason". Returns -1. */
static int spec__fail(hnm_error *err, const char *key, const char *fmt, ...)
{
  char reason[MODEL__REASON];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  model__fail(err, "--model: key '%s': %s", key, reason);
  return -1;
}

/* Apply "k=v,k=v" (opts is modified) to m, then check the result. */
static int spec__apply(hnm_model *m, char *opts, hnm_error *err)
{
  static const char known[] = "async, detached, limiter; for a loggps model also L, o, g, G, s, S, Os, Or";
  char reason[MODEL__REASON];
  const char *field;
  double lg[LG_COUNT];
  long async = m->async_max, detached = m->detached_max;
  enum hnm_limiter_mode limiter = m->limiter;
  double limiter_factor = m->limiter_factor;
  int seen[KEY_LOGGPS + LG_COUNT] = {0};
  const char *blame = NULL;
  char *item = opts;
  int lg_changed = 0;

  memcpy(lg, m->loggps, sizeof lg);
  for (;;) {
    char *comma = strchr(item, ',');
    char *eq, *val;
    int key = -1, i;

    if (comma != NULL)
      *comma = '\0';
    if (*item == '\0') {
      model__fail(err, "--model: empty item in the key=value list (write NAME:k=v,k=v)");
      return -1;
    }
    eq = strchr(item, '=');
    if (eq == NULL)
      return spec__fail(err, item, "missing '=' (write %s=VALUE)", item);
    *eq = '\0';
    val = eq + 1;
    if (*item == '\0') {
      model__fail(err, "--model: empty key before '=%s'", val);
      return -1;
    }
    if (strcmp(item, "async") == 0)
      key = KEY_ASYNC;
    else if (strcmp(item, "detached") == 0)
      key = KEY_DETACHED;
    else if (strcmp(item, "limiter") == 0)
      key = KEY_LIMITER;
    for (i = 0; i < LG_COUNT; i++) {
      if (strcmp(item, model__lg_params[i].name) == 0)
        key = KEY_LOGGPS + i;
    }
    if (key < 0)
      return spec__fail(err, item, "unknown key (known keys: %s)", known);
    if (seen[key])
      return spec__fail(err, item, "given twice");
    seen[key] = 1;
    if (*val == '\0')
      return spec__fail(err, item, "empty value");

    switch (key) {
    case KEY_ASYNC:
    case KEY_DETACHED:
      if (model__parse_threshold(val, key == KEY_ASYNC ? &async : &detached, reason, sizeof reason) < 0)
        return spec__fail(err, item, "%s", reason);
      break;
    case KEY_LIMITER:
      if (model__parse_limiter(val, &limiter, &limiter_factor, reason, sizeof reason) < 0)
        return spec__fail(err, item, "%s", reason);
      break;
    default:
      i = key - KEY_LOGGPS;
      if (!m->is_loggps)
        return spec__fail(err, item, "LogGPS parameters only apply to a loggps model ('%s' is a segment table)",
                          m->name);
      if (model__parse_value(val, model__lg_params[i].kind, &lg[i], reason, sizeof reason) < 0)
        return spec__fail(err, item, "%s", reason);
      lg_changed = 1;
      break;
    }
    if (comma == NULL)
      break;
    item = comma + 1;
  }

  /* Expansion resets the protocol and the limiter: apply those after it. */
  if (lg_changed && model__loggps_expand(m, lg, &field, reason, sizeof reason) < 0)
    return spec__fail(err, field, "%s", reason);
  if (seen[KEY_ASYNC])
    m->async_max = async;
  if (seen[KEY_DETACHED])
    m->detached_max = detached;
  if (seen[KEY_LIMITER]) {
    m->limiter = limiter;
    m->limiter_factor = limiter_factor;
  }
  if (seen[KEY_ASYNC] && !seen[KEY_DETACHED])
    blame = "async";
  else if (seen[KEY_DETACHED] && !seen[KEY_ASYNC])
    blame = "detached";
  else if (lg_changed && !seen[KEY_ASYNC] && !seen[KEY_DETACHED])
    blame = "S";
  if (model__check_protocol(m->async_max, m->detached_max, blame, &field, reason, sizeof reason) < 0)
    return spec__fail(err, field, "%s", reason);
  return 0;
}

static int spec__ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);

  return n >= k && strcmp(s + n - k, suffix) == 0;
}

hnm_model *hnm_model_parse_spec(const char *spec, hnm_error *err)
{
  char *copy = NULL, *path = NULL, *opts = NULL, *colon;
  const char *slash;
  hnm_model *m = NULL;

  if (spec == NULL || *spec == '\0') {
    model__fail(err, "--model: empty specification (give a model name such as graphene, or a file)");
    return NULL;
  }
  copy = model__strdup(spec);
  if (copy == NULL)
    goto oom;

  /* The overrides start at the first ':' after the last '/', so that a
   * directory name may contain ':'. */
  slash = strrchr(copy, '/');
  colon = strchr(slash != NULL ? slash : copy, ':');
  if (colon != NULL) {
    *colon = '\0';
    opts = colon + 1;
  }
  if (*copy == '\0') {
    model__fail(err, "--model: '%s': missing model name before ':'", spec);
    goto err;
  }

  if (strchr(copy, '/') != NULL || spec__ends_with(copy, ".xml")) {
    m = hnm_model_load(copy, err);
  } else {
    const char *dir = hnm_model_dir();
    size_t n = strlen(dir) + strlen(copy) + sizeof "/.xml";
    FILE *f;

    path = malloc(n);
    if (path == NULL)
      goto oom;
    snprintf(path, n, "%s/%s.xml", dir, copy);
    f = fopen(path, "r");
    if (f == NULL) {
      model__fail(err, "--model: unknown model '%s' (bundled models: %s, looked for %s; "
                  "a model FILE must contain '/' or end in .xml)", copy, model__bundled, path);
      goto err;
    }
    fclose(f);
    m = hnm_model_load(path, err);
  }
  if (m == NULL)
    goto err;

  if (opts != NULL) {
    m->overrides = model__strdup(opts);
    if (m->overrides == NULL)
      goto oom;
    if (spec__apply(m, opts, err) < 0)
      goto err;
  }
  free(path);
  free(copy);
  return m;

oom:
  model__fail(err, "--model: out of memory");
err:
  hnm_model_free(m);
  free(path);
  free(copy);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Queries                                                              */

void hnm_model_free(hnm_model *m)
{
  int c;

  if (m == NULL)
    return;
  for (c = 0; c < MODEL__TABLES; c++)
    free(m->table[c]);
  free(m->name);
  free(m->description);
  free(m->source);
  free(m->overrides);
  free(m);
}

const char *hnm_model_dir(void)
{
  const char *dir = getenv("HNM_MODEL_DIR");

  return dir != NULL && *dir != '\0' ? dir : HNM_BUILTIN_MODEL_DIR;
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

/* ------------------------------------------------------------------ */
/* Explain                                                              */

static void explain__threshold(FILE *f, const char *what, long v)
{
  if (v < 0)
    fprintf(f, "%s never", what);
  else
    fprintf(f, "%s k <= %ld B", what, v);
}

static void explain__overhead(FILE *f, const char *what, double o, double O)
{
  fprintf(f, ", %s %.6g s + %.6g s/B", what, o, O);
}

static void explain__table(FILE *f, const struct hnm_segment *t, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++) {
    const struct hnm_segment *s = &t[i];

    if (i == 0 && isinf(s->upto))
      fprintf(f, "    any k: ");
    else if (i == 0)
      fprintf(f, "    k <= %.15g B: ", s->upto);
    else if (isinf(s->upto))
      fprintf(f, "    k > %.15g B: ", t[i - 1].upto);
    else
      fprintf(f, "    %.15g < k <= %.15g B: ", t[i - 1].upto, s->upto);
    if (s->latency_absolute)
      fprintf(f, "lat %.6g s", s->latency_s);
    else
      fprintf(f, "lat x%.6g", s->lat_factor);
    if (s->bandwidth_absolute)
      fprintf(f, ", bw %.6g B/s", s->bandwidth_Bps);
    else
      fprintf(f, ", bw x%.6g", s->bw_factor);
    if (s->send_o == 0 && s->send_O == 0 && s->isend_o == 0 && s->isend_O == 0 && s->recv_o == 0 &&
        s->recv_O == 0) {
      fprintf(f, ", no overheads\n");
      continue;
    }
    explain__overhead(f, "send", s->send_o, s->send_O);
    explain__overhead(f, "isend", s->isend_o, s->isend_O);
    explain__overhead(f, "recv", s->recv_o, s->recv_O);
    fputc('\n', f);
  }
}

void hnm_model_explain(const hnm_model *m, void *file)
{
  static const char *const contention[] = {"maxmin", "none"};
  static const char *const crosstraffic[] = {"as SimGrid configures it", "on", "off"};
  FILE *f = file;
  int c, i;

  fprintf(f, "model: %s", m->name);
  if (m->description != NULL)
    fprintf(f, " (%s)", m->description);
  fputc('\n', f);
  if (m->source != NULL)
    fprintf(f, "  source: %s\n", m->source);
  if (m->overrides != NULL)
    fprintf(f, "  overrides: %s\n", m->overrides);
  if (m->is_loggps) {
    fprintf(f, "  loggps:");
    for (i = 0; i < LG_COUNT; i++) {
      const char *unit = model__lg_params[i].kind == KIND_BYTES ? "B"
                         : (i == LG_L || i == LG_o)             ? "s"
                                                                : "s/B";
      fprintf(f, " %s=%.6g %s", model__lg_params[i].name, m->loggps[i], unit);
    }
    fputc('\n', f);
  }
  fprintf(f, "  protocol: ");
  explain__threshold(f, "eager (async)", m->async_max);
  fprintf(f, ", ");
  explain__threshold(f, "detached", m->detached_max);
  fprintf(f, ", rendez-vous above\n");
  switch (m->limiter) {
  case HNM_LIMITER_KEEP:
    fprintf(f, "  limiter: keep the platform's limiter links\n");
    break;
  case HNM_LIMITER_OFF:
    fprintf(f, "  limiter: off\n");
    break;
  case HNM_LIMITER_FACTOR:
    fprintf(f, "  limiter: %.6g x node bandwidth\n", m->limiter_factor);
    break;
  }
  fprintf(f, "  sharing: contention %s, crosstraffic %s\n", contention[m->contention],
          crosstraffic[m->crosstraffic]);
  /* The "any" table first, with the classes that use it. */
  for (i = 0; i < MODEL__TABLES; i++) {
    const int t = i == 0 ? MODEL__ANY : i - 1;
    const char *sep = "";

    if (m->table[t] == NULL)
      continue;
    fprintf(f, "  segments route=%s (used for:", model__route_names[t]);
    for (c = 0; c < HNM_ROUTE_CLASSES; c++) {
      if (m->seg[c] == m->table[t]) {
        fprintf(f, "%s %s", sep, model__route_names[c]);
        sep = ",";
      }
    }
    fprintf(f, "%s; k in payload bytes):\n", *sep == '\0' ? " none" : "");
    explain__table(f, m->table[t], m->table_len[t]);
  }
}
