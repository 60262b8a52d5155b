/* test_model_write.c -- hnm_model_write() (libxml2's xmlTextWriter) and
 * hnm_model_new(): every bundled model written and loaded back gives the
 * same model to the last bit; names and descriptions with XML's special
 * characters survive (escaped by libxml2); a model the loader would refuse
 * is refused by hnm_model_new(). */
#define _GNU_SOURCE
#include "check.h"
#include "hnm_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hnm_model *round_trip(const hnm_model *m)
{
  char *text = NULL;
  size_t len = 0;
  char err[HNM_ERRLEN];
  FILE *f = open_memstream(&text, &len);
  int rc = hnm_model_write(m, f, err, sizeof err);
  fclose(f);
  hnm_model *back = rc == 0 ? hnm_model_load_memory("round-trip", text, len, err, sizeof err) : NULL;
  if (back == NULL)
    fprintf(stderr, "round trip of %s: %s\n%s", hnm_model_name(m), err, text ? text : "");
  free(text);
  return back;
}

static int same_segments(const hnm_model *a, const hnm_model *b)
{
  for (int c = 0; c < HNM_ROUTE_CLASSES; c++) {
    size_t na, nb;
    const struct hnm_segment *sa = hnm_model_segments(a, (enum hnm_route_class)c, &na);
    const struct hnm_segment *sb = hnm_model_segments(b, (enum hnm_route_class)c, &nb);
    if (na != nb || (na > 0 && memcmp(sa, sb, na * sizeof *sa) != 0))
      return 0;
  }
  return 1;
}

