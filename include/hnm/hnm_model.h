/* hnm_model.h -- network models for SMPI, as plain data (no SimGrid here).
 *
 * A model describes how SMPI should time one point-to-point message of k
 * bytes (k = the user's payload; SMPI adds a 16-byte envelope before it asks
 * for latency/bandwidth factors, see hnm_segment_lat_factor()):
 *
 *   - protocol thresholds: k <= async_max is sent eagerly (the data starts to
 *     flow at once, the sender returns after its overhead); k <= detached_max
 *     is detached (the sender returns after its overhead, the data flows once
 *     the receive is posted); larger messages use a rendez-vous (both sides
 *     complete together when the data has arrived). -1 means "never".
 *   - an ordered table of message-size segments, per route class; segment i
 *     covers upto[i-1] < k <= upto[i] (the first starts at 0, the last has
 *     upto = INFINITY). Each segment gives the latency (a factor applied to
 *     the route's latency, or an absolute value), the bandwidth (a factor
 *     applied to the flow's rate, or an absolute rate) and three affine
 *     software overheads o + k*O (MPI_Send, MPI_Isend, MPI_Recv).
 *   - the node limiter: keep the platform's limiter links as they are, remove
 *     them, or size them at factor x B (B: the node's own link bandwidth).
 *   - contention: max-min sharing over the route's links (SimGrid's fluid
 *     model) or none (every link becomes a FATPIPE: LogGPS-style).
 *   - cross-traffic (SimGrid's modelling of TCP acknowledgements): as SimGrid
 *     configures it, forced on, or forced off.
 *
 * Lifecycle: hnm_model_load() / hnm_model_parse_spec() -> use -> hnm_model_free().
 * The model is immutable once loaded and may be shared by readers.
 */
#ifndef HNM_MODEL_H
#define HNM_MODEL_H

#include <stddef.h>

#include "hnm_error.h" /* every function that can fail: err, errlen */
#include "hnm_ports.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The route classes a table can be given for. A message's class is decided
 * from its two end hosts only (so that the overhead callbacks, which see the
 * hosts and not the route, agree with the factor callbacks):
 *   same-host: source and destination are the same host;
 *   same-zone: different hosts of the same innermost netzone (e.g. one cabinet);
 *   remote:    anything else (the route crosses netzones).
 * A model with a single table (route="any") uses it for all three. */
enum hnm_route_class {
  HNM_ROUTE_SAME_HOST = 0,
  HNM_ROUTE_SAME_ZONE = 1,
  HNM_ROUTE_REMOTE    = 2,
  HNM_ROUTE_CLASSES   = 3
};

enum hnm_limiter_mode {
  HNM_LIMITER_KEEP   = 0, /* leave the platform's limiter links as declared */
  HNM_LIMITER_OFF    = 1, /* limiter links no longer constrain anything */
  HNM_LIMITER_FACTOR = 2  /* limiter bandwidth = factor x B */
};

enum hnm_contention { HNM_CONTENTION_MAXMIN = 0, HNM_CONTENTION_NONE = 1 };

enum hnm_crosstraffic {
  HNM_CROSSTRAFFIC_SIMGRID = 0, /* leave SimGrid's network/crosstraffic as configured */
  HNM_CROSSTRAFFIC_ON      = 1,
  HNM_CROSSTRAFFIC_OFF     = 2
};

/* How SimGrid's selective max-min update (network/optim:Lazy) runs. */
enum hnm_update {
  HNM_UPDATE_FIXED   = 0, /* with the plugin's mend of SimGrid 3.32's defect (docs/lazy-bug/) */
  HNM_UPDATE_SIMGRID = 1  /* SimGrid's own code, defect included (smpi-default: plain smpirun) */
};

/* The residuals measured at one message size: n >= 2 quantiles q of rho
 * at the probabilities 0, 1/(n-1), ..., 1, as the segment's own. upto is
 * the largest size the table serves (bytes): the geometric mean
 * sqrt(size x the next table's size), INFINITY for the segment's last
 * table, so that a message takes the table nearest its size in log scale
 * (ties to the smaller size). Set by the loader; a writer ignores it. */
