/* gcr -- skeleton of the allreduces of one preconditioned GCR solve.
 *
 * Zheng & Marguinaud 2018, Section 3.3, Algorithm 1: a GCR call with restart number k
 * performs, as far as communication goes,
 *   line 6:            one allreduce (MPI_SUM) of 2 doubles (gamma_0, eta_0);
 *   for i = 1..N:
 *     line 13:         one allreduce of min(i, k) doubles (beta_{i,j},
 *                      j = max(0, i-k) .. i-1);
 *     line 16:         one allreduce of 2 doubles (gamma_i, eta_i);
 * that is 2N + 1 allreduces. The paper's Section 4.4 counts the loop only
 * ("2 x N = 50" for N = 25, k = 3); the skeleton also performs line 6, so
 * a default call has 51 allreduces. Algorithm 1 truncates the direction
 * history (min(i, k)); it never resets it: the sizes are 1, 2, ..., k, then k
 * for every later iteration. No computation is simulated.
 *
 * Allreduce algorithms (--algo):
 *   mpi        the library's MPI_Allreduce (its stages and messages are not
 *              visible: reported as 0 stages, 0 messages);
 *   recursive  the paper's recursive-k (Section 3.3, Fig. 4c), radix --k,
 *              any process count P. With p = floor(log_k P) and m = k^p:
 *              stage 0 (only if P > m): each extra process i >= m sends its
 *                vector to i - (P - m) (taken modulo m: the paper's formula
 *                leaves [0, m) when P - m > m, which happens for k > 2; the
 *                modulo keeps it where it is valid and spreads the extras
 *                over the m processes otherwise, at most k - 1 per process),
 *                which adds it to its own;
 *              stages 1..p: process i < m exchanges its vector with the k - 1
 *                other members of its group of k (processes k^(j-1) apart)
 *                and sums the k vectors in group order, so that all members
 *                hold bitwise identical sums;
 *              stage p + 1 (only if P > m): the result goes back to each
 *                extra process.
 *              Stages: p if P = k^p, p + 2 otherwise. Messages (all ranks):
 *                m (k - 1) p + 2 (P - m).
 *
 * Output (skel.h): per GCR call, one line per allreduce (operation
 * "allreduce": its stages and messages) then one line for the call
 * (operation "gcr": its "stages" are its 2N + 1 allreduces, each the maximum
 * over ranks of that allreduce's time; time_s is the maximum over ranks of
 * the rank's summed allreduce times; messages the total). Each allreduce
 * starts at the common instant its own skel_sync sets (skel.h: under SMPI
 * every rank starts at the same simulated time; with a real MPI after an
 * MPI_Barrier) and is followed by the next allreduce's skel_sync (the
 * call's last one by one more); the lines of a call are reduced in one
 * batch and printed after the call, so that no reporting traffic runs
 * between its allreduces.
 *
 * No mutable global state: runs with SMPI privatization off.
 */
#include "skel.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GCR_PROG "gcr"

enum gcr_algo { GCR_ALGO_MPI, GCR_ALGO_RECURSIVE };

struct gcr_opts {
  long n;        /* GCR iterations per call (Algorithm 1's loop over i) */
  long restart;  /* Algorithm 1's restart number k (history length) */
  enum gcr_algo algo;
  long radix;    /* recursive-k radix */
  long calls;    /* GCR calls (--iterations) */
  int report_all; /* 1: allreduce lines and call line; 0: call line only */
  int verify;
  int payload;
};

/* Shape of recursive-k over P processes: m = k^p is the largest power of
 * the radix not above P; P - m processes are folded in and out. */
struct rk_shape {
  int procs;
  int radix;
  int p;        /* stages of exchanges within groups of k */
  int m;        /* k^p */
  int extras;   /* P - m */
  int nstages;  /* p, plus 2 when extras > 0 */
};

/* Buffers of one rank, sized for the largest allreduce of a call. */
struct gcr_bufs {
  double *vec;  /* input, and the recursive-k result (in place) */
  double *out;  /* MPI_Allreduce result */
  double *acc;  /* recursive-k: a stage's sum before it replaces vec */
  double *peer; /* recursive-k: one slot of maxcount doubles per partner */
  double *ref;  /* --verify with recursive: MPI_Allreduce of the same input */
  MPI_Request *req;
  int npeer;    /* slots in peer: min(k, P) - 1 (at least 1) */
};

