/* hnm_msg.h -- the one way a tool talks to its user on stderr, at five
 * levels:
 *   error    "PROG: message"            bad input or failed work; the tool
 *                                       then exits non-zero (HNM_EXIT_*)
 *   warning  "PROG: warning: message"   a result may not be what was meant
 *   note     "PROG: note: message"      the input was read otherwise than
 *                                       a user may expect (a preset, a default)
 *   info     "PROG: message"            what was done, what was written
 *   progress "PROG: message"            how far a long task is; on a
 *                                       terminal one line that the next
 *                                       progress line replaces
 *
 * PROG is set once by hnm_msg_init() at the start of main() (a tool has one
 * name). Library code never prints and never calls these: it returns the
 * error (include/hnm/hnm_error.h) and the tool's entry point prints it here, once.
 * An error is one line whatever its parts hold. Every function appends the
 * newline itself. The MPI programs of apps/ print through hnm_msg_print()
 * with their name, on rank 0 alone, and never call hnm_msg_init() (see
 * there); the SimGrid plugin logs through SimGrid's XBT categories
 * (plugin/hnm_log.hpp).
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
#ifdef __cplusplus
#define HNM_MSG__NORETURN [[noreturn]]
#else
#define HNM_MSG__NORETURN _Noreturn
#endif

/* The levels (hnm_msg_print()). */
enum hnm_msg_level { HNM_MSG_ERROR, HNM_MSG_WARNING, HNM_MSG_NOTE, HNM_MSG_INFO, HNM_MSG_PROGRESS };

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
/* "PROG: message" on stderr for work that failed (a write, a fork, memory,
 * a simulation); returns HNM_EXIT_FAILURE (1): `return hnm_msg_failure(...)`. */
int hnm_msg_failure(const char *fmt, ...) HNM_MSG__PRINTF(1, 2);
/* The same with a va_list, for a tool's own printf-like wrappers. */
int hnm_msg_verror(const char *fmt, va_list ap);

/* The message of LEVEL from the program PROG (NULL: the tool's name set by
 * hnm_msg_init()). The MPI programs of apps/ give PROG: they print on rank
 * 0 only and never call hnm_msg_init(), since their ranks may share one
 * process (SMPI) and checking standard output at exit is a tool's
 * business, not a rank's. */
void hnm_msg_print(const char *prog, enum hnm_msg_level level, const char *fmt, ...) HNM_MSG__PRINTF(3, 4);
void hnm_msg_vprint(const char *prog, enum hnm_msg_level level, const char *fmt, va_list ap);

/* "PROG: warning: message" on stderr. */
#define hnm_msg_warn(...) hnm_msg_print(NULL, HNM_MSG_WARNING, __VA_ARGS__)
/* "PROG: note: message" on stderr. */
#define hnm_msg_note(...) hnm_msg_print(NULL, HNM_MSG_NOTE, __VA_ARGS__)
/* "PROG: message" on stderr: what was done, what was written. */
#define hnm_msg_info(...) hnm_msg_print(NULL, HNM_MSG_INFO, __VA_ARGS__)
/* Progress: when standard error is a terminal, "\rPROG: message" with the
 * rest of the line erased and no newline, so that the next progress line
 * replaces it; elsewhere "PROG: message" and a newline (a log keeps each
 * line). Any other message erases a standing progress line first;
 * hnm_msg_progress_end() keeps it instead, ending it with its newline. */
#define hnm_msg_progress(...) hnm_msg_print(NULL, HNM_MSG_PROGRESS, __VA_ARGS__)
void hnm_msg_progress_end(void);

/* "PROG: OPTION: reason" on stderr; returns HNM_EXIT_USAGE (2). OPTION is
 * written as the user writes it ("--np", "-o"): for a tool's checks of its
 * options after parsing. */
int hnm_msg_option_error(const char *option, const char *fmt, ...) HNM_MSG__PRINTF(2, 3);

/* Flushes standard output now: 0, or -1 if it failed (now or before). The
 * error itself is reported once, at exit, with the errno of this failed
 * flush ("standard output: write error: No space left on device"). */
int hnm_msg_flush_stdout(void);

#ifdef __cplusplus
}
#endif

#endif /* HNM_MSG_H */