struct hnm_residual_table {
  double size; /* bytes */
  double upto; /* bytes */
  size_t n;
  const double *q;
};

/* One message-size segment. Plain data, read-only for users of the model. */
struct hnm_segment {
  double upto;            /* bytes, inclusive upper bound of k; INFINITY for the last */
  int latency_absolute;   /* 0: latency = lat_factor x route latency; 1: latency = latency_s */
  double lat_factor;      /* dimensionless, used when latency_absolute == 0 */
  double latency_s;       /* seconds, used when latency_absolute == 1 */
  int bandwidth_absolute; /* 0: rate = bw_factor x max-min share; 1: rate = bandwidth_Bps */
  double bw_factor;       /* dimensionless, used when bandwidth_absolute == 0 */
  double bandwidth_Bps;   /* bytes/s, used when bandwidth_absolute == 1 */
  double send_o, send_O;  /* MPI_Send overhead: send_o [s] + k x send_O [s/byte] */
  double isend_o, isend_O;/* MPI_Isend overhead, same units */
  double recv_o, recv_O;  /* MPI_Recv overhead, same units */
  /* Stochastic mode (hnm_model_stochastic()): the distribution of the
   * multiplicative residual rho of a message's one-way time (measured /
   * modelled), as its quantiles at the probabilities 0, 1/(n-1), ..., 1:
   * n = nresiduals >= 2 values, nondecreasing, > 0; linear between them
   * (hnm_segment_residual()). NULL and 0: no residuals, rho = 1. */
  size_t nresiduals;
  const double *residuals;
  /* Finer than the segment: residual tables measured at single message
   * sizes (<residuals> elements), in increasing size, all inside the
   * segment; a message draws from the one nearest its size
   * (hnm_segment_residual_table()), and from the segment's own quantiles
   * above only when there is none. NULL and 0: none. */
  size_t nsized;
  const struct hnm_residual_table *sized;
};

/* At most this many quantiles per segment or table, and this many tables
 * per segment. */
#define HNM_MAX_RESIDUALS 1001
#define HNM_MAX_RESIDUAL_TABLES 4096

/* One-sided communication (MPI RMA) costs of a model's <rma> element
 * (docs/models.md, "One-sided communication"). SMPI moves an MPI_Put /
 * MPI_Get / MPI_Accumulate as a point-to-point message whose wire time the
 * segments give; with these costs the origin pays put_o + k x put_O (or
 * get_o + k x get_O) before the data flows, nobody pays a receive overhead
 * (RDMA: the target's CPU takes no part), the messages SMPI exchanges to
 * synchronise (barriers, post/complete notices) carry no overhead, and each
 * synchronisation call costs its mode's constant when it returns. */
struct hnm_rma {
  double put_o, put_O; /* MPI_Put, MPI_Accumulate at the origin: seconds, seconds per byte */
  double get_o, get_O; /* MPI_Get at the origin: seconds, seconds per byte */
  double fence;        /* seconds per MPI_Win_fence call */
  double pscw;         /* seconds per MPI_Win_post, _start, _complete or _wait call */
  double lock;         /* seconds per MPI_Win_lock, _unlock, _lock_all or _unlock_all call */
  double flush;        /* seconds per MPI_Win_flush, _flush_all, _flush_local or _flush_local_all call */
};

/* Bytes/s standing for "no bandwidth limit" in absolute segments (a LogGPS
 * gap of 0 s/byte): SimGrid needs a finite rate. */
#define HNM_MAX_BANDWIDTH 1e20

typedef struct hnm_model hnm_model;

/* Load a model from an XML file (validated against hnm-model.dtd, see
 * hnm_model_dtd_path()). Returns a new model (free with hnm_model_free()), or
 * NULL with err filled as "FILE:LINE: field 'X': reason". */
hnm_model *hnm_model_load(const char *path, char *err, size_t errlen);
/* The same from LEN bytes at BUF; NAME stands for the file in messages. */
hnm_model *hnm_model_load_memory(const char *name, const char *buf, size_t len, char *err, size_t errlen);

