/* hnm_model_impl.h -- private to the model module (hnm_model*.c): the model
 * structure, its limits and the value parsers shared by the file loader and
 * --model overrides. The public API is hnm_model.h. */
#ifndef HNM_MODEL_IMPL_H
#define HNM_MODEL_IMPL_H

#include "hnm_model.h"

#include <limits.h>
#include <stddef.h>

/* Tables are stored per route class, plus one for route="any". */
#define MODEL__ANY HNM_ROUTE_CLASSES
#define MODEL__TABLES (HNM_ROUTE_CLASSES + 1)

/* Largest byte count accepted for a protocol threshold or a LogGPS size:
 * the largest whole number a double holds exactly (2^53), and less than
 * LONG_MAX so that the SMPI threshold (value + 1) still fits in a long. */
#if LONG_MAX > 9007199254740992L
#define MODEL__MAX_BYTES 9007199254740992.0
#else
#define MODEL__MAX_BYTES ((double)(LONG_MAX - 1))
#endif

/* Physical sanity ranges (docs/model-format.md, "Ranges"): values outside
 * are typing mistakes or broken fits, not networks. A time (latency,
 * overhead, gap; also per byte) above 1 s is three orders of magnitude above
 * any network's latency or software overhead and would let the simulated
 * clock run away (1e300 s saturates it); a bandwidth is at most
 * HNM_MAX_BANDWIDTH (1e20 B/s, hnm's "no limit", what a per-byte time of 0
 * means); a factor above 1e6 (or below 1e-6) multiplies a route's latency
 * or bandwidth beyond anything a calibration measures. */
#define MODEL__MAX_TIME 1.0                    /* seconds, or seconds per byte */
#define MODEL__MAX_BANDWIDTH HNM_MAX_BANDWIDTH /* bytes per second */
#define MODEL__MIN_FACTOR 1e-6
#define MODEL__MAX_FACTOR 1e6

#define MODEL__REASON 512

static const char *const model__route_names[MODEL__TABLES] = {"same-host", "same-zone", "remote", "any"};

static const char model__bundled[] = "graphene, smpi-default, smpi-fixed, fluid, loggps";

/* LogGPS parameters, in the order of the <loggps> element. */
enum model__lg { LG_L, LG_o, LG_g, LG_G, LG_s, LG_S, LG_Os, LG_Or, LG_COUNT };

/* How an attribute or --model value is read. */
enum model__kind {
  KIND_TIME,      /* time, 0 <= v <= MODEL__MAX_TIME (seconds, or seconds per byte) */
  KIND_BYTES,     /* whole number of bytes, 0 <= v <= MODEL__MAX_BYTES */
  KIND_UPTO,      /* "inf" or a KIND_BYTES */
  KIND_FACTOR,    /* plain number, MODEL__MIN_FACTOR <= v <= MODEL__MAX_FACTOR */
  KIND_BANDWIDTH  /* bandwidth, 0 < v <= MODEL__MAX_BANDWIDTH */
};

static const struct {
  const char *name;
  enum model__kind kind;
} model__lg_params[LG_COUNT] = {
  {"L", KIND_TIME}, {"o", KIND_TIME}, {"g", KIND_TIME}, {"G", KIND_TIME},
  {"s", KIND_BYTES}, {"S", KIND_BYTES}, {"Os", KIND_TIME}, {"Or", KIND_TIME}
};

/* The attributes of <rma> (all KIND_TIME, default 0), in file order. */
static const struct {
  const char *attr;
  size_t offset; /* in struct hnm_rma */
} model__rma_attrs[] = {
  {"put-o", offsetof(struct hnm_rma, put_o)}, {"put-per-byte", offsetof(struct hnm_rma, put_O)},
  {"get-o", offsetof(struct hnm_rma, get_o)}, {"get-per-byte", offsetof(struct hnm_rma, get_O)},
  {"fence", offsetof(struct hnm_rma, fence)}, {"pscw", offsetof(struct hnm_rma, pscw)},
  {"lock", offsetof(struct hnm_rma, lock)},   {"flush", offsetof(struct hnm_rma, flush)},
};
#define MODEL__RMA_ATTRS (sizeof model__rma_attrs / sizeof model__rma_attrs[0])

