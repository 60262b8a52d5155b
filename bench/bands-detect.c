/* bands-detect.c -- how often the fit's report names a decade's bands (or
 * its size-to-size scatter), on generated round trips: the fit
 * (hnm_fit_model, as calibration.bands calls it) run on TRIALS data sets
 * per family and shape, each three decades of sizes (10 B - 10 KB, N sizes
 * per decade, evenly spaced in log size, R repetitions each), the shape of
 * the family only in the middle decade 1e2-1e3, a smooth base
 * 30 us x (1 + k / 2000 B) elsewhere. Prints, per family, the share of
 * data sets whose report names 1e2-1e3 as alternating between two bands
 * ("bands") and as scattering from size to size ("scatter").
 * Not a test: bench/bands-detect.sh builds and runs it.
 *   bands-detect [TRIALS [SEED]]
 */
#include "hnm_fit.h"
#include "hnm_fit_model.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;
static double unif(void)
{
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return ((double)(state >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void) { return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif()); }
static double expo(double mean) { return -mean * log(unif()); }
static double range(double a, double b) { return a + (b - a) * unif(); }

enum family {
  BANDS_MIX,   /* the issue's bands, each size's repetitions a mixture */
  BANDS_TIGHT, /* the issue's bands, each size in one band, 3% repetitions */
  PAR_70,      /* parallel bands 1.6x apart, 70% of sizes in the upper */
  PAR_30,      /* the same, 30% */
  REP_GAUSS,   /* unimodal, by repetition: 15% normal */
  REP_UNIF,    /* +-30% uniform */
  REP_TAIL,    /* exponential tail, mean 20% */
  SIZE_UNIF,   /* unimodal, by size: +-30% uniform, 3% repetitions */
  SIZE_GAUSS,  /* 15% normal */
  SIZE_TAIL,   /* exponential tail, mean 20%, repetitions' tail 5% */
  NFAMILY
};
static const char *names[NFAMILY] = {"bands, mixed repetitions", "bands, one per size", "parallel bands, 70% up",
                                     "parallel bands, 30% up", "repetitions: normal 15%", "repetitions: uniform 30%",
                                     "repetitions: exp. tail 20%", "sizes: uniform 30%", "sizes: normal 15%",
                                     "sizes: exp. tail 20%"};

/* The issue's upper band's share of sizes: 30% below 200 B, 70% above. */
static int issue_up(double k) { return unif() < (k < 200 ? 0.3 : 0.7); }

static void rows(enum family f, double k, int reps, double *y)
{
  double base = 30e-6 * (1 + k / 2000);
  int mid = k >= 100 && k < 1000;
  if (!mid) {
    for (int r = 0; r < reps; r++)
      y[r] = base * (1 + 0.03 * gauss());
    return;
  }
  double m;
  switch (f) {
  case BANDS_MIX: {
    double p = issue_up(k) ? 0.8 : 0.2;
    for (int r = 0; r < reps; r++)
      y[r] = unif() < p ? range(60e-6, 100e-6) : range(36e-6, 46e-6);
    return;
  }
  case BANDS_TIGHT:
    m = issue_up(k) ? range(60e-6, 100e-6) : range(36e-6, 46e-6);
    for (int r = 0; r < reps; r++)
      y[r] = m * (1 + 0.03 * gauss());
    return;
  case PAR_70:
  case PAR_30:
    m = base * (unif() < (f == PAR_70 ? 0.7 : 0.3) ? 1.6 : 1.0);
    for (int r = 0; r < reps; r++)
      y[r] = m * (1 + 0.03 * gauss());
    return;
  case REP_GAUSS:
    for (int r = 0; r < reps; r++)
      y[r] = base * (1 + 0.15 * gauss());
    return;
  case REP_UNIF:
    for (int r = 0; r < reps; r++)
      y[r] = base * range(0.7, 1.3);
    return;
  case REP_TAIL:
    for (int r = 0; r < reps; r++)
      y[r] = base * (1 + expo(0.2));
    return;
  case SIZE_UNIF:
    m = base * range(0.7, 1.3);
    break;
  case SIZE_GAUSS:
    m = base * (1 + 0.15 * gauss());
    break;
  default:
    m = base * (1 + expo(0.2));
    for (int r = 0; r < reps; r++)
      y[r] = m * (1 + expo(0.05));
    return;
  }
  for (int r = 0; r < reps; r++)
    y[r] = m * (1 + 0.03 * gauss());
}

/* One data set; *bands, *scatter: whether the report names 1e2-1e3. */
static int one(enum family f, int nk, int reps, int *bands, int *scatter)
{
  size_t n = (size_t)(3 * nk * reps);
  double *k = malloc(n * sizeof *k), *y = malloc(n * sizeof *y), *z = calloc(n, sizeof *z);
  if (k == NULL || y == NULL || z == NULL) {
    free(k), free(y), free(z);
    return -1;
  }
  size_t i = 0;
  for (int j = 0; j < 3 * nk; j++) {
    double kk = 10 * pow(10, (double)j / nk);
    rows(f, kk, reps, y + i);
    for (int r = 0; r < reps; r++)
      k[i++] = kk;
  }
  hnm_fit_data d = {0};
  d.op[HNM_FIT_SEND] = (hnm_fit_series){k, z, n, "p2p.csv", 2};
  d.op[HNM_FIT_RECV] = (hnm_fit_series){k, z, n, "p2p.csv", 2};
  d.op[HNM_FIT_PINGPONG] = (hnm_fit_series){k, y, n, "p2p.csv", 2};
  d.p2p_file = "p2p.csv";
  d.p2p_line = 2;
  hnm_fit_model_options o = {.loss = HNM_FIT_LOSS_ABS, .raw = 0, .smooth = 0, .forced_only = 1,
                             .have_protocol = 1, .async = -1, .detached = -1};
  hnm_fit_result m;
  char err[512] = "";
  int rc = hnm_fit_model(&d, &o, &m, err, sizeof err);
  if (rc == 0) {
    *bands = strstr(m.notes, "decade 1e2-1e3: round trips alternate") != NULL;
    *scatter = strstr(m.notes, "decade 1e2-1e3: round trips scatter") != NULL;
    hnm_fit_result_free(&m);
  } else {
    fprintf(stderr, "bands-detect: %s: %s\n", names[f], err);
  }
  free(k), free(y), free(z);
  return rc;
}

int main(int argc, char **argv)
{
  char *end = NULL;
  long trials = argc > 1 ? strtol(argv[1], &end, 10) : 100;
  int bad = argc > 3 || (argc > 1 && (*argv[1] == '\0' || *end != '\0' || trials < 1 || trials > 100000));
  state = 1;
  if (!bad && argc > 2) {
    errno = 0;
    state = strtoull(argv[2], &end, 10);
    bad = *argv[2] == '\0' || *argv[2] == '-' || *end != '\0' || errno == ERANGE;
  }
  if (bad) {
    fprintf(stderr, "usage: bands-detect [TRIALS (1-100000) [SEED (0-2^64-1)]]\n");
    return 2;
  }
  static const int nks[] = {30, 40, 60}, reps[] = {5, 20};
  printf("%% of %ld data sets whose report names 1e2-1e3: bands / scatter\n", trials);
  printf("| family | 30 sizes x 5 | 30 x 20 | 40 x 5 | 40 x 20 | 60 x 5 | 60 x 20 |\n");
  printf("|---|---|---|---|---|---|---|\n");
  for (int f = 0; f < NFAMILY; f++) {
    printf("| %s |", names[f]);
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 2; b++) {
        int nb = 0, ns = 0, ok = 0;
        for (long t = 0; t < trials; t++) {
          int x = 0, y = 0;
          if (one((enum family)f, nks[a], reps[b], &x, &y) == 0)
            ok++, nb += x, ns += y;
        }
        printf(" %.0f / %.0f |", ok ? 100.0 * nb / ok : NAN, ok ? 100.0 * ns / ok : NAN);
      }
    printf("\n");
    fflush(stdout);
  }
  return 0;
}
