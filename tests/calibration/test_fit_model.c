/* test_fit_model.c -- unit tests of the fit procedure (calibration/
 * hnm_fit_model.h), called directly on in-memory data.
 *
 * The data are noise-free timings of a known hybrid model, computed as
 * SMPI times them (docs/calibration.md, "What fit inverts"; the model of
 * tests/calibration/hybrid.awk): eager up to A = 32768 B, detached up to
 * D = 262144 B, and
 *   k <= 2048:  o_s 1 us + 1 ns/B,   o_r 2 us + 1.5 ns/B, L 20 us,  B 50 MB/s
 *   <= 32768:   o_s 3 us + 0.5 ns/B, o_r 5 us + 0.5 ns/B, L 40 us,  B 100 MB/s
 *   <= 262144:  o_s 20 us + 0.3 ns/B, (detached: no o_r), L 100 us, B 400 MB/s
 *   above:      rendez-vous,                              L 200 us, B 1 GB/s
 * sampled at every power of two from 1 B to 16 MiB and at both thresholds'
 * neighbours, each size REPS times. On such data every segment's line is
 * exact, so the fit must give back every coefficient to 1e-9 relative, the
 * thresholds to the byte, and predictions equal to the closed forms on
 * both sides of each threshold. Then the refusals, and the notes that come
 * back in the result instead of being printed.
 */
#include "check.h"
#include "hnm_error.h"
#include "hnm_fit_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define A 32768.0
#define D 262144.0
#define REPS 10
#define REL 1e-9

struct truth {
  double upto, os, Os, ro, Or, L, B;
};
static const struct truth HYB[] = {
  {2048, 1e-6, 1e-9, 2e-6, 1.5e-9, 20e-6, 5e7},
  {32768, 3e-6, 0.5e-9, 5e-6, 0.5e-9, 40e-6, 1e8},
  {262144, 20e-6, 0.3e-9, 0, 0, 100e-6, 4e8},
  {INFINITY, 0, 0, 0, 0, 200e-6, 1e9},
};

static const struct truth *seg(double k)
{
  size_t i = 0;
  while (k > HYB[i].upto)
    i++;
  return &HYB[i];
}
static double T(double k) { return seg(k)->L + k / seg(k)->B; }
static double so(double k) { return seg(k)->os + k * seg(k)->Os; }
static double ro(double k) { return seg(k)->ro + k * seg(k)->Or; }

/* What SMPI times for op with k bytes. */
static double smpi(int op, double k)
{
  switch (op) {
    case HNM_FIT_SEND:
      return k <= D ? so(k) : T(k);
    case HNM_FIT_RECV:
      return k <= A ? ro(k) : k <= D ? T(k) + ro(k) : T(k);
    case HNM_FIT_PINGPONG:
      return k <= D ? 2 * (so(k) + T(k) + ro(k)) : 2 * T(k);
    default:
      return 0;
  }
}

/* The data: the three ops' rows, the probe, a contention probe. */
enum { MAXROWS = 64 * REPS };
struct synth {
  double k[3][MAXROWS], y[3][MAXROWS];
  hnm_fit_probe probe[6];
  hnm_fit_contention cont[8];
  hnm_fit_data data;
};

static size_t sizes(double *out)
{
  size_t n = 0;
  for (int e = 0; e <= 24; e++)
    out[n++] = ldexp(1, e);
  const double extra[] = {A - 1, A + 1, D - 1, D + 1};
  for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
    out[n++] = extra[i];
  return n;
}

