/* hnm_speed.h -- the speed at which hnm-run counts measured computation.
 *
 * SMPI measures the CPU time a rank spends between two MPI calls on the
 * machine running the simulation, and injects it as
 *   flops = seconds x smpi/host-speed,
 * which the rank's simulated host executes at its own speed, so
 *   simulated seconds = measured CPU seconds x smpi/host-speed / host speed.
 * SimGrid 3.32's default smpi/host-speed is 20,000 flop/s ("20000f"): on
 * hosts of 1 Gf a measured second becomes 20 us and computation all but
 * vanishes. hnm-run gives smpi/host-speed a value instead, first that
 * applies:
 *   1. the user's --cfg=smpi/host-speed:V (nothing is added);
 *   2. the platform's <config> smpi/host-speed (hnm-calibrate machine writes
 *      the speed of the calibrated machine there);
 *   3. the speed of the platform's hosts that run ranks (the hostfile's
 *      first -np places, or every host without hostfile): a second of CPU
 *      measured here is a second on such a host. If they differ, the
 *      fastest one's: a second here is a second on the fastest host, and a
 *      host of half its speed takes two.
 * A value is written back as SimGrid reads it ("%.17gf": exact in flop/s).
 */
#ifndef HNM_SPEED_H
#define HNM_SPEED_H

#include "hnm_check.h"

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum run_speed_source {
  RUN_SPEED_NONE = 0, /* no host speed known: SimGrid's default applies */
  RUN_SPEED_USER,     /* --cfg=smpi/host-speed on the command line */
  RUN_SPEED_CONFIG,   /* the platform's <config> */
  RUN_SPEED_HOSTS     /* the speed of the hosts that run ranks */
} run_speed_source;

typedef struct run_speed {
  run_speed_source source;
  double value;    /* smpi/host-speed in flop/s (0 when the user's value is not understood here) */
  char text[64];   /* the value for --cfg=smpi/host-speed: (empty for NONE and USER) */
  double min, max; /* speeds of the hosts that run ranks, flop/s (0 if unknown) */
} run_speed;

/* Parse a SimGrid speed: a number, optionally followed by "f" or "flops"
 * with a decimal prefix (k, M, G, T, P, E, Z, Y), e.g. "2.5Gf", "1e9",
 * "100Mflops". 0, or -1 with the reason in err. */
int run_speed_parse(const char *text, double *flops, char *err, size_t errlen);

/* Choose smpi/host-speed (the rules above). USER: the user's value, or NULL.
 * HOSTFILE_TEXT (LEN bytes, already checked by run_check_hostfile_text()) or
 * NULL for every host of INFO once; NP: ranks (0: the whole hostfile; ranks
 * beyond it start again from its top, as smpirun places them). 0, or -1
 * with err's one line (a <config> value that is not a speed). */
int run_speed_choose_text(const run_platform_info *info, const char *hostfile_text, size_t len, long np,
                          const char *user, run_speed *out, char *err, size_t errlen);

/* The same with the hostfile's path (NULL: none). */
int run_speed_choose(const run_platform_info *info, const char *hostfile, long np, const char *user,
                     run_speed *out, char *err, size_t errlen);

/* One paragraph for --explain: where the value comes from and the factor
 * simulated / measured seconds on the hosts that run ranks. */
void run_speed_explain(const run_speed *s, int simulate_computation, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* HNM_SPEED_H */
