/* test_topo.c -- hnm_topo: shape parsing, checks, the presets of Zheng & Marguinaud 2018 against
 * the counts worked out by hand (docs/platforms.md), --scale, SimGrid's
 * topo_parameters, BG/Q's rank mapping (checked against formulas written
 * out here, not against the implementation's sort) and rank placement.
 * Prints "N passed, M failed"; exits non-zero on failure.
 */
#include "hnm_topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void expect_list_error(const char *s, char sep, int max, const char *want, int line)
{
  unsigned long out[HNM_TOPO_MAX_DIMS];
  char err[256] = "";
  int n = -1;
  int rc = hnm_topo_parse_list(s, sep, "dimension", out, max, &n, err, sizeof err);

  check_at(rc == -1 && strcmp(err, want) == 0, __FILE__, line, "parse_list(\"%s\"): rc %d, message \"%s\", want \"%s\"",
           s, rc, err, want);
}

static void test_parse(void)
{
  unsigned long v[HNM_TOPO_MAX_DIMS], one;
  char err[256];
  int n = 0;

  CHECK_EQ(hnm_topo_parse_list("8x8x8", 'x', "dimension", v, 16, &n, err, sizeof err), 0);
  CHECK(n == 3 && v[0] == 8 && v[1] == 8 && v[2] == 8);
  CHECK_EQ(hnm_topo_parse_list("25,25,625", ',', "level", v, 16, &n, err, sizeof err), 0);
  CHECK(n == 3 && v[2] == 625);
  CHECK(hnm_topo_parse_list("7", 'x', "dimension", v, 16, &n, err, sizeof err) == 0 && n == 1 && v[0] == 7);
  expect_list_error("8x0x8", 'x', 16, "'8x0x8': dimension 2 is 0", __LINE__);
  expect_list_error("8xx8", 'x', 16, "'8xx8': dimension 2 is empty", __LINE__);
  expect_list_error("8x8x", 'x', 16, "'8x8x': dimension 3 is empty", __LINE__);
  expect_list_error("-8x8", 'x', 16, "'-8x8': dimension 1 is negative", __LINE__);
  expect_list_error("8xax8", 'x', 16, "'8xax8': dimension 2 ('a') is not a positive integer", __LINE__);
  expect_list_error("8x 8", 'x', 16, "'8x 8': dimension 2 (' 8') is not a positive integer", __LINE__);
  expect_list_error("8,8", 'x', 16, "'8,8': dimension 1 ('8,8') is not a positive integer", __LINE__);
  expect_list_error("2x2x2", 'x', 2, "'2x2x2': more than 2 dimensions", __LINE__);
  expect_list_error("100000001", 'x', 16, "'100000001': dimension 1 is more than 100000000", __LINE__);
  expect_list_error("99999999999999999999999", 'x', 16, "'99999999999999999999999': dimension 1 is more than 100000000",
                    __LINE__);
  expect_list_error("", 'x', 16, "empty value", __LINE__);

  CHECK(hnm_topo_parse_count("25", &one, err, sizeof err) == 0 && one == 25);
  CHECK(hnm_topo_parse_count("0", &one, err, sizeof err) == -1 && strcmp(err, "'0' is 0") == 0);
  CHECK(hnm_topo_parse_count("-3", &one, err, sizeof err) == -1 && strcmp(err, "'-3' is negative") == 0);
  CHECK(hnm_topo_parse_count("2.5", &one, err, sizeof err) == -1 && strstr(err, "not a positive integer") != NULL);
}

/* Host index of BG/Q node (a,b,c,d,e) in a 4x4x4x8x2 partition, written out
 * by hand: routing order D, A, B, C, E (longest first, stable). */
static unsigned long bgq_1024_host(unsigned long a, unsigned long b, unsigned long c, unsigned long d,
                                   unsigned long e)
{
  return d + 8 * (a + 4 * (b + 4 * (c + 4 * e)));
}

/* 4x4x16x16x2: order C, D, A, B, E. */
static unsigned long bgq_8192_host(unsigned long a, unsigned long b, unsigned long c, unsigned long d,
                                   unsigned long e)
{
  return c + 16 * (d + 16 * (a + 4 * (b + 4 * e)));
}

/* SHAPE parsed into T: its dimensions sorted by size as ORDER (A..E
 * indices, longest first), written as SimGrid's topo_parameters PARAMS. */
