/* hnm_gnuplot.h -- running gnuplot on a script, and writing strings into
 * one: the one way the tools draw (hnm-compare plot, hnm-linkplot,
 * hnm-calibrate fit's report).
 *
 * gnuplot is run directly (fork and execvp, no shell: a script path holding
 * a quote or a space is passed as it is) and waited for; it dies with the
 * tool, even a tool killed by SIGKILL (hnm_proc.h). Library code: nothing
 * is printed; the caller turns a failure into a message and decides whether
 * it is an error (the figure was asked for) or a warning (figures beside
 * other work).
 */
#ifndef HNM_GNUPLOT_H
#define HNM_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  HNM_GNUPLOT_QUIET = 1 /* gnuplot's own stderr to /dev/null */
};

/* Run `gnuplot SCRIPT` (flags: HNM_GNUPLOT_QUIET) and wait for it. 0 when it
 * exits 0; -1 with one line in err otherwise: "cannot run gnuplot: REASON
 * (install gnuplot-nox; the script is SCRIPT)" when it cannot be started,
 * "gnuplot failed on SCRIPT" when it fails. */
int hnm_gnuplot_run(const char *script, int flags, char *err, size_t errlen);

/* Whether gnuplot wrote PNG whole: a regular file that ends with the PNG
 * IEND chunk. gnuplot exits 0 when its output cannot be written (a full
 * disk: the file is left cut short), so a tool checks each PNG it asked
 * for after hnm_gnuplot_run(). A PNG that does not exist passes: gnuplot
 * fails by itself on an output it cannot open. 0, or -1 with "WHAT: 'PNG':
 * write error: ..." in err. */
int hnm_gnuplot_png_written(const char *png, const char *what, char *err, size_t errlen);

/* Write S as a double-quoted gnuplot string: '"' and '\' escaped, and the
 * line breaks and tabs gnuplot would otherwise take as the end of a command
 * written as \n, \r, \t. */
void hnm_gnuplot_string(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif

#endif /* HNM_GNUPLOT_H */
