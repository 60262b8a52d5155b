/* test_model.c -- hnm_model: bundled models, lookups, LogGPS expansion,
 * --model specifications and error reports, checked against values derived
 * independently of the loader:
 *   - smpi-default against SimGrid's own smpi/bw-factor and smpi/lat-factor
 *     strings and SimGrid's rule, re-implemented here;
 *   - LogGPS segments against Figure 1 of Degomme et al. 2013 formulas worked by hand;
 *   - bad files against the line and attribute known to be at fault.
 * Prints "N passed, M failed"; exits non-zero if anything failed.
 *
 * Over the project's usual ~800 lines a file on purpose: one independent case after another;
 * its length is the number of cases.
 */
#include "check.h"
#include "hnm_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HNM_TEST_DATA_DIR
#error "compile with -DHNM_TEST_DATA_DIR=\"<source tree>/tests/data\""
#endif

/* CHECK (check.h) at a caller's line: for helpers that check on behalf of
 * the test that called them, with the same counters. */
static void check_line(int ok, int line, const char *what)
{
  check_at(ok, __FILE__, line, "CHECK failed: %s", what);
}

/* |got - want| <= rel x |want| (or == when want is 0). */
static void check_near(double got, double want, double rel, int line, const char *what)
{
  int ok = want == 0 ? got == 0 : fabs(got - want) <= rel * fabs(want);

  check_at(ok, __FILE__, line, "%s: got %.17g, want %.17g", what, got, want);
}

#define NEAR(got, want) check_near((got), (want), 1e-12, __LINE__, #got)

static hnm_model *load_bundled(const char *name)
{
  char path[4096];
  char err[HNM_ERRLEN];
  hnm_model *m;

  snprintf(path, sizeof path, "%s/%s.xml", hnm_model_dir(), name);
  m = hnm_model_load(path, err, sizeof err);
  if (m == NULL)
    fprintf(stderr, "loading %s: %s\n", path, err);
  return m;
}

/* ------------------------------------------------------------------ */
/* Every bundled model loads, by path and by name, and agrees.          */

static void test_bundled_all(void)
{
  static const char *const names[] = {"graphene", "smpi-default", "fluid", "loggps"};
  size_t i;

  for (i = 0; i < sizeof names / sizeof names[0]; i++) {
    char err[HNM_ERRLEN];
    hnm_model *a = load_bundled(names[i]);
    hnm_model *b = hnm_model_parse_spec(names[i], err, sizeof err);
    size_t na = 0, nb = 0;

    CHECK(a != NULL);
    CHECK(b != NULL);
    if (a == NULL || b == NULL) {
      hnm_model_free(a);
      hnm_model_free(b);
      continue;
    }
    CHECK(strcmp(hnm_model_name(a), names[i]) == 0);
    hnm_model_segments(a, HNM_ROUTE_REMOTE, &na);
    hnm_model_segments(b, HNM_ROUTE_REMOTE, &nb);
    CHECK(na >= 1 && na == nb);
    CHECK(isinf(hnm_model_segments(a, HNM_ROUTE_SAME_HOST, &na)[na - 1].upto));
    hnm_model_free(a);
    hnm_model_free(b);
  }
  CHECK(strstr(hnm_model_dtd_path(), "hnm-model.dtd") != NULL);
  CHECK_EQ(strncmp(hnm_model_dtd_path(), hnm_model_dir(), strlen(hnm_model_dir())), 0);
}

/* ------------------------------------------------------------------ */
/* smpi-default against SimGrid's own tables and rule.                  */

/* SimGrid 3.32 src/simgrid/sg_config.cpp defaults, verbatim. */
static const char sg_bw[] = "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;"
                            "1426:0.608902;732:0.341987;257:0.338112;0:0.812084";
static const char sg_lat[] = "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;"
                             "1426:1.61075;732:1.9503;257:1.95341;0:2.01467";

struct sg_entry {
  double threshold; /* bytes of SimGrid's size P */
  double value;
};

static size_t sg_parse(const char *s, struct sg_entry *out, size_t max)
{
  size_t n = 0;
  char *end;

  while (*s != '\0' && n < max) {
    out[n].threshold = strtod(s, &end);
    s = end + 1; /* ':' */
    out[n].value = strtod(s, &end);
    s = *end == ';' ? end + 1 : end;
    n++;
  }
  return n;
}

/* SimGrid's rule: the entry of the largest threshold t with t < P. */
static double sg_value(const struct sg_entry *e, size_t n, double P)
{
  double best = -1, v = NAN;
  size_t i;

  for (i = 0; i < n; i++) {
    if (e[i].threshold < P && e[i].threshold > best) {
      best = e[i].threshold;
      v = e[i].value;
    }
  }
  return v;
}

static int sg_compare(const hnm_model *m, const struct sg_entry *bw, size_t nbw, const struct sg_entry *lat,
                      size_t nlat, double k)
{
  const double P = k + 16; /* SMPI's envelope */
  int c, ok = 1;

  for (c = 0; c < HNM_ROUTE_CLASSES; c++) {
    const struct hnm_segment *s = hnm_model_segment(m, (enum hnm_route_class)c, k);
    if (s->latency_absolute || s->bandwidth_absolute || s->bw_factor != sg_value(bw, nbw, P) ||
        s->lat_factor != sg_value(lat, nlat, P) || hnm_segment_lat_factor(s, P, 1e-5, NULL) != s->lat_factor ||
        hnm_segment_bw_factor(s, 1.25e8) != s->bw_factor || hnm_segment_send_overhead(s, k) != 0 ||
        hnm_segment_isend_overhead(s, k) != 0 || hnm_segment_recv_overhead(s, k) != 0) {
      fprintf(stderr, "smpi-default k=%.17g class %d: bw %.17g (SimGrid %.17g), lat %.17g (SimGrid %.17g)\n", k, c,
              s->bw_factor, sg_value(bw, nbw, P), s->lat_factor, sg_value(lat, nlat, P));
      ok = 0;
    }
  }
  return ok;
}

static void test_smpi_default(void)
{
  struct sg_entry bw[16], lat[16];
  size_t nbw = sg_parse(sg_bw, bw, 16), nlat = sg_parse(sg_lat, lat, 16);
  hnm_model *m = load_bundled("smpi-default");
  int all = 1, tested = 0;
  size_t i;
  double k;
  int d;

  CHECK(nbw == 9 && nlat == 9);
  CHECK(m != NULL);
  if (m == NULL)
    return;

  /* +-2 bytes around every boundary of both tables: P = t + d, k = P - 16. */
  for (i = 0; i < nbw; i++) {
    for (d = -2; d <= 2; d++) {
      k = bw[i].threshold - 16 + d;
      if (k < 0)
        continue;
      all &= sg_compare(m, bw, nbw, lat, nlat, k);
      tested++;
    }
  }
  for (i = 0; i < nlat; i++) {
    for (d = -2; d <= 2; d++) {
      k = lat[i].threshold - 16 + d;
      if (k >= 0)
        all &= sg_compare(m, bw, nbw, lat, nlat, k);
    }
  }
  /* Every size up to 70000 bytes, then a spread up to 1e9. */
  for (k = 0; k <= 70000; k++)
    all &= sg_compare(m, bw, nbw, lat, nlat, k);
  for (k = 70001; k <= 1e9; k = floor(k * 1.37) + 3)
    all &= sg_compare(m, bw, nbw, lat, nlat, k);
  all &= sg_compare(m, bw, nbw, lat, nlat, 1e9);
  CHECK(tested >= 40);
  CHECK(all);

  /* The protocol as SMPI's defaults: async-small-thresh 0 (never), detached
   * below 65536 bytes; limiter and cross-traffic left alone. */
  CHECK_EQ(hnm_model_async_max(m), -1);
  CHECK_EQ(hnm_model_detached_max(m), 65535);
  CHECK_EQ(hnm_model_smpi_async_thresh(m), 0);
  CHECK_EQ(hnm_model_smpi_detached_thresh(m), 65536);
  CHECK_EQ(hnm_model_limiter_mode(m), HNM_LIMITER_KEEP);
  CHECK_EQ(hnm_model_contention(m), HNM_CONTENTION_MAXMIN);
  CHECK_EQ(hnm_model_crosstraffic(m), HNM_CROSSTRAFFIC_SIMGRID);
  CHECK_EQ(hnm_model_update(m), HNM_UPDATE_SIMGRID);

  /* smpi-fixed: the same model with the selective update mended. */
  hnm_model *f = load_bundled("smpi-fixed");
  CHECK(f != NULL);
  if (f != NULL) {
    size_t nm, nf;
    const struct hnm_segment *sm = hnm_model_segments(m, HNM_ROUTE_REMOTE, &nm);
    const struct hnm_segment *sf = hnm_model_segments(f, HNM_ROUTE_REMOTE, &nf);
    CHECK(nm == nf && memcmp(sm, sf, nm * sizeof *sm) == 0);
    CHECK(hnm_model_async_max(f) == -1 && hnm_model_detached_max(f) == 65535);
    CHECK(hnm_model_limiter_mode(f) == HNM_LIMITER_KEEP && hnm_model_crosstraffic(f) == HNM_CROSSTRAFFIC_SIMGRID);
    CHECK(hnm_model_contention(f) == HNM_CONTENTION_MAXMIN && hnm_model_update(f) == HNM_UPDATE_FIXED);
  }
  hnm_model_free(f);
  hnm_model_free(m);
}

/* ------------------------------------------------------------------ */
/* graphene: the paper's breakpoints.                                   */

static void test_graphene(void)
{
  static const struct {
    double k, bw, lat;
  } probes[] = {
    {0, 0.55, 1.0},          {1420, 0.55, 1.0},       {1421, 0.80, 1.6},      {32768, 0.80, 1.6},
    {32769, 0.85, 1.6},      {65536, 0.85, 1.6},      {65537, 0.90, 2.5},     {327680, 0.90, 2.5},
    {327681, 0.94, 4.0},     {1e9, 0.94, 4.0},
  };
  hnm_model *m = load_bundled("graphene");
  const struct hnm_segment *s;
  size_t i, n;

  CHECK(m != NULL);
  if (m == NULL)
    return;
  for (i = 0; i < sizeof probes / sizeof probes[0]; i++) {
    s = hnm_model_segment(m, HNM_ROUTE_SAME_ZONE, probes[i].k);
    CHECK(s->bw_factor == probes[i].bw);
    CHECK(s->lat_factor == probes[i].lat);
    CHECK(s == hnm_model_segment(m, HNM_ROUTE_REMOTE, probes[i].k));
  }
  hnm_model_segments(m, HNM_ROUTE_REMOTE, &n);
  CHECK_EQ(n, 5);
  CHECK_EQ(hnm_model_async_max(m), 65536);
  CHECK_EQ(hnm_model_detached_max(m), 327680);
  CHECK_EQ(hnm_model_smpi_async_thresh(m), 65537);
  CHECK_EQ(hnm_model_smpi_detached_thresh(m), 327681);
  CHECK_EQ(hnm_model_limiter_mode(m), HNM_LIMITER_FACTOR);
  CHECK_EQ(hnm_model_limiter_factor(m), 1.5);
  CHECK_EQ(hnm_model_crosstraffic(m), HNM_CROSSTRAFFIC_OFF);
  /* Overheads of the first segment: 1.5us + k 0.25ns (send), 1.2us + k 0.2ns
   * (isend), 2us + k 0.3ns (recv); k = 1000 bytes. */
  s = hnm_model_segment(m, HNM_ROUTE_SAME_HOST, 1000);
  NEAR(hnm_segment_send_overhead(s, 1000), 1.75e-6);
  NEAR(hnm_segment_isend_overhead(s, 1000), 1.4e-6);
  NEAR(hnm_segment_recv_overhead(s, 1000), 2.3e-6);
  /* Relative segments pass their factors through. */
  CHECK(hnm_segment_lat_factor(s, 1016, 0, NULL) == 1.0);
  CHECK_EQ(hnm_segment_bw_factor(s, 1.25e9), 0.55);
  hnm_model_free(m);
}

