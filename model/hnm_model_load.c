/* hnm_model_load.c -- loading a model file: libxml2 parse, validation against
 * hnm-model.dtd, then the checks a DTD cannot make (see hnm_model.c). */
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
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/valid.h>
#include <libxml/xmlerror.h>

#include "hnm_model_impl.h"

/* ------------------------------------------------------------------ */
/* libxml2 error capture                                                */

struct model__xmlerr {
  int set;
  int code;
  long line;
  char msg[512];
  const char *buf; /* the file's text, LEN bytes: for the lines of attributes */
  size_t len;
};

/* Copy MSG into DST (LEN bytes), a quoted run longer than 40 bytes cut to
 * its first 40 and "...": libxml2 quotes the value before the attribute's
 * name ("Value \"...\" for attribute class of pack-cost is not among the
 * enumerated set"), and a value of a kilobyte would push the name out of
 * the one line. */
static void model__shorten_quoted(char *dst, size_t len, const char *msg)
{
  size_t o = 0, run = 0;
  int quoted = 0;
  for (const char *p = msg; *p != '\0' && o + 1 < len; p++) {
    if (*p == '"') {
      if (quoted && run > 40)
        for (const char *e = "..."; *e != '\0' && o + 1 < len; e++)
          dst[o++] = *e;
      quoted = !quoted;
      run = 0;
    } else if (quoted && ++run > 40)
      continue;
    dst[o++] = *p;
  }
  dst[o] = '\0';
}

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
  model__shorten_quoted(cap->msg, sizeof cap->msg, msg != NULL ? msg : "unknown error");
  /* One line: libxml2 adds the offending bytes on a line of their own. */
  cap->msg[strcspn(cap->msg, "\n")] = '\0';
  n = strlen(cap->msg);
  while (n > 0 && (cap->msg[n - 1] == '\n' || cap->msg[n - 1] == ' '))
    cap->msg[--n] = '\0';
}

/* The tag whose name ends at P in BUF (LEN bytes): *CLOSE is the offset of
 * its '>', *AT that of attribute ATTR's name when the tag has it (else
 * left). 0, or -1 when what follows is not a tag's attributes. */
static int model__scan_tag(const char *buf, size_t len, size_t p, const char *attr, size_t *close, size_t *at)
{
  size_t alen = attr != NULL ? strlen(attr) : 0;
  for (;;) {
    while (p < len && strchr(" \t\r\n", buf[p]) != NULL)
      p++;
    if (p < len && buf[p] == '/')
      p++;
    if (p >= len || buf[p] == '>') {
      *close = p;
      return p < len ? 0 : -1;
    }
    size_t name = p;
    while (p < len && strchr(" \t\r\n=/>", buf[p]) == NULL)
      p++;
    if (attr != NULL && p - name == alen && memcmp(buf + name, attr, alen) == 0)
      *at = name;
    while (p < len && strchr(" \t\r\n", buf[p]) != NULL)
      p++;
    if (p >= len || buf[p] != '=')
      return -1;
    for (p++; p < len && strchr(" \t\r\n", buf[p]) != NULL; p++)
      ;
    if (p >= len || (buf[p] != '"' && buf[p] != '\''))
      return -1;
    const char *q = memchr(buf + p + 1, buf[p], len - p - 1);
    if (q == NULL)
      return -1;
    p = (size_t)(q - buf) + 1;
  }
}

/* The line of N's attribute ATTR (of N's start tag when ATTR is NULL or
 * absent) in BUF (LEN bytes; NULL: the element's line). libxml2 gives an
 * element the line where its start tag ends, so an error in the first line
 * of a tag written over several lines (the bundled graphene.xml's
 * <pack-cost>) would name the last: the tag is found in the text,
 * backwards from the end of that line, and the attribute's line counted
 * from there. At most 64 candidates ("<NAME" in comments), each scanned
 * no further than that line: O(file), whatever the file. */