static void gcr_parse(MPI_Comm comm, int argc, char **argv, struct gcr_opts *o)
{
  int algo = 0, report = 0, no_payload = 0;
  *o = (struct gcr_opts){.verify = 0};
  const struct hnm_opt opts[] = {
    {.name = "n", .kind = HNM_OPT_LONG, .arg = "N", .def = "25", .help = "GCR iterations per call; the default is Zheng & Marguinaud 2018, Section 4.4's", .value = &o->n, .max = 1000000},
    {.name = "restart", .kind = HNM_OPT_LONG, .arg = "K", .def = "3", .help = "restart number k of Algorithm 1; the default is Section 4.4's", .value = &o->restart, .min = 1, .max = 1L << 24},
    {.name = "algo", .kind = HNM_OPT_CHOICE, .arg = "NAME", .def = "recursive", .unit = "mpi|recursive", .help = "mpi (MPI_Allreduce) or recursive (recursive-k, Fig. 4c)", .value = &algo},
    {.name = "k", .kind = HNM_OPT_LONG, .arg = "R", .def = "2", .help = "radix of recursive-k; 2 is recursive doubling,\nthe paper's best radices were 5..32, median about 21", .value = &o->radix, .min = 2, .max = INT_MAX},
    {.name = "iterations", .kind = HNM_OPT_LONG, .arg = "C", .def = "1", .help = "GCR calls", .value = &o->calls, .min = 1, .max = 1000000},
    {.name = "report", .kind = HNM_OPT_CHOICE, .arg = "WHAT", .def = "all", .unit = "all|call", .help = "all (one line per allreduce and per call) or call (per call only)", .value = &report},
    {.name = "verify", .kind = HNM_OPT_FLAG, .help = "check every element of every result against its closed form\n(and recursive-k against MPI_Allreduce of the same input)", .value = &o->verify},
    {.name = "no-payload", .kind = HNM_OPT_FLAG, .help = "no real buffers (incompatible with --verify)", .value = &no_payload},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    GCR_PROG, "[OPTIONS]",
    "Allreduces of one preconditioned GCR solve (Zheng & Marguinaud 2018, Section 3.3, Algorithm 1):\n"
    "per call, 1 allreduce of 2 doubles, then per iteration i = 1..N one of min(i, K)\n"
    "doubles and one of 2 doubles (2N + 1 allreduces, MPI_SUM of doubles).",
    "CSV: program,operation,algorithm,procs,params,stages,messages,time_s,stage_times_s\n"
    "(under smpirun SimGrid takes --help: use -h)\n",
    NULL, 0, NULL};
  skel_options(comm, &cmd, opts, argc, argv);
  o->algo = algo == 0 ? GCR_ALGO_MPI : GCR_ALGO_RECURSIVE;
  o->report_all = report == 0;
  o->payload = !no_payload;
  if (o->verify && !o->payload)
    skel_option_fail(comm, GCR_PROG, "--verify", "needs real buffers: drop --no-payload");
}

static struct rk_shape rk_shape_of(int procs, long radix)
{
  struct rk_shape s = {.procs = procs, .radix = radix > INT_MAX ? INT_MAX : (int)radix, .p = 0, .m = 1};
  /* m * k <= P is tested as m <= P / k: no overflow. */
  while (s.m <= procs / s.radix) {
    s.m *= s.radix;
    s.p++;
  }
  s.extras = procs - s.m;
  s.nstages = s.p + (s.extras > 0 ? 2 : 0);
  return s;
}

/* Doubles of allreduce a (0-based) of a call: Algorithm 1's line 6 for
 * a = 0, then per iteration i = (a + 1) / 2 line 13 (odd a, min(i, k)) and
 * line 16 (even a, 2). */
static int gcr_count(long a, long restart)
{
  if (a == 0 || a % 2 == 0)
    return 2;
  long i = (a + 1) / 2;
  return (int)(i < restart ? i : restart);
}

static int gcr_line(long a)
{
  return a == 0 ? 6 : (a % 2 == 1 ? 13 : 16);
}