static void test_fluid(void)
{
  hnm_model *m = load_bundled("fluid");
  const struct hnm_segment *s;
  size_t n;

  CHECK(m != NULL);
  if (m == NULL)
    return;
  s = hnm_model_segments(m, HNM_ROUTE_REMOTE, &n);
  CHECK(n == 1 && isinf(s[0].upto));
  /* scripts/bundled-models: the line fitted to graphene's data, relative to
   * the measurement route (20 us, 125e6 B/s), to 4 digits. */
  CHECK(s[0].lat_factor == 1.202 && s[0].bw_factor == 0.9268);
  CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 0) == s);
  CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 1e15) == s);
  CHECK_EQ(hnm_model_limiter_mode(m), HNM_LIMITER_OFF);
  CHECK_EQ(hnm_model_smpi_async_thresh(m), 0);
  CHECK_EQ(hnm_model_smpi_detached_thresh(m), 65536);
  hnm_model_free(m);
}

/* ------------------------------------------------------------------ */
/* LogGPS expansion, by hand from Degomme et al. 2013, Figure 1.                    */

struct want_seg {
  double upto, latency_s, bandwidth_Bps;
  double send_o, send_O, isend_o, isend_O, recv_o, recv_O;
};

static void check_segments(const hnm_model *m, const struct want_seg *w, size_t nw, int line)
{
  size_t n, i, c;
  const struct hnm_segment *s = hnm_model_segments(m, HNM_ROUTE_REMOTE, &n);
  char what[64];

  snprintf(what, sizeof what, "segment count (line %d)", line);
  check_line(n == nw, line, what);
  if (n != nw)
    return;
  for (i = 0; i < n; i++) {
    snprintf(what, sizeof what, "segment %zu absolute (line %d)", i, line);
    check_line(s[i].latency_absolute && s[i].bandwidth_absolute, line, what);
    check_line(s[i].upto == w[i].upto || (isinf(s[i].upto) && isinf(w[i].upto)), line, "upto");
    check_near(s[i].latency_s, w[i].latency_s, 1e-12, line, "latency_s");
    check_near(s[i].bandwidth_Bps, w[i].bandwidth_Bps, 1e-12, line, "bandwidth_Bps");
    check_near(s[i].send_o, w[i].send_o, 1e-12, line, "send_o");
    check_near(s[i].send_O, w[i].send_O, 1e-12, line, "send_O");
    check_near(s[i].isend_o, w[i].isend_o, 1e-12, line, "isend_o");
    check_near(s[i].isend_O, w[i].isend_O, 1e-12, line, "isend_O");
    check_near(s[i].recv_o, w[i].recv_o, 1e-12, line, "recv_o");
    check_near(s[i].recv_O, w[i].recv_O, 1e-12, line, "recv_O");
  }
  /* LogGPS has no route classes: one table for all. */
  for (c = 0; c < HNM_ROUTE_CLASSES; c++)
    check_line(hnm_model_segments(m, (enum hnm_route_class)c, &n) == s, line, "same table for every class");
  check_line(hnm_model_contention(m) == HNM_CONTENTION_NONE, line, "contention none");
  check_line(hnm_model_crosstraffic(m) == HNM_CROSSTRAFFIC_OFF, line, "crosstraffic off");
  check_line(hnm_model_limiter_mode(m) == HNM_LIMITER_OFF, line, "limiter off");
}

static hnm_model *spec_ok(const char *spec, int line)
{
  char err[HNM_ERRLEN];
  hnm_model *m = hnm_model_parse_spec(spec, err, sizeof err);

  if (m == NULL)
    fprintf(stderr, "%s:%d: spec \"%s\" failed: %s\n", __FILE__, line, spec, err);
  check_line(m != NULL, line, spec);
  return m;
}

/* pack-irregular.xml: pack-jump.xml with a time per element after the
 * first and a time per block of an irregular message, weighted by
 * max(0, 1 - history / period) (hnm_model.h, "pack"), at the breakpoint
 * period = history and one run either side; per element at 1 and 2
 * elements; and the old entry point and old models unchanged. */
static void test_pack_irregular(void)
{
  char path[4096];
  char err[HNM_ERRLEN];
  snprintf(path, sizeof path, "%s/models/pack-irregular.xml", HNM_TEST_DATA_DIR);
  hnm_model *m = hnm_model_load(path, err, sizeof err);
  check_line(m != NULL, __LINE__, err);
  if (m == NULL)
    return;
  /* indexed, pack: c0 5 us, 6 ns/block, 0.75 ns/B, 60 ns/jump, 70 ns/element, 7 ns/irregular block, history 64 */
  const double base = 5e-6 + 10000 * 6e-9 + 80000 * 0.75e-9 + 3 * 60e-9;
  struct hnm_pack_shape at = {10000, 80000, 3, 1, 64};
  NEAR(hnm_model_pack_time_of(m, HNM_PACK_INDEXED, HNM_PACK_OP_PACK, &at), base);
  check_line(hnm_model_pack_time_of(m, HNM_PACK_INDEXED, HNM_PACK_OP_PACK, &at) ==
                 hnm_model_pack_time(m, HNM_PACK_INDEXED, HNM_PACK_OP_PACK, 10000, 80000, 3),
             __LINE__, "period = history: nothing irregular (==)");
  struct hnm_pack_shape below = {10000, 80000, 3, 1, 63};
  NEAR(hnm_model_pack_time_of(m, HNM_PACK_INDEXED, HNM_PACK_OP_PACK, &below), base);
  struct hnm_pack_shape above = {10000, 80000, 3, 1, 65};
  NEAR(hnm_model_pack_time_of(m, HNM_PACK_INDEXED, HNM_PACK_OP_PACK, &above),
       base + 7e-9 * 10000 * (1.0 - 64.0 / 65.0));
  struct hnm_pack_shape twice = {10000, 80000, 3, 1, 128};
  NEAR(hnm_model_pack_time_of(m, HNM_PACK_INDEXED, HNM_PACK_OP_PACK, &twice), base + 7e-9 * 10000 * 0.5);
  struct hnm_pack_shape regular = {10000, 80000, 3, 1, 0};
  NEAR(hnm_model_pack_time_of(m, HNM_PACK_INDEXED, HNM_PACK_OP_PACK, &regular), base);
  check_line(hnm_pack_irregular_weight(4096, 4096) == 0, __LINE__, "period = history: weight 0");
  NEAR(hnm_pack_irregular_weight(4096, 40960), 0.9);
  check_line(hnm_pack_irregular_weight(0, 40960) == 0, __LINE__, "no history: no weight");
  /* elements: 1 costs nothing more, 2 one per-element time, 1000 999 */
  struct hnm_pack_shape one = {64, 1024, 0, 1, 0}, two = {64, 1024, 0, 2, 0}, many = {64, 1024, 0, 1000, 0};
  const double vu = 3e-6 + 64 * 4e-9 + 1024 * 0.25e-9; /* vector unpack */
  NEAR(hnm_model_pack_time_of(m, HNM_PACK_VECTOR, HNM_PACK_OP_UNPACK, &one), vu);
  NEAR(hnm_model_pack_time_of(m, HNM_PACK_VECTOR, HNM_PACK_OP_UNPACK, &two), vu + 50e-9);
  NEAR(hnm_model_pack_time_of(m, HNM_PACK_VECTOR, HNM_PACK_OP_UNPACK, &many), vu + 999 * 50e-9);
  /* subarray unpack, every term: history 64, period 256 (weight 3/4) */
  struct hnm_pack_shape all = {512, 4096, 7.5, 4, 256};
  NEAR(hnm_model_pack_time_of(m, HNM_PACK_SUBARRAY, HNM_PACK_OP_UNPACK, &all),
       11e-6 + 512 * 12e-9 + 4096 * 1.75e-9 + 7.5 * 120e-9 + 3 * 130e-9 + 13e-9 * 512 * 0.75);
  /* one block: nothing, whatever the elements and the period */
  struct hnm_pack_shape single = {1, 8, 0, 5, 100000};
  check_line(hnm_model_pack_time_of(m, HNM_PACK_INDEXED, HNM_PACK_OP_UNPACK, &single) == 0, __LINE__, "1 block = 0");
  const struct hnm_pack_model *p = hnm_model_pack(m);
  check_line(p != NULL && p->cost[HNM_PACK_COMPILED][HNM_PACK_INDEXED][HNM_PACK_OP_UNPACK].history == 1 &&
                 p->cost[HNM_PACK_COMPILED][HNM_PACK_INDEXED][HNM_PACK_OP_PACK].history == 1,
             __LINE__, "history read into both operations");
  hnm_model_free(m);
  /* A model without the new terms (pack-jump.xml) ignores elements and
   * period, bit for bit. */
  snprintf(path, sizeof path, "%s/models/pack-jump.xml", HNM_TEST_DATA_DIR);
  m = hnm_model_load(path, err, sizeof err);
  check_line(m != NULL, __LINE__, err);
  if (m != NULL) {
    struct hnm_pack_shape sh = {4096, 65536, 4032, 64, 1000000};
    double got = hnm_model_pack_time_of(m, HNM_PACK_VECTOR, HNM_PACK_OP_UNPACK, &sh);
    double old = hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_UNPACK, 4096, 65536, 4032);
    if (got != old)
      fprintf(stderr, "%s:%d: %.17g != %.17g\n", __FILE__, __LINE__, got, old);
    check_line(got == old, __LINE__, "old model: elements and period change nothing (==)");
  }
  hnm_model_free(m);
}

/* The pack model (hnm_model.h, "pack"): tests/data/models/pack-test.xml's
 * round coefficients, T = c0 + per-block x blocks + per-byte x bytes, 0 for
 * at most one block, per style, class and operation. */