static void bgq_shape(struct hnm_topo *t, const char *shape, const int order[5], const char *params)
{
  char err[256], got[128];
  int o[5];

  memset(t, 0, sizeof *t);
  CHECK_EQ(hnm_topo_bgq_parse_shape(shape, t, err, sizeof err), 0);
  hnm_topo_bgq_order(t, o);
  for (int k = 0; k < 5; k++)
    CHECK_EQ(o[k], order[k]);
  CHECK_EQ(hnm_topo_parameters(t, got, sizeof got), 0);
  CHECK_STREQ(got, params);
}

static void test_bgq(void)
{
  static const unsigned long nodes[] = {512, 1024, 2048, 4096, 8192};
  struct hnm_topo t;
  char err[256];
  unsigned long d[5];
  const char *name;
  int i;

  for (i = 0; (name = hnm_topo_bgq_named_shape(i, d)) != NULL; i++) {
    memset(&t, 0, sizeof t);
    CHECK_EQ(hnm_topo_bgq_parse_shape(name, &t, err, sizeof err), 0);
    CHECK_EQ(hnm_topo_check(&t, err, sizeof err), 0);
    CHECK(hnm_topo_hosts(&t) == nodes[i] && t.dims[4] == 2 && strtoul(name, NULL, 10) == nodes[i]);
  }
  CHECK_EQ(i, 5);

  bgq_shape(&t, "1024", (const int[5]){3, 0, 1, 2, 4}, "8,4,4,4,2");

  /* Every rank, against the hand-written formula; and the host index read
   * back the way SimGrid's TorusZone reads coordinates. */
  {
    unsigned long r = 0, mismatches = 0, decoded_bad = 0;
    const unsigned long sizes[5] = {8, 4, 4, 4, 2}; /* topo_parameters */
    for (unsigned long a = 0; a < 4; a++)
      for (unsigned long b = 0; b < 4; b++)
        for (unsigned long c = 0; c < 4; c++)
          for (unsigned long dd = 0; dd < 8; dd++)
            for (unsigned long e = 0; e < 2; e++, r++) {
              unsigned long host = hnm_topo_machine_host(&t, r);
              unsigned long want[5] = {dd, a, b, c, e}, prod = 1;
              if (host != bgq_1024_host(a, b, c, dd, e))
                mismatches++;
              for (int k = 0; k < 5; k++) {
                if ((host / prod) % sizes[k] != want[k])
                  decoded_bad++;
                prod *= sizes[k];
              }
            }
    CHECK(r == 1024 && mismatches == 0 && decoded_bad == 0);
  }

  bgq_shape(&t, "4x4x16x16x2", (const int[5]){2, 3, 0, 1, 4}, "16,16,4,4,2");
  {
    unsigned long r = 0, mismatches = 0;
    for (unsigned long a = 0; a < 4; a++)
      for (unsigned long b = 0; b < 4; b++)
        for (unsigned long c = 0; c < 16; c++)
          for (unsigned long dd = 0; dd < 16; dd++)
            for (unsigned long e = 0; e < 2; e++, r++)
              if (hnm_topo_machine_host(&t, r) != bgq_8192_host(a, b, c, dd, e))
                mismatches++;
    CHECK(r == 8192 && mismatches == 0);
  }

  /* Equal sizes keep A..E order (stable). */
  bgq_shape(&t, "2x2x2x2x2", (const int[5]){0, 1, 2, 3, 4}, "2,2,2,2,2");
  CHECK_EQ(hnm_topo_machine_host(&t, 1), 16); /* e = 1 is the last, slowest SimGrid dimension */

  /* Refusals. */
  CHECK(hnm_topo_bgq_parse_shape("4x4x4x4x4", &t, err, sizeof err) == -1 && strstr(err, "E is 4, must be 2"));
  CHECK(hnm_topo_bgq_parse_shape("4x4x4x4", &t, err, sizeof err) == -1 && strstr(err, "4 dimensions, a BG/Q"));
  CHECK(hnm_topo_bgq_parse_shape("4x4x4x4x2x2", &t, err, sizeof err) == -1 && strstr(err, "more than 5"));
  CHECK(hnm_topo_bgq_parse_shape("4x0x4x4x2", &t, err, sizeof err) == -1 && strstr(err, "dimension 2 is 0"));
  CHECK(hnm_topo_bgq_parse_shape("768", &t, err, sizeof err) == -1 && strstr(err, "named shape"));
}

