/* hnm_pcal.h -- the data of SimGrid's platform-calibration tool (the SimGrid
 * team's public repository "platform-calibration", MIT licence), read into
 * plain arrays that hnm-calibrate fits like its own measurements.
 *
 * What that tool writes (src/calibration/experiments.c, rank 0, seconds):
 *   PREFIX_PingPong.csv  MPI_Send,SIZE,START,D  then  MPI_Recv,SIZE,START,D'
 *       for one round trip: D = the MPI_Send of rank 0 (rank 1 is in its
 *       MPI_Recv), D' = from the end of that send to the end of rank 0's
 *       MPI_Recv of the echo; the round trip is D + D'.
 *   PREFIX_Recv.csv      MPI_Recv,SIZE,START,D  a receive posted one full
 *       round trip after the peer's send started (the sender is early).
 *   PREFIX_Isend.csv     MPI_Isend,SIZE,START,D  the peer's receive posted.
 * These are hnm's send, pingpong, recv and isend (docs/calibration.md).
 * The config XML (<config><prefix value=.../>...) names the files
 * (prefix, breakpoints_file, dirname) and gives eager_threshold and
 * detached_threshold (SMPI's smpi/async-small-thresh and
 * smpi/send-is-detached-thresh: strict, k < value) and expected_bandwidth
 * and expected_latency (the route the tool's output factors are relative
 * to). The breakpoints file is "Limit, Name" then one "LIMIT, NAME" per
 * line: a segment holds LimitInf <= k < Limit (the R analysis script's
 * classify_messages), so hnm's breakpoint is Limit - 1 (k <= Limit - 1).
 *
 * Saturation runs (src/saturation/alltoall_loadtest.c), in
 * ../saturation/ or saturation/ next to the config: RANK,OP,COUNT,START,D
 * with times in milliseconds (nanoseconds / 1e6); load_send.csv first has
 * rank 0 send COUNT bytes to rank N/2 alone (NB_RUNS times), and
 * load_sendrecv_diff.csv first has ranks 0, 1, N/2, N/2+1 each send to one
 * and receive from another at once: B_s + B_r per node.
 */
#ifndef HNM_PCAL_H
#define HNM_PCAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { HNM_PCAL_SEND, HNM_PCAL_RECV, HNM_PCAL_PINGPONG, HNM_PCAL_ISEND, HNM_PCAL_OPS };

typedef struct hnm_pcal_series {
  double *k, *y; /* bytes, seconds */
  size_t n, cap;
  char file[4096]; /* where the rows came from, and the last row's line */
  long line;
} hnm_pcal_series;

typedef struct hnm_pcal {
  char config[4096];
  char prefix[256];
  double eager, detached;   /* SMPI thresholds as written (k < value); -1: absent */
  double exp_bw, exp_lat;   /* bytes/s, seconds; -1: absent */
  char bp_file[4096];       /* "" when the config names none */
  double *bp;               /* breakpoints file limits (exclusive, increasing) */
  size_t nbp;
  hnm_pcal_series op[HNM_PCAL_OPS];
  /* Saturation (have_sat = 1): durations in seconds of the first step of
   * each test, for the two ranks of the first pair (0 and N/2). */
  int have_sat;
  double sat_size;          /* bytes */
  double *uni[2], *bi[2];
  size_t nuni[2], nbi[2];
  char sat_file[4400];
  /* reading state (the pending MPI_Send row of a round trip) */
  int pp_pending;
  double pp_size, pp_start, pp_send;
} hnm_pcal;

/* Read CONFIG and everything it names. 0, or -1 with err = one line
 * "FILE:LINE: field 'X': reason" (or "FILE: ..."). p is always left
 * freeable with hnm_pcal_free(). */
int hnm_pcal_load(const char *config, hnm_pcal *p, char *err, size_t errlen);
void hnm_pcal_free(hnm_pcal *p);

#ifdef __cplusplus
}
#endif

#endif /* HNM_PCAL_H */
