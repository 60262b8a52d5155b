/* hnm_smpi_config.c -- see hnm_smpi_config.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_smpi_config.h"
#include "hnm_xml_writer.h"

#include "hnm_units.h"
#include "hnm_xml.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define ENVELOPE 16.0 /* bytes SMPI adds before asking for factors */

static void note(char *notes, size_t cap, const char *fmt, ...)
{
  if (notes == NULL || cap == 0)
    return;
  size_t used = strlen(notes);
  if (used + 1 >= cap)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(notes + used, cap - used, fmt, ap);
  va_end(ap);
  used = strlen(notes);
  if (used + 1 < cap) {
    notes[used] = '\n';
    notes[used + 1] = '\0';
  }
}

/* ------------------------------------------------------------ export -- */

static int same_segments(const struct hnm_segment *a, size_t na, const struct hnm_segment *b, size_t nb)
{
  if (na != nb)
    return 0;
  for (size_t i = 0; i < na; i++)
    if (memcmp(&a[i], &b[i], sizeof a[i]) != 0)
      return 0;
  return 1;
}

/* One option's entries: key and up to 2 values; consecutive entries with
 * the same values are merged (SimGrid's lookup gives the same result). The
 * text grows as needed: every segment is written, however many. */
struct entries {
  char *buf;
  size_t len, cap;
  double last[2];
  int nvals, count;
};

static int entry(struct entries *e, long key, const double *v)
{
  if (e->count > 0 && memcmp(e->last, v, (size_t)e->nvals * sizeof *v) == 0)
    return 0;
  if (e->len + 128 >= e->cap) {
    size_t nc = e->cap ? 2 * e->cap : 4096;
    char *nb = realloc(e->buf, nc);
    if (nb == NULL)
      return -1;
    e->buf = nb;
    e->cap = nc;
  }
  e->len += (size_t)snprintf(e->buf + e->len, e->cap - e->len, "%s%ld", e->count ? ";" : "", key);
  for (int i = 0; i < e->nvals; i++)
    e->len += (size_t)snprintf(e->buf + e->len, e->cap - e->len, ":%.17g", v[i]);
  memcpy(e->last, v, (size_t)e->nvals * sizeof *v);
  e->count++;
  return 0;
}

static void prop(hnm_xml_writer *x, const char *id, const char *value)
{
  hnm_xml_writer_start(x, "prop");
  hnm_xml_writer_attr(x, "id", id);
  hnm_xml_writer_attr(x, "value", value);
  hnm_xml_writer_end(x);
}