/* A dragonfly of G groups x C chassis x R routers x N nodes, one link of
 * each colour. */
static void dragonfly(struct hnm_topo *t, unsigned long G, unsigned long C, unsigned long R, unsigned long N)
{
  memset(t, 0, sizeof *t);
  t->family = HNM_TOPO_DRAGONFLY;
  t->groups = G;
  t->chassis = C;
  t->routers = R;
  t->nodes = N;
  t->blue = t->black = t->green = 1;
}

/* SimGrid's example fat tree "2;4,4;1,2;1,2" (16 hosts). */
static void example_fattree(struct hnm_topo *t)
{
  memset(t, 0, sizeof *t);
  t->family = HNM_TOPO_FATTREE;
  t->ndims = 2;
  t->dims[0] = t->dims[1] = 4;
  t->up[0] = 1;
  t->up[1] = 2;
  t->links[0] = 1;
  t->links[1] = 2;
}

struct preset_want {
  const char *name;
  unsigned long hosts, switches, ranks_per_host;
  const char *params;
};

static void test_presets(void)
{
  /* Worked out by hand in docs/platforms.md. */
  static const struct preset_want want[] = {
    {"graphene", 144, 4, 1, ""},
    {"torus-M", 15625, 15625, 25, "25,25,25"},
    {"torus-L", 46875, 46875, 25, "75,25,25"},
    {"fattree-M", 390625, 31875, 1, "3;25,25,625;1,25,25;1,1,1"},
    {"fattree-L", 1185921, 72963, 1, "3;33,33,1089;1,33,33;1,1,1"},
    {"dragonfly-MM", 390625, 15625, 1, "25,625;25,1;25,1;25"},
    {"dragonfly-SL", 390625, 78125, 1, "125,625;5,1;125,1;5"},
    {"dragonfly-LS", 390625, 78125, 1, "5,15625;125,1;125,1;5"},
    {"dragonfly-ML", 1171875, 46875, 1, "75,625;5,1;125,1;25"},
  };
  struct hnm_topo t;
  char err[256], params[128];
  int count = 0;

  while (hnm_topo_preset_at(count) != NULL)
    count++;
  CHECK_EQ(count, (int)(sizeof want / sizeof want[0]));
  CHECK(hnm_topo_preset_find("torus-XL") == NULL);
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const struct hnm_topo_preset *p = hnm_topo_preset_find(want[i].name);
    CHECK(p != NULL);
    if (p == NULL)
      continue;
    hnm_topo_preset_apply(p, &t);
    CHECK_EQ(hnm_topo_check(&t, err, sizeof err), 0);
    CHECK_EQ(hnm_topo_hosts(&t), want[i].hosts);
    CHECK_EQ(hnm_topo_switches(&t), want[i].switches);
    CHECK(p->ranks_per_host == want[i].ranks_per_host);
    /* Table 1's node count, as ranks. */
    CHECK(hnm_topo_hosts(&t) * p->ranks_per_host == p->paper_nodes);
    CHECK_EQ(hnm_topo_parameters(&t, params, sizeof params), 0);
    CHECK_STREQ(params, want[i].params);
  }
  hnm_topo_preset_apply(hnm_topo_preset_find("fattree-M"), &t);
  CHECK_EQ(hnm_topo_fattree_level_switches(&t, 1), 15625);
  CHECK_EQ(hnm_topo_fattree_level_switches(&t, 2), 15625);
  CHECK_EQ(hnm_topo_fattree_level_switches(&t, 3), 625);
  CHECK_EQ(hnm_topo_fattree_level_switches(&t, 4), 0);
  CHECK_EQ(hnm_topo_routers(&t), 15625); /* leaf switches, 25 nodes each */
  /* Full bisection: as many cables between levels 1 and 2, and 2 and 3, as hosts. */
  CHECK_EQ(hnm_topo_fattree_level_switches(&t, 1) * t.up[1], 390625);
  CHECK_EQ(hnm_topo_fattree_level_switches(&t, 2) * t.up[2], 390625);
  hnm_topo_preset_apply(hnm_topo_preset_find("fattree-L"), &t);
  CHECK(hnm_topo_fattree_level_switches(&t, 1) == 35937 && hnm_topo_fattree_level_switches(&t, 3) == 1089);
}

