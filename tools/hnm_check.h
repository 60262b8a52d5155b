/* hnm_check.h -- validate hnm-run's inputs before smpirun starts.
 *
 * hnm-run promises that bad input ends with one line naming the file, line
 * and field, and exit status 2, with nothing simulated. SimGrid itself checks
 * the platform, the hostfile and -np only once the simulation starts, and
 * answers with an abort and a backtrace; smpirun's script hangs on a named
 * pipe. This module does the same checks first:
 *
 *   - platform and hostfile: regular files (hnm_input.h: never blocks);
 *   - the platform: loaded by SimGrid itself in a separate process (the
 *     hnm-hosts helper), which yields its host names, or SimGrid's reason;
 *   - the hostfile: one host per line, "HOST" or "HOST:N" with N a positive
 *     whole number (smpirun expands it to N lines), every HOST a host of the
 *     platform, at least one entry; empty lines are skipped as SimGrid does;
 *     a line with blanks around or inside a name, or a carriage return, is
 *     refused (SimGrid would look up a host named with the blanks);
 *   - -np: a whole number in [1, INT_MAX] written in decimal digits. The
 *     hostfile's capacity (the sum of its entries) is returned: SimGrid deals
 *     ranks beyond it round-robin over the hostfile again, and hnm-run notes
 *     it, as smpirun's users expect.
 *
 * Every function returns 0, or -1 with the one line in err (include/hnm/hnm_error.h);
 * run_check_platform() returns an exit status instead (see there).
 */
#ifndef HNM_CHECK_H
#define HNM_CHECK_H

#include "hnm_model.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What SimGrid made of a platform file. */
typedef struct run_platform_info {
  char **hosts;     /* host names, sorted (strcmp) */
  size_t nhosts;
  size_t fatpipe;   /* FATPIPE links other than loopbacks */
  size_t limiters;  /* node limiter links (NAME_limiter beside NAME_UP or NAME) */
  double *speeds;   /* speeds[i]: hosts[i]'s speed in flop/s (0: unknown); NULL if none known */
  char host_speed[64]; /* the platform's <config> smpi/host-speed, as written ("" if unset) */
  char file[512];      /* the platform file, for messages ("" if unknown) */
} run_platform_info;

/* Parse -np's value: decimal digits only, 1 <= np <= INT_MAX. */
int run_check_np(const char *text, long *np, char *err, size_t errlen);

/* The CPU seconds the platform check gives SimGrid to load a platform file
 * of BYTES bytes: 60, plus one per 4 KiB beyond 256 KiB (SimGrid 3.32's
 * loading is O(hosts x zones), and a platform of many zones is a large
 * file). */
long run_check_platform_cpu_bound(long long bytes);

/* Load PLATFORM with the helper program HELPER (hnm-hosts) and fill INFO
 * (free with run_platform_info_free()). A step of a command: returns 0,
 * HNM_EXIT_USAGE (the platform is refused) or HNM_EXIT_FAILURE (the check
 * could not be run: pipe, fork, memory), with the one line in err. */
int run_check_platform(const char *helper, const char *platform, run_platform_info *info, char *err, size_t errlen);
void run_platform_info_free(run_platform_info *info);

/* Check HOSTFILE against the platform's hosts (INFO, or any host when INFO is
 * NULL) and store its capacity (number of ranks it places) in *slots. */
int run_check_hostfile(const char *hostfile, const run_platform_info *info, long *slots, char *err, size_t errlen);

/* Parse the hostfile text TEXT of LEN bytes (NAME names it in messages):
 * the parsing half of run_check_hostfile(), for tests and fuzzing. */
int run_check_hostfile_text(const char *name, const char *text, size_t len, const run_platform_info *info,
                            long *slots, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* HNM_CHECK_H */