static long model__attr_line(const char *buf, size_t len, const xmlNode *n, const char *attr)
{
  long line = xmlGetLineNo(n), l = 1;
  size_t end = 0, nlen = strlen((const char *)n->name);
  int tries = 0;
  if (buf == NULL || line < 1)
    return line;
  for (; end < len && (l < line || buf[end] != '\n'); end++)
    l += buf[end] == '\n';
  for (size_t i = end; i-- > 0 && tries < 64;) {
    size_t close = 0, at = i, after = i + 1 + nlen;
    if (buf[i] != '<' || after >= end || memcmp(buf + i + 1, n->name, nlen) != 0 ||
        strchr(" \t\r\n/>", buf[after]) == NULL)
      continue;
    tries++;
    if (model__scan_tag(buf, end + (end < len), after, attr, &close, &at) != 0 ||
        memchr(buf + close, '\n', end - close) != NULL)
      continue;
    for (size_t k = at; k < end; k++)
      line -= buf[k] == '\n';
    return line;
  }
  return xmlGetLineNo(n);
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
  /* A validity error about an attribute (libxml2 2.9 to 2.14: a value
   * outside its enumeration names the attribute in str2, an undeclared
   * one in str1) gets the attribute's line, another the element's. */
  if (e->node != NULL && ((const xmlNode *)e->node)->type == XML_ELEMENT_NODE)
    line = model__attr_line(cap->buf, cap->len, (const xmlNode *)e->node,
                            e->code == XML_DTD_ATTRIBUTE_VALUE     ? e->str2
                            : e->code == XML_DTD_UNKNOWN_ATTRIBUTE ? e->str1
                                                                   : NULL);
  model__xmlerr_record(cap, e->code, line, e->message);
}

/* libxml2 routes validity errors to the structured handler when one is
 * installed; this one only catches what would otherwise go to stderr. */
static void model__xml_valid_error(void *ctx, const char *fmt, ...)
{
  struct model__xmlerr *cap = ctx;
  char *buf = NULL;
  va_list ap, ap2;

  /* The whole message, however long a value it quotes: record() cuts it. */
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n >= 0 && (buf = malloc((size_t)n + 1)) != NULL)
    vsnprintf(buf, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  va_end(ap);
  model__xmlerr_record(cap, 0, 0, buf != NULL ? buf : "validity error");
  free(buf);
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
  char *err;
  size_t errlen;
  const char *buf; /* the file's text, LEN bytes: for the lines of attributes */
  size_t len;
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
    hnm_errf(ld->err, ld->errlen, "%s:%ld: %s attribute '%s': %s", ld->path, model__attr_line(ld->buf, ld->len, n, attr),
             (const char *)n->name, attr, reason);
  else
    hnm_errf(ld->err, ld->errlen, "%s:%ld: %s: %s", ld->path, model__attr_line(ld->buf, ld->len, n, NULL), (const char *)n->name, reason);
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
  if (rc < 0)
    return -1;

  v = xmlGetProp(n, (const xmlChar *)"update");
  if (v == NULL || xmlStrcmp(v, (const xmlChar *)"fixed") == 0)
    m->update = HNM_UPDATE_FIXED;
  else if (xmlStrcmp(v, (const xmlChar *)"simgrid") == 0)
    m->update = HNM_UPDATE_SIMGRID;
  else
    rc = load__fail(ld, n, "update", "'%s' is not fixed or simgrid", (const char *)v);
  xmlFree(v);
  return rc;
}

/* Attribute ATTR of N as residual quantiles into *OUT (allocated, the
 * caller frees it) and *COUNT: 2 to HNM_MAX_RESIDUALS plain numbers
 * separated by blanks, each a factor (MODEL__MIN_FACTOR ..
 * MODEL__MAX_FACTOR), nondecreasing. An absent attribute leaves *OUT NULL
 * (an error when REQUIRED). */