/* Resolve a --model specification:
 *   NAME            a bundled model: graphene, smpi-default, smpi-fixed, fluid, loggps
 *                   (looked up as NAME.xml in hnm_model_dir());
 *   FILE            a path containing '/' or ending in ".xml";
 *   NAME:k=v,k=v    either of the above followed by inline overrides.
 * Inline keys for every model: async, detached (sizes or "none"), pack (the
 * pack style charged: interpreted, compiled, manual or none), limiter
 * (a factor, "off" or "keep"). For loggps only: L, o, g, G, s, S, Os, Or
 * (L, o: times; g, G, Os, Or: times per byte; s, S: sizes). Returns a new model
 * or NULL with err filled ("--model: key 'X': reason"). */
hnm_model *hnm_model_parse_spec(const char *spec, char *err, size_t errlen);

void hnm_model_free(hnm_model *m);

/* Where bundled models and the DTD live: $HNM_MODEL_DIR if set, else
 * HOME/share/hnm/models (hnm_home.h: $HNM_HOME or found next to the running
 * code), else the literal "$HNM_HOME/share/hnm/models" so that the error
 * naming the missing file says what to set. Never NULL. */
const char *hnm_model_dir(void);
const char *hnm_model_dtd_path(void); /* hnm_model_dir()/hnm-model.dtd */

const char *hnm_model_name(const hnm_model *m);
long hnm_model_async_max(const hnm_model *m);    /* bytes, -1 = never */
long hnm_model_detached_max(const hnm_model *m); /* bytes, -1 = never */
enum hnm_limiter_mode hnm_model_limiter_mode(const hnm_model *m);
double hnm_model_limiter_factor(const hnm_model *m); /* meaningful for HNM_LIMITER_FACTOR */
enum hnm_contention hnm_model_contention(const hnm_model *m);
enum hnm_crosstraffic hnm_model_crosstraffic(const hnm_model *m);
enum hnm_update hnm_model_update(const hnm_model *m);

/* If m is a LogGPS model (a <loggps> element), fill *out with its
 * parameters, port mode and gap, and return 1; otherwise return 0 and leave
 * *out alone. LogGPS transfers are timed by hnm_ports (hnm_ports.h); the
 * segment table still gives their overheads. */
int hnm_model_loggps(const hnm_model *m, struct hnm_loggps *out);

/* If m has an <rma> element, fill *out with its costs and return 1;
 * otherwise return 0 and leave *out alone (SMPI then times one-sided
 * communication with the point-to-point overheads, as it does alone). */
int hnm_model_rma(const hnm_model *m, struct hnm_rma *out);

/* 1 if runs of this model need network/optim:Full: LogGPS models, because
 * under Lazy the order in which same-instant transfers take a port follows
 * last-bit differences of event dates, so it changes with the platform's
 * values. 0 for the others. Max-min models keep SimGrid's selective update
 * (Lazy): SimGrid 3.32's can solve a flow whose latency ends at the same
 * instant as another event against only part of its route and overload a
 * shared link (docs/lazy-bug/README.md), and the plugin mends that (or
 * falls back to Full itself) unless the model asks for SimGrid's own update
 * (hnm_model_update(), smpi-default). Lazy and Full cost about the same on
 * the skeletons (docs/models.md). Contention-free models (FATPIPE links,
 * each flow bounded by its narrowest link) cannot meet the defect. */
int hnm_model_needs_full_update(const hnm_model *m);

/* Stochastic mode (docs/model-format.md, "Stochastic mode"): 1 if the
 * model's stochastic="on" (or the override stochastic=on), else 0. Off by
 * default; a stochastic model has residuals in at least one segment. */
int hnm_model_stochastic(const hnm_model *m);
/* The model's seed attribute (or override), 1 when not given. */
unsigned long long hnm_model_seed(const hnm_model *m);

/* The N-th number (N from 0) of stream SEED, uniform in [0, 1) with 53
 * random bits: the N-th output of a SplitMix64 generator (Steele, Lea and
 * Flood 2014) whose state starts at SEED's SplitMix64 hash. A function of
 * (SEED, N) alone, so that a draw does not depend on which draws came
 * before it. */