int hnm_smpi_config_export(const hnm_model *m, double route_bw, double route_lat, FILE *out, char *notes,
                           size_t notescap, char *err, size_t errlen)
{
  size_t n, n1, n2;
  const struct hnm_segment *s = hnm_model_segments(m, HNM_ROUTE_REMOTE, &n);
  const struct hnm_segment *s1 = hnm_model_segments(m, HNM_ROUTE_SAME_HOST, &n1);
  const struct hnm_segment *s2 = hnm_model_segments(m, HNM_ROUTE_SAME_ZONE, &n2);
  if (!same_segments(s, n, s1, n1) || !same_segments(s, n, s2, n2)) {
    hnm_errf(err, errlen,
             "segments route: model '%s' gives route classes different tables; SimGrid's smpi/* options "
             "are one table for every message",
             hnm_model_name(m));
    return -1;
  }
  if (hnm_model_contention(m) == HNM_CONTENTION_NONE) {
    hnm_errf(err, errlen,
             "sharing contention: model '%s' has contention=\"none\" (every link a FATPIPE, no TCP window), "
             "which is the platform's links, not SimGrid's configuration",
             hnm_model_name(m));
    return -1;
  }
  struct entries *e = calloc(5, sizeof *e); /* os, ois, or, bw, lat */
  if (e == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  e[0].nvals = e[1].nvals = e[2].nvals = 2;
  e[3].nvals = e[4].nvals = 1;
  int rc = -1;
  for (size_t i = 0; i < n; i++) {
    const struct hnm_segment *g = &s[i];
    double prev = i == 0 ? -1 : s[i - 1].upto;
    if (i + 1 < n && !(g->upto + ENVELOPE <= (double)INT_MAX)) {
      hnm_errf(err, errlen, "upto: segment %zu ends at %.17g B, beyond SimGrid's int keys (%d - 16)", i + 1,
               g->upto, INT_MAX);
      goto out;
    }
    if ((g->latency_absolute && !(route_lat > 0)) || (g->bandwidth_absolute && !(route_bw > 0))) {
      hnm_errf(err, errlen, "%s: segment %zu is absolute: give the route's --%s (> 0)",
               g->latency_absolute && !(route_lat > 0) ? "latency" : "bandwidth", i + 1,
               g->latency_absolute && !(route_lat > 0) ? "latency" : "bandwidth");
      goto out;
    }
    long kc = i == 0 ? 0 : (long)prev;                 /* costs: k > prev */
    long kf = i == 0 ? 0 : (long)(prev + ENVELOPE);    /* factors: k + 16 > prev + 16 */
    double os[2] = {g->send_o, g->send_O}, ois[2] = {g->isend_o, g->isend_O}, orr[2] = {g->recv_o, g->recv_O};
    /* The very factors hnm's plugin hands SimGrid on this route. */
    double bw = hnm_segment_bw_factor(g, route_bw);
    double lat = hnm_segment_lat_factor(g, 0, route_lat, NULL);
    if (entry(&e[0], kc, os) != 0 || entry(&e[1], kc, ois) != 0 || entry(&e[2], kc, orr) != 0 ||
        entry(&e[3], kf, &bw) != 0 || entry(&e[4], kf, &lat) != 0) {
      hnm_errf(err, errlen, "out of memory");
      goto out;
    }
  }
  /* Through core/hnm_xml_writer.h: a fragment, no declaration. */
  hnm_xml_writer *x = hnm_xml_writer_new(out, 0);
  if (x == NULL) {
    hnm_errf(err, errlen, "out of memory");
    goto out;
  }
  static const char *const ids[5] = {"smpi/os", "smpi/ois", "smpi/or", "smpi/bw-factor", "smpi/lat-factor"};
  char v[64], comment[256];
  hnm_xml_writer_start(x, "config");
  for (int i = 0; i < 5; i++)
    prop(x, ids[i], e[i].buf != NULL ? e[i].buf : "");
  snprintf(v, sizeof v, "%ld", hnm_model_smpi_async_thresh(m));
  prop(x, "smpi/async-small-thresh", v);
  snprintf(v, sizeof v, "%ld", hnm_model_smpi_detached_thresh(m));
  prop(x, "smpi/send-is-detached-thresh", v);
  if (hnm_model_crosstraffic(m) != HNM_CROSSTRAFFIC_SIMGRID)
    prop(x, "network/crosstraffic", hnm_model_crosstraffic(m) == HNM_CROSSTRAFFIC_ON ? "1" : "0");
  if (hnm_model_limiter_mode(m) == HNM_LIMITER_FACTOR) {
    snprintf(comment, sizeof comment, " node limiter: give each node's limiter link %.17g x its own link's bandwidth ",
             hnm_model_limiter_factor(m));
    hnm_xml_writer_comment(x, comment);
    note(notes, notescap,
         "note: limiter factor %.6g is not a configuration option: give your platform's node limiter links %.6g x "
         "the node link's bandwidth",
         hnm_model_limiter_factor(m), hnm_model_limiter_factor(m));
  } else if (hnm_model_limiter_mode(m) == HNM_LIMITER_OFF) {
    hnm_xml_writer_comment(x, " node limiter: off (remove the platform's node limiter links) ");
    note(notes, notescap, "note: limiter off is not a configuration option: remove your platform's node limiter links");
  }
  hnm_xml_writer_end(x);
  if (hnm_xml_writer_finish(x) != 0) {
    hnm_errf(err, errlen, "write error");
    goto out;
  }
  rc = 0;
out:
  for (int i = 0; i < 5; i++)
    free(e[i].buf);
  free(e);
  return rc;
}

/* ------------------------------------------------------------ import -- */

struct fentry {
  long key;
  double v[2];
  int nv;
  int chunk; /* its place in the option's value, for messages */
};

/* docs/model-format.md's ranges, which the imported model must keep:
 * times and times per byte 0 to 1 s, factors at most 1e6, bandwidths at
 * most 1e20 B/s. Checked here, where the option's line and chunk are known. */
#define IMPORT_MAX_TIME 1.0
#define IMPORT_MAX_FACTOR 1e6
#define IMPORT_MIN_FACTOR 1e-6

struct factor {
  struct fentry *e;
  size_t n;
};

static int cmp_fentry(const void *a, const void *b)
{
  long x = ((const struct fentry *)a)->key, y = ((const struct fentry *)b)->key;
  return x < y ? -1 : x > y;
}

/* SimGrid's parse_factor: ';'-separated chunks "KEY:V[:V...]" (empty
 * chunks skipped), sorted by KEY. need: values each chunk must have. */
static int parse_factor(const char *str, int need, struct factor *f, const char *where, const char *id, char *err,
                        size_t errlen)
{
  char *buf = strdup(str);
  size_t cap = strlen(str) / 2 + 2;
  f->e = calloc(cap, sizeof *f->e);
  f->n = 0;
  if (buf == NULL || f->e == NULL) {
    free(buf);
    hnm_errf(err, errlen, "out of memory");
    return -1;
  }
  int rc = -1;
  int chunk = 0;
  for (char *sv, *t = strtok_r(buf, ";", &sv); t != NULL; t = strtok_r(NULL, ";", &sv)) {
    chunk++;
    struct fentry *e = &f->e[f->n];
    int idx = 0;
    for (char *sv2, *v = strtok_r(t, ":", &sv2); v != NULL; v = strtok_r(NULL, ":", &sv2), idx++) {
      if (idx == 0) {
        char *end;
        errno = 0;
        long k = strtol(v, &end, 10);
        if (end == v || *end != '\0' || errno == ERANGE || k < 0 || k > INT_MAX) {
          hnm_errf(err, errlen, "%s: %s: chunk %d: key '%s' is not a whole number of bytes (an int)", where,
                   id, chunk, v);
          goto out;
        }
        e->key = k;
        continue;
      }
      double x;
      char e2[256];
      if (hnm_parse_time(v, &x, e2, sizeof e2) != 0 || !isfinite(x)) {
        hnm_errf(err, errlen, "%s: %s: chunk %d: value '%s' is not a time or number", where, id, chunk, v);
        goto out;
      }
      if (idx <= 2)
        e->v[idx - 1] = x;
    }
    e->nv = idx - 1;
    if (e->nv < need) {
      hnm_errf(err, errlen, "%s: %s: chunk %d has %d value(s), SimGrid reads %d", where, id, chunk, e->nv,
               need);
      goto out;
    }
    for (int i = 0; i < need; i++) {
      if (e->v[i] < 0) {
        hnm_errf(err, errlen, "%s: %s: chunk %d: negative value %.17g (hnm models have none)", where, id,
                 chunk, e->v[i]);
        goto out;
      }
      /* need 2: a cost table (seconds, seconds per byte); 1: a factor. */
      if (need == 2 && e->v[i] > IMPORT_MAX_TIME) {
        hnm_errf(err, errlen, "%s: %s: chunk %d: %s %.17g s is above 1 s (not a software overhead; "
                 "docs/model-format.md)", where, id, chunk, i == 0 ? "time" : "time per byte", e->v[i]);
        goto out;
      }
      if (need == 1 && e->v[i] > IMPORT_MAX_FACTOR) {
        hnm_errf(err, errlen, "%s: %s: chunk %d: factor %.17g is above 1e6 (docs/model-format.md)", where, id,
                 chunk, e->v[i]);
        goto out;
      }
      /* A bandwidth factor (where 0, no transfer, has its own message). */
      if (need == 1 && strcmp(id, "smpi/bw-factor") == 0 && e->v[i] > 0 && e->v[i] < IMPORT_MIN_FACTOR) {
        hnm_errf(err, errlen, "%s: %s: chunk %d: factor %.17g is below 1e-6 (docs/model-format.md)", where, id,
                 chunk, e->v[i]);
        goto out;
      }
    }
    e->chunk = chunk;
    f->n++;
  }
  if (f->n == 0) {
    hnm_errf(err, errlen, "%s: %s: no chunk in '%s'", where, id, str);
    goto out;
  }
  qsort(f->e, f->n, sizeof *f->e, cmp_fentry);
  rc = 0;
out:
  free(buf);
  return rc;
}

/* The entry SimGrid uses for size: the last with key < size (the first
 * when none). first_default: factors return 1.0 for size <= first key
 * (NULL then). */
static const struct fentry *lookup(const struct factor *f, double size, int factor_style)
{
  const struct fentry *cur = factor_style ? NULL : &f->e[0];
  for (size_t i = 0; i < f->n; i++) {
    if (size <= (double)f->e[i].key)
      return cur;
    cur = &f->e[i];
  }
  return cur;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* SimGrid 3.32's defaults (src/simgrid/sg_config.cpp, smpi_config.cpp). */
#define SG_BW_DEFAULT                                                                                                  \
  "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;257:0.338112;"    \
  "0:0.812084"
#define SG_LAT_DEFAULT                                                                                                 \
  "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;0:2.01467"

/* The options import reads, in this order (the first five are tables). */
enum { IMPORT__OS, IMPORT__OIS, IMPORT__OR, IMPORT__BW, IMPORT__LAT, IMPORT__ASYNC, IMPORT__DETACHED, IMPORT__CROSS,
       IMPORT__NIDS };
static const char *const import__ids[IMPORT__NIDS] = {"smpi/os",        "smpi/ois",
                                                      "smpi/or",        "smpi/bw-factor",
                                                      "smpi/lat-factor", "smpi/async-small-thresh",
                                                      "smpi/send-is-detached-thresh", "network/crosstraffic"};

/* The <prop>s of DOC's <config> (the root, or a child of <platform>):
 * each option's value (strdup'ed) and line into val and line; notes for
 * old names and other options. 0, or -1 with err. */
static int import__props(const hnm_xml_doc *doc, const char *path, char **val, long *line, char *notes,
                         size_t notescap, char *err, size_t errlen)
{
  int nconfig = 0, in_config = 0;
  for (size_t i = 0; i < doc->n; i++) {
    const hnm_xml_elem *c = &doc->e[i];
    int config_depth = strcmp(doc->e[0].name, "config") == 0 ? 0 : 1;
    if (c->depth <= config_depth)
      in_config = c->depth == config_depth && strcmp(c->name, "config") == 0;
    if (c->depth == config_depth && in_config)
      nconfig++;
    if (!in_config || c->depth != config_depth + 1 || strcmp(c->name, "prop") != 0)
      continue;
    const char *sid = hnm_xml_attr(c, "id"), *v = hnm_xml_attr(c, "value");
    if (sid == NULL || v == NULL)
      return hnm_fail(err, errlen, "%s:%ld: <prop> without id or value", path, c->line);
    int k = 0;
    while (k < IMPORT__NIDS && strcmp(sid, import__ids[k]) != 0)
      k++;
    /* platform-calibration still writes the names older SimGrids knew. */
    if (k == IMPORT__NIDS && strcmp(sid, "smpi/async-small-thres") == 0)
      k = IMPORT__ASYNC;
    if (k == IMPORT__NIDS && strcmp(sid, "smpi/send-is-detached-thres") == 0)
      k = IMPORT__DETACHED;
    if (k < IMPORT__NIDS && strcmp(sid, import__ids[k]) != 0)
      note(notes, notescap, "note: %s:%ld: '%s' read as SimGrid 3.32's '%s'", path, c->line, sid, import__ids[k]);
    if (k == IMPORT__NIDS)
      note(notes, notescap, "note: %s:%ld: '%s' is not part of the network model: ignored", path, c->line, sid);
    else {
      free(val[k]);
      val[k] = strdup(v);
      if (val[k] == NULL)
        return hnm_fail(err, errlen, "out of memory");
      line[k] = c->line;
    }
  }
  if (nconfig == 0)
    return hnm_fail(err, errlen, "%s: no <config> block", path);
  return 0;
}

/* The two thresholds (bytes; SimGrid's defaults 0 and 65536) and
 * network/crosstraffic (-1: not given, else 0 or 1). 0, or -1 with err. */
static int import__protocol(char *const *val, const long *line, const char *path, long *thr, int *cross, char *err,
                            size_t errlen)
{
  thr[0] = 0, thr[1] = 65536;
  for (int i = 0; i < 2; i++)
    if (val[IMPORT__ASYNC + i] != NULL) {
      char *end;
      errno = 0;
      long t = strtol(val[IMPORT__ASYNC + i], &end, 10);
      if (end == val[IMPORT__ASYNC + i] || *end != '\0' || errno == ERANGE || t < 0 || t > INT_MAX)
        return hnm_fail(err, errlen, "%s:%ld: %s: '%s' is not a whole number of bytes (an int)", path,
                        line[IMPORT__ASYNC + i], import__ids[IMPORT__ASYNC + i], val[IMPORT__ASYNC + i]);
      thr[i] = t;
    }
  if (thr[0] > thr[1])
    return hnm_fail(err, errlen, "%s:%ld: %s: %ld > smpi/send-is-detached-thresh %ld (SimGrid refuses it)", path,
                    line[IMPORT__ASYNC], import__ids[IMPORT__ASYNC], thr[0], thr[1]);
  *cross = -1;
  if (val[IMPORT__CROSS] != NULL) {
    const char *v = val[IMPORT__CROSS];
    if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "true"))
      *cross = 1;
    else if (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "false"))
      *cross = 0;
    else
      return hnm_fail(err, errlen, "%s:%ld: %s: '%s' is not a boolean", path, line[IMPORT__CROSS],
                      import__ids[IMPORT__CROSS], v);
  }
  return 0;
}