static int load__quantiles(const struct model__load *ld, const xmlNode *n, const char *attr, int required,
                           double **out, size_t *count_out)
{
  xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
  *out = NULL;
  *count_out = 0;
  if (v == NULL)
    return required ? load__fail(ld, n, attr, "missing") : 0;
  double *q = malloc(HNM_MAX_RESIDUALS * sizeof *q);
  size_t count = 0;
  int rc = 0;
  const char *p = (const char *)v;
  if (q == NULL) {
    xmlFree(v);
    return load__fail(ld, n, attr, "out of memory");
  }
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
      p++;
    if (*p == '\0')
      break;
    char word[64], reason[MODEL__REASON];
    size_t len = strcspn(p, " \t\n\r");
    if (count == HNM_MAX_RESIDUALS) {
      rc = load__fail(ld, n, attr, "more than %d quantiles", HNM_MAX_RESIDUALS);
      break;
    }
    snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), p);
    if (len >= sizeof word || model__parse_value(word, KIND_FACTOR, &q[count], reason, sizeof reason) < 0) {
      rc = load__fail(ld, n, attr, "quantile %zu '%s': %s", count + 1, word,
                      len >= sizeof word ? "too long" : reason);
      break;
    }
    if (count > 0 && q[count] < q[count - 1]) {
      rc = load__fail(ld, n, attr, "quantile %zu (%g) is below the one before (%g): quantiles are "
                      "nondecreasing", count + 1, q[count], q[count - 1]);
      break;
    }
    count++;
    p += len;
  }
  if (rc == 0 && count < 2)
    rc = load__fail(ld, n, attr, "%zu quantile(s): give at least 2 (at probabilities 0 and 1)", count);
  xmlFree(v);
  if (rc != 0) {
    free(q);
    return -1;
  }
  double *fit = realloc(q, count * sizeof *q); /* a table holds 21 quantiles, not 1001 */
  *out = fit != NULL ? fit : q;
  *count_out = count;
  return 0;
}

/* The residuals of SEG (the model owns them; SEG's upto is set, PREV_UPTO
 * the previous segment's): its residuals attribute, then its <residuals
 * size=".." quantiles=".."/> children, sizes increasing and inside the
 * segment, at most HNM_MAX_RESIDUAL_TABLES. Each table serves the sizes
 * nearer its own than its neighbours' in log scale: upto = sqrt(size x
 * next size), ties to the smaller. */
static int load__residuals(const struct model__load *ld, const xmlNode *n, struct hnm_segment *seg,
                           double prev_upto)
{
  double *q;
  size_t count = 0;
  if (load__quantiles(ld, n, "residuals", 0, &q, &count) < 0)
    return -1;
  seg->residuals = q;
  seg->nresiduals = count;

  count = 0;
  for (const xmlNode *c = n->children; c != NULL; c = c->next) {
    if (!load__is(c, "residuals"))
      continue;
    if (count == HNM_MAX_RESIDUAL_TABLES)
      return load__fail(ld, c, NULL, "more than %d residual tables in one segment", HNM_MAX_RESIDUAL_TABLES);
    count++;
  }
  if (count == 0)
    return 0;
  struct hnm_residual_table *t = calloc(count, sizeof *t);
  if (t == NULL)
    return load__fail(ld, n, "residuals", "out of memory");
  seg->sized = t;
  seg->nsized = count; /* freed with the segment from here on, tables parsed or not */
  size_t i = 0;
  for (const xmlNode *c = n->children; c != NULL; c = c->next) {
    if (!load__is(c, "residuals"))
      continue;
    if (load__required(ld, c, "size", KIND_BYTES, &t[i].size) < 0)
      return -1;
    if (i > 0 && !(t[i].size > t[i - 1].size))
      return load__fail(ld, c, "size", "%.15g bytes is not greater than the previous table's size (%.15g bytes): "
                        "sizes are increasing, each once", t[i].size, t[i - 1].size);
    if (!(t[i].size > prev_upto && t[i].size <= seg->upto))
      return prev_upto < 0 ? load__fail(ld, c, "size", "%.15g bytes is outside its segment (k <= %.15g bytes)",
                                        t[i].size, seg->upto)
                           : load__fail(ld, c, "size", "%.15g bytes is outside its segment (%.15g < k <= %.15g bytes)",
                                        t[i].size, prev_upto, seg->upto);
    if (load__quantiles(ld, c, "quantiles", 1, &q, &t[i].n) < 0)
      return -1;
    t[i].q = q;
    i++;
  }
  for (i = 0; i + 1 < count; i++)
    t[i].upto = sqrt(t[i].size * t[i + 1].size);
  t[count - 1].upto = INFINITY;
  return 0;
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
  return load__residuals(ld, n, seg, prev_upto);
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
  for (i = 0; t != NULL && i < count; i++)
    model__free_residuals(&t[i]);
  free(t);
  xmlFree(route);
  return -1;
}