static void synth_make(struct synth *s)
{
  memset(s, 0, sizeof *s);
  double k[64];
  size_t nk = sizes(k);
  for (int op = 0; op < 3; op++) {
    size_t n = 0;
    for (int r = 0; r < REPS; r++)
      for (size_t i = 0; i < nk; i++) {
        s->k[op][n] = k[i];
        s->y[op][n++] = smpi(op, k[i]);
      }
    s->data.op[op] = (hnm_fit_series){s->k[op], s->y[op], n, "p2p.csv", 1 + (long)n};
  }
  /* The probe: a receiver that sleeps 1 ms; a rendez-vous send waits for it. */
  const double pk[6] = {1, A, A + 1, D, D + 1, 4194304};
  for (int i = 0; i < 6; i++) {
    double k = pk[i], delay = 1e-3;
    s->probe[i] = (hnm_fit_probe){k, delay, k <= D ? so(k) : delay + T(k), smpi(HNM_FIT_RECV, k),
                                  smpi(HNM_FIT_PINGPONG, k)};
  }
  s->data.probe = s->probe;
  s->data.nprobe = 6;
  s->data.probe_file = "probe.csv";
  s->data.p2p_file = "p2p.csv";
  s->data.p2p_line = 2;
}

/* The contention probe at M bytes: one-way B_uni, B_s + B_r = B_sr, the
 * route's latency L (the fitted one at M), two repetitions per rank. */
static void synth_contention(struct synth *s, double M, double buni, double bsr)
{
  size_t n = 0;
  for (int bi = 0; bi < 2; bi++)
    for (int rank = 0; rank < 2; rank++)
      for (int r = 0; r < 2; r++)
        s->cont[n++] = (hnm_fit_contention){1, bi, rank, M, T(M) - M / seg(M)->B + (bi ? 2 * M / bsr : M / buni)};
  s->data.cont = s->cont;
  s->data.ncont = n;
  s->data.cont_file = "contention.csv";
}

/* hnm_fit_model() with stderr captured: returns its status, *printed the
 * bytes it wrote there (a library prints nothing). */
static int fit_quiet(const hnm_fit_data *d, const hnm_fit_model_options *o, hnm_fit_result *r, char *err,
                     size_t errlen, long *printed)
{
  FILE *cap = tmpfile();
  int saved = dup(2);
  fflush(stderr);
  dup2(fileno(cap), 2);
  int rc = hnm_fit_model(d, o, r, err, errlen);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  fseek(cap, 0, SEEK_END);
  *printed = ftell(cap);
  fclose(cap);
  return rc;
}