static void test_pack(void)
{
  char path[4096];
  char spec[4200];
  char err[HNM_ERRLEN];
  snprintf(path, sizeof path, "%s/models/pack-test.xml", HNM_TEST_DATA_DIR);
  hnm_model *m = hnm_model_load(path, err, sizeof err);
  check_line(m != NULL, __LINE__, err);
  if (m != NULL) {
    check_line(hnm_model_pack_style(m) == HNM_PACK_INTERPRETED, __LINE__, "use");
    NEAR(hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 1000, 32000, 0), 1e-6 + 1000 * 2e-9 + 32000 * 0.5e-9);
    NEAR(hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_UNPACK, 1000, 32000, 0), 3e-6 + 1000 * 4e-9 + 32000 * 0.25e-9);
    NEAR(hnm_model_pack_time(m, HNM_PACK_INDEXED, HNM_PACK_OP_PACK, 99, 2400, 0), 5e-6 + 99 * 6e-9 + 2400 * 0.75e-9);
    NEAR(hnm_model_pack_time(m, HNM_PACK_INDEXED, HNM_PACK_OP_UNPACK, 1001, 12000, 0), 7e-6 + 1001 * 8e-9 + 12000 * 1.5e-9);
    NEAR(hnm_model_pack_time(m, HNM_PACK_SUBARRAY, HNM_PACK_OP_PACK, 256, 2048, 0), 9e-6 + 256 * 10e-9 + 2048 * 1.25e-9);
    NEAR(hnm_model_pack_time(m, HNM_PACK_SUBARRAY, HNM_PACK_OP_UNPACK, 16, 2048, 0), 11e-6 + 16 * 12e-9 + 2048 * 1.75e-9);
    /* The threshold: 2 blocks cost, 1 block (contiguous) and 0 do not. */
    NEAR(hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 2, 16, 0), 1e-6 + 2 * 2e-9 + 16 * 0.5e-9);
    check_line(hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 1, 1048576, 0) == 0, __LINE__, "1 block = 0");
    check_line(hnm_model_pack_time(m, HNM_PACK_INDEXED, HNM_PACK_OP_UNPACK, 0, 0, 0) == 0, __LINE__, "0 blocks = 0");
    const struct hnm_pack_model *p = hnm_model_pack(m);
    check_line(p != NULL && p->present[HNM_PACK_INTERPRETED] && p->present[HNM_PACK_COMPILED] &&
                   !p->present[HNM_PACK_MANUAL], __LINE__, "styles present");
    /* A file without per-jump times (written before them) charges nothing
     * per jump: the three-term time, bit for bit, whatever the jumps. */
    for (int c = 0; c < HNM_PACK_CLASSES; c++)
      for (int op = 0; op < HNM_PACK_OPS; op++) {
        const struct hnm_pack_cost *k = &p->cost[HNM_PACK_INTERPRETED][c][op];
        double three = k->c0 + k->per_block * 1000 + k->per_byte * 32000;
        double got = hnm_model_pack_time(m, (enum hnm_pack_class)c, (enum hnm_pack_op)op, 1000, 32000, 999);
        check_line(k->per_jump == 0, __LINE__, "no per-jump in pack-test.xml");
        if (got != three)
          fprintf(stderr, "%s:%d: class %d op %d: %.17g != %.17g\n", __FILE__, __LINE__, c, op, got, three);
        check_line(got == three, __LINE__, "old model: 999 jumps change nothing (==)");
      }
  }
  hnm_model_free(m);
  /* pack-jump.xml: the same with per-jump times (20 ns ... 120 ns). */
  snprintf(path, sizeof path, "%s/models/pack-jump.xml", HNM_TEST_DATA_DIR);
  m = hnm_model_load(path, err, sizeof err);
  check_line(m != NULL, __LINE__, err);
  if (m != NULL) {
    NEAR(hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 64, 1024, 63),
         1e-6 + 64 * 2e-9 + 1024 * 0.5e-9 + 63 * 20e-9);
    NEAR(hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_UNPACK, 64, 1024, 15.75),
         3e-6 + 64 * 4e-9 + 1024 * 0.25e-9 + 15.75 * 40e-9);
    NEAR(hnm_model_pack_time(m, HNM_PACK_INDEXED, HNM_PACK_OP_PACK, 65, 1024, 63), 5e-6 + 65 * 6e-9 + 1024 * 0.75e-9 + 63 * 60e-9);
    NEAR(hnm_model_pack_time(m, HNM_PACK_SUBARRAY, HNM_PACK_OP_UNPACK, 64, 32768, 63),
         11e-6 + 64 * 12e-9 + 32768 * 1.75e-9 + 63 * 120e-9);
    /* no jumps: the three terms; one block: nothing, jumps or not */
    NEAR(hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 1000, 32000, 0), 1e-6 + 1000 * 2e-9 + 32000 * 0.5e-9);
    check_line(hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 1, 8, 5) == 0, __LINE__, "1 block = 0");
  }
  hnm_model_free(m);
  snprintf(spec, sizeof spec, "%s:pack=compiled", path);
  m = spec_ok(spec, __LINE__);
  if (m != NULL)
    NEAR(hnm_model_pack_time(m, HNM_PACK_SUBARRAY, HNM_PACK_OP_PACK, 64, 32768, 63),
         0.9e-6 + 64 * 1e-9 + 32768 * 0.125e-9 + 63 * 10e-9);
  hnm_model_free(m);
  test_pack_irregular();
  snprintf(path, sizeof path, "%s/models/pack-test.xml", HNM_TEST_DATA_DIR);
  /* pack=STYLE switches the style charged; none charges nothing. */
  snprintf(spec, sizeof spec, "%s:pack=compiled", path);
  m = spec_ok(spec, __LINE__);
  if (m != NULL)
    NEAR(hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 1000, 32000, 0), 0.1e-6 + 1000 * 0.2e-9 + 32000 * 0.05e-9);
  hnm_model_free(m);
  snprintf(spec, sizeof spec, "%s:pack=none", path);
  m = spec_ok(spec, __LINE__);
  if (m != NULL)
    check_line(hnm_model_pack_style(m) == HNM_PACK_NONE &&
                   hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 1000, 32000, 0) == 0, __LINE__, "none");
  hnm_model_free(m);
  /* Models without <pack>: SMPI's free packing. */
  m = spec_ok("smpi-default", __LINE__);
  if (m != NULL)
    check_line(hnm_model_pack(m) == NULL && hnm_model_pack_style(m) == HNM_PACK_NONE &&
                   hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 1000, 32000, 0) == 0, __LINE__, "no pack");
  hnm_model_free(m);
  /* The bundled graphene model charges interpreted packing. */
  m = spec_ok("graphene", __LINE__);
  if (m != NULL)
    check_line(hnm_model_pack_style(m) == HNM_PACK_INTERPRETED &&
                   hnm_model_pack_time(m, HNM_PACK_VECTOR, HNM_PACK_OP_PACK, 1048576, 8388608, 0) > 0, __LINE__,
               "graphene interpreted");
  hnm_model_free(m);
}