static int load__loggps(const struct model__load *ld, const xmlNode *n, hnm_model *m)
{
  char reason[MODEL__REASON];
  const char *field;
  double p[LG_COUNT];
  xmlChar *v;
  int i, rc = 0;

  for (i = 0; i < LG_COUNT; i++) {
    if (load__required(ld, n, model__lg_params[i].name, model__lg_params[i].kind, &p[i]) < 0)
      return -1;
  }
  if (model__loggps_expand(m, p, &field, reason, sizeof reason) < 0)
    return load__fail(ld, n, field, "%s", reason);
  m->ports = HNM_PORTS_SINGLE;
  m->gap = 0;
  v = xmlGetProp(n, (const xmlChar *)"ports");
  if (v != NULL && model__parse_ports((const char *)v, &m->ports, reason, sizeof reason) < 0)
    rc = load__fail(ld, n, "ports", "%s", reason);
  xmlFree(v);
  if (rc < 0 || load__value(ld, n, "gap", KIND_TIME, &m->gap, NULL) < 0)
    return -1;
  if (model__check_gap(m->ports, m->gap, reason, sizeof reason) < 0)
    return load__fail(ld, n, "gap", "%s", reason);
  return 0;
}

/* <rma>: one-sided costs, each a time (or time per byte), default 0. The
 * DTD admits it only beside <segments>, never with <loggps>. */
static int load__rma(const struct model__load *ld, const xmlNode *n, hnm_model *m)
{
  memset(&m->rma, 0, sizeof m->rma);
  for (size_t i = 0; i < MODEL__RMA_ATTRS; i++)
    if (load__value(ld, n, model__rma_attrs[i].attr, KIND_TIME, model__rma_field(&m->rma, i), NULL) < 0)
      return -1;
  m->has_rma = 1;
  return 0;
}

/* history="RUNS" of a <pack-cost> into both operations' costs: a whole
 * number of runs from 1 to MODEL__PACK_MAX_HISTORY, required when either
 * per-irregular time is not 0 (0 when absent). */
static int load__pack_history(const struct model__load *ld, const xmlNode *n, struct hnm_pack_cost *pk,
                              struct hnm_pack_cost *uk)
{
  char reason[MODEL__REASON];
  double h = 0;
  xmlChar *v = xmlGetProp(n, (const xmlChar *)"history");
  int rc = 0;

  if (v == NULL) {
    if (pk->per_irregular != 0 || uk->per_irregular != 0)
      return load__fail(ld, n, "history", "missing (required with a per-irregular time: the runs of a period up to "
                                          "which irregular block lengths cost nothing)");
  } else {
    if (hnm_parse_number((const char *)v, &h, reason, sizeof reason) < 0)
      rc = load__fail(ld, n, "history", "%s", reason);
    else if (!(h >= 1 && h <= MODEL__PACK_MAX_HISTORY) || h != floor(h))
      rc = load__fail(ld, n, "history", "'%s' is not a whole number of runs from 1 to %.0f", (const char *)v,
                      MODEL__PACK_MAX_HISTORY);
    xmlFree(v);
    if (rc < 0)
      return -1;
  }
  pk->history = h;
  uk->history = h;
  return 0;
}

/* One <pack-cost>: the six coefficients of one style and class, each
 * required and in its physical range (MODEL__PACK_MAX_*), and the optional
 * per-jump, per-element and per-irregular times (0 when absent, each at
 * most a per-block time's bound), with history (runs, a whole number from 1
 * to MODEL__PACK_MAX_HISTORY) required when a per-irregular time is not 0. */