static void test_hybrid(int raw)
{
  static struct synth s;
  synth_make(&s);
  synth_contention(&s, 4194304, 1e9, 1.5e9);
  hnm_fit_model_options o = {.raw = raw, .loss = raw ? HNM_FIT_LOSS_HUBER : HNM_FIT_LOSS_ABS};
  hnm_fit_result r;
  char err[HNM_ERRLEN] = "";
  long printed = -1;
  CHECK_EQ(fit_quiet(&s.data, &o, &r, err, sizeof err, &printed), 0);
  CHECK_EQ(printed, 0);
  if (err[0] != '\0')
    fprintf(stderr, "unexpected error: %s\n", err);
  /* The protocol, to the byte. */
  CHECK_EQ(r.async, A);
  CHECK_EQ(r.detached, D);
  CHECK_EQ(r.overlap_scale, 1.0);
  /* The segments: the model's own, cut at 2048 (the largest sampled size
   * of the first segment) and the thresholds. */
  CHECK_EQ(r.nseg, 4);
  if (r.nseg != 4)
    return;
  for (size_t i = 0; i < 4; i++) {
    const hnm_fit_segment *g = &r.seg[i];
    const struct truth *t = &HYB[i];
    CHECK_EQ(g->upto, t->upto);
    CHECK_NEAR(g->lat, t->L, REL);
    CHECK_NEAR(g->bw, t->B, REL);
    CHECK_NEAR(g->so, t->os, REL);
    CHECK_NEAR(g->sb, t->Os, REL);
    CHECK_NEAR(g->ro, t->ro, REL);
    CHECK_NEAR(g->rb, t->Or, REL);
  }
  /* Predictions at each threshold and its neighbours, and at powers of
   * two, equal SMPI's closed forms. */
  const double at[] = {1, 2047, 2048, 2049, A - 1, A, A + 1, D - 1, D, D + 1, 1048576, 16777216};
  for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
    for (int op = HNM_FIT_SEND; op <= HNM_FIT_PINGPONG; op++)
      CHECK_NEAR(hnm_fit_predict_hybrid(&r, op, at[i]), smpi(op, at[i]), REL);
  CHECK_EQ(hnm_fit_segment_at(&r, 2048)->upto, 2048.0);
  CHECK_EQ(hnm_fit_segment_at(&r, 2049)->upto, A);
  CHECK_EQ(hnm_fit_segment_at(&r, 1e12)->upto, (double)INFINITY);
  /* Contention: B_s + B_r / B = 1.5, within [1, 2]. */
  CHECK_NEAR(r.buni, 1e9, REL);
  CHECK_NEAR(r.bsr, 1.5e9, REL);
  CHECK_NEAR(r.limiter, 1.5, REL);
  CHECK_EQ(r.cont_size, 4194304.0);
  /* The physics bound: the largest messages' bandwidth. */
  CHECK_NEAR(r.route_bw, 1e9, REL);
  /* What comes back to say: 2048 is not a known breakpoint and 4096 is
   * the next sampled size, so it lies in [2048, 4096); nothing else. */
  CHECK_STREQ(r.notes, "note: the breakpoint after 2048 B lies in [2048, 4096) (no size sampled between): "
                       "`hnm-calibrate run --refine MODEL` locates it to the byte\n");
  CHECK_STREQ(r.protocol_notes, "");
  CHECK_EQ(hnm_fit_check(&r, err, sizeof err), 0);
  /* Residuals: every round trip is the model's, R = 1 in every segment
   * (each has at least 10 round trips). */
  CHECK_EQ(hnm_fit_residuals(&s.data, &r, err, sizeof err), 0);
  for (size_t i = 0; i < r.nseg; i++) {
    CHECK_EQ(r.seg[i].nres, (size_t)HNM_FIT_RESIDUALS);
    CHECK_NEAR(r.seg[i].res[0], 1, REL);
    CHECK_NEAR(r.seg[i].res[HNM_FIT_RESIDUALS - 1], 1, REL);
  }
  hnm_fit_result_free(&r);
  CHECK(r.seg == NULL && r.nseg == 0);
}

/* The robust reweighting matters: one repetition in ten of every size
 * is an outlier (three times the model's time: a preempted rank). The
 * absolute loss's line passes through the other nine, which are the
 * model's, so the fit gives back the segments' coefficients; a plain
 * least-squares line would be pulled 20% up (the outliers' mean share). */
static void test_robust(void)
{
  static struct synth s;
  synth_make(&s);
  for (int op = 0; op < 3; op++)
    for (size_t i = 0; i < s.data.op[op].n; i += REPS)
      s.y[op][i] *= 3;
  hnm_fit_model_options o = {.raw = 1, .loss = HNM_FIT_LOSS_ABS};
  hnm_fit_result r;
  char err[HNM_ERRLEN] = "";
  long printed = -1;
  CHECK_EQ(fit_quiet(&s.data, &o, &r, err, sizeof err, &printed), 0);
  if (err[0] != '\0')
    fprintf(stderr, "unexpected error: %s\n", err);
  CHECK_EQ(r.nseg, 4);
  for (size_t i = 0; i < r.nseg && i < 4; i++) {
    CHECK_NEAR(r.seg[i].lat, HYB[i].L, 1e-3);
    CHECK_NEAR(r.seg[i].bw, HYB[i].B, 1e-3);
    CHECK_NEAR(r.seg[i].so, HYB[i].os, 1e-3);
  }
  for (int op = HNM_FIT_SEND; op <= HNM_FIT_PINGPONG; op++)
    CHECK_NEAR(hnm_fit_predict_hybrid(&r, op, 1048576), smpi(op, 1048576), 1e-3);
  hnm_fit_result_free(&r);
}