/* The partner of extra process i (>= m): i - (P - m), taken modulo m. */
static int rk_target(const struct rk_shape *s, int i)
{
  int t = (i - s->extras) % s->m;
  return t < 0 ? t + s->m : t;
}

/* First extra process folded into process j < m (none if >= P); the next
 * ones follow every m ranks. Inverse of rk_target. */
static int rk_first_extra(const struct rk_shape *s, int j)
{
  return s->m + (int)(((long)j + s->extras) % s->m);
}

/* Recursive-k allreduce (MPI_SUM) of count doubles in b->vec, in place.
 * Fills stage_s[0 .. s->nstages) with this rank's stage times (seconds,
 * the first from t0, the operation's common start) and
 * returns the number of messages this rank sent. Without payload the
 * additions are skipped (the data is meaningless). */
static long rk_allreduce(MPI_Comm comm, const struct rk_shape *s, int rank, int count, struct gcr_bufs *b,
                         int payload, double *stage_s, double t0)
{
  long sent = 0;
  int st = 0;
  int nreq = 0;
  double *vec = b->vec;
  double t_prev = t0;

  /* Stage 0: fold the extra processes into [0, m). */
  if (s->extras > 0) {
    if (rank >= s->m) {
      MPI_Send(vec, count, MPI_DOUBLE, rk_target(s, rank), 0, comm);
      sent++;
    } else {
      int slot = 0;
      for (int i = rk_first_extra(s, rank); i < s->procs; i += s->m)
        MPI_Irecv(b->peer + (size_t)slot++ * count, count, MPI_DOUBLE, i, 0, comm, &b->req[nreq++]);
      MPI_Waitall(nreq, b->req, MPI_STATUSES_IGNORE);
      for (int q = 0; payload && q < slot; q++)
        for (int x = 0; x < count; x++)
          vec[x] += b->peer[(size_t)q * count + x];
      nreq = 0;
    }
    double t = MPI_Wtime();
    stage_s[st++] = t - t_prev;
    t_prev = t;
  }

  /* Stages 1..p: exchange within groups of k processes dist = k^(j-1) apart. */
  int dist = 1;
  for (int j = 1; j <= s->p; j++) {
    if (rank < s->m) {
      int k = s->radix;
      int d = (rank / dist) % k;
      int base = rank - d * dist;
      for (int e = 0; e < k; e++)
        if (e != d)
          MPI_Irecv(b->peer + (size_t)(e < d ? e : e - 1) * count, count, MPI_DOUBLE, base + e * dist, j, comm,
                    &b->req[nreq++]);
      for (int e = 0; e < k; e++)
        if (e != d) {
          MPI_Isend(vec, count, MPI_DOUBLE, base + e * dist, j, comm, &b->req[nreq++]);
          sent++;
        }
      MPI_Waitall(nreq, b->req, MPI_STATUSES_IGNORE);
      nreq = 0;
      if (payload) {
        /* Sum in group order: every member adds the same k vectors in the
         * same order and gets the same bits. */
        for (int x = 0; x < count; x++) {
          double sum = 0;
          for (int e = 0; e < k; e++)
            sum += e == d ? vec[x] : b->peer[(size_t)(e < d ? e : e - 1) * count + x];
          b->acc[x] = sum;
        }
        memcpy(vec, b->acc, sizeof(double) * (size_t)count);
      }
    }
    dist *= s->radix; /* k^p <= P: no overflow */
    double t = MPI_Wtime();
    stage_s[st++] = t - t_prev;
    t_prev = t;
  }

  /* Stage p + 1: send the result back to the extra processes. */
  if (s->extras > 0) {
    if (rank >= s->m) {
      MPI_Recv(vec, count, MPI_DOUBLE, rk_target(s, rank), s->p + 1, comm, MPI_STATUS_IGNORE);
    } else {
      for (int i = rk_first_extra(s, rank); i < s->procs; i += s->m) {
        MPI_Isend(vec, count, MPI_DOUBLE, i, s->p + 1, comm, &b->req[nreq++]);
        sent++;
      }
      MPI_Waitall(nreq, b->req, MPI_STATUSES_IGNORE);
    }
    stage_s[st++] = MPI_Wtime() - t_prev;
  }
  return sent;
}