static int load__pack_cost(const struct model__load *ld, const xmlNode *n, struct hnm_pack_model *p,
                           int seen[HNM_PACK_STYLES][HNM_PACK_CLASSES])
{
  static const char *const attrs[HNM_PACK_OPS][3] = {{"pack-c0", "pack-per-block", "pack-per-byte"},
                                                     {"unpack-c0", "unpack-per-block", "unpack-per-byte"}};
  static const double max[3] = {MODEL__PACK_MAX_C0, MODEL__PACK_MAX_PER_BLOCK, MODEL__PACK_MAX_PER_BYTE};
  static const char *const unit[3] = {"s", "s per block", "s per byte"};
  static const char *const opt_attrs[HNM_PACK_OPS][3] = {
    {"pack-per-jump", "pack-per-element", "pack-per-irregular"},
    {"unpack-per-jump", "unpack-per-element", "unpack-per-irregular"}};
  static const char *const opt_unit[3] = {"jump", "element", "block"};
  char reason[MODEL__REASON];
  xmlChar *v;
  int style = HNM_PACK_NONE, cls = -1, rc = 0;

  v = xmlGetProp(n, (const xmlChar *)"style");
  if (v == NULL)
    return load__fail(ld, n, "style", "missing");
  if (model__parse_pack_style((const char *)v, &style, reason, sizeof reason) < 0 || style == HNM_PACK_NONE)
    rc = load__fail(ld, n, "style", "'%s' is not interpreted, compiled or manual", (const char *)v);
  xmlFree(v);
  if (rc < 0)
    return -1;
  v = xmlGetProp(n, (const xmlChar *)"class");
  if (v == NULL)
    return load__fail(ld, n, "class", "missing");
  for (int c = 0; c < HNM_PACK_CLASSES; c++)
    if (xmlStrcmp(v, (const xmlChar *)hnm_pack_class_name((enum hnm_pack_class)c)) == 0)
      cls = c;
  if (cls < 0)
    rc = load__fail(ld, n, "class", "'%s' is not vector, indexed or subarray", (const char *)v);
  xmlFree(v);
  if (rc < 0)
    return -1;
  if (seen[style][cls])
    return load__fail(ld, n, "class", "a second <pack-cost> for style '%s', class '%s'",
                      hnm_pack_style_name(style), hnm_pack_class_name((enum hnm_pack_class)cls));
  seen[style][cls] = 1;
  for (int op = 0; op < HNM_PACK_OPS; op++) {
    struct hnm_pack_cost *k = &p->cost[style][cls][op];
    double *dst[3] = {&k->c0, &k->per_block, &k->per_byte};
    for (int i = 0; i < 3; i++) {
      if (load__required(ld, n, attrs[op][i], KIND_TIME, dst[i]) < 0)
        return -1;
      if (*dst[i] > max[i])
        return load__fail(ld, n, attrs[op][i], "%g %s is above %g %s (no memory copy is that slow)", *dst[i],
                          unit[i], max[i], unit[i]);
    }
    /* Optional: a model written before a term existed charges nothing
     * for it. */
    double *opt[3] = {&k->per_jump, &k->per_element, &k->per_irregular};
    for (int i = 0; i < 3; i++) {
      *opt[i] = 0;
      if (load__value(ld, n, opt_attrs[op][i], KIND_TIME, opt[i], NULL) < 0)
        return -1;
      if (*opt[i] > MODEL__PACK_MAX_PER_BLOCK)
        return load__fail(ld, n, opt_attrs[op][i], "%g s per %s is above %g s per %s (no memory access is that slow)",
                          *opt[i], opt_unit[i], MODEL__PACK_MAX_PER_BLOCK, opt_unit[i]);
    }
  }
  return load__pack_history(ld, n, &p->cost[style][cls][HNM_PACK_OP_PACK], &p->cost[style][cls][HNM_PACK_OP_UNPACK]);
}