/* Segment boundaries in k (payload bytes) of the five tables F: cost keys
 * K (k <= K), factor keys K - 16 (k + 16 <= K); a factor key below 16
 * splits nothing. Sorted, distinct, into *bounds (malloc'ed): their
 * number, or -1 out of memory. */
static long import__bounds(const struct factor *f, double **bounds)
{
  size_t nb = 0, capb = 8;
  for (int i = 0; i < 5; i++)
    capb += f[i].n;
  *bounds = malloc(capb * sizeof **bounds);
  if (*bounds == NULL)
    return -1;
  double *b = *bounds;
  for (int i = 0; i < 5; i++)
    for (size_t j = i < 3 ? 1 : 0; j < f[i].n; j++) { /* a cost table's first key splits nothing */
      double v = i < 3 ? (double)f[i].e[j].key : (double)f[i].e[j].key - ENVELOPE;
      if (v >= 0)
        b[nb++] = v;
    }
  qsort(b, nb, sizeof *b, cmp_double);
  size_t u = 0;
  for (size_t i = 0; i < nb; i++)
    if (u == 0 || b[i] != b[u - 1])
      b[u++] = b[i];
  return (long)u;
}

/* Segment I of the NB + 1 cut at BOUNDS, as SimGrid alone on the route
 * times it: latf L + (k + 16) / (bwf B). 0, or -1 with err. */