static void test_check(void)
{
  struct hnm_topo t;
  char err[256];

  memset(&t, 0, sizeof t);
  t.family = HNM_TOPO_TORUS;
  t.ndims = 3;
  t.dims[0] = t.dims[1] = t.dims[2] = 1000;
  CHECK_EQ(hnm_topo_check(&t, err, sizeof err), -1);
  CHECK_STREQ(err, "--dims: '1000x1000x1000' makes more than 100000000 nodes");
  t.dims[2] = 100;
  CHECK(hnm_topo_check(&t, err, sizeof err) == 0 && hnm_topo_hosts(&t) == 100000000);

  dragonfly(&t, 6, 2, 2, 1);
  CHECK(hnm_topo_check(&t, err, sizeof err) == -1 && strncmp(err, "--groups: 6 groups for 2 routers", 32) == 0);
  t.routers = 6;
  CHECK(hnm_topo_check(&t, err, sizeof err) == 0 && hnm_topo_hosts(&t) == 72 && hnm_topo_routers(&t) == 72);
  t.green = 0;
  CHECK(hnm_topo_check(&t, err, sizeof err) == -1 && strncmp(err, "--green-links", 13) == 0);

  /* SimGrid's example fat tree "2;4,4;1,2;1,2": 16 hosts; level 1 has
   * up0 x down1 = 4 switches, level 2 has up0 x up1 = 2. */
  example_fattree(&t);
  CHECK_EQ(hnm_topo_check(&t, err, sizeof err), 0);
  CHECK(hnm_topo_hosts(&t) == 16 && hnm_topo_switches(&t) == 6 && hnm_topo_routers(&t) == 4);
  t.up[1] = 100000000;
  CHECK(hnm_topo_check(&t, err, sizeof err) == -1 && strncmp(err, "--", 2) == 0);

  memset(&t, 0, sizeof t);
  t.family = HNM_TOPO_CLUSTER;
  t.cabinets = 0;
  CHECK(hnm_topo_check(&t, err, sizeof err) == -1 && strcmp(err, "--cabinets: '0' is not in 1 .. 1024 (for more nodes, give each cabinet more with --nodes)") == 0);
  t.cabinets = 2;
  t.cabinet_nodes[0] = 3;
  t.cabinet_nodes[1] = 0;
  CHECK(hnm_topo_check(&t, err, sizeof err) == -1 && strstr(err, "cabinet 2 is 0") != NULL);
}

