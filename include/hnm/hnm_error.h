/* hnm_error.h -- the one error convention of every hnm library.
 *
 * A function that can fail takes `char *err, size_t errlen` as its last two
 * parameters and returns 0 on success, -1 on failure (a function that
 * returns a pointer: NULL; a count or a size: -1). On failure it has
 * written one line into err with hnm_errf() -- at most errlen bytes,
 * NUL-terminated, no trailing newline; nothing when err is NULL or errlen
 * is 0, so a caller that only wants the status passes NULL, 0. On success
 * err is left as it was. errno is not part of the contract.
 *
 * The line names where the fault is, then why:
 *     "FILE:LINE: field 'X': reason"   (a file the user gave)
 *     "--option: 'VALUE': reason"      (a command-line value)
 *     "reason"                         (a value without a place: a unit
 *                                       parser; its caller adds the place)
 * A caller that knows more of the place prefixes it ("%s: %s"), never a
 * second line. HNM_ERRLEN bytes hold any message the libraries write.
 *
 * Who prints: nobody below a tool's entry point (main(), cmd_*(),
 * *_cmd_*()). Library functions, readers and a command's helpers never
 * print an error, never exit() and never call hnm_msg_error() (core/
 * hnm_msg.h); the entry point that called them prints err once and returns
 * the status:
 *     0  HNM_EXIT_OK       the work was done
 *     1  HNM_EXIT_FAILURE  the work failed: a write (a full disk), fork,
 *                          pipe, memory, a child or a simulation that failed
 *                          (hnm_msg_failure())
 *     2  HNM_EXIT_USAGE    bad input or usage, found before any work
 *                          (hnm_msg_error())
 * A command reads as its steps: parse and validate (a failure is 2), do
 * (a failure is 1), report. A step of a command that can fail either way
 * (it reads an input while it works) returns that status instead of -1:
 * 0, HNM_EXIT_FAILURE or HNM_EXIT_USAGE, with err filled when non-zero.
 * scripts/check-conventions checks who prints and who exits.
 * The SimGrid plugin turns the same line into one XBT critical message and
 * exit status 2. Asserts are for programmer mistakes only. */
#ifndef HNM_ERROR_H
#define HNM_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Large enough for every message of the libraries (paths included). */
#define HNM_ERRLEN 1024

/* Format the reason into err (see above); nothing when err is NULL or
 * errlen is 0. */
void hnm_errf(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;
void hnm_verrf(char *err, size_t errlen, const char *fmt, va_list ap);
/* The same, then -1: a refusal in one statement, `return hnm_fail(err,
 * errlen, "...", ...)`. */
int hnm_fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;

/* A command step's refusal in one statement: the reason into err, then
 * STATUS (HNM_EXIT_USAGE or HNM_EXIT_FAILURE, core/hnm_msg.h), `return
 * hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "...", ...)`. */
int hnm_fail_status(int status, char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* HNM_ERROR_H */
