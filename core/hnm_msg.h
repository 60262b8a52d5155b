/* hnm_msg.h -- the one way a tool talks to its user on stderr, at four
 * levels:
 *   error    "PROG: message"            bad input or failed work; the tool
 *                                       then exits non-zero (HNM_EXIT_*)
 *   warning  "PROG: warning: message"   a result may not be what was meant
 *   note     "PROG: note: message"      the input was read otherwise than
 *                                       a user may expect (a preset, a default)
 *   info     "PROG: message"            progress, and what was written
 *
 * PROG is set once by hnm_msg_init() at the start of main() (a tool has one
 * name). Library code never prints and never calls these: it returns the
 * error (core/hnm_error.h) and the tool's entry point prints it here, once.
 * An error is one line whatever its parts hold. Every function appends the
 * newline itself. The MPI programs of apps/ and the SimGrid plugin print
 * otherwise (rank 0 alone; SimGrid's XBT categories, plugin/hnm_log.hpp).
 */
#ifndef HNM_MSG_H
#define HNM_MSG_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define HNM_MSG__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define HNM_MSG__PRINTF(a, b)
#endif

/* Exit statuses shared by the tools. */
#define HNM_EXIT_OK 0
#define HNM_EXIT_FAILURE 1 /* the work failed (writing, a run, gnuplot) */
#define HNM_EXIT_USAGE 2   /* bad input: nothing done */

/* The tool's name for every message ("hnm-route"). */
void hnm_msg_init(const char *prog);
const char *hnm_msg_prog(void);

/* "PROG: message" on stderr; returns HNM_EXIT_USAGE (2) so that a parser can
 * `return hnm_msg_error(...)`. */
int hnm_msg_error(const char *fmt, ...) HNM_MSG__PRINTF(1, 2);
/* "PROG: warning: message" on stderr. */
void hnm_msg_warn(const char *fmt, ...) HNM_MSG__PRINTF(1, 2);
/* "PROG: note: message" on stderr. */
void hnm_msg_note(const char *fmt, ...) HNM_MSG__PRINTF(1, 2);
/* "PROG: message" on stderr, for progress (not an error). */
void hnm_msg_info(const char *fmt, ...) HNM_MSG__PRINTF(1, 2);
/* The same with a va_list, for a tool's own printf-like wrappers. */
int hnm_msg_verror(const char *fmt, va_list ap);

/* "PROG: message" on stderr, then exit(status): for a tool's own code only
 * (never a reader or a library function). */
_Noreturn void hnm_msg_die(int status, const char *fmt, ...) HNM_MSG__PRINTF(2, 3);

#ifdef __cplusplus
}
#endif

#endif /* HNM_MSG_H */