static void test_scale(void)
{
  struct hnm_topo t, copy;
  char err[256], text[256];

  hnm_topo_preset_apply(hnm_topo_preset_find("torus-M"), &t);
  CHECK_EQ(hnm_topo_scale(&t, 0.1, err, sizeof err), 0);
  /* 25 x 0.1^(1/3) = 11.6 -> 12 */
  CHECK(t.ndims == 3 && t.dims[0] == 12 && t.dims[1] == 12 && t.dims[2] == 12);

  hnm_topo_preset_apply(hnm_topo_preset_find("torus-L"), &t);
  CHECK_EQ(hnm_topo_scale(&t, 0.001, err, sizeof err), 0);
  /* x 0.1: 7.5 -> 8, 2.5 -> 3 (rounded half away from zero) */
  CHECK(t.dims[0] == 8 && t.dims[1] == 3 && t.dims[2] == 3);

  hnm_topo_preset_apply(hnm_topo_preset_find("fattree-M"), &t);
  CHECK_EQ(hnm_topo_scale(&t, 0.001, err, sizeof err), 0);
  CHECK(t.dims[0] == 3 && t.dims[1] == 3 && t.dims[2] == 63);
  CHECK(t.up[0] == 1 && t.up[1] == 3 && t.up[2] == 3); /* full bisection kept */

  hnm_topo_preset_apply(hnm_topo_preset_find("dragonfly-MM"), &t);
  CHECK_EQ(hnm_topo_scale(&t, 0.001, err, sizeof err), 0);
  /* 25 x 0.001^(1/4) = 4.45 -> 4 */
  CHECK(t.groups == 4 && t.chassis == 4 && t.routers == 4 && t.nodes == 4 && t.blue == 16);
  CHECK(hnm_topo_check(&t, err, sizeof err) == 0 && hnm_topo_hosts(&t) == 256);

  /* groups <= routers survives scaling (monotone rounding). */
  hnm_topo_preset_apply(hnm_topo_preset_find("dragonfly-SL"), &t);
  CHECK(hnm_topo_scale(&t, 0.01, err, sizeof err) == 0 && hnm_topo_check(&t, err, sizeof err) == 0);

  memset(&t, 0, sizeof t);
  CHECK_EQ(hnm_topo_bgq_parse_shape("8192", &t, err, sizeof err), 0);
  CHECK_EQ(hnm_topo_scale(&t, 0.25, err, sizeof err), 0);
  /* x 0.25^(1/4) = 0.7071: 4 -> 3, 16 -> 11; E stays 2 */
  CHECK_EQ(hnm_topo_describe(&t, text, sizeof text), 0);
  CHECK_STREQ(text, "3x3x11x11x2");

  /* Sizes never grow, never drop below 2 unless already smaller. */
  t = (struct hnm_topo){.family = HNM_TOPO_TORUS, .ndims = 3, .dims = {2, 1, 100}};
  CHECK_EQ(hnm_topo_scale(&t, 0.001, err, sizeof err), 0);
  CHECK(t.dims[0] == 2 && t.dims[1] == 1 && t.dims[2] == 10);

  /* F = 1 keeps the shape. */
  hnm_topo_preset_apply(hnm_topo_preset_find("dragonfly-LS"), &t);
  copy = t;
  CHECK(hnm_topo_scale(&t, 1, err, sizeof err) == 0 && memcmp(&t, &copy, sizeof t) == 0);

  CHECK(hnm_topo_scale(&t, 0, err, sizeof err) == -1 && strncmp(err, "--scale", 7) == 0);
  CHECK_EQ(hnm_topo_scale(&t, 1.5, err, sizeof err), -1);
  hnm_topo_preset_apply(hnm_topo_preset_find("graphene"), &t);
  CHECK(hnm_topo_scale(&t, 0.5, err, sizeof err) == -1 && strstr(err, "cluster") != NULL);
}

/* ---- Placement ---------------------------------------------------------- */

#define MAX_RANKS 20000

struct ranks {
  unsigned long host[MAX_RANKS];
  size_t n;
};

static int collect(unsigned long host, void *ctx)
{
  struct ranks *r = ctx;

  if (r->n == MAX_RANKS)
    return -7;
  r->host[r->n++] = host;
  return 0;
}

static struct ranks ranks;

static void place(const struct hnm_topo *t, enum hnm_placement p, unsigned long k)
{
  ranks.n = 0;
  CHECK_EQ(hnm_topo_place(t, p, k, collect, &ranks), 0);
}

/* Every host appears exactly k times. */
static int each_host_k_times(unsigned long hosts, unsigned long k)
{
  unsigned long *seen = calloc(hosts, sizeof *seen);
  int ok = ranks.n == hosts * k;

  for (size_t i = 0; ok && i < ranks.n; i++)
    ok = ranks.host[i] < hosts && ++seen[ranks.host[i]] <= k;
  free(seen);
  return ok;
}

static int stop_at_three(unsigned long host, void *ctx)
{
  (void)host;
  return ++*(int *)ctx == 3 ? 42 : 0;
}