static void test_loggps(void)
{
  hnm_model *m;
  const struct hnm_segment *s;
  int lost;

  /* Bundled (scripts/bundled-models: fitted to graphene's data, 4 digits):
   * L=20.65us o=1.759us g=G=8.219ns s=0 S=320KiB Os=0.1413ns Or=0.2718ns.
   *   k <= 327680: latency L, rate 1/G, send o + k Os, isend o, recv o + k Or;
   *   k >  327680: latency 6o + 3L, per byte G + Os + Or, isend o, no
   *                send/recv overhead. */
  {
    const double L = 20.65e-6, o = 1.759e-6, G = 8.219e-9, Os = 0.1413e-9, Or = 0.2718e-9;
    const struct want_seg w[] = {
      {327680, L, 1 / G, o, Os, o, 0, o, Or},
      {INFINITY, 6 * o + 3 * L, 1 / (G + Os + Or), 0, 0, o, 0, 0, 0},
    };
    m = load_bundled("loggps");
    CHECK(m != NULL);
    if (m != NULL) {
      check_segments(m, w, 2, __LINE__);
      CHECK(hnm_model_async_max(m) == 327680 && hnm_model_detached_max(m) == 327680);
      CHECK(hnm_model_smpi_async_thresh(m) == 327681 && hnm_model_smpi_detached_thresh(m) == 327681);
      /* The 16-byte envelope: SimGrid charges lat x f + (k + 16)/rate, hnm
       * wants L + k/rate, so f x route = L - 16 G. */
      s = hnm_model_segment(m, HNM_ROUTE_REMOTE, 1000);
      NEAR(hnm_segment_lat_factor(s, 1016, 10e-6, NULL), (L - 16 * G) / 10e-6);
      NEAR(hnm_segment_lat_factor(s, 1016, 30e-6, NULL), (L - 16 * G) / 30e-6);
      NEAR(hnm_segment_bw_factor(s, 1.25e8), 1 / G / 1.25e8);
      NEAR(hnm_segment_bw_factor(s, 1.25e9), 1 / G / 1.25e9);
      NEAR(hnm_segment_send_overhead(s, 1000), o + 1000 * Os);
      NEAR(hnm_segment_isend_overhead(s, 1000), o);
      NEAR(hnm_segment_recv_overhead(s, 1000), o + 1000 * Or);
      lost = 0;
      CHECK(hnm_segment_lat_factor(s, 1016, 0, &lost) == 1 && lost == 1);
      /* Rendez-vous: (6o + 3L - 16 (G + Os + Or)) / 10us. */
      s = hnm_model_segment(m, HNM_ROUTE_REMOTE, 327681);
      NEAR(hnm_segment_lat_factor(s, 327697, 10e-6, NULL), (6 * o + 3 * L - 16 * (G + Os + Or)) / 10e-6);
      CHECK(hnm_segment_send_overhead(s, 1e6) == 0 && hnm_segment_recv_overhead(s, 1e6) == 0);
      NEAR(hnm_segment_isend_overhead(s, 1e6), o);
      CHECK(hnm_model_segment(m, HNM_ROUTE_SAME_HOST, 327680)->upto == 327680);
    }
    hnm_model_free(m);
  }

  /* Specifications, each expanded by hand; per segment: upto, latency,
   * rate, then the send, isend and recv overheads (o, O). */
  static const struct {
    int line;
    const char *spec;
    size_t n;
    struct want_seg w[3];
  } specs[] = {
    /* s > 0: L=10us o=1us g=4ns G=1ns s=1KiB S=8KiB Os=0.5ns Or=0.25ns.
     * Breakpoints s - 1 = 1023, S = 8192, inf.
     *   k <= 1023: eager, k < s: latency 10us, rate 1/4ns = 2.5e8;
     *   k <= 8192: eager, latency L + s(g - G) = 10us + 1024 x 3ns = 13.072us,
     *              rate 1/1ns = 1e9 (T2(1024) = 14.096us both ways);
     *   k >  8192: 6o + 3L + s(g - G) = 6 + 30 + 3.072 = 39.072us, per byte
     *              1 + 0.5 + 0.25 = 1.75ns. */
    {__LINE__,
     "loggps:L=10us,o=1us,g=4ns,G=1ns,s=1KiB,S=8KiB,Os=0.5ns,Or=0.25ns",
     3,
     {{1023, 10e-6, 2.5e8, 1e-6, 0.5e-9, 1e-6, 0, 1e-6, 0.25e-9},
      {8192, 13.072e-6, 1e9, 1e-6, 0.5e-9, 1e-6, 0, 1e-6, 0.25e-9},
      {INFINITY, 39.072e-6, 1 / 1.75e-9, 0, 0, 1e-6, 0, 0, 0}}},
    /* S < s - 1: s=100 S=10 g=2ns G=1ns (L=30us o=2us Os=Or=0.3ns given).
     * Breakpoints 10, 99, inf:
     *   k <= 10: eager, k < s: 30us, 1/2ns = 5e8;
     *   k <= 99: rendez-vous, k < s: 102us, per byte 2 + 0.6 = 2.6ns;
     *   k >  99: rendez-vous, k >= s: 102us + 100 x 1ns = 102.1us, 1.6ns. */
    {__LINE__,
     "loggps:L=30us,o=2us,Os=0.3ns,Or=0.3ns,s=100,S=10,g=2ns,G=1ns",
     3,
     {{10, 30e-6, 5e8, 2e-6, 0.3e-9, 2e-6, 0, 2e-6, 0.3e-9},
      {99, 102e-6, 1 / 2.6e-9, 0, 0, 2e-6, 0, 0, 0},
      {INFINITY, 102.1e-6, 1 / 1.6e-9, 0, 0, 2e-6, 0, 0, 0}}},
    /* s - 1 == S: one eager segment below s, no second eager segment.
     * s=65537 S=65536 (L=30us o=2us g=G=8ns Os=Or=0.3ns given): breakpoints
     * 65536, inf. */
    {__LINE__,
     "loggps:L=30us,o=2us,g=8ns,G=8ns,S=64KiB,Os=0.3ns,Or=0.3ns,s=65537",
     2,
     {{65536, 30e-6, 1.25e8, 2e-6, 0.3e-9, 2e-6, 0, 2e-6, 0.3e-9},
      {INFINITY, 102e-6, 1 / 8.6e-9, 0, 0, 2e-6, 0, 0, 0}}},
    /* The README's LogGPS example: L=5us o=1.5us g=0 G=0.1ns S=64KiB (s=0 bundled,
     * Os=Or=0.3ns given): eager latency 5us, rate 1/0.1ns = 1e10;
     * rendez-vous 6 x 1.5 + 3 x 5 = 24us, per byte 0.1 + 0.6 = 0.7ns. */
    {__LINE__,
     "loggps:L=5us,o=1.5us,g=0,G=0.1ns,S=64KiB,Os=0.3ns,Or=0.3ns",
     2,
     {{65536, 5e-6, 1e10, 1.5e-6, 0.3e-9, 1.5e-6, 0, 1.5e-6, 0.3e-9},
      {INFINITY, 24e-6, 1 / 0.7e-9, 0, 0, 1.5e-6, 0, 0, 0}}},
    /* Zero gaps: no bandwidth limit, HNM_MAX_BANDWIDTH = 1e20 B/s. */
    {__LINE__,
     "loggps:L=30us,o=2us,g=0,G=0,Os=0,Or=0,s=10,S=100",
     3,
     {{9, 30e-6, 1e20, 2e-6, 0, 2e-6, 0, 2e-6, 0},
      {100, 30e-6, 1e20, 2e-6, 0, 2e-6, 0, 2e-6, 0},
      {INFINITY, 102e-6, 1e20, 0, 0, 2e-6, 0, 0, 0}}},
  };
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
    m = spec_ok(specs[i].spec, specs[i].line);
    if (m != NULL)
      check_segments(m, specs[i].w, specs[i].n, specs[i].line);
    hnm_model_free(m);
  }

  /* s > 0 (the first of the table): the lookups at the breakpoints, T2
   * continuous at k = s, the envelope. */
  m = spec_ok("loggps:L=10us,o=1us,g=4ns,G=1ns,s=1KiB,S=8KiB,Os=0.5ns,Or=0.25ns", __LINE__);
  if (m != NULL) {
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 1023)->upto == 1023);
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 1024)->upto == 8192);
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 8193)->upto > 8192);
    CHECK(hnm_model_async_max(m) == 8192 && hnm_model_smpi_detached_thresh(m) == 8193);
    /* T2 is continuous at k = s: latency + k / rate on both sides. */
    s = hnm_model_segment(m, HNM_ROUTE_REMOTE, 1023);
    NEAR(s->latency_s + 1024 / s->bandwidth_Bps, 14.096e-6);
    s = hnm_model_segment(m, HNM_ROUTE_REMOTE, 1024);
    NEAR(s->latency_s + 1024 / s->bandwidth_Bps, 14.096e-6);
    /* Envelope: (13.072us - 16 x 1ns) / 2us = 6.528. */
    NEAR(hnm_segment_lat_factor(s, 2000, 2e-6, NULL), 6.528);
  }
  hnm_model_free(m);
  /* The README's LogGPS example: its name and protocol. */
  m = spec_ok("loggps:L=5us,o=1.5us,g=0,G=0.1ns,S=64KiB,Os=0.3ns,Or=0.3ns", __LINE__);
  if (m != NULL) {
    CHECK(strcmp(hnm_model_name(m), "loggps") == 0);
    CHECK_EQ(hnm_model_async_max(m), 65536);
  }
  hnm_model_free(m);
  /* Zero gaps: the envelope at 1e20 B/s, (30us - 16 B / 1e20 B/s) / 10us = 3. */
  m = spec_ok("loggps:L=30us,o=2us,g=0,G=0,Os=0,Or=0,s=10,S=100", __LINE__);
  if (m != NULL)
    NEAR(hnm_segment_lat_factor(hnm_model_segment(m, HNM_ROUTE_REMOTE, 5), 21, 10e-6, NULL), 3.0);
  hnm_model_free(m);

  /* The cap of HNM_MAX_BANDWIDTH applies above it only: a gap of 5e-21 s/B
   * (2e20 B/s) is capped to 1e20 B/s, one of 2e-20 s/B keeps its 5e19 B/s;
   * around the cap, 9.999999e-21 s/B (1.0000001e20 B/s) is capped and
   * 1.0000001e-20 s/B (9.999999e19 B/s) is not. */
  m = spec_ok("loggps:g=5e-21s,G=2e-20s,Os=0,Or=0,s=10,S=100", __LINE__);
  if (m != NULL) {
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 5)->bandwidth_Bps == 1e20);
    NEAR(hnm_model_segment(m, HNM_ROUTE_REMOTE, 50)->bandwidth_Bps, 5e19);
    NEAR(hnm_model_segment(m, HNM_ROUTE_REMOTE, 1000)->bandwidth_Bps, 5e19);
  }
  hnm_model_free(m);
  m = spec_ok("loggps:g=9.999999e-21s,G=1.0000001e-20s,Os=0,Or=0,s=10,S=100", __LINE__);
  if (m != NULL) {
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 5)->bandwidth_Bps == 1e20);
    NEAR(hnm_model_segment(m, HNM_ROUTE_REMOTE, 50)->bandwidth_Bps, 1 / 1.0000001e-20);
  }
  hnm_model_free(m);

  /* Overrides apply after the expansion: protocol and limiter stay as given. */
  m = spec_ok("loggps:async=none,S=1MiB,limiter=2", __LINE__);
  if (m != NULL) {
    CHECK_EQ(hnm_model_async_max(m), -1);
    CHECK_EQ(hnm_model_detached_max(m), 1048576);
    CHECK_EQ(hnm_model_smpi_async_thresh(m), 0);
    CHECK(hnm_model_limiter_mode(m) == HNM_LIMITER_FACTOR && hnm_model_limiter_factor(m) == 2);
    NEAR(hnm_model_segment(m, HNM_ROUTE_REMOTE, 1048576)->latency_s, 20.65e-6); /* the bundled L */
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 1048577)->send_o == 0); /* rendez-vous */
  }
  hnm_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Other valid files and specs.                                         */

static void test_good_files(void)
{
  char path[4096], spec[4200];
  const struct hnm_segment *s;
  char err[HNM_ERRLEN];
  hnm_model *m;
  size_t n;

  /* DOCTYPE naming a DTD that does not exist: ignored. Per-route tables. */
  snprintf(path, sizeof path, "%s/models/good-routes.xml", HNM_TEST_DATA_DIR);
  m = hnm_model_load(path, err, sizeof err);
  CHECK(m != NULL);
  if (m != NULL) {
    CHECK(strcmp(hnm_model_name(m), "routes") == 0);
    CHECK(hnm_model_async_max(m) == 4096 && hnm_model_detached_max(m) == 65536);
    CHECK(hnm_model_limiter_mode(m) == HNM_LIMITER_FACTOR && hnm_model_limiter_factor(m) == 2);
    CHECK_EQ(hnm_model_contention(m), HNM_CONTENTION_NONE);
    CHECK_EQ(hnm_model_crosstraffic(m), HNM_CROSSTRAFFIC_ON);
    /* same-host and same-zone fall back to "any". */
    s = hnm_model_segments(m, HNM_ROUTE_SAME_HOST, &n);
    CHECK(n == 1 && s[0].lat_factor == 1.5 && s[0].bw_factor == 0.5);
    CHECK(hnm_model_segments(m, HNM_ROUTE_SAME_ZONE, &n) == s);
    /* remote: 1.5us, 10Gbps = 1.25e9 B/s, overheads; then relative latency
     * with an absolute bandwidth. */
    s = hnm_model_segments(m, HNM_ROUTE_REMOTE, &n);
    CHECK(n == 2 && s[0].upto == 1024);
    CHECK(s[0].latency_absolute && s[0].bandwidth_absolute);
    NEAR(s[0].latency_s, 1.5e-6);
    CHECK_EQ(s[0].bandwidth_Bps, 1.25e9);
    NEAR(hnm_segment_send_overhead(&s[0], 1000), 1.5e-6);
    NEAR(hnm_segment_isend_overhead(&s[0], 1000), 2.25e-6);
    CHECK_EQ(hnm_segment_recv_overhead(&s[0], 1000), 0);
    /* (1.5us - 16 / 1.25e9) / 1us = 1.4872; bandwidth 1.25e9 / 1e9. */
    NEAR(hnm_segment_lat_factor(&s[0], 1016, 1e-6, NULL), 1.4872);
    NEAR(hnm_segment_bw_factor(&s[0], 1e9), 1.25);
    CHECK(!s[1].latency_absolute && s[1].lat_factor == 2 && s[1].bandwidth_absolute);
    CHECK_EQ(s[1].bandwidth_Bps, 1.25e9);
    CHECK(hnm_segment_lat_factor(&s[1], 2000, 1e-6, NULL) == 2);
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 1024) == &s[0]);
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 1025) == &s[1]);
  } else {
    fprintf(stderr, "%s\n", err);
  }
  hnm_model_free(m);

  /* Receive overheads may be split at other breakpoints per class, as long
   * as they are the same function of k (see model__recv_class_mismatch()). */
  snprintf(path, sizeof path, "%s/models/recv-uniform.xml", HNM_TEST_DATA_DIR);
  m = hnm_model_load(path, err, sizeof err);
  CHECK(m != NULL);
  if (m != NULL) {
    NEAR(hnm_segment_recv_overhead(hnm_model_segment(m, HNM_ROUTE_REMOTE, 60), 60), 1e-6 + 60 * 1e-9);
    NEAR(hnm_segment_recv_overhead(hnm_model_segment(m, HNM_ROUTE_SAME_ZONE, 60), 60), 1e-6 + 60 * 1e-9);
  } else {
    fprintf(stderr, "%s\n", err);
  }
  hnm_model_free(m);
  snprintf(path, sizeof path, "%s/models/good-routes.xml", HNM_TEST_DATA_DIR);

  /* A file spec with overrides. */
  snprintf(spec, sizeof spec, "%s:limiter=keep,async=none", path);
  m = spec_ok(spec, __LINE__);
  if (m != NULL) {
    CHECK_EQ(hnm_model_limiter_mode(m), HNM_LIMITER_KEEP);
    CHECK(hnm_model_async_max(m) == -1 && hnm_model_detached_max(m) == 65536);
  }
  hnm_model_free(m);

  /* No DOCTYPE, three route classes, no "any". */
  snprintf(path, sizeof path, "%s/models/good-no-doctype.xml", HNM_TEST_DATA_DIR);
  m = hnm_model_load(path, err, sizeof err);
  CHECK(m != NULL);
  if (m != NULL) {
    CHECK(hnm_model_async_max(m) == -1 && hnm_model_detached_max(m) == -1);
    CHECK(hnm_model_smpi_async_thresh(m) == 0 && hnm_model_smpi_detached_thresh(m) == 0);
    CHECK_EQ(hnm_model_limiter_mode(m), HNM_LIMITER_KEEP); /* no <limiter>: keep */
    CHECK_EQ(hnm_model_contention(m), HNM_CONTENTION_MAXMIN);
    CHECK_EQ(hnm_model_crosstraffic(m), HNM_CROSSTRAFFIC_SIMGRID);
    s = hnm_model_segment(m, HNM_ROUTE_SAME_HOST, 5);
    CHECK(s->latency_absolute && s->bandwidth_Bps == 8589934592.0);
    /* A zero route latency cannot be scaled: factor 1, loss reported. */
    {
      int lost = 0;
      CHECK(hnm_segment_lat_factor(s, 21, 0, &lost) == 1 && lost == 1);
      CHECK(hnm_segment_lat_factor(s, 21, -1, NULL) == 1);
    }
    CHECK(hnm_model_segment(m, HNM_ROUTE_SAME_ZONE, 100)->bw_factor == 1);
    CHECK(hnm_model_segment(m, HNM_ROUTE_SAME_ZONE, 101)->bw_factor == 0.9);
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 0)->lat_factor == 3);
  } else {
    fprintf(stderr, "%s\n", err);
  }
  hnm_model_free(m);

  /* Overrides on hybrid models. */
  m = spec_ok("graphene:limiter=off,async=none,detached=1MiB", __LINE__);
  if (m != NULL) {
    CHECK_EQ(hnm_model_limiter_mode(m), HNM_LIMITER_OFF);
    CHECK(hnm_model_async_max(m) == -1 && hnm_model_detached_max(m) == 1048576);
    CHECK(hnm_model_segment(m, HNM_ROUTE_REMOTE, 1421)->bw_factor == 0.80); /* table untouched */
  }
  hnm_model_free(m);
  m = spec_ok("smpi-default:async=1KiB", __LINE__);
  if (m != NULL)
    CHECK(hnm_model_smpi_async_thresh(m) == 1025 && hnm_model_smpi_detached_thresh(m) == 65536);
  hnm_model_free(m);
  m = spec_ok("fluid:detached=none", __LINE__);
  if (m != NULL)
    CHECK_EQ(hnm_model_smpi_detached_thresh(m), 0);
  hnm_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Bad files: the message names the file, the line and the attribute.  */