/* Everything rendez-vous (protocol given: none, none) on a one-segment
 * route: the round trip is 2 (L + k / B), and the fluid and LogGPS fits
 * are that line exactly (LogGPS: o = 0, G = 1 / B, L; its rendez-vous
 * then costs 2 (3 L + k G)). */
static void test_fluid(void)
{
  static double k[3][64 * REPS], y[3][64 * REPS];
  double ks[64];
  size_t nk = sizes(ks), n = 0;
  const double L = 5e-6, B = 1.25e9;
  for (int r = 0; r < REPS; r++)
    for (size_t i = 0; i < nk; i++, n++)
      for (int op = 0; op < 3; op++) {
        k[op][n] = ks[i];
        y[op][n] = (op == HNM_FIT_PINGPONG ? 2 : 1) * (L + ks[i] / B);
      }
  hnm_fit_data d = {0};
  for (int op = 0; op < 3; op++)
    d.op[op] = (hnm_fit_series){k[op], y[op], n, NULL, 0};
  hnm_fit_model_options o = {.raw = 1, .have_protocol = 1, .async = -1, .detached = -1};
  hnm_fit_result r;
  char err[HNM_ERRLEN] = "";
  CHECK_EQ(hnm_fit_model(&d, &o, &r, err, sizeof err), 0);
  CHECK_EQ(r.async, -1.0);
  CHECK_EQ(r.detached, -1.0);
  CHECK_EQ(r.nseg, 1);
  CHECK_NEAR(r.seg[0].lat, L, REL);
  CHECK_NEAR(r.seg[0].bw, B, REL);
  CHECK_EQ(r.seg[0].so, 0.0);
  CHECK_NEAR(r.fl_L, L, REL);
  CHECK_NEAR(r.fl_B, B, REL);
  CHECK_NEAR(r.lg_L, L, REL);
  CHECK_NEAR(r.lg_G, 1 / B, REL);
  CHECK_EQ(r.lg_o, 0.0);
  CHECK_EQ(r.limiter, -1.0); /* no contention probe: keep */
  for (double x = 1; x <= 16777216; x *= 2) {
    CHECK_NEAR(hnm_fit_predict_fluid(&r, HNM_FIT_PINGPONG, x), 2 * (L + x / B), REL);
    /* hnm's LogGPS rendez-vous: a handshake of three latencies each way
     * (docs/model-format.md). */
    CHECK_NEAR(hnm_fit_predict_loggps(&r, HNM_FIT_PINGPONG, x), 2 * (3 * L + x / B), REL);
  }
  CHECK_STREQ(r.notes, "");
  hnm_fit_result_free(&r);
}

/* A refusal: -1, one line naming the place, nothing allocated to free. */
static void refused(const hnm_fit_data *d, const hnm_fit_model_options *o, const char *want, int line)
{
  hnm_fit_result r;
  memset(&r, 0xA5, sizeof r);
  char err[HNM_ERRLEN] = "";
  long printed = -1;
  int rc = fit_quiet(d, o, &r, err, sizeof err, &printed);
  check_at(rc == -1, __FILE__, line, "status %d, want -1", rc);
  check_at(strstr(err, want) != NULL, __FILE__, line, "message \"%s\" lacks \"%s\"", err, want);
  check_at(strchr(err, '\n') == NULL, __FILE__, line, "message \"%s\" is not one line", err);
  check_at(r.seg == NULL && r.nseg == 0, __FILE__, line, "a refused fit left segments");
  check_at(printed == 0, __FILE__, line, "the library printed %ld bytes", printed);
}