static void test_placement(void)
{
  struct hnm_topo t;
  char err[256];
  enum hnm_placement p;

  CHECK(hnm_topo_parse_placement("linear", &p, err, sizeof err) == 0 && p == HNM_PLACEMENT_LINEAR);
  CHECK(hnm_topo_parse_placement("round-robin", &p, err, sizeof err) == 0 && p == HNM_PLACEMENT_ROUND_ROBIN);
  CHECK(hnm_topo_parse_placement("random", &p, err, sizeof err) == -1 && strstr(err, "'random'") != NULL);

  /* graphene: cabinets 0-38, 39-73, 74-103, 104-143. */
  hnm_topo_preset_apply(hnm_topo_preset_find("graphene"), &t);
  place(&t, HNM_PLACEMENT_LINEAR, 1);
  CHECK(ranks.n == 144 && ranks.host[0] == 0 && ranks.host[143] == 143);
  place(&t, HNM_PLACEMENT_ROUND_ROBIN, 1);
  CHECK(ranks.host[0] == 0 && ranks.host[1] == 39 && ranks.host[2] == 74 && ranks.host[3] == 104);
  CHECK(ranks.host[4] == 1 && ranks.host[5] == 40);
  /* Round 30 (ranks 120..): cabinet 3 (30 nodes) is full, so 3 cabinets deal. */
  CHECK(ranks.host[120] == 30 && ranks.host[121] == 69 && ranks.host[122] == 134);
  /* Round 35: cabinets 2 and 3 full; 1 (39) and 4 (40) go on; the last is node-143. */
  CHECK(ranks.host[143] == 143 && each_host_k_times(144, 1));

  /* Unequal cabinets 3, 1, 2 with two ranks per host. */
  t = (struct hnm_topo){.family = HNM_TOPO_CLUSTER, .cabinets = 3, .cabinet_nodes = {3, 1, 2}};
  place(&t, HNM_PLACEMENT_ROUND_ROBIN, 2);
  {
    /* slots: cab1 0,0,1,1,2,2  cab2 3,3  cab3 4,4,5,5 */
    static const unsigned long want[] = {0, 3, 4, 0, 3, 4, 1, 5, 1, 5, 2, 2};
    CHECK(ranks.n == 12 && memcmp(ranks.host, want, sizeof want) == 0);
  }

  /* Torus: every host its own router. */
  memset(&t, 0, sizeof t);
  t.family = HNM_TOPO_TORUS;
  t.ndims = 2;
  t.dims[0] = 3;
  t.dims[1] = 2;
  place(&t, HNM_PLACEMENT_LINEAR, 2);
  CHECK(ranks.n == 12 && ranks.host[0] == 0 && ranks.host[1] == 0 && ranks.host[2] == 1 && ranks.host[11] == 5);
  place(&t, HNM_PLACEMENT_ROUND_ROBIN, 2);
  CHECK(ranks.n == 12 && ranks.host[0] == 0 && ranks.host[1] == 1 && ranks.host[5] == 5 && ranks.host[6] == 0);
  place(&t, HNM_PLACEMENT_ROUND_ROBIN, 1);
  CHECK(ranks.n == 6 && ranks.host[3] == 3);

  /* Fat tree 2;4,4;1,2;1,2: leaf groups of 4 hosts. */
  example_fattree(&t);
  place(&t, HNM_PLACEMENT_ROUND_ROBIN, 1);
  CHECK(ranks.host[0] == 0 && ranks.host[1] == 4 && ranks.host[2] == 8 && ranks.host[3] == 12 &&
        ranks.host[4] == 1 && each_host_k_times(16, 1));

  /* Dragonfly 2 groups x 1 chassis x 2 routers x 3 nodes: routers of 3 hosts. */
  dragonfly(&t, 2, 1, 2, 3);
  place(&t, HNM_PLACEMENT_ROUND_ROBIN, 1);
  {
    static const unsigned long want[] = {0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11};
    CHECK(ranks.n == 12 && memcmp(ranks.host, want, sizeof want) == 0);
  }
  place(&t, HNM_PLACEMENT_ROUND_ROBIN, 3);
  CHECK(each_host_k_times(12, 3) && ranks.host[4] == 0 && ranks.host[12] == 1);

  /* BG/Q: linear is the ABCDE mapping; round-robin is the same with K = 1,
   * and TABCDE with K > 1. */
  memset(&t, 0, sizeof t);
  CHECK_EQ(hnm_topo_bgq_parse_shape("1024", &t, err, sizeof err), 0);
  place(&t, HNM_PLACEMENT_LINEAR, 1);
  CHECK(ranks.n == 1024 && ranks.host[1] == bgq_1024_host(0, 0, 0, 0, 1) && ranks.host[2] == bgq_1024_host(0, 0, 0, 1, 0));
  CHECK(ranks.host[1023] == 1023 && each_host_k_times(1024, 1));
  {
    struct ranks *linear = malloc(sizeof *linear);
    memcpy(linear, &ranks, sizeof ranks);
    place(&t, HNM_PLACEMENT_ROUND_ROBIN, 1);
    CHECK(memcmp(linear->host, ranks.host, 1024 * sizeof ranks.host[0]) == 0);
    place(&t, HNM_PLACEMENT_LINEAR, 4); /* ABCDET */
    CHECK(ranks.n == 4096 && ranks.host[4] == linear->host[1] && ranks.host[7] == linear->host[1]);
    place(&t, HNM_PLACEMENT_ROUND_ROBIN, 4); /* TABCDE */
    CHECK(ranks.n == 4096 && ranks.host[1] == linear->host[1] && ranks.host[1024] == linear->host[0]);
    free(linear);
  }

  /* emit's error stops the deal and is returned. */
  {
    int calls = 0;
    CHECK(hnm_topo_place(&t, HNM_PLACEMENT_LINEAR, 1, stop_at_three, &calls) == 42 && calls == 3);
    hnm_topo_preset_apply(hnm_topo_preset_find("graphene"), &t);
    calls = 0;
    CHECK(hnm_topo_place(&t, HNM_PLACEMENT_ROUND_ROBIN, 1, stop_at_three, &calls) == 42 && calls == 3);
  }
}