static inline double *model__rma_field(struct hnm_rma *r, size_t i)
{
  return (double *)((char *)r + model__rma_attrs[i].offset);
}

struct hnm_model {
  char *name;        /* the name attribute of <hnm-model> */
  char *description; /* may be NULL */
  char *source;      /* path of the file it was loaded from */
  char *overrides;   /* the "k=v,k=v" part of a --model spec, or NULL */
  long async_max;    /* bytes, -1 = never */
  long detached_max; /* bytes, -1 = never */
  enum hnm_limiter_mode limiter;
  double limiter_factor; /* dimensionless, 0 unless HNM_LIMITER_FACTOR */
  enum hnm_contention contention;
  enum hnm_crosstraffic crosstraffic;
  enum hnm_update update;
  /* Owned tables, indexed by route class then MODEL__ANY; NULL if absent. */
  struct hnm_segment *table[MODEL__TABLES];
  size_t table_len[MODEL__TABLES];
  /* Table used by each class: its own, else the "any" one (model__resolve()). */
  const struct hnm_segment *seg[HNM_ROUTE_CLASSES];
  size_t nseg[HNM_ROUTE_CLASSES];
  int is_loggps;
  double loggps[LG_COUNT]; /* SI units, meaningful if is_loggps */
  enum hnm_ports ports;    /* loggps only; calloc's 0 is the default, single */
  double gap;              /* seconds, loggps only */
  int loggps_from_route;   /* loggps only: L, g, G from each message's route (spec item "platform") */
  int has_rma;             /* an <rma> element was given */
  struct hnm_rma rma;      /* meaningful if has_rma */
  int has_pack;            /* a <pack> element was given */
  struct hnm_pack_model pack;
  int stochastic;          /* stochastic="on" */
  int has_seed;            /* a seed attribute or override was given */
  unsigned long long seed; /* meaningful if has_seed; hnm_model_seed() else 1 */
  int owns_residuals;      /* the segments' residual arrays are freed with the model */
};

char *model__strdup(const char *s);
void model__resolve(hnm_model *m);
int model__parse_value(const char *v, enum model__kind kind, double *out, char *reason, size_t len);
int model__parse_threshold(const char *v, long *out, char *reason, size_t len);
int model__parse_ports(const char *v, enum hnm_ports *out, char *reason, size_t len);
int model__check_gap(enum hnm_ports ports, double gap, char *reason, size_t len);
int model__parse_limiter(const char *v, enum hnm_limiter_mode *mode, double *factor, char *reason, size_t len);
int model__check_protocol(long async, long detached, const char *blame, const char **field, char *reason, size_t len);
/* Pack costs (hnm_model_pack.c). Physical ranges: a pack start-up or a
 * per-block cost above 1 ms is not a CPU copying memory, nor a per-byte
 * cost above 1 us/byte (1 MB/s, slower than any memory copy). */
#define MODEL__PACK_MAX_C0 1e-3        /* seconds */
#define MODEL__PACK_MAX_PER_BLOCK 1e-3 /* seconds per block */
#define MODEL__PACK_MAX_PER_BYTE 1e-6  /* seconds per byte */
/* A branch predictor's history holds thousands of branches, not billions. */
#define MODEL__PACK_MAX_HISTORY 1e9 /* runs */
int model__parse_pack_style(const char *v, int *style, char *reason, size_t len);
int model__check_pack(const struct hnm_pack_model *p, const char **field, char *reason, size_t len);
struct hnm_xml_writer;
int model__write_pack(struct hnm_xml_writer *w, const hnm_model *m);
void model__explain_pack(void *file /* FILE* */, const hnm_model *m);

int model__parse_seed(const char *v, unsigned long long *out, char *reason, size_t len);
int model__check_stochastic(const hnm_model *m, char *reason, size_t len);
/* Free a loaded segment's residual quantiles and per-size tables (the
 * model owns them), leaving none. */
void model__free_residuals(struct hnm_segment *s);
int model__loggps_expand(hnm_model *m, const double p[LG_COUNT], const char **field, char *reason, size_t len);

#endif