/* The --verify input: element x of rank r in the allreduce numbered seq
 * (over the whole run) is 1 + (seq mod 1024) + r * count + x, its global
 * index shifted by the allreduce; the sum over P ranks is
 * P (1 + seq mod 1024 + x) + count P (P - 1) / 2. Every partial sum is an
 * integer below 2^53 (checked at start-up), hence exact in any order. */
static double gcr_value(long seq, int r, int count, int x)
{
  return 1.0 + (double)(seq % 1024) + (double)r * count + x;
}

static double gcr_expected(long seq, int procs, int count, int x)
{
  return (double)procs * (1.0 + (double)(seq % 1024) + x) + (double)count * procs * (procs - 1) / 2.0;
}

/* Collective: if any rank found a mismatch (bad_x >= 0), rank 0 reports the
 * lowest failing rank's first one and every rank aborts. */
static void gcr_verdict(MPI_Comm comm, int rank, int procs, long call, long a, int count, long bad_x,
                        double got, double want, const char *against)
{
  int mine = bad_x >= 0 ? rank : procs, first;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == procs)
    return;
  double info[3] = {(double)bad_x, got, want};
  MPI_Bcast(info, 3, MPI_DOUBLE, first, comm);
  skel_fail(comm, GCR_PROG,
            "--verify: call %ld, allreduce %ld (Algorithm 1 line %d, %d doubles): rank %d, element %.0f is "
            "%.17g, expected %.17g (%s)",
            call, a, gcr_line(a), count, first, info[0], info[1], info[2], against);
}

static int gcr_alloc(const struct gcr_opts *o, const struct rk_shape *s, int maxcount, struct gcr_bufs *b)
{
  size_t bytes = sizeof(double) * (size_t)maxcount;
  int procs = s->procs;
  b->npeer = (s->radix < procs ? s->radix : procs) - 1;
  if (b->npeer < 1)
    b->npeer = 1;
  b->vec = skel_alloc(bytes, o->payload);
  b->out = skel_alloc(bytes, o->payload);
  b->acc = skel_alloc(bytes, o->payload);
  b->peer = skel_alloc(bytes * (size_t)b->npeer, o->payload);
  b->ref = o->verify ? skel_alloc(bytes, 1) : NULL;
  b->req = malloc(sizeof(MPI_Request) * 2 * (size_t)b->npeer);
  return b->vec != NULL && b->out != NULL && b->acc != NULL && b->peer != NULL &&
         (b->ref != NULL || !o->verify) && b->req != NULL;
}

static void gcr_free(const struct gcr_opts *o, struct gcr_bufs *b)
{
  skel_free(b->vec, o->payload);
  skel_free(b->out, o->payload);
  skel_free(b->acc, o->payload);
  skel_free(b->peer, o->payload);
  skel_free(b->ref, 1);
  free(b->req);
}

/* Check allreduce A of call C (sequence number SEQ, COUNT doubles) on every
 * rank: against the closed-form sum, and for the recursive algorithm also
 * against MPI_Allreduce of the same input (gcr_verdict: collective).
 * Returns the doubles checked. */
static long gcr__verify(MPI_Comm comm, int rank, int procs, struct gcr_bufs *b, int recursive, long c, long a,
                        long seq, int count)
{
  const double *res = recursive ? b->vec : b->out;
  long bad = -1;
  double got = 0, want = 0;
  for (int x = 0; x < count; x++) {
    double e = gcr_expected(seq, procs, count, x);
    if (res[x] != e && bad < 0) {
      bad = x;
      got = res[x];
      want = e;
    }
  }
  gcr_verdict(comm, rank, procs, c, a, count, bad, got, want, "closed-form sum");
  if (recursive) {
    for (int x = 0; x < count; x++)
      b->acc[x] = gcr_value(seq, rank, count, x);
    MPI_Allreduce(b->acc, b->ref, count, MPI_DOUBLE, MPI_SUM, comm);
    for (int x = 0; x < count; x++)
      if (res[x] != b->ref[x] && bad < 0) {
        bad = x;
        got = res[x];
        want = b->ref[x];
      }
    gcr_verdict(comm, rank, procs, c, a, count, bad, got, want, "MPI_Allreduce of the same input");
  }
  return count;
}