static int import__segment(const struct factor *f, const double *bounds, size_t nb, size_t i, double route_bw,
                           double route_lat, const char *path, const long *line, struct hnm_segment *g, char *err,
                           size_t errlen)
{
  double hi = i < nb ? bounds[i] : INFINITY;
  double k = i < nb ? hi : (nb ? bounds[nb - 1] + 1 : 1); /* a payload inside the segment */
  const struct fentry *c[3], *bf = lookup(&f[3], k + ENVELOPE, 1), *lf = lookup(&f[4], k + ENVELOPE, 1);
  for (int j = 0; j < 3; j++)
    c[j] = lookup(&f[j], k, 0);
  double bwf = bf ? bf->v[0] : 1.0, latf = lf ? lf->v[0] : 1.0;
  if (!(bwf > 0))
    return hnm_fail(err, errlen, "%s:%ld: smpi/bw-factor: factor 0 for %.0f-byte messages (no transfer)", path,
                    line[IMPORT__BW], k);
  /* The factor and the route together: the file's line and the option. */
  if (bwf * route_bw > HNM_MAX_BANDWIDTH)
    return hnm_fail(err, errlen,
                    "%s:%ld: smpi/bw-factor: chunk %d: factor %.17g times --bandwidth %.17gBps is above "
                    "1e20Bps (hnm's 'no limit')",
                    path, line[IMPORT__BW], bf ? bf->chunk : 0, bwf, route_bw);
  /* The segment's latency: latf L plus SMPI's envelope at the factor's
   * bandwidth; above 1 s, the larger of the two terms is the one named. */
  double lat_term = latf * route_lat, env_term = ENVELOPE / (bwf * route_bw);
  if (lat_term + env_term > IMPORT_MAX_TIME) {
    if (env_term >= lat_term)
      return hnm_fail(err, errlen,
                      "%s:%ld: smpi/bw-factor: chunk %d: factor %.17g times --bandwidth %.17gBps makes "
                      "SMPI's 16-byte envelope take %.3g s: a latency above 1 s (docs/model-format.md)",
                      path, line[IMPORT__BW], bf ? bf->chunk : 0, bwf, route_bw, env_term);
    return hnm_fail(err, errlen,
                    "%s:%ld: smpi/lat-factor: chunk %d: factor %.17g times --latency %.17gs is a latency "
                    "above 1 s (docs/model-format.md)",
                    path, line[IMPORT__LAT], lf ? lf->chunk : 0, latf, route_lat);
  }
  g->upto = hi;
  g->latency_absolute = g->bandwidth_absolute = 1;
  g->bandwidth_Bps = bwf * route_bw;
  g->latency_s = latf * route_lat + ENVELOPE / g->bandwidth_Bps;
  g->send_o = c[0]->v[0], g->send_O = c[0]->v[1];
  g->isend_o = c[1]->v[0], g->isend_O = c[1]->v[1];
  g->recv_o = c[2]->v[0], g->recv_O = c[2]->v[1];
  return 0;
}