double hnm_random_uniform(unsigned long long seed, unsigned long long n);

/* The residual of segment S at probability U in [0, 1]: the inverse of the
 * piecewise-linear distribution function through its quantiles, q_i +
 * (U (n-1) - i) (q_{i+1} - q_i) with i = floor(U (n-1)); 1 without
 * residuals. Its mean over uniform U is the mean of the trapezoids,
 * hnm_segment_residual_mean(); its second moment
 * (1/(n-1)) sum (q_i^2 + q_i q_{i+1} + q_{i+1}^2) / 3. */
double hnm_segment_residual(const struct hnm_segment *s, double u);
/* The table of S a message of K bytes (user payload) draws from: the first
 * of S's per-size tables with K <= upto (binary search, O(log tables)), or
 * NULL when S has none. */
const struct hnm_residual_table *hnm_segment_residual_table(const struct hnm_segment *s, double k);
/* rho at probability U for a message of K bytes in S: the quantiles of
 * hnm_segment_residual_table(S, K), interpolated as hnm_segment_residual()
 * does, or hnm_segment_residual(S, U) when S has no per-size table. */
double hnm_segment_residual_at(const struct hnm_segment *s, double k, double u);
double hnm_segment_residual_mean(const struct hnm_segment *s);
double hnm_segment_residual_variance(const struct hnm_segment *s);

/* A message whose one-way time the model puts at OVER_S (the send and
 * receive overheads a blocking send pays) + WIRE_S (latency + transfer), and
 * whose residual is RHO, lasts RHO (OVER_S + WIRE_S) if its wire time is
 * multiplied by 1 + (RHO - 1) (OVER_S + WIRE_S) / WIRE_S: the noise of the
 * whole message is carried by its transfer. The result is at least
 * HNM_MIN_WIRE_MULTIPLIER (a residual below OVER_S / (OVER_S + WIRE_S) cannot
 * be reached: the overheads are paid in full). */
#define HNM_MIN_WIRE_MULTIPLIER 0.01
double hnm_wire_multiplier(double rho, double over_s, double wire_s);

/* Segment table of a route class (falls back to the model's "any" table).
 * *count receives the number of segments (>= 1). The array is owned by m. */
const struct hnm_segment *hnm_model_segments(const hnm_model *m, enum hnm_route_class c, size_t *count);

/* The segment holding a message of k bytes (user payload) for route class c:
 * the first segment with k <= upto. Binary search, O(log segments), no
 * allocation: this runs once per simulated message. Never NULL. */
const struct hnm_segment *hnm_model_segment(const hnm_model *m, enum hnm_route_class c, double k);

/* SMPI hands its factor callbacks the payload plus a 16-byte envelope. */
#define HNM_SMPI_ENVELOPE_BYTES 16.0

/* Latency factor for SimGrid's callback, for a message whose SimGrid size is
 * payload_bytes (= k + 16) on a route whose latencies add up to route_lat_s.
 * Relative segments return lat_factor. Absolute segments return the factor
 * that makes latency + payload/rate equal latency_s + k/bandwidth_Bps, i.e.
 * (latency_s - 16/bandwidth_Bps) / route_lat_s; if route_lat_s <= 0 they
 * return 1 and *lost is set to 1 (SimGrid multiplies a zero latency).
 * lost may be NULL. */
double hnm_segment_lat_factor(const struct hnm_segment *s, double payload_bytes, double route_lat_s, int *lost);

/* Bandwidth factor for SimGrid's callback: relative segments return
 * bw_factor; absolute ones bandwidth_Bps / route_min_bw_Bps (SimGrid bounds a
 * flow by the smallest link bandwidth on its route and multiplies the
 * resulting rate by this factor). */
double hnm_segment_bw_factor(const struct hnm_segment *s, double route_min_bw_Bps);

/* Overheads in seconds for a message of k bytes. */
double hnm_segment_send_overhead(const struct hnm_segment *s, double k);
double hnm_segment_isend_overhead(const struct hnm_segment *s, double k);
double hnm_segment_recv_overhead(const struct hnm_segment *s, double k);

