/* hnm_fit_result.h -- inside libhnmfit: the fitted model's types, shared
 * by the procedure (hnm_fit_model.h, which fills them) and the physics
 * bounds (hnm_fit_physics.h, which constrain them), so that neither
 * module includes the other's header: hnm_fit_model uses hnm_fit_physics,
 * never the reverse. */
#ifndef HNM_FIT_RESULT_H
#define HNM_FIT_RESULT_H

#include <stddef.h>

#include "hnm_fit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The benchmark's operations (the order of core/hnm_bench.h), and the
 * index of the one-way transfer time in the result's per-op arrays. */
enum {
  HNM_FIT_SEND,     /* blocking send returns (seconds) */
  HNM_FIT_RECV,     /* late receive returns */
  HNM_FIT_PINGPONG, /* round trip */
  HNM_FIT_ISEND,    /* isend returns */
  HNM_FIT_IRECV,    /* read, not fitted */
  HNM_FIT_OPS,
  HNM_FIT_TRANSFER = HNM_FIT_OPS
};

/* Quantiles of a segment's round-trip residuals (hnm_fit_residuals()). */
#define HNM_FIT_RESIDUALS 21
/* Pieces per op in the result (hnm_fit_segments()'s cap). */
#define HNM_FIT_MAX_PIECES 64

/* A segment of the model: sizes up to upto (bytes, INFINITY for the last)
 * above the previous one's. */
typedef struct hnm_fit_segment {
  double upto;
  double lat, bw;                /* seconds, bytes/s */
  double so, sb, ro, rb, io, ib; /* send/recv/isend overheads: s, s/byte */
  double res[HNM_FIT_RESIDUALS]; /* residual quantiles at p = 0, 1/20, ..., 1 */
  size_t nres;                   /* 0 (none) or HNM_FIT_RESIDUALS */
} hnm_fit_segment;

/* The residual quantiles of one measured size (hnm_fit_residuals()). */
typedef struct hnm_fit_sized {
  double k;                      /* bytes */
  size_t seg;                    /* the index of its segment */
  double res[HNM_FIT_RESIDUALS]; /* residual quantiles at p = 0, 1/20, ..., 1 */
} hnm_fit_sized;

/* The fitted model. seg is allocated by hnm_fit_model(): free with
 * hnm_fit_result_free(); a struct copy shares it. */
typedef struct hnm_fit_result {
  double async, detached; /* bytes, -1 = none */
  double limiter;         /* node limiter factor, <= 0 = keep the platform's */
  double overlap_scale;   /* applied to the send and recv overheads (1: none) */
  hnm_fit_segment *seg;
  size_t nseg;
  /* Per measured size, in increasing size (so by segment): its own residual
   * quantiles; allocated by hnm_fit_residuals(), freed with seg. */
  hnm_fit_sized *sized;
  size_t nsized;
  /* Per op (index HNM_FIT_TRANSFER: the one-way transfer), as fitted
   * before the segments were made: the pieces, the noise level, and
   * whether the op was fitted. */
  hnm_fit_piece pieces[HNM_FIT_OPS + 1][HNM_FIT_MAX_PIECES];
  size_t npieces[HNM_FIT_OPS + 1];
  double sigma[HNM_FIT_OPS + 1];
  int have[HNM_FIT_OPS + 1];
  /* Single-segment comparisons: LogGPS (g = G, s = 0, S = detached) and
   * fluid (latency + bandwidth alone). Seconds, seconds per byte, bytes/s. */
  double lg_L, lg_o, lg_G, lg_Os, lg_Or;
  double fl_L, fl_B;
  double route_bw;             /* bytes/s: the largest messages' bandwidth bound, 0 = none */
  double bsr, buni, cont_size; /* contention: B_s + B_r, one-way B (bytes/s), at size (bytes) */
  /* Whole lines ("warning: ..." or "note: ...", each ending in '\n') about
   * the fit, for the caller to show once it is accepted. */
  char notes[16384];
  /* Lines ("FILE: note: ...") about where the probe placed a threshold
   * between two probed sizes: about the inputs, shown as they are read. */
  char protocol_notes[1024];
} hnm_fit_result;

#ifdef __cplusplus
}
#endif

#endif