int hnm_smpi_config_import(const char *path, double route_bw, double route_lat, const char *name, hnm_model **model,
                           char *notes, size_t notescap, char *err, size_t errlen)
{
  struct hnm_segment *segs = NULL;
  *model = NULL;
  char *val[IMPORT__NIDS] = {0};
  long line[IMPORT__NIDS] = {0};
  struct factor f[5] = {{0}};
  double *bounds = NULL;
  int rc = -1;
  hnm_xml_doc doc;
  if (hnm_xml_read(path, &doc, err, errlen) != 0) {
    hnm_xml_free(&doc);
    return -1;
  }
  if (strcmp(doc.e[0].name, "config") != 0 && strcmp(doc.e[0].name, "platform") != 0) {
    hnm_errf(err, errlen, "%s:%ld: root element <%s> is neither <config> nor <platform>", path, doc.e[0].line,
             doc.e[0].name);
    goto out;
  }
  if (import__props(&doc, path, val, line, notes, notescap, err, errlen) != 0)
    goto out;
  static const char *const defaults[5] = {"0:0:0:0:0", "0:0:0:0:0", "0:0:0:0:0", SG_BW_DEFAULT, SG_LAT_DEFAULT};
  for (int i = 0; i < 5; i++) {
    char where[4200];
    snprintf(where, sizeof where, "%s:%ld", path, line[i]);
    if (val[i] == NULL)
      note(notes, notescap, "note: %s: no '%s': SimGrid 3.32's default '%s'", path, import__ids[i], defaults[i]);
    if (parse_factor(val[i] ? val[i] : defaults[i], i < 3 ? 2 : 1, &f[i], val[i] ? where : path, import__ids[i], err,
                     errlen) != 0)
      goto out;
  }
  long thr[2];
  int cross;
  if (import__protocol(val, line, path, thr, &cross, err, errlen) != 0)
    goto out;
  long nbl = import__bounds(f, &bounds);
  size_t nb = nbl < 0 ? 0 : (size_t)nbl;
  if (nbl < 0 || (segs = calloc(nb + 1, sizeof *segs)) == NULL) {
    hnm_errf(err, errlen, "out of memory");
    goto out;
  }
  for (size_t i = 0; i <= nb; i++)
    if (import__segment(f, bounds, nb, i, route_bw, route_lat, path, line, &segs[i], err, errlen) != 0)
      goto out;
  char desc[4600];
  snprintf(desc, sizeof desc, "Imported by hnm-calibrate from SimGrid's configuration in %s, for a route of %.17g B/s and %.17g s",
           path, route_bw, route_lat);
  struct hnm_model_desc d = {name, desc, thr[0] > 0 ? thr[0] - 1 : -1, thr[1] > 0 ? thr[1] - 1 : -1,
                             HNM_LIMITER_KEEP, 0, HNM_CONTENTION_MAXMIN,
                             cross < 0 ? HNM_CROSSTRAFFIC_SIMGRID : cross ? HNM_CROSSTRAFFIC_ON : HNM_CROSSTRAFFIC_OFF,
                             NULL, segs, nb + 1, NULL, HNM_UPDATE_FIXED, NULL};
  char he[HNM_ERRLEN];
  *model = hnm_model_new(&d, he, sizeof he);
  if (*model == NULL) {
    hnm_errf(err, errlen, "%s: the imported model does not load: %s", path, he);
    goto out;
  }
  rc = 0;
out:
  for (int i = 0; i < IMPORT__NIDS; i++)
    free(val[i]);
  for (int i = 0; i < 5; i++)
    free(f[i].e);
  free(bounds);
  free(segs);
  hnm_xml_free(&doc);
  return rc;
}