static void test_refusals(void)
{
  static struct synth s;
  hnm_fit_model_options o = {.raw = 1};
  /* An empty series, with and without a point-to-point file read. */
  synth_make(&s);
  s.data.op[HNM_FIT_RECV].n = 0;
  refused(&s.data, &o, "p2p.csv:2: no 'recv' measurements in the point-to-point CSV(s)", __LINE__);
  s.data.p2p_file = NULL;
  refused(&s.data, &o, "no point-to-point CSV (header op,size,start,duration) among the inputs", __LINE__);
  /* Not a number, in a duration and in a size. */
  synth_make(&s);
  s.y[HNM_FIT_SEND][7] = NAN;
  refused(&s.data, &o, "p2p.csv:291: op 'send': measurement 8 (128 B, nan s) is not a finite number", __LINE__);
  synth_make(&s);
  s.k[HNM_FIT_PINGPONG][0] = INFINITY;
  refused(&s.data, &o, "op 'pingpong': measurement 1 (inf B,", __LINE__);
  /* No probe, no protocol given. */
  synth_make(&s);
  s.data.nprobe = 0;
  refused(&s.data, &o, "no protocol probe (header size,delay,send,recv,pingpong) among the inputs", __LINE__);
  /* Too few sizes beside a forced breakpoint: 1 B alone below 1.5 B. */
  synth_make(&s);
  const double f = 1.5;
  hnm_fit_model_options of = {.raw = 1, .forced = &f, .nforced = 1};
  refused(&s.data, &of, "p2p.csv:291: op 'send': only 1 distinct size(s) in (0, 1]", __LINE__);
  /* A contention probe without rank 1 in bidirectional mode. */
  synth_make(&s);
  synth_contention(&s, 4194304, 1e9, 1.5e9);
  s.data.ncont = 6;
  refused(&s.data, &o, "contention.csv: no row with pairs 1, mode bi, rank 1", __LINE__);
  /* No latency at all (every time is k / B): nothing to bound with. */
  static double k[3][64], y[3][64];
  double ks[64];
  size_t nk = sizes(ks);
  for (int op = 0; op < 3; op++) {
    for (size_t i = 0; i < nk; i++)
      k[op][i] = ks[i], y[op][i] = (op == HNM_FIT_PINGPONG ? 2 : 1) * ks[i] / 1e9;
    s.data.op[op] = (hnm_fit_series){k[op], y[op], nk, "zero.csv", 9};
  }
  s.data.ncont = 0;
  hnm_fit_model_options on = {.raw = 1, .have_protocol = 1, .async = -1, .detached = -1};
  refused(&s.data, &on, "zero.csv:9: op 'pingpong': the smallest messages (up to", __LINE__);
}

/* Notes and warnings come back in the result: a probe that leaves the
 * eager threshold between two probed sizes, and a contention ratio
 * outside [1, 2]. */
static void test_notes(void)
{
  static struct synth s;
  synth_make(&s);
  /* Without the probe rows at 32768 and 32769, the eager threshold lies
   * between 1 and 262144 B: placed at 1 (the largest eager size probed). */
  s.probe[1] = s.probe[0];
  s.probe[2] = s.probe[0];
  synth_contention(&s, 4194304, 1e9, 3e9);
  hnm_fit_model_options o = {.raw = 1};
  hnm_fit_result r;
  char err[HNM_ERRLEN] = "";
  long printed = -1;
  CHECK_EQ(fit_quiet(&s.data, &o, &r, err, sizeof err, &printed), 0);
  CHECK_EQ(printed, 0);
  CHECK_STREQ(r.protocol_notes, "probe.csv: note: the eager threshold lies in [1, 262144) (no size probed between): "
                                "placed at 1\n");
  CHECK_EQ(r.async, -1.0); /* one sampled size up to 1 B: merged into the next mode */
  CHECK(strstr(r.notes, "warning: probe: the eager range (up to 1 B) holds 1 sampled size(s), too few to fit: "
                        "merged into the next mode\n") != NULL);
  CHECK(strstr(r.notes, "warning: contention: B_s + B_r = 3 x the one-way bandwidth, outside [1, 2] where a node "
                        "limiter can express it; limiter factor set to 2\n") != NULL);
  CHECK_EQ(r.limiter, 2.0);
  hnm_fit_result_free(&r);
}