/* <pack use="STYLE">: pack-cost children, every style given in full. */
static int load__pack(const struct model__load *ld, const xmlNode *n, hnm_model *m)
{
  int seen[HNM_PACK_STYLES][HNM_PACK_CLASSES] = {{0}};
  char reason[MODEL__REASON];
  const char *field;
  xmlChar *v;
  int rc = 0;

  if (m->has_pack)
    return load__fail(ld, n, NULL, "a second <pack> element (a model takes at most one)");
  memset(&m->pack, 0, sizeof m->pack);
  v = xmlGetProp(n, (const xmlChar *)"use");
  if (v == NULL)
    return load__fail(ld, n, "use", "missing");
  if (model__parse_pack_style((const char *)v, &m->pack.use, reason, sizeof reason) < 0)
    rc = load__fail(ld, n, "use", "%s", reason);
  xmlFree(v);
  if (rc < 0)
    return -1;
  for (const xmlNode *c = n->children; c != NULL; c = c->next) {
    if (c->type != XML_ELEMENT_NODE)
      continue;
    if (!load__is(c, "pack-cost"))
      return load__fail(ld, c, NULL, "unknown element inside <pack>");
    if (load__pack_cost(ld, c, &m->pack, seen) < 0)
      return -1;
  }
  for (int s = 0; s < HNM_PACK_STYLES; s++) {
    int given = 0;
    for (int c = 0; c < HNM_PACK_CLASSES; c++)
      given += seen[s][c];
    m->pack.present[s] = given > 0;
    for (int c = 0; c < HNM_PACK_CLASSES; c++)
      if (given > 0 && !seen[s][c])
        return load__fail(ld, n, "class", "style '%s' has no <pack-cost> for class '%s' (give all three: vector, "
                          "indexed, subarray)", hnm_pack_style_name(s), hnm_pack_class_name((enum hnm_pack_class)c));
  }
  if (model__check_pack(&m->pack, &field, reason, sizeof reason) < 0)
    return load__fail(ld, n, field, "%s", reason);
  m->has_pack = 1;
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

/* The attributes of <hnm-model>: version, name, stochastic, seed. */
static int load__root_attributes(const struct model__load *ld, const xmlNode *root, hnm_model *m)
{
  xmlChar *v;
  int rc = -1;

  v = xmlGetProp(root, (const xmlChar *)"version");
  if (v == NULL || xmlStrcmp(v, (const xmlChar *)"1") != 0) {
    load__fail(ld, root, "version", "'%s' is not supported (this hnm reads version 1)",
               v != NULL ? (const char *)v : "");
    goto out;
  }
  xmlFree(v);
  v = xmlGetProp(root, (const xmlChar *)"name");
  if (v == NULL || *v == '\0') {
    load__fail(ld, root, "name", "must not be empty");
    goto out;
  }
  m->name = model__strdup((const char *)v);
  xmlFree(v);
  v = NULL;
  if (m->name == NULL) {
    hnm_errf(ld->err, ld->errlen, "%s: out of memory", ld->path);
    goto out;
  }
  m->owns_residuals = 1;
  v = xmlGetProp(root, (const xmlChar *)"stochastic");
  if (v != NULL && xmlStrcmp(v, (const xmlChar *)"on") != 0 && xmlStrcmp(v, (const xmlChar *)"off") != 0) {
    load__fail(ld, root, "stochastic", "'%s' is not on or off", (const char *)v);
    goto out;
  }
  m->stochastic = v != NULL && xmlStrcmp(v, (const xmlChar *)"on") == 0;
  xmlFree(v);
  v = xmlGetProp(root, (const xmlChar *)"seed");
  if (v != NULL) {
    char reason[MODEL__REASON];
    if (model__parse_seed((const char *)v, &m->seed, reason, sizeof reason) < 0) {
      load__fail(ld, root, "seed", "%s", reason);
      goto out;
    }
    m->has_seed = 1;
  }
  rc = 0;
out:
  xmlFree(v);
  return rc;
}

/* The children of <hnm-model>, in order; *last_segments: the last
 * <segments> element (NULL: none). */
static int load__children(const struct model__load *ld, const xmlNode *root, hnm_model *m,
                          const xmlNode **last_segments)
{
  for (const xmlNode *c = root->children; c != NULL; c = c->next) {
    int rc = 0;

    if (c->type != XML_ELEMENT_NODE)
      continue;
    if (load__is(c, "description")) {
      xmlChar *v = xmlNodeGetContent(c);
      if (v != NULL) {
        free(m->description);
        m->description = model__strdup((const char *)v);
        xmlFree(v);
      }
    } else if (load__is(c, "protocol")) {
      rc = load__protocol(ld, c, m);
    } else if (load__is(c, "limiter")) {
      rc = load__limiter(ld, c, m);
    } else if (load__is(c, "sharing")) {
      rc = load__sharing(ld, c, m);
    } else if (load__is(c, "segments")) {
      rc = load__segments(ld, c, m);
      *last_segments = c;
    } else if (load__is(c, "loggps")) {
      rc = load__loggps(ld, c, m);
    } else if (load__is(c, "rma")) {
      rc = load__rma(ld, c, m);
    } else if (load__is(c, "pack")) {
      rc = load__pack(ld, c, m);
    } else {
      rc = load__fail(ld, c, NULL, "unknown element");
    }
    if (rc < 0)
      return -1;
  }
  return 0;
}

/* What the whole model must satisfy once every element is read. */
static int load__check_model(const struct model__load *ld, const xmlNode *root, hnm_model *m,
                             const xmlNode *last_segments)
{
  char reason[MODEL__REASON];
  int k;

  if (!m->is_loggps) {
    if (last_segments == NULL)
      return load__fail(ld, root, NULL, "no <segments> table and no <loggps> element");
    if (m->table[MODEL__ANY] == NULL) {
      for (k = 0; k < HNM_ROUTE_CLASSES; k++) {
        if (m->table[k] == NULL)
          return load__fail(ld, last_segments, "route",
                            "no table for route '%s' (give a route=\"any\" table, or one table for each of "
                            "same-host, same-zone and remote)", model__route_names[k]);
      }
    }
    model__resolve(m);
    k = model__recv_class_mismatch(m);
    if (k >= 0)
      return load__fail(ld, last_segments, "recv-o",
                        "route '%s' has other receive overheads than 'same-host'; SimGrid 3.32 does not tell "
                        "the receive-cost callback where a message came from, so recv-o and recv-per-byte must "
                        "be the same for every route class", model__route_names[k]);
  }
  if (model__check_stochastic(m, reason, sizeof reason) < 0)
    return load__fail(ld, root, "stochastic", "%s", reason);
  return 0;
}

static hnm_model *load__model(const struct model__load *ld, const xmlNode *root)
{
  const xmlNode *last_segments = NULL;
  hnm_model *m;

  m = calloc(1, sizeof *m);
  if (m == NULL) {
    hnm_errf(ld->err, ld->errlen, "%s: out of memory", ld->path);
    return NULL;
  }
  m->async_max = -1;
  m->detached_max = -1;
  m->limiter = HNM_LIMITER_KEEP;
  m->contention = HNM_CONTENTION_MAXMIN;
  m->crosstraffic = HNM_CROSSTRAFFIC_SIMGRID;

  if (root == NULL || !load__is(root, "hnm-model")) {
    hnm_errf(ld->err, ld->errlen, "%s:%ld: the root element must be <hnm-model>", ld->path,
             root != NULL ? xmlGetLineNo(root) : 1L);
    goto err;
  }
  if (load__root_attributes(ld, root, m) != 0 || load__children(ld, root, m, &last_segments) != 0 ||
      load__check_model(ld, root, m, last_segments) != 0)
    goto err;
  return m;

err:
  hnm_model_free(m);
  return NULL;
}

/* Load from PATH, or from BUF (LEN bytes; PATH then only names it in
 * messages). */
#define MODEL_MAX_BYTES (16L << 20)

/* The text of the model file PATH (at most MODEL_MAX_BYTES, checked
 * before) into *TEXT (*LEN bytes, to free): 0, or -1 with err. */
static int load__slurp(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
  char why[512];
  FILE *f = hnm_input_open(path, why, sizeof why);
  if (f == NULL) {
    hnm_errf(err, errlen, "%s: model file: %s", path, why);
    return -1;
  }
  *text = malloc(MODEL_MAX_BYTES + 1);
  *len = *text != NULL ? fread(*text, 1, MODEL_MAX_BYTES + 1, f) : 0;
  int bad = ferror(f);
  fclose(f);
  if (*text == NULL || bad || *len > MODEL_MAX_BYTES) {
    hnm_errf(err, errlen, "%s: model file: %s", path,
             *text == NULL ? "out of memory" : bad ? "read error" : "larger than 16 MiB: not a model file");
    free(*text);
    *text = NULL;
    return -1;
  }
  return 0;
}

static hnm_model *load__file_or_memory(const char *path, const char *buf, size_t len, char *err, size_t errlen)
{
  struct model__load ld = {path, err, errlen, buf, len};
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
  char *text = NULL;
  FILE *f;

  if (path == NULL || *path == '\0') {
    hnm_errf(err, errlen, "(no file): empty model file name");
    return NULL;
  }
  if (buf == NULL) {
    /* A named pipe or a device would block or stream forever in libxml2. */
    char why[512];
    if (hnm_input_check(path, why, sizeof why) != 0) {
      hnm_errf(err, errlen, "%s: model file: %s", path, why);
      return NULL;
    }
    /* libxml2 inflates a compressed file by itself (97 KB of gzip can hold
     * millions of elements), and a model is a few kilobytes: a compressed
     * or huge file is refused before parsing. */
    FILE *g = hnm_input_open(path, why, sizeof why);
    unsigned char magic[2] = {0, 0};
    size_t got = g != NULL ? fread(magic, 1, 2, g) : 0;
    struct stat st;
    int big = g != NULL && stat(path, &st) == 0 && st.st_size > MODEL_MAX_BYTES;
    if (g != NULL)
      fclose(g);
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
      hnm_errf(err, errlen, "%s:1: model file: a compressed file: give it uncompressed", path);
      return NULL;
    }
    if (big) {
      hnm_errf(err, errlen, "%s:1: model file: larger than 16 MiB: not a model file", path);
      return NULL;
    }
    if (load__slurp(path, &text, &len, err, errlen) != 0)
      return NULL;
    ld.buf = buf = text;
    ld.len = len;
  }

  memset(&cap, 0, sizeof cap);
  cap.buf = buf;
  cap.len = len;
  xmlSetStructuredErrorFunc(&cap, model__xml_structured);
  xmlSetGenericErrorFunc(NULL, model__xml_silent);

  doc = len > INT_MAX ? NULL : xmlReadMemory(buf, (int)len, path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
  if (doc == NULL || cap.set) {
    hnm_errf(err, errlen, "%s:%ld: malformed XML: %s", path, cap.set && cap.line > 0 ? cap.line : 1L,
                cap.set ? cap.msg : "cannot parse");
    goto out;
  }

  f = fopen(dtd_path, "r");
  if (f == NULL) {
    hnm_errf(err, errlen, "%s: cannot open the model DTD %s: %s (check HNM_MODEL_DIR)", path, dtd_path,
                strerror(errno));
    goto out;
  }
  fclose(f);
  dtd = xmlParseDTD(NULL, (const xmlChar *)dtd_path);
  if (dtd == NULL) {
    hnm_errf(err, errlen, "%s: cannot load the model DTD %s: %s (check HNM_MODEL_DIR)", path, dtd_path,
                cap.set ? cap.msg : "parse error");
    goto out;
  }
  vctxt = xmlNewValidCtxt();
  if (vctxt == NULL) {
    hnm_errf(err, errlen, "%s: out of memory", path);
    goto out;
  }
  vctxt->userData = &cap;
  vctxt->error = model__xml_valid_error;
  vctxt->warning = model__xml_silent;
  memset(&cap, 0, sizeof cap);
  cap.buf = buf;
  cap.len = len;
  if (xmlValidateDtd(vctxt, doc, dtd) != 1) {
    hnm_errf(err, errlen, "%s:%ld: invalid model: %s (checked against %s)", path,
                cap.set && cap.line > 0 ? cap.line : 1L, cap.set ? cap.msg : "validation failed", dtd_path);
    goto out;
  }

  m = load__model(&ld, xmlDocGetRootElement(doc));
  if (m == NULL)
    goto out;
  m->source = model__strdup(path);
  if (m->source == NULL) {
    hnm_errf(err, errlen, "%s: out of memory", path);
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
  free(text);
  xmlSetStructuredErrorFunc(old_sctx, old_serror);
  xmlSetGenericErrorFunc(old_gctx, old_gerror);
  return m;
}

hnm_model *hnm_model_load(const char *path, char *err, size_t errlen)
{
  return load__file_or_memory(path, NULL, 0, err, errlen);
}

hnm_model *hnm_model_load_memory(const char *name, const char *buf, size_t len, char *err, size_t errlen)
{
  return load__file_or_memory(name, buf != NULL ? buf : "", buf != NULL ? len : 0, err, errlen);
}