int main(int argc, char **argv)
{
  int rank, procs;
  MPI_Comm comm = skel_init(&argc, &argv, &rank, &procs);

  struct gcr_opts o;
  gcr_parse(comm, argc, argv, &o);
  struct rk_shape s = rk_shape_of(procs, o.radix);
  long nallr = 2 * o.n + 1;
  int maxcount = (int)(o.n < o.restart ? o.n : o.restart);
  if (maxcount < 2)
    maxcount = 2;
  int recursive = o.algo == GCR_ALGO_RECURSIVE;
  const char *algo = recursive ? "recursive" : "mpi";
  int nst = recursive ? s.nstages : 0;

  if (o.verify) {
    double top = (double)procs * (1024.0 + (double)procs * maxcount);
    if (top >= 9007199254740992.0)
      skel_option_fail(comm, GCR_PROG, "--verify", "sums of %d ranks x %d doubles would not be exact in double", procs,
                maxcount);
  }

  struct gcr_bufs b;
  int ok = gcr_alloc(&o, &s, maxcount, &b);
  double *times = malloc(sizeof(double) * (size_t)nallr);
  double *stages = malloc(sizeof(double) * (size_t)nallr * (size_t)(nst > 0 ? nst : 1));
  long *msgs = malloc(sizeof(long) * (size_t)nallr);
  struct skel_batch *batch = skel_batch_new(comm, NULL);
  ok = ok && times != NULL && stages != NULL && msgs != NULL && batch != NULL;
  skel_fail_if_any(comm, !ok, GCR_PROG, "out of memory for %d doubles x %d partners", maxcount, b.npeer);

  skel_csv_header(comm);
  long checked = 0;
  char params[256];
  for (long c = 0; c < o.calls; c++) {
    for (long a = 0; a < nallr; a++) {
      int count = gcr_count(a, o.restart);
      long seq = c * nallr + a;
      double *st = stages + (size_t)a * (size_t)nst;
      if (o.payload)
        for (int x = 0; x < count; x++)
          b.vec[x] = gcr_value(seq, rank, count, x);

      double t0 = skel_sync(comm, batch);
      if (recursive) {
        msgs[a] = rk_allreduce(comm, &s, rank, count, &b, o.payload, st, t0);
      } else {
        MPI_Allreduce(b.vec, b.out, count, MPI_DOUBLE, MPI_SUM, comm);
        msgs[a] = 0;
      }
      times[a] = MPI_Wtime() - t0;

      if (o.verify)
        checked += gcr__verify(comm, rank, procs, &b, recursive, c, a, seq, count);
    }

    /* Every allreduce is followed by a skel_sync, the last one too: with
     * detached sends a rank may leave an allreduce while its last messages
     * are still in flight, and what it does next (the next skel_sync)
     * shares links with them. Then report the call in one batch: no
     * reporting traffic between the allreduces of a call. */
    skel_sync(comm, batch);
    double total = 0;
    long total_msgs = 0;
    for (long a = 0; a < nallr; a++) {
      total += times[a];
      total_msgs += msgs[a];
      if (o.report_all) {
        if (recursive)
          snprintf(params, sizeof params, "k=%ld;call=%ld;allreduce=%ld;line=%d;doubles=%d", o.radix, c, a,
                   gcr_line(a), gcr_count(a, o.restart));
        else
          snprintf(params, sizeof params, "call=%ld;allreduce=%ld;line=%d;doubles=%d", c, a, gcr_line(a),
                   gcr_count(a, o.restart));
        skel_batch_add(batch, GCR_PROG, "allreduce", algo, params, nst, stages + (size_t)a * (size_t)nst, msgs[a],
                       times[a]);
      }
    }
    if (recursive)
      snprintf(params, sizeof params, "n=%ld;restart=%ld;k=%ld;call=%ld", o.n, o.restart, o.radix, c);
    else
      snprintf(params, sizeof params, "n=%ld;restart=%ld;call=%ld", o.n, o.restart, c);
    skel_batch_add(batch, GCR_PROG, "gcr", algo, params, (int)nallr, times, total_msgs, total);
    skel_batch_report(comm, batch, GCR_PROG);
  }

  if (o.verify)
    skel_verify_ok(comm, GCR_PROG, checked);

  skel_batch_free(batch);
  free(times);
  free(stages);
  free(msgs);
  gcr_free(&o, &b);
  MPI_Finalize();
  return 0;
}