static void test_text(void)
{
  struct hnm_topo t;
  char buf[256];

  hnm_topo_preset_apply(hnm_topo_preset_find("graphene"), &t);
  CHECK_EQ(hnm_topo_describe(&t, buf, sizeof buf), 0);
  CHECK_STREQ(buf, "4 cabinets of 39,35,30,40 nodes");
  CHECK(hnm_topo_parameters(&t, buf, sizeof buf) == 0 && buf[0] == '\0');
  hnm_topo_preset_apply(hnm_topo_preset_find("dragonfly-MM"), &t);
  CHECK_EQ(hnm_topo_describe(&t, buf, sizeof buf), 0);
  CHECK_STREQ(buf, "25 groups x 25 chassis x 25 routers x 25 nodes, blue/black/green links 625/1/1");
  CHECK_EQ(hnm_topo_parameters(&t, buf, 8), -1); /* too small */
  hnm_topo_preset_apply(hnm_topo_preset_find("torus-L"), &t);
  CHECK_EQ(hnm_topo_describe(&t, buf, sizeof buf), 0);
  CHECK_STREQ(buf, "75x25x25");
}

/* SimGrid 3.32's torus direction rule (TorusZone::get_local_route), by hand:
 * right iff (t > m && t <= m + d/2) || (m > d/2 && (m + d/2) % d >= t). */
static void test_torus_direction(void)
{
  /* Ring of 4 (d/2 = 2): 0 -> 1, 0 -> 2 (half a ring: +), 0 -> 3 (-);
   * 2 -> 0: (2 + 2) % 4 = 0 >= 0 but m = 2 is not > 2: -; 3 -> 0: m > 2,
   * (3 + 2) % 4 = 1 >= 0: +; 3 -> 1: 1 >= 1: +; 3 -> 2: -; 1 -> 3: 3 <= 3: +. */
  CHECK(hnm_topo_torus_direction(4, 0, 1) == 1);
  CHECK(hnm_topo_torus_direction(4, 0, 2) == 1);
  CHECK(hnm_topo_torus_direction(4, 0, 3) == -1);
  CHECK(hnm_topo_torus_direction(4, 2, 0) == -1);
  CHECK(hnm_topo_torus_direction(4, 3, 0) == 1);
  CHECK(hnm_topo_torus_direction(4, 3, 1) == 1);
  CHECK(hnm_topo_torus_direction(4, 3, 2) == -1);
  CHECK(hnm_topo_torus_direction(4, 1, 3) == 1);
  /* Ring of 5 (d/2 = 2): 0 -> 2 +, 0 -> 3 -; 3 -> 0: (3 + 2) % 5 = 0 >= 0: +;
   * 4 -> 1: (4 + 2) % 5 = 1 >= 1: +; 4 -> 2: -. Ring of 2 (d/2 = 1): both ways +. */
  CHECK(hnm_topo_torus_direction(5, 0, 2) == 1);
  CHECK(hnm_topo_torus_direction(5, 0, 3) == -1);
  CHECK(hnm_topo_torus_direction(5, 3, 0) == 1);
  CHECK(hnm_topo_torus_direction(5, 4, 1) == 1);
  CHECK(hnm_topo_torus_direction(5, 4, 2) == -1);
  CHECK(hnm_topo_torus_direction(2, 0, 1) == 1);
  CHECK(hnm_topo_torus_direction(2, 1, 0) == -1);
}

int main(void)
{
  test_torus_direction();
  test_parse();
  test_bgq();
  test_presets();
  test_check();
  test_scale();
  test_placement();
  test_text();
  return check_finish();
}