/* hnm_fit_residuals: R = measured / predicted round trip, type-7
 * quantiles; a segment needs 10 round trips. 10 at 1 B, 1 to 10 times the
 * model's: res[q] = 1 + 9 q / 20. 9 at 4096 B: none for that segment. */
static void test_residuals(void)
{
  static struct synth s;
  synth_make(&s);
  hnm_fit_model_options o = {.raw = 1};
  hnm_fit_result r;
  char err[HNM_ERRLEN] = "";
  CHECK_EQ(hnm_fit_model(&s.data, &o, &r, err, sizeof err), 0);
  double k[19], y[19];
  for (int i = 0; i < 10; i++)
    k[i] = 1, y[i] = (i + 1) * smpi(HNM_FIT_PINGPONG, 1);
  for (int i = 10; i < 19; i++)
    k[i] = 4096, y[i] = smpi(HNM_FIT_PINGPONG, 4096);
  hnm_fit_data d = s.data;
  d.op[HNM_FIT_PINGPONG] = (hnm_fit_series){k, y, 19, NULL, 0};
  CHECK_EQ(hnm_fit_residuals(&d, &r, err, sizeof err), 0);
  CHECK_EQ(r.seg[0].nres, (size_t)HNM_FIT_RESIDUALS);
  for (int q = 0; q < HNM_FIT_RESIDUALS; q++)
    CHECK_NEAR(r.seg[0].res[q], 1 + 9.0 * q / 20, REL);
  CHECK_EQ(r.seg[1].nres, (size_t)0);
  CHECK_EQ(r.seg[2].nres, (size_t)0);
  hnm_fit_result_free(&r);
}

/* hnm_fit_medians: one point per size, its median, in increasing k; then
 * the running median. */
static void test_medians(void)
{
  double k[7] = {3, 1, 3, 2, 1, 4, 4}, y[7] = {5, 1, 7, 10, 3, 2, 2};
  size_t n = 7;
  char err[64];
  CHECK_EQ(hnm_fit_medians(k, y, &n, 0, err, sizeof err), 0);
  CHECK_EQ(n, 4);
  const double wk[4] = {1, 2, 3, 4}, wy[4] = {2, 10, 6, 2};
  for (size_t i = 0; i < 4; i++) {
    CHECK_EQ(k[i], wk[i]);
    CHECK_EQ(y[i], wy[i]);
  }
  /* Window 3: 10 (one size out of line) goes; the ends keep theirs. */
  CHECK_EQ(hnm_fit_medians(k, y, &n, 1, err, sizeof err), 0);
  const double ws[4] = {2, 6, 6, 2};
  for (size_t i = 0; i < 4; i++)
    CHECK_EQ(y[i], ws[i]);
  n = 0;
  CHECK_EQ(hnm_fit_medians(k, y, &n, 2, err, sizeof err), 0);
  CHECK_EQ(n, 0);
}

/* hnm_fit_push: 300 points, across the first growth (256). */
static void test_push(void)
{
  double *k = NULL, *y = NULL;
  size_t n = 0, cap = 0;
  int ok = 1;
  for (int i = 0; i < 300; i++)
    ok &= hnm_fit_push(&k, &y, &n, &cap, i, 2.0 * i) == 0;
  CHECK(ok);
  CHECK_EQ(n, 300);
  CHECK_EQ(cap, 512);
  CHECK_EQ(k[299], 299.0);
  CHECK_EQ(y[256], 512.0);
  free(k);
  free(y);
}

int main(void)
{
  test_hybrid(1);
  test_hybrid(0);
  test_fluid();
  test_robust();
  test_refusals();
  test_notes();
  test_residuals();
  test_medians();
  test_push();
  return check_finish();
}
