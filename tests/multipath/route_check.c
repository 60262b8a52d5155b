/* route_check -- check hnm-route's output without hnm-route's code nor GLPK.
 *
 *   route_check AxBxCxDxE CAPACITY PATTERN_FILE PATHS_FILE CSV_FILE
 *
 * Re-reads the pattern ("src dst bytes", bytes as plain numbers), the path
 * file (docs/multipath.md) and the CSV, walks every path hop by hop on its own
 * torus arithmetic (ranks in ABCDE order, E fastest), and asserts, for the
 * methods default, heuristic and lp:
 *   - each hop is a link of the torus (DIRS), lands on the listed rank, the
 *     path is loopless and ends at dst;
 *   - every demand is met: the bytes of a pair's paths sum to its bytes;
 *     no path for a pair outside the pattern;
 *   - the CSV row is what the paths give: max link load, time = max load /
 *     capacity, throughput = total / time, byte-weighted mean hops (1e-9);
 *     hence no link carries more than capacity x time;
 *   - default: one path per pair, as many hops as the torus distance;
 *   - lp: 1/Z (the path file's lp_z, GLPK's optimum) equals the time within
 *     GLPK's tolerance (1e-6), and the time is at least the injection and
 *     ejection bound (bytes a node sends or receives / its links' capacity);
 *   - throughput lp >= heuristic >= default.
 * Prints "N passed, M failed" and exits non-zero on failure.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NM 3
static const char *const methods[NM] = {"default", "heuristic", "lp"};

static long dims[5];
static long nodes;

static void coords(long r, long c[5])
{
  for (int k = 4; k >= 0; k--) {
    c[k] = r % dims[k];
    r /= dims[k];
  }
}

static long rank_of(const long c[5])
{
  long r = 0;
  for (int k = 0; k < 5; k++)
    r = r * dims[k] + c[k];
  return r;
}

static long ring_distance(long a, long b, long d)
{
  long x = labs(a - b);
  return x < d - x ? x : d - x;
}

static int close_rel(double a, double b, double tol)
{
  return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

struct pair {
  long src, dst;
  double bytes;
  double got[NM];
  int paths[NM];
};

static int pair_cmp(const void *a, const void *b)
{
  const struct pair *x = a, *y = b;
  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  return (x->dst > y->dst) - (x->dst < y->dst);
}

int main(int argc, char **argv)
{
  double capacity, lp_z = 0;
  struct pair *pairs = NULL;
  size_t npairs = 0, cap = 0;
  double *load[NM], total[NM] = {0}, hopbytes[NM] = {0};
  double csv[NM][4];
  int have_csv[NM] = {0};
  char line[65536];
  FILE *f;
  double *sent, *recv;
  int links_per_node = 0;

  if (argc != 6 || sscanf(argv[1], "%ldx%ldx%ldx%ldx%ld", &dims[0], &dims[1], &dims[2], &dims[3], &dims[4]) != 5) {
    fprintf(stderr, "usage: route_check AxBxCxDxE CAPACITY PATTERN PATHS CSV\n");
    return 2;
  }
  capacity = atof(argv[2]);
  nodes = dims[0] * dims[1] * dims[2] * dims[3] * dims[4];
  for (int k = 0; k < 5; k++)
    links_per_node += dims[k] > 1 ? 2 : 0;
  for (int m = 0; m < NM; m++)
    load[m] = calloc((size_t)nodes * 10, sizeof(double));
  sent = calloc((size_t)nodes, sizeof(double));
  recv = calloc((size_t)nodes, sizeof(double));

  /* Pattern. */
  f = fopen(argv[3], "r");
  if (f == NULL) {
    perror(argv[3]);
    return 2;
  }
  while (fgets(line, sizeof line, f) != NULL) {
    struct pair p = {0};
    if (line[0] == '#' || sscanf(line, "%ld %ld %lf", &p.src, &p.dst, &p.bytes) != 3)
      continue;
    if (npairs == cap) {
      cap = cap ? 2 * cap : 1024;
      pairs = realloc(pairs, cap * sizeof *pairs);
    }
    pairs[npairs++] = p;
    sent[p.src] += p.bytes;
    recv[p.dst] += p.bytes;
  }
  fclose(f);
  qsort(pairs, npairs, sizeof *pairs, pair_cmp);

  /* Paths. */
  f = fopen(argv[4], "r");
  if (f == NULL) {
    perror(argv[4]);
    return 2;
  }
  int bad_walk = 0, bad_pair = 0, bad_default = 0, lines = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    char method[32], dirs[4096];
    long src, dst, hops, c[5], seen[1024];
    double bytes;
    int m, pos;
    char *p;
    struct pair key, *pr;

    if (strncmp(line, "# lp_z ", 7) == 0) {
      lp_z = atof(line + 7);
      continue;
    }
    if (line[0] == '#')
      continue;
    if (sscanf(line, "%31s %ld %ld %lf %ld %4095s%n", method, &src, &dst, &bytes, &hops, dirs, &pos) != 6) {
      bad_walk++;
      continue;
    }
    for (m = 0; m < NM && strcmp(method, methods[m]) != 0; m++)
      ;
    if (m == NM)
      continue; /* ksp rows are not checked here */
    lines++;
    key.src = src;
    key.dst = dst;
    pr = bsearch(&key, pairs, npairs, sizeof *pairs, pair_cmp);
    if (pr == NULL) {
      bad_pair++;
      continue;
    }
    pr->got[m] += bytes;
    pr->paths[m]++;
    if ((long)strlen(dirs) != 2 * hops || hops >= 1024) {
      bad_walk++;
      continue;
    }
    p = line + pos;
    coords(src, c);
    long first = strtol(p, &p, 10);
    if (first != src)
      bad_walk++;
    seen[0] = src;
    for (long h = 0; h < hops; h++) {
      int k = dirs[2 * h] - 'A', sign = dirs[2 * h + 1] == '+' ? 1 : -1;
      long from = rank_of(c), next;
      if (k < 0 || k > 4 || dims[k] == 1) {
        bad_walk++;
        break;
      }
      load[m][from * 10 + 2 * k + (sign < 0)] += bytes;
      c[k] = (c[k] + sign + dims[k]) % dims[k];
      next = strtol(p, &p, 10);
      if (next != rank_of(c))
        bad_walk++;
      for (long q = 0; q <= h; q++)
        if (seen[q] == next)
          bad_walk++;
      seen[h + 1] = next;
    }
    if (rank_of(c) != dst)
      bad_walk++;
    total[m] += bytes;
    hopbytes[m] += bytes * (double)hops;
    if (m == 0) {
      long a[5], b[5], dist = 0;
      coords(src, a);
      coords(dst, b);
      for (int k = 0; k < 5; k++)
        dist += ring_distance(a[k], b[k], dims[k]);
      if (dist != hops)
        bad_default++;
    }
  }
  fclose(f);
  printf("%d path lines of default, heuristic, lp\n", lines);
  CHECK(lines >= 3 * (int)npairs);
  CHECK_EQ(bad_walk, 0);
  CHECK_EQ(bad_pair, 0);
  CHECK_EQ(bad_default, 0);

  int unmet[NM] = {0}, default_multi = 0;
  for (size_t i = 0; i < npairs; i++) {
    for (int m = 0; m < NM; m++)
      if (!close_rel(pairs[i].got[m], pairs[i].bytes, 1e-9))
        unmet[m]++;
    if (pairs[i].paths[0] != 1)
      default_multi++;
  }
  for (int m = 0; m < NM; m++) {
    if (unmet[m])
      fprintf(stderr, "%s: %d demands not met\n", methods[m], unmet[m]);
    CHECK_EQ(unmet[m], 0);
  }
  CHECK_EQ(default_multi, 0);

  /* CSV. */
  f = fopen(argv[5], "r");
  if (f == NULL) {
    perror(argv[5]);
    return 2;
  }
  CHECK(fgets(line, sizeof line, f) != NULL &&
        strcmp(line, "method,time_s,throughput_Bps,max_link_load_B,mean_hops\n") == 0);
  while (fgets(line, sizeof line, f) != NULL) {
    char method[32];
    double v[4];
    char *comma = strchr(line, ',');
    if (comma == NULL)
      continue;
    snprintf(method, sizeof method, "%.*s", (int)(comma - line), line);
    if (sscanf(comma + 1, "%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3]) != 4)
      continue;
    for (int m = 0; m < NM; m++)
      if (strcmp(method, methods[m]) == 0) {
        memcpy(csv[m], v, sizeof v);
        have_csv[m] = 1;
      }
  }
  fclose(f);

  for (int m = 0; m < NM; m++) {
    double max = 0;
    CHECK(have_csv[m]);
    if (!have_csv[m])
      continue;
    for (long a = 0; a < nodes * 10; a++)
      if (load[m][a] > max)
        max = load[m][a];
    printf("%-9s time %.9g s, max link %.9g B, throughput %.6g B/s, mean hops %.6g\n", methods[m], max / capacity,
           max, total[m] / (max / capacity), hopbytes[m] / total[m]);
    CHECK(close_rel(csv[m][2], max, 1e-9));
    CHECK(close_rel(csv[m][0], max / capacity, 1e-9));
    CHECK(close_rel(csv[m][1], total[m] / csv[m][0], 1e-9));
    CHECK(close_rel(csv[m][3], hopbytes[m] / total[m], 1e-9));
    /* No link over capacity over the reported time. */
    int over = 0;
    for (long a = 0; a < nodes * 10; a++)
      if (load[m][a] / csv[m][0] > capacity * (1 + 1e-9))
        over++;
    CHECK_EQ(over, 0);
  }
  if (have_csv[2]) {
    double bound = 0;
    for (long r = 0; r < nodes; r++) {
      bound = fmax(bound, sent[r] / (links_per_node * capacity));
      bound = fmax(bound, recv[r] / (links_per_node * capacity));
    }
    printf("lp: 1/Z = %.12g s, reported %.12g s; injection/ejection bound %.9g s\n", 1 / lp_z, csv[2][0], bound);
    CHECK(lp_z > 0 && close_rel(1 / lp_z, csv[2][0], 1e-6));
    CHECK(csv[2][0] >= bound * (1 - 1e-9));
  }
  if (have_csv[0] && have_csv[1] && have_csv[2]) {
    CHECK(csv[2][1] >= csv[1][1] * (1 - 1e-9));
    CHECK(csv[1][1] >= csv[0][1] * (1 - 1e-9));
  }
  return check_finish();
}