static void expect_load_error(const char *file, int line, const char *needle1, const char *needle2, int src_line)
{
  char path[4096], prefix[4200];
  char err[HNM_ERRLEN];
  hnm_model *m;
  int ok;

  snprintf(path, sizeof path, "%s/models/%s", HNM_TEST_DATA_DIR, file);
  snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
  strcpy(err, "(no message)");
  m = hnm_model_load(path, err, sizeof err);
  ok = m == NULL && strncmp(err, prefix, strlen(prefix)) == 0 && strstr(err, needle1) != NULL &&
       (needle2 == NULL || strstr(err, needle2) != NULL) && strchr(err, '\n') == NULL;
  check_at(ok, __FILE__, src_line, "loading %s: wanted \"%s...\" with \"%s\"%s%s%s, got: %s", file, prefix, needle1,
           needle2 != NULL ? " and \"" : "", needle2 != NULL ? needle2 : "", needle2 != NULL ? "\"" : "",
           m != NULL ? "(loaded!)" : err);
  hnm_model_free(m);
}

#define LOAD_ERR(file, line, n1, n2) expect_load_error(file, line, n1, n2, __LINE__)

static void test_bad_files(void)
{
  LOAD_ERR("malformed.xml", 6, "malformed XML", NULL);
  LOAD_ERR("unknown-element.xml", 7, "bogus-element", NULL);
  LOAD_ERR("unknown-attribute.xml", 7, "colour", NULL);
  LOAD_ERR("missing-upto.xml", 6, "upto", NULL);
  LOAD_ERR("bad-version.xml", 3, "version", NULL);
  LOAD_ERR("non-increasing.xml", 8, "segment attribute 'upto'", "not greater");
  LOAD_ERR("recv-per-route.xml", 14, "attribute 'recv-o'", "same for every route class");
  LOAD_ERR("upto-last-not-inf.xml", 7, "segment attribute 'upto'", "inf");
  LOAD_ERR("upto-inf-not-last.xml", 6, "segment attribute 'upto'", "last");
  LOAD_ERR("negative-latency.xml", 7, "segment attribute 'latency'", "negative");
  LOAD_ERR("negative-overhead.xml", 7, "segment attribute 'recv-per-byte'", "negative");
  LOAD_ERR("nan-factor.xml", 6, "segment attribute 'bw-factor'", "finite");
  LOAD_ERR("async-gt-detached.xml", 4, "protocol attribute 'async'", "async > detached");
  LOAD_ERR("async-detached-none.xml", 4, "protocol attribute 'detached'", "none");
  LOAD_ERR("both-latencies.xml", 6, "lat-factor", "latency");
  LOAD_ERR("no-bandwidth.xml", 7, "bw-factor", "bandwidth");
  LOAD_ERR("bandwidth-no-unit.xml", 6, "segment attribute 'bandwidth'", "Bps");
  LOAD_ERR("duplicate-route.xml", 11, "segments attribute 'route'", "remote");
  LOAD_ERR("missing-route.xml", 8, "segments attribute 'route'", "remote");
  LOAD_ERR("bad-limiter.xml", 5, "limiter attribute 'factor'", "> 0");
  LOAD_ERR("bad-update.xml", 5, "update", "lazy");
  LOAD_ERR("loggps-negative-latency.xml", 4, "loggps attribute 'G'", "L + s*(g-G)");
  LOAD_ERR("loggps-bad-size.xml", 6, "loggps attribute 'S'", "whole number");
  LOAD_ERR("pack-negative.xml", 7, "pack-cost attribute 'unpack-per-byte'", "negative");
  LOAD_ERR("pack-nan.xml", 8, "pack-cost attribute 'pack-c0'", "finite");
  LOAD_ERR("pack-missing.xml", 9, "pack-cost attribute 'pack-per-block'", "missing");
  LOAD_ERR("pack-range.xml", 7, "pack-cost attribute 'pack-per-byte'", "above");
  LOAD_ERR("residuals-table-unsorted.xml", 9, "residuals attribute 'size'", "not greater");
  LOAD_ERR("residuals-table-negative.xml", 8, "residuals attribute 'quantiles'", "quantile 1 '-0.5'");
  LOAD_ERR("residuals-table-outside.xml", 8, "residuals attribute 'size'", "outside its segment");
  LOAD_ERR("pack-missing-class.xml", 6, "pack attribute 'class'", "'compiled' has no <pack-cost> for class 'subarray'");
  LOAD_ERR("pack-use-absent.xml", 6, "pack attribute 'use'", "'compiled'");
  LOAD_ERR("pack-duplicate.xml", 8, "pack-cost attribute 'class'", "a second");

  /* A file that does not exist. */
  {
    char err[HNM_ERRLEN];
    hnm_model *m = hnm_model_load(HNM_TEST_DATA_DIR "/models/does-not-exist.xml", err, sizeof err);
    CHECK(m == NULL);
    CHECK(strstr(err, "does-not-exist.xml") != NULL);
    hnm_model_free(m);
  }
}

/* An error in a tag written over several lines names the
 * attribute's own line (libxml2 gives the element the line where its start
 * tag ends), and a kilobyte-long enumerated value does not push the
 * attribute's name out of the message. */
#define LINES_HEAD                                                                                      \
  "<?xml version=\"1.0\"?>\n<hnm-model name=\"t\" version=\"1\">\n"                                     \
  "<protocol async=\"none\" detached=\"none\"/>\n<segments>\n"

static void expect_text_error(const char *text, const char *want, int src_line)
{
  char err[HNM_ERRLEN] = "(no message)";
  hnm_model *m = hnm_model_load_memory("inline.xml", text, strlen(text), err, sizeof err);
  check_at(m == NULL && strncmp(err, want, strlen(want)) == 0, __FILE__, src_line, "wanted \"%s...\", got: %s", want,
           m != NULL ? "(loaded!)" : err);
  hnm_model_free(m);
}