/* SimGrid's thresholds are strict ("size < thresh"): async_max + 1, or 0 for
 * "never" (SMPI's value meaning "off"). */
long hnm_model_smpi_async_thresh(const hnm_model *m);
long hnm_model_smpi_detached_thresh(const hnm_model *m);

/* Derived-datatype pack/unpack costs (Schneider, Kjolstad and Hoefler 2013;
 * docs/models.md, "Packing"). SMPI packs a non-contiguous datatype inside the
 * MPI call and charges no time for it; a model with a <pack> element charges
 *   T = c0 + per_block x blocks + per_byte x bytes + per_jump x jumps
 *       + per_element x (elements - 1)
 *       + per_irregular x blocks x max(0, 1 - history / period)  [seconds]
 * to the sender before the transfer (pack) and to the receiver after it
 * (unpack), where blocks is the number of maximal contiguous runs of the
 * message's data (its flattened type map, in order, adjacent runs merged),
 * bytes its payload, and jumps the number of runs that start a whole number
 * of 4 KiB pages away from the previous run's start (core/hnm_bench.h,
 * hnm_bench_pack_jump(): the cache-set and 4 KiB aliasing conflicts of
 * power-of-two strides, the memory system's cost that blocks and bytes
 * cannot see); elements is the count of the call (the engine's loop over
 * them costs per element after the first), and period the runs of one
 * repetition of an irregular layout (core/hnm_bench.h: block lengths that
 * differ; 0 for a regular one, then the last term is 0): once it exceeds
 * the history capacity (runs), the branch predictor no longer learns the
 * sequence of lengths and each run costs up to per_irregular more. A
 * message of at most one run (every contiguous type) costs nothing. The
 * coefficients depend on the datatype's class and
 * on the implementation style; the model names the style its MPI calls are
 * charged with ("use"), the others are kept for comparison. A datatype's
 * class is that of the structure that makes most of its runs: a
 * constructor over contiguous old types gives its own class, one over
 * non-contiguous old types passes their class on (a struct of subarrays is
 * of class subarray, an hvector of vectors of class vector). */
enum hnm_pack_class {
  HNM_PACK_VECTOR   = 0, /* MPI_Type_vector, MPI_Type_create_hvector */
  HNM_PACK_INDEXED  = 1, /* indexed, hindexed, indexed_block, struct */
  HNM_PACK_SUBARRAY = 2, /* MPI_Type_create_subarray, MPI_Type_create_darray */
  HNM_PACK_CLASSES  = 3
};
enum hnm_pack_style {
  HNM_PACK_INTERPRETED = 0, /* today's MPI libraries: the type is walked at pack time */
  HNM_PACK_COMPILED    = 1, /* pack code generated for the type (the paper's libpack) */
  HNM_PACK_MANUAL      = 2, /* the application's own copy loop */
  HNM_PACK_STYLES      = 3,
  HNM_PACK_NONE        = -1 /* no pack cost charged (SMPI's behaviour) */
};
enum hnm_pack_op { HNM_PACK_OP_PACK = 0, HNM_PACK_OP_UNPACK = 1, HNM_PACK_OPS = 2 };

struct hnm_pack_cost {
  double c0;        /* seconds per call */
  double per_block; /* seconds per contiguous block */
  double per_byte;  /* seconds per byte */
  double per_jump;  /* seconds per jump; 0 when the model file does not give it */
  /* The terms below are 0 when the model file does not give them. */
  double per_element;   /* seconds per element after the first */
  double per_irregular; /* seconds per block of an irregular message, at full weight */
  double history;       /* runs: the period up to which irregular lengths cost nothing (>= 1 when
                           per_irregular > 0) */
};

/* What the pack model reads of one message: blocks, bytes, jumps as above,
 * elements (the call's count, >= 1) and period (0: a regular layout). */
struct hnm_pack_shape {
  double blocks, bytes, jumps, elements, period;
};

/* The <pack> element as data: cost[style][class][op] is meaningful when
 * present[style]; use is the style charged to MPI calls, or HNM_PACK_NONE. */