int main(void)
{
  const char *bundled[] = {"graphene", "graphene:pack=compiled", "graphene:pack=none", "smpi-default", "smpi-fixed", "fluid", "loggps", "loggps:L=5us,o=1.5us,S=64KiB",
                           "graphene:limiter=1.2,async=1000", "loggps:ports=duplex,gap=2.5us"};
  for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
    char err[HNM_ERRLEN];
    hnm_model *m = hnm_model_parse_spec(bundled[i], err, sizeof err);
    CHECK(m != NULL);
    if (m == NULL)
      continue;
    hnm_model *b = round_trip(m);
    CHECK(b != NULL);
    if (b != NULL) {
      CHECK(strcmp(hnm_model_name(m), hnm_model_name(b)) == 0);
      CHECK_EQ(hnm_model_async_max(m), hnm_model_async_max(b));
      CHECK_EQ(hnm_model_detached_max(m), hnm_model_detached_max(b));
      CHECK_EQ(hnm_model_limiter_mode(m), hnm_model_limiter_mode(b));
      CHECK_EQ(hnm_model_limiter_factor(m), hnm_model_limiter_factor(b));
      CHECK_EQ(hnm_model_contention(m), hnm_model_contention(b));
      CHECK_EQ(hnm_model_crosstraffic(m), hnm_model_crosstraffic(b));
      CHECK_EQ(hnm_model_update(m), hnm_model_update(b));
      CHECK(same_segments(m, b));
      const struct hnm_pack_model *pm = hnm_model_pack(m), *pb = hnm_model_pack(b);
      CHECK((pm == NULL) == (pb == NULL));
      if (pm != NULL && pb != NULL)
        CHECK(pm->use == pb->use && memcmp(pm->present, pb->present, sizeof pm->present) == 0 &&
              memcmp(pm->cost, pb->cost, sizeof pm->cost) == 0);
      struct hnm_loggps lm, lb;
      int im = hnm_model_loggps(m, &lm), ib = hnm_model_loggps(b, &lb);
      CHECK_EQ(im, ib);
      if (im && ib)
        CHECK(lm.ports == lb.ports && lm.gap == lb.gap);
      hnm_model_free(b);
    }
    hnm_model_free(m);
  }

  /* Built in memory: two segments, XML's special characters in the texts. */
  struct hnm_segment seg[2] = {
    {.upto = 1420, .latency_absolute = 1, .latency_s = 2e-6, .lat_factor = 1, .bandwidth_absolute = 1,
     .bandwidth_Bps = 1.25e9, .bw_factor = 1, .send_o = 1e-6, .send_O = 1e-10},
    {.upto = INFINITY, .lat_factor = 1.5, .bw_factor = 0.9}};
  struct hnm_model_desc d = {"a<b>&\"c'", "x < y && z > \"w\"", 1420, 65536, HNM_LIMITER_FACTOR, 1.5,
                             HNM_CONTENTION_MAXMIN, HNM_CROSSTRAFFIC_OFF, NULL, seg, 2, NULL, HNM_UPDATE_FIXED, NULL};
  char err[HNM_ERRLEN];
  hnm_model *m = hnm_model_new(&d, err, sizeof err);
  CHECK(m != NULL);
  if (m != NULL) {
    size_t n;
    const struct hnm_segment *s = hnm_model_segments(m, HNM_ROUTE_REMOTE, &n);
    CHECK(strcmp(hnm_model_name(m), "a<b>&\"c'") == 0);
    CHECK(n == 2 && s[0].upto == 1420 && s[0].latency_s == 2e-6 && s[0].bandwidth_Bps == 1.25e9);
    CHECK(s[0].send_o == 1e-6 && s[0].send_O == 1e-10 && isinf(s[1].upto) && s[1].lat_factor == 1.5);
    CHECK(hnm_model_limiter_factor(m) == 1.5 && hnm_model_async_max(m) == 1420);
    hnm_model *b = round_trip(m);
    CHECK(b != NULL && same_segments(m, b));
    hnm_model_free(b);
    hnm_model_free(m);
  }
  /* LogGPS parameters, kept exactly. */
  const double lg[8] = {5e-6, 1.5e-6, 1e-6, 1e-10, 0, 65536, 2e-10, 3e-10};
  struct hnm_model_desc dl = {"lg", NULL, -1, -1, HNM_LIMITER_KEEP, 0, HNM_CONTENTION_MAXMIN,
                              HNM_CROSSTRAFFIC_SIMGRID, lg, NULL, 0, NULL, HNM_UPDATE_FIXED, NULL};
  m = hnm_model_new(&dl, err, sizeof err);
  CHECK(m != NULL);
  char spec[512]; /* the same doubles through the spec parser (%.17g seconds: exact) */
  snprintf(spec, sizeof spec, "loggps:L=%.17gs,o=%.17gs,g=%.17gs,G=%.17gs,s=0,S=65536,Os=%.17gs,Or=%.17gs", lg[0],
           lg[1], lg[2], lg[3], lg[6], lg[7]);
  hnm_model *ref = hnm_model_parse_spec(spec, err, sizeof err);
  CHECK(ref != NULL);
  if (m != NULL && ref != NULL)
    CHECK(same_segments(m, ref));
  hnm_model_free(m);
  hnm_model_free(ref);
  /* Refused as the loader refuses: upto not increasing, last not inf, async > detached. */
  struct hnm_segment bad[2] = {seg[0], seg[1]};
  bad[1].upto = 1000;
  d.segments = bad;
  CHECK(hnm_model_new(&d, err, sizeof err) == NULL);
  d.segments = seg;
  d.async_max = 70000;
  CHECK(hnm_model_new(&d, err, sizeof err) == NULL);
  d.async_max = 1420;
  d.nsegments = 1;
  CHECK(hnm_model_new(&d, err, sizeof err) == NULL);
  d.nsegments = 2;

  /* One-sided costs: written and read back exactly; none unless given;
   * refused beside LogGPS, and when a value is outside the loader's range. */
  const struct hnm_rma rma = {1.5e-6, 5e-10, 2.5e-6, 2.5e-10, 7e-6, 5e-6, 3e-6, 1.1e-5};
  struct hnm_rma back = {0};
  m = hnm_model_new(&d, err, sizeof err);
  CHECK(m != NULL && hnm_model_rma(m, &back) == 0);
  hnm_model_free(m);
  d.rma = &rma;
  m = hnm_model_new(&d, err, sizeof err);
  CHECK(m != NULL && hnm_model_rma(m, &back) == 1);
  CHECK_EQ(memcmp(&back, &rma, sizeof rma), 0);
  hnm_model_free(m);
  dl.rma = &rma;
  CHECK(hnm_model_new(&dl, err, sizeof err) == NULL && strstr(err, "rma") != NULL);
  struct hnm_rma too_slow = rma;
  too_slow.fence = 2.0;
  d.rma = &too_slow;
  CHECK(hnm_model_new(&d, err, sizeof err) == NULL && strstr(err, "fence") != NULL);

  return check_finish();
}