static void test_attribute_lines(void)
{
  /* The segment's first, middle and last lines; a value holding "send-o=". */
  expect_text_error(LINES_HEAD "<segment upto=\"inf\" send-o=\"-1us\"\n lat-factor=\"1\"\n bw-factor=\"1\"/>\n"
                               "</segments>\n</hnm-model>\n",
                    "inline.xml:5: segment attribute 'send-o': ", __LINE__);
  expect_text_error(LINES_HEAD "<segment upto=\"inf\"\n lat-factor=\"1\"\n send-o=\"-1us\"\n bw-factor=\"1\"/>\n"
                               "</segments>\n</hnm-model>\n",
                    "inline.xml:7: segment attribute 'send-o': ", __LINE__);
  expect_text_error(LINES_HEAD "<segment upto=\"inf\"\n lat-factor=\"1\"\n bw-factor=\"1\" send-o=\"-1us\"\n/>\n"
                               "</segments>\n</hnm-model>\n",
                    "inline.xml:7: segment attribute 'send-o': ", __LINE__);
  /* Two segments on one line, the second spread over three. */
  expect_text_error(LINES_HEAD "<segment upto=\"8\" lat-factor=\"1\" bw-factor=\"1\"/><segment upto=\"inf\"\n"
                               " lat-factor=\"1\"\n bw-factor=\"-1\"/>\n</segments>\n</hnm-model>\n",
                    "inline.xml:7: segment attribute 'bw-factor': ", __LINE__);
  /* graphene.xml's layout: pack-c0 on the <pack-cost> tag's second line
   * (39 in the bundled file), the tag ending two lines below. */
  expect_text_error(LINES_HEAD "<segment upto=\"inf\" lat-factor=\"1\" bw-factor=\"1\"/>\n</segments>\n"
                               "<pack use=\"interpreted\">\n"
                               "<pack-cost style=\"interpreted\" class=\"vector\"\n"
                               "  pack-c0=\"1e300s\" pack-per-block=\"1ns\" pack-per-byte=\"1ps\"\n"
                               "  unpack-c0=\"0s\" unpack-per-block=\"1ns\" unpack-per-byte=\"1ps\"\n"
                               "  pack-per-jump=\"1ns\" unpack-per-jump=\"1ns\"/>\n"
                               "<pack-cost style=\"interpreted\" class=\"indexed\" pack-c0=\"0s\" pack-per-block=\"1ns\"\n"
                               " pack-per-byte=\"1ps\" unpack-c0=\"0s\" unpack-per-block=\"1ns\" unpack-per-byte=\"1ps\"/>\n"
                               "</pack>\n</hnm-model>\n",
                    "inline.xml:9: pack-cost attribute 'pack-c0': ", __LINE__);
  /* The DTD's errors too: a value outside its enumeration, an undeclared
   * attribute, each on the second of the tag's three lines. */
  expect_text_error("<?xml version=\"1.0\"?>\n<hnm-model name=\"t\" version=\"1\">\n"
                    "<protocol async=\"none\" detached=\"none\"/>\n<sharing crosstraffic=\"off\"\n"
                    " contention=\"some\"\n update=\"fixed\"/>\n<segments>\n"
                    "<segment upto=\"inf\" lat-factor=\"1\" bw-factor=\"1\"/>\n</segments>\n</hnm-model>\n",
                    "inline.xml:5: invalid model: Value \"some\" for attribute contention of sharing", __LINE__);
  expect_text_error(LINES_HEAD "<segment upto=\"inf\"\n colour=\"red\" lat-factor=\"1\"\n bw-factor=\"1\"/>\n"
                               "</segments>\n</hnm-model>\n",
                    "inline.xml:6: invalid model: No declaration for attribute colour of element segment", __LINE__);
  /* A value of 1000 characters in an enumerated attribute: cut to 40 and
   * "...", the attribute's name kept. */
  char text[4096], value[1001];
  memset(value, 'x', 1000);
  value[1000] = '\0';
  snprintf(text, sizeof text,
           "<?xml version=\"1.0\"?>\n<hnm-model name=\"t\" version=\"1\">\n"
           "<protocol async=\"none\" detached=\"none\"/>\n<sharing contention=\"%s\"/>\n<segments>\n"
           "<segment upto=\"inf\" lat-factor=\"1\" bw-factor=\"1\"/>\n</segments>\n</hnm-model>\n",
           value);
  char err[HNM_ERRLEN] = "";
  hnm_model *m = hnm_model_load_memory("inline.xml", text, strlen(text), err, sizeof err);
  CHECK(m == NULL);
  CHECK(strstr(err, "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\"") != NULL);
  CHECK(strstr(err, "contention") != NULL && strstr(err, "sharing") != NULL);
  if (strstr(err, "contention") == NULL)
    fprintf(stderr, "enumerated value: %s\n", err);
  hnm_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Bad specifications.                                                  */

static void expect_spec_error(const char *spec, const char *needle1, const char *needle2, int src_line)
{
  char err[HNM_ERRLEN];
  hnm_model *m;
  int ok;

  strcpy(err, "(no message)");
  m = hnm_model_parse_spec(spec, err, sizeof err);
  ok = m == NULL && strstr(err, needle1) != NULL && (needle2 == NULL || strstr(err, needle2) != NULL);
  check_at(ok, __FILE__, src_line, "spec \"%s\": wanted \"%s\"%s%s, got: %s", spec, needle1,
           needle2 != NULL ? " and " : "", needle2 != NULL ? needle2 : "", m != NULL ? "(accepted!)" : err);
  hnm_model_free(m);
}

static void test_bad_specs(void)
{
  /* Each specification, and what its one message must hold (needle2 NULL:
   * the first alone). */
  static const struct {
    const char *spec, *needle1, *needle2;
  } bad[] = {
    {"graphene:pack=fast", "key 'pack'", "not interpreted, compiled, manual or none"},
    {"fluid:pack=compiled", "key 'pack'", "no 'compiled' pack costs"},
    {"graphene:pack=none,pack=compiled", "key 'pack'", "given twice"},
    {"hyrbid", "unknown model 'hyrbid'", "graphene, smpi-default, smpi-fixed, fluid, loggps"},
    {"", "--model", "empty"},
    {":async=1", "--model", "missing model name"},
    {"graphene:latency=5us", "--model: key 'latency'", "unknown key"},
    {"loggps:L=abc", "--model: key 'L'", "not a number"},
    {"loggps:L=fast", "--model: key 'L'", NULL},
    {"loggps:L=-1us", "--model: key 'L'", "negative"},
    {"loggps:S=1.5", "--model: key 'S'", "whole number"},
    {"loggps:g=nan", "--model: key 'g'", "finite"},
    {"graphene:L=5us", "--model: key 'L'", "loggps"},
    {"graphene:async=1MiB", "--model: key 'async'", "async > detached"},
    {"graphene:detached=none", "--model: key 'detached'", "none"},
    {"graphene:detached=1KiB", "--model: key 'detached'", "async > detached"},
    {"loggps:S=1MiB,async=2MiB", "--model: key 'async'", "async > detached"},
    {"loggps:G=1us,s=1000", "--model: key 'G'", "L + s*(g-G)"},
    {"graphene:async", "--model: key 'async'", "missing '='"},
    {"graphene:async=", "--model: key 'async'", "empty value"},
    {"graphene:async=1KiB,async=2KiB", "--model: key 'async'", "twice"},
    {"graphene:async=1KiB,", "--model", "empty"},
    {"graphene:", "--model", "empty"},
    {"graphene:limiter=0", "--model: key 'limiter'", "> 0"},
    {"graphene:limiter=fast", "--model: key 'limiter'", NULL},
    {"graphene:async=-1", "--model: key 'async'", "negative"},
    {"graphene:async=1b", "--model: key 'async'", "whole number"},
    {"graphene:=5", "--model", "empty key"},
    {"/nonexistent/nope.xml", "nope.xml", NULL},
    {HNM_TEST_DATA_DIR "/models/negative-latency.xml:async=none", "negative-latency.xml:7:", "latency"},
    {"loggps:ports=dual", "--model: key 'ports'", "single, duplex or multi"},
    {"loggps:ports=", "--model: key 'ports'", "empty value"},
    {"loggps:gap=-1us", "--model: key 'gap'", "negative"},
    {"loggps:ports=multi,gap=1us", "--model: key 'gap'", "ports=single or duplex"},
    {"loggps:gap=1us,ports=multi", "--model: key 'gap'", "ports=single or duplex"},
    {"graphene:ports=single", "--model: key 'ports'", "loggps"},
    {"fluid:gap=1us", "--model: key 'gap'", "loggps"},
    /* stochastic and seed (test_stochastic). */
    {"graphene:stochastic=on", "--model: key 'stochastic'", "no segment has residuals"},
    {"loggps:stochastic=on", "--model: key 'stochastic'", "LogGPS"},
    {"graphene:stochastic=yes", "--model: key 'stochastic'", "on or off"},
    {"graphene:seed=1.5", "--model: key 'seed'", "whole number"},
    {"graphene:seed=", "--model: key 'seed'", "empty value"},
    /* Whole numbers a double cannot hold are refused, not
     * rounded (2^53 + 1 reads as 2^53), and 2^64 is out of range. */
    {"graphene:detached=9007199254740993", "--model: key 'detached'",
     "'9007199254740993' is too large (at most 9007199254740992 bytes)"},
    {"graphene:detached=99999999999999999999999", "--model: key 'detached'", "too large"},
    {"loggps:S=1.0000000000000001", "--model: key 'S'", "'1.0000000000000001' is not a whole number of bytes"},
    {"graphene:seed=18446744073709551616", "--model: key 'seed'",
     "'18446744073709551616' is out of range (a whole number from 0 to 18446744073709551615)"},
    {"graphene:seed=18446744073709551615x", "--model: key 'seed'", "is not a whole number"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    expect_spec_error(bad[i].spec, bad[i].needle1, bad[i].needle2, __LINE__);
}

/* Ports and gap: parsed, defaulted, and the port rule on messages worked by
 * hand (hnm_ports.h): L = 5 us, o = 1 us, W(k) = k x 1 ns (g = G), S = 64 KiB. */
static void test_ports(void)
{
  char err[HNM_ERRLEN];
  struct hnm_loggps lg;
  struct hnm_phases ph;
  struct hnm_node_ports a = {{0, 0}}, b = {{0, 0}}, c = {{0, 0}};
  hnm_model *m = hnm_model_parse_spec("loggps", err, sizeof err);

  CHECK(m != NULL && hnm_model_loggps(m, &lg) == 1);
  CHECK(m != NULL && lg.ports == HNM_PORTS_SINGLE && lg.gap == 0);
  hnm_model_free(m);
  m = hnm_model_parse_spec("loggps:ports=duplex,gap=2.5us,L=5us,o=1us,g=1ns,G=1ns,Os=0,Or=0", err, sizeof err);
  CHECK(m != NULL && hnm_model_loggps(m, &lg) == 1);
  CHECK(m != NULL && lg.ports == HNM_PORTS_DUPLEX);
  NEAR(lg.gap, 2.5e-6);
  hnm_model_free(m);
  m = hnm_model_parse_spec("graphene", err, sizeof err);
  CHECK(m != NULL && hnm_model_loggps(m, &lg) == 0);
  /* Max-min models keep SimGrid's selective update (Lazy): mended by the
   * plugin (docs/lazy-bug), except smpi-default's, which is SimGrid's own. */
  CHECK(m != NULL && hnm_model_needs_full_update(m) == 0);
  CHECK(m != NULL && hnm_model_update(m) == HNM_UPDATE_FIXED);
  hnm_model_free(m);
  m = hnm_model_parse_spec("fluid", err, sizeof err);
  CHECK(m != NULL && hnm_model_needs_full_update(m) == 0 && hnm_model_update(m) == HNM_UPDATE_FIXED);
  hnm_model_free(m);
  m = hnm_model_parse_spec("smpi-default", err, sizeof err);
  CHECK(m != NULL && hnm_model_needs_full_update(m) == 0 && hnm_model_update(m) == HNM_UPDATE_SIMGRID);
  hnm_model_free(m);
  m = hnm_model_parse_spec("smpi-default:limiter=1", err, sizeof err);
  CHECK(m != NULL && hnm_model_needs_full_update(m) == 0 && hnm_model_update(m) == HNM_UPDATE_SIMGRID);
  hnm_model_free(m);
  m = hnm_model_parse_spec("smpi-fixed", err, sizeof err);
  CHECK(m != NULL && hnm_model_needs_full_update(m) == 0 && hnm_model_update(m) == HNM_UPDATE_FIXED);
  hnm_model_free(m);
  m = hnm_model_parse_spec("loggps", err, sizeof err);
  CHECK(m != NULL && hnm_model_needs_full_update(m) == 1); /* port order of same-instant transfers */
  hnm_model_free(m);

  /* Phases: eager 1000 B: head 0, W 1 us, wire 5 us, rest 0. Rendez-vous
   * 100000 B with Os = 0.1 ns, Or = 0.2 ns: head 2L + 5o + k Os = 25 us
   * (24 us from MPI_Isend), rest o + k Or = 21 us. */
  lg = (struct hnm_loggps){5e-6, 1e-6, 1e-9, 1e-9, 0, 65536, 0.1e-9, 0.2e-9, 0, HNM_PORTS_SINGLE, 0};
  hnm_loggps_phases(&lg, 1000, 0, &ph);
  NEAR(ph.port_s, 1e-6);
  NEAR(ph.wire_s, 5e-6);
  CHECK(ph.head_s == 0 && ph.rest_s == 0);
  hnm_loggps_phases(&lg, 100000, 0, &ph);
  NEAR(ph.head_s, 25e-6);
  NEAR(ph.port_s, 100e-6);
  NEAR(ph.rest_s, 21e-6);
  hnm_loggps_phases(&lg, 100000, 1, &ph);
  NEAR(ph.head_s, 24e-6);
  lg.s = 1000; lg.G = 0.5e-9; /* W = s g + (k - s) G */
  hnm_loggps_phases(&lg, 3000, 0, &ph);
  NEAR(ph.port_s, 1000 * 1e-9 + 2000 * 0.5e-9);
  lg.s = 0; lg.G = 1e-9;

  /* single: a -> b at 0 (ports of a and b 0..1 us, delivered 6 us), then
   * b -> c at 0.5 us waits for b's port: leaves 1 us (b, c busy to 2 us),
   * delivered 7 us, 6.5 us after it started; c -> a at 0 waits for c: leaves
   * 2 us, delivered 8 us; a and c busy to 3 us. */
  hnm_loggps_phases(&lg, 1000, 0, &ph);
  NEAR(hnm_ports_transfer(&lg, &a, &b, 0, &ph), 6e-6);
  NEAR(hnm_ports_transfer(&lg, &b, &c, 0.5e-6, &ph), 6.5e-6);
  NEAR(hnm_ports_transfer(&lg, &c, &a, 0, &ph), 8e-6);
  NEAR(a.free_at[0], 3e-6);
  NEAR(c.free_at[0], 3e-6);
  /* duplex: two messages into one node at 0 from different senders: the
   * second enters the receive port at 6 us: delivered 7 us. The send port
   * of a is free for a third message at once: delivered 6 us. */
  lg.ports = HNM_PORTS_DUPLEX;
  a = b = c = (struct hnm_node_ports){{0, 0}};
  NEAR(hnm_ports_transfer(&lg, &a, &c, 0, &ph), 6e-6);
  NEAR(hnm_ports_transfer(&lg, &b, &c, 0, &ph), 7e-6);
  NEAR(hnm_ports_transfer(&lg, &c, &a, 0, &ph), 6e-6);
  /* gap 2.5 us > W: a second message from a leaves at 2.5 us. */
  lg.gap = 2.5e-6;
  a = b = (struct hnm_node_ports){{0, 0}};
  NEAR(hnm_ports_transfer(&lg, &a, &b, 0, &ph), 6e-6);
  NEAR(hnm_ports_transfer(&lg, &a, &b, 0, &ph), 8.5e-6);
  /* multi: no port: always head + L + W + rest. */
  lg.ports = HNM_PORTS_MULTI;
  lg.gap = 0;
  NEAR(hnm_ports_transfer(&lg, NULL, NULL, 0.5e-6, &ph), 6e-6);
  CHECK(strcmp(hnm_ports_name(HNM_PORTS_DUPLEX), "duplex") == 0);
}


/* ------------------------------------------------------------------ */
/* Stochastic mode: residuals, draws, their closed forms.               */

static hnm_model *load_text(const char *text, char *err, size_t errlen)
{
  return hnm_model_load_memory("inline.xml", text, strlen(text), err, errlen);
}

#define STOCH_HEAD                                                                          \
  "<?xml version=\"1.0\"?>\n<hnm-model name=\"s\" version=\"1\"%s>\n"                       \
  "<protocol async=\"none\" detached=\"none\"/>\n<segments route=\"any\">\n"

static void expect_residual_error(const char *root_attrs, const char *residuals, const char *needle, int line)
{
  char text[2048];
  char err[HNM_ERRLEN];
  snprintf(text, sizeof text,
           STOCH_HEAD "<segment upto=\"inf\" lat-factor=\"1\" bw-factor=\"1\"%s%s%s/>\n</segments>\n</hnm-model>\n",
           root_attrs, residuals ? " residuals=\"" : "", residuals ? residuals : "", residuals ? "\"" : "");
  strcpy(err, "(no message)");
  hnm_model *m = load_text(text, err, sizeof err);
  check_at(m == NULL && strstr(err, needle) != NULL, __FILE__, line,
           "residuals \"%s\" (root%s): wanted \"%s\", got: %s", residuals ? residuals : "(none)", root_attrs, needle,
           m != NULL ? "(accepted!)" : err);
  hnm_model_free(m);
}

static void test_stochastic(void)
{
  char path[4096];
  char err[HNM_ERRLEN];
  snprintf(path, sizeof path, "%s/models/stochastic.xml", HNM_TEST_DATA_DIR);
  hnm_model *m = hnm_model_load(path, err, sizeof err);
  CHECK(m != NULL);
  if (m == NULL) {
    fprintf(stderr, "%s\n", err);
    return;
  }
  CHECK_EQ(hnm_model_stochastic(m), 0); /* off by default */
  CHECK_EQ(hnm_model_seed(m), 1);
  const struct hnm_segment *s = hnm_model_segment(m, HNM_ROUTE_REMOTE, 1000);
  CHECK(s->nresiduals == 5);
  static const double q[5] = {0.5, 0.8, 1, 1.1, 2};
  for (size_t i = 0; i < 5 && s->nresiduals == 5; i++)
    CHECK(s->residuals[i] == q[i]);
  /* The inverse distribution function: quantile i at u = i/4, linear between. */
  CHECK_EQ(hnm_segment_residual(s, 0), 0.5);
  CHECK(fabs(hnm_segment_residual(s, 0.125) - 0.65) < 1e-15);
  CHECK_EQ(hnm_segment_residual(s, 0.5), 1);
  CHECK(fabs(hnm_segment_residual(s, 0.875) - 1.55) < 1e-15);
  CHECK_EQ(hnm_segment_residual(s, 1), 2);
  /* Mean: the trapezoids, (0.65 + 0.9 + 1.05 + 1.55) / 4; second moment
   * sum (a^2 + ab + b^2) / 3 / 4. */
  double mean = (0.65 + 0.9 + 1.05 + 1.55) / 4;
  double m2 = ((0.25 + 0.4 + 0.64) + (0.64 + 0.8 + 1) + (1 + 1.1 + 1.21) + (1.21 + 2.2 + 4)) / 3 / 4;
  CHECK(fabs(hnm_segment_residual_mean(s) - mean) < 1e-15);
  CHECK(fabs(hnm_segment_residual_variance(s) - (m2 - mean * mean)) < 1e-15);
  /* The draws: in [0, 1), a function of (seed, n), uniform; the residuals
   * they give have the closed-form mean (4 standard errors). */
  double sum_u = 0, sum_r = 0;
  int in_range = 1, repeatable = 1;
  const long n = 200000;
  for (long i = 0; i < n; i++) {
    double u = hnm_random_uniform(7, (unsigned long long)i);
    in_range &= u >= 0 && u < 1;
    repeatable &= u == hnm_random_uniform(7, (unsigned long long)i);
    sum_u += u;
    sum_r += hnm_segment_residual(s, u);
  }
  CHECK(in_range);
  CHECK(repeatable);
  CHECK(fabs(sum_u / n - 0.5) < 4 * sqrt(1.0 / 12 / n));
  CHECK(fabs(sum_r / n - mean) < 4 * sqrt(hnm_segment_residual_variance(s) / n));
  CHECK(hnm_random_uniform(7, 0) != hnm_random_uniform(8, 0));
  CHECK(hnm_random_uniform(7, 0) != hnm_random_uniform(7, 1));
  /* The wire multiplier: rho x (over + wire) = over + w x wire, clamped. */
  double w = hnm_wire_multiplier(1.5, 8e-6, 28e-6);
  CHECK(fabs(8e-6 + w * 28e-6 - 1.5 * 36e-6) < 1e-18);
  CHECK_EQ(hnm_wire_multiplier(0.1, 8e-6, 28e-6), HNM_MIN_WIRE_MULTIPLIER);
  CHECK_EQ(hnm_wire_multiplier(1, 8e-6, 28e-6), 1);

  /* Written and read back: the quantiles, stochastic, the seed. */
  hnm_model *on = hnm_model_parse_spec(strcat(path, ":stochastic=on,seed=42"), err, sizeof err);
  CHECK(on != NULL && hnm_model_stochastic(on) == 1 && hnm_model_seed(on) == 42);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CHECK(on != NULL && f != NULL && hnm_model_write(on, f, err, sizeof err) == 0);
  if (f != NULL)
    fclose(f);
  hnm_model *back = text != NULL ? hnm_model_load_memory("back.xml", text, len, err, sizeof err) : NULL;
  CHECK(back != NULL && hnm_model_stochastic(back) == 1 && hnm_model_seed(back) == 42);
  const struct hnm_segment *b = back != NULL ? hnm_model_segment(back, HNM_ROUTE_REMOTE, 1000) : NULL;
  CHECK(b != NULL && b->nresiduals == 5 && b->residuals[1] == 0.8 && b->residuals[4] == 2);
  free(text);
  hnm_model_free(back);
  hnm_model_free(on);
  /* hnm_model_new copies the caller's residuals. */
  {
    double r[3] = {0.9, 1, 1.3};
    struct hnm_segment seg = {.upto = INFINITY, .lat_factor = 1, .bw_factor = 1, .nresiduals = 3, .residuals = r};
    struct hnm_model_desc d = {.name = "n", .async_max = -1, .detached_max = -1, .limiter = HNM_LIMITER_KEEP,
                               .contention = HNM_CONTENTION_MAXMIN, .crosstraffic = HNM_CROSSTRAFFIC_SIMGRID,
                               .segments = &seg, .nsegments = 1};
    hnm_model *nm = hnm_model_new(&d, err, sizeof err);
    r[1] = 7; /* the model has its own copy */
    const struct hnm_segment *ns = nm != NULL ? hnm_model_segment(nm, HNM_ROUTE_REMOTE, 1) : NULL;
    CHECK(ns != NULL && ns->nresiduals == 3 && ns->residuals[1] == 1 && ns->residuals[2] == 1.3);
    hnm_model_free(nm);
  }
  hnm_model_free(m);

  /* Refused in files. */
  expect_residual_error("", "1", "at least 2", __LINE__);
  expect_residual_error("", "", "at least 2", __LINE__);
  expect_residual_error("", "1 0.9", "nondecreasing", __LINE__);
  expect_residual_error("", "0.9 abc", "quantile 2 'abc'", __LINE__);
  expect_residual_error("", "0 1", "quantile 1 '0'", __LINE__);
  expect_residual_error("", "1 nan", "quantile 2", __LINE__);
  expect_residual_error(" stochastic=\"on\"", NULL, "no segment has residuals", __LINE__);
  expect_residual_error(" seed=\"-3\"", "1 2", "hnm-model attribute 'seed'", __LINE__);
  expect_residual_error(" seed=\"18446744073709551616\"", "1 2", "hnm-model attribute 'seed'", __LINE__);
  /* In specifications: the table of test_bad_specs. */
}

/* ------------------------------------------------------------------ */
/* Per-size residual tables: the lookup rule, closed forms, refusals.   */

#define TABLES_HEAD                                                                                   \
  "<?xml version=\"1.0\"?>\n<hnm-model name=\"t\" version=\"1\"%s>\n<protocol async=\"none\" detached=\"none\"/>\n" \
  "<segments route=\"any\">\n<segment upto=\"10\" lat-factor=\"1\" bw-factor=\"1\"/>\n"

/* CHILDREN (one <residuals> a line, or anything) in a segment 10 < k <=
 * 1000 on line 6, so that the I-th child is on line 6 + I: refused with an
 * error holding "inline.xml:LINE: " and NEEDLE. */
static void expect_table_error(const char *children, int line, const char *needle, int src_line)
{
  size_t len = strlen(children) + 1024;
  char *text = malloc(len);
  char err[HNM_ERRLEN], where[64];
  snprintf(text, len,
           TABLES_HEAD "<segment upto=\"1000\" lat-factor=\"1\" bw-factor=\"1\" residuals=\"1 2\">\n%s</segment>\n"
                       "<segment upto=\"inf\" lat-factor=\"1\" bw-factor=\"1\"/>\n</segments>\n</hnm-model>\n",
           "", children);
  snprintf(where, sizeof where, "inline.xml:%d: ", line);
  strcpy(err, "(no message)");
  hnm_model *m = load_text(text, err, sizeof err);
  check_at(m == NULL && strstr(err, where) != NULL && strstr(err, needle) != NULL && strchr(err, '\n') == NULL,
           __FILE__, src_line, "tables \"%.60s\": wanted \"%s\" and \"%s\", got: %s", children, where, needle,
           m != NULL ? "(accepted!)" : err);
  hnm_model_free(m);
  free(text);
}

static void test_residual_tables(void)
{
  char err[HNM_ERRLEN];
  /* Segment 1 (k <= 50): pooled residuals only. Segment 2 (50 < k <=
   * 10000): tables at 100, 400, 1600 B, whose boundaries are the geometric
   * means sqrt(100 x 400) = 200 and sqrt(400 x 1600) = 800 B. Segment 3:
   * one table and no pooled residuals. */
  static const char text[] =
    "<?xml version=\"1.0\"?>\n<hnm-model name=\"t\" version=\"1\" stochastic=\"on\">\n"
    "<protocol async=\"none\" detached=\"none\"/>\n<segments route=\"any\">\n"
    "<segment upto=\"50\" lat-factor=\"1\" bw-factor=\"1\" residuals=\"0.5 0.7 0.8\"/>\n"
    "<segment upto=\"10000\" lat-factor=\"1\" bw-factor=\"1\" residuals=\"0.5 0.6\">\n"
    "<residuals size=\"100\" quantiles=\"1 2\"/>\n<residuals size=\"400\" quantiles=\"3 4 6\"/>\n"
    "<residuals size=\"1600\" quantiles=\"5 5\"/>\n</segment>\n"
    "<segment upto=\"inf\" lat-factor=\"1\" bw-factor=\"1\">\n<residuals size=\"20000\" quantiles=\"7 8\"/>\n"
    "</segment>\n</segments>\n</hnm-model>\n";
  hnm_model *m = load_text(text, err, sizeof err);
  CHECK(m != NULL);
  if (m == NULL) {
    fprintf(stderr, "%s\n", err);
    return;
  }
  CHECK_EQ(hnm_model_stochastic(m), 1); /* tables alone are residuals enough */
  const struct hnm_segment *s1 = hnm_model_segment(m, HNM_ROUTE_REMOTE, 50);
  const struct hnm_segment *s2 = hnm_model_segment(m, HNM_ROUTE_REMOTE, 51);
  const struct hnm_segment *s3 = hnm_model_segment(m, HNM_ROUTE_REMOTE, 10001);
  CHECK(s1 != s2 && s2 != s3);
  CHECK_EQ(s1->nsized, 0);
  CHECK(s1->sized == NULL);
  CHECK(hnm_segment_residual_table(s1, 50) == NULL);
  /* Without tables, exactly the segment's draw (bit for bit). */
  for (int i = 0; i <= 20; i++) {
    double u = i / 20.0;
    CHECK_EQ(hnm_segment_residual_at(s1, 50, u), hnm_segment_residual(s1, u));
  }
  CHECK_EQ(s2->nsized, 3);
  CHECK_EQ(s2->sized[0].upto, 200);
  CHECK_EQ(s2->sized[1].upto, 800);
  CHECK(isinf(s2->sized[2].upto));
  /* The nearest table in log scale; the boundaries and their neighbours. */
  static const struct {
    double k, size;
  } near[] = {{51, 100}, {99, 100}, {100, 100}, {101, 100}, {199, 100}, {200, 100}, {201, 400}, {399, 400},
              {400, 400}, {401, 400}, {799, 400}, {800, 400}, {801, 1600}, {1600, 1600}, {10000, 1600}};
  for (size_t i = 0; i < sizeof near / sizeof near[0]; i++) {
    const struct hnm_residual_table *t = hnm_segment_residual_table(s2, near[i].k);
    check_at(t != NULL && t->size == near[i].size, __FILE__, __LINE__, "a message of %g B draws from the table at %g B, "
             "want %g B", near[i].k, t != NULL ? t->size : -1, near[i].size);
  }
  /* A tabulated size draws exactly its table's quantiles: q_i + (u (n-1) -
   * i)(q_i+1 - q_i). */
  CHECK_EQ(hnm_segment_residual_at(s2, 100, 0), 1);
  CHECK_EQ(hnm_segment_residual_at(s2, 100, 0.25), 1.25);
  CHECK_EQ(hnm_segment_residual_at(s2, 100, 1), 2);
  CHECK_EQ(hnm_segment_residual_at(s2, 200, 0.75), 1.75);
  CHECK_EQ(hnm_segment_residual_at(s2, 201, 0.25), 3.5);
  CHECK_EQ(hnm_segment_residual_at(s2, 400, 0.75), 5);
  CHECK_EQ(hnm_segment_residual_at(s2, 800, 1), 6);
  CHECK_EQ(hnm_segment_residual_at(s2, 801, 0.3), 5);
  CHECK_EQ(hnm_segment_residual_at(s3, 10001, 0.5), 7.5);
  CHECK_EQ(hnm_segment_residual_at(s3, 1e12, 1), 8);
  CHECK_EQ(hnm_segment_residual(s3, 0.5), 1); /* its own: none */

  /* Written and read back: the sizes, the quantiles, the boundaries. */
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  CHECK(f != NULL && hnm_model_write(m, f, err, sizeof err) == 0);
  if (f != NULL)
    fclose(f);
  hnm_model *back = out != NULL ? hnm_model_load_memory("back.xml", out, len, err, sizeof err) : NULL;
  CHECK(back != NULL);
  const struct hnm_segment *b2 = back != NULL ? hnm_model_segment(back, HNM_ROUTE_REMOTE, 51) : NULL;
  CHECK(b2 != NULL && b2->nsized == 3 && b2->sized[1].size == 400 && b2->sized[1].n == 3 && b2->sized[1].q[2] == 6 &&
        b2->sized[0].upto == 200 && b2->nresiduals == 2);
  const struct hnm_segment *b1 = back != NULL ? hnm_model_segment(back, HNM_ROUTE_REMOTE, 1) : NULL;
  CHECK(b1 != NULL && b1->nsized == 0 && b1->nresiduals == 3);
  free(out);
  hnm_model_free(back);
  hnm_model_free(m);

  /* hnm_model_new copies the caller's tables. */
  {
    double q0[2] = {0.9, 1.1}, q1[3] = {1, 2, 3};
    struct hnm_residual_table t[2] = {{.size = 8, .n = 2, .q = q0}, {.size = 32, .n = 3, .q = q1}};
    struct hnm_segment seg = {.upto = INFINITY, .lat_factor = 1, .bw_factor = 1, .nsized = 2, .sized = t};
    struct hnm_model_desc d = {.name = "n", .async_max = -1, .detached_max = -1, .limiter = HNM_LIMITER_KEEP,
                               .contention = HNM_CONTENTION_MAXMIN, .crosstraffic = HNM_CROSSTRAFFIC_SIMGRID,
                               .segments = &seg, .nsegments = 1};
    hnm_model *nm = hnm_model_new(&d, err, sizeof err);
    q1[1] = 7; /* the model has its own copy */
    const struct hnm_segment *ns = nm != NULL ? hnm_model_segment(nm, HNM_ROUTE_REMOTE, 1) : NULL;
    CHECK(ns != NULL && ns->nsized == 2 && ns->sized[1].q[1] == 2 && ns->sized[0].upto == 16);
    CHECK(ns != NULL && hnm_segment_residual_at(ns, 16, 0.5) == 1.0 && hnm_segment_residual_at(ns, 17, 0.5) == 2);
    hnm_model_free(nm);
  }

  /* Refused: file, line, field. */
  expect_table_error("<residuals size=\"100\" quantiles=\"1\"/>\n", 7, "residuals attribute 'quantiles'", __LINE__);
  expect_table_error("<residuals size=\"100\" quantiles=\"1\"/>\n", 7, "at least 2", __LINE__);
  expect_table_error("<residuals size=\"100\" quantiles=\"1 2\"/>\n<residuals size=\"200\" quantiles=\"2 1\"/>\n", 8,
                     "nondecreasing", __LINE__);
  expect_table_error("<residuals size=\"100\" quantiles=\"1 nan\"/>\n", 7, "quantile 2 'nan'", __LINE__);
  expect_table_error("<residuals size=\"100\" quantiles=\"-1 2\"/>\n", 7, "quantile 1 '-1'", __LINE__);
  expect_table_error("<residuals size=\"100\" quantiles=\"0 1\"/>\n", 7, "quantile 1 '0'", __LINE__);
  expect_table_error("<residuals size=\"100\" quantiles=\"1 2e6\"/>\n", 7, "quantile 2 '2e6'", __LINE__);
  expect_table_error("<residuals size=\"100\" quantiles=\"1 2\"/>\n<residuals size=\"100\" quantiles=\"1 2\"/>\n", 8,
                     "residuals attribute 'size': 100 bytes is not greater", __LINE__);
  expect_table_error("<residuals size=\"200\" quantiles=\"1 2\"/>\n<residuals size=\"100\" quantiles=\"1 2\"/>\n", 8,
                     "residuals attribute 'size': 100 bytes is not greater", __LINE__);
  expect_table_error("<residuals size=\"1001\" quantiles=\"1 2\"/>\n", 7, "outside its segment (10 < k <= 1000", __LINE__);
  expect_table_error("<residuals size=\"10\" quantiles=\"1 2\"/>\n", 7, "outside its segment", __LINE__);
  expect_table_error("<residuals size=\"1000\" quantiles=\"1 2\"/>\n<residuals size=\"abc\" quantiles=\"1 2\"/>\n", 8,
                     "residuals attribute 'size'", __LINE__);
  expect_table_error("<residuals size=\"-5\" quantiles=\"1 2\"/>\n", 7, "residuals attribute 'size'", __LINE__);
  expect_table_error("<residuals size=\"50.5\" quantiles=\"1 2\"/>\n", 7, "residuals attribute 'size'", __LINE__);
  expect_table_error("<residuals quantiles=\"1 2\"/>\n", 7, "size", __LINE__);
  expect_table_error("<residuals size=\"100\"/>\n", 7, "quantiles", __LINE__);
  expect_table_error("<residuals size=\"100\" quantiles=\"1 2\" colour=\"red\"/>\n", 7, "colour", __LINE__);
  {
    /* Too many quantiles (1002) and too many tables (4097). */
    char *big = malloc(1002 * 2 + 100);
    strcpy(big, "<residuals size=\"100\" quantiles=\"");
    for (int i = 0; i < 1002; i++)
      strcat(big, i ? " 1" : "1");
    strcat(big, "\"/>\n");
    expect_table_error(big, 7, "more than 1001 quantiles", __LINE__);
    free(big);
    char *many = malloc((HNM_MAX_RESIDUAL_TABLES + 1) * 48 + 1);
    size_t used = 0;
    for (int i = 0; i <= HNM_MAX_RESIDUAL_TABLES; i++)
      used += (size_t)sprintf(many + used, "<residuals size=\"%d\" quantiles=\"1 2\"/>\n", 11 + i % 900);
    expect_table_error(many, 7 + HNM_MAX_RESIDUAL_TABLES, "more than 4096 residual tables", __LINE__);
    free(many);
  }
}

int main(void)
{
  test_bundled_all();
  test_smpi_default();
  test_graphene();
  test_fluid();
  test_loggps();
  test_pack();
  test_good_files();
  test_bad_files();
  test_attribute_lines();
  test_bad_specs();
  test_ports();
  test_stochastic();
  test_residual_tables();
  return check_finish();
}