struct hnm_pack_model {
  int use;
  int present[HNM_PACK_STYLES];
  struct hnm_pack_cost cost[HNM_PACK_STYLES][HNM_PACK_CLASSES][HNM_PACK_OPS];
};

const char *hnm_pack_class_name(enum hnm_pack_class c);  /* "vector", "indexed", "subarray" */
const char *hnm_pack_style_name(int style);              /* "interpreted", ..., "none" for HNM_PACK_NONE */

/* The model's pack costs, or NULL if it has no <pack> element (then nothing
 * is charged). Owned by m. */
const struct hnm_pack_model *hnm_model_pack(const hnm_model *m);

/* The style charged to MPI calls: HNM_PACK_NONE without a <pack> element. */
int hnm_model_pack_style(const hnm_model *m);

/* T above for message S, or 0 when S->blocks <= 1 (contiguous data) or c
 * is NULL. Each of the per_jump, per_element and per_irregular terms is
 * added only when its coefficient is not 0, so that a model without them
 * gives the time of the terms it has, bit for bit. Seconds. */
double hnm_pack_time_of(const struct hnm_pack_cost *c, const struct hnm_pack_shape *s);

/* The weight of an irregular message's blocks in the per_irregular term:
 * max(0, 1 - history / period), 0 when period <= history or history <= 0. */
double hnm_pack_irregular_weight(double history, double period);

/* The same for one element of a regular layout (elements 1, period 0):
 * c0 + per_block x blocks + per_byte x bytes + per_jump x jumps. */
double hnm_pack_time(const struct hnm_pack_cost *c, double blocks, double bytes, double jumps);

/* The time the model charges one pack (op) of message S of class CLS under
 * its style in use: 0 without pack costs. Seconds. */
double hnm_model_pack_time_of(const hnm_model *m, enum hnm_pack_class cls, enum hnm_pack_op op,
                              const struct hnm_pack_shape *s);

/* The same for one element of a regular layout of BLOCKS runs, BYTES bytes
 * and JUMPS jumps. */
double hnm_model_pack_time(const hnm_model *m, enum hnm_pack_class cls, enum hnm_pack_op op, double blocks,
                           double bytes, double jumps);

/* A model described in memory (what hnm-calibrate fits). Either LOGGPS (the
 * 8 parameters L o g G s S Os Or in SI units: seconds, bytes) or the route
 * "any" table SEGMENTS[0 .. NSEGMENTS) (upto increasing, the last INFINITY). */
struct hnm_model_desc {
  const char *name, *description; /* description may be NULL */
  long async_max, detached_max;   /* bytes, -1 = never (ignored for LogGPS) */
  enum hnm_limiter_mode limiter;
  double limiter_factor;          /* for HNM_LIMITER_FACTOR */
  enum hnm_contention contention;
  enum hnm_crosstraffic crosstraffic;
  const double *loggps;           /* [8], or NULL */
  const struct hnm_segment *segments; /* with their residuals, if any (copied) */
  size_t nsegments;
  const struct hnm_pack_model *pack; /* pack costs, or NULL for none */
  enum hnm_update update;         /* HNM_UPDATE_FIXED (0) unless set */
  const struct hnm_rma *rma;      /* one-sided costs, or NULL for none (not with LOGGPS) */
};

/* Build a model from D, checked exactly as a model file is (it is written
 * and loaded back): NULL with err filled if hnm_model_load() would refuse
 * it. Free with hnm_model_free(). */
hnm_model *hnm_model_new(const struct hnm_model_desc *d, char *err, size_t errlen);

/* Write M as a model file (docs/model-format.md) to FILE (a FILE*), through
 * libxml2's xmlTextWriter: hnm_model_load() of the result gives the same
 * model. Returns 0, or -1 with err filled (a write error). */
int hnm_model_write(const hnm_model *m, void *file, char *err, size_t errlen);

/* Print the effective parameters, human-readable, one segment per line. */
void hnm_model_explain(const hnm_model *m, void *file /* FILE* */);

#ifdef __cplusplus
}
#endif

#endif /* HNM_MODEL_H */
