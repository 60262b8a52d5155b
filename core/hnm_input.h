/* hnm_input.h -- open an input file without ever blocking on it.
 *
 * Every file a tool reads (model, platform, hostfile, pattern, CSV) must be a
 * regular file: opening a named pipe for reading blocks until a writer
 * appears, a device or a socket can stream forever, and a directory reads as
 * nothing. hnm_input_open() opens with O_NONBLOCK, looks at what it opened
 * with fstat() (so that the check and the read are about the same file, even
 * if the path is replaced in between), refuses anything but a regular file,
 * then clears O_NONBLOCK. Symbolic links are followed.
 */
#ifndef HNM_INPUT_H
#define HNM_INPUT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Open PATH for reading. Returns the stream (close with fclose()), or NULL
 * with a one-line reason in err (at most errlen bytes), e.g.
 * "cannot open: No such file or directory" or "not a regular file (a named
 * pipe)"; the caller adds the file name and what the file is for. */
FILE *hnm_input_open(const char *path, char *err, size_t errlen);

/* getline() with a bound: reads one line (with its newline, if any) into
 * *line (grown as needed, free() it), at most MAX bytes. Returns its
 * length (which counts NUL bytes: strlen(*line) < length means the line
 * holds one), -1 at the end of the file or on a read error (ferror()), or
 * -2 when the line is longer than MAX (the rest is not read): a file of a
 * gigabyte without a newline costs MAX bytes, not a gigabyte. */
long hnm_input_getline(char **line, size_t *cap, FILE *f, size_t max);

/* The longest line the tools' CSV readers take (bytes). */
#define HNM_INPUT_MAX_LINE 65536

/* A measurement file read line by line, as the tools' CSV readers take
 * it: at most HNM_INPUT_MAX_LINE bytes a line, no NUL byte, every line
 * ending in a newline. */
typedef struct hnm_input_lines {
  FILE *f;
  const char *path;
  char *line;  /* the current line, without its newline (and a '\r' before it) */
  size_t cap;
  long ln;     /* its number, from 1 */
} hnm_input_lines;

/* Open PATH (hnm_input_open()) into R: 0, or -1 with "PATH: reason" in
 * err. Close with hnm_input_lines_close() (after a failed open: nothing). */
int hnm_input_lines_open(hnm_input_lines *r, const char *path, char *err, size_t errlen);

/* The next line into r->line: its length, -1 at the end of the file, or
 * -2 with "PATH:LINE: reason" in err ("line longer than 64 KiB (not a
 * measurement file)", "NUL byte in the line (not text)", "truncated line
 * (no end of line)"; "PATH: read error"). */
long hnm_input_lines_next(hnm_input_lines *r, char *err, size_t errlen);

void hnm_input_lines_close(hnm_input_lines *r);

/* The same checks without keeping the file open: 0, or -1 with err. */
int hnm_input_check(const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* HNM_INPUT_H */
