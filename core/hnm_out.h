/* hnm_out.h -- writing an output file the user named, without damaging it.
 *
 * A regular file, or a path that does not exist yet, is written to a
 * temporary file in the directory of the target (symbolic links followed to
 * their final target, so that a link keeps pointing at the new content),
 * flushed, fsync'ed and renamed over the target by hnm_out_commit(): a
 * reader sees the old content or the new, never a half-written file, and a
 * failed write leaves the old file as it was. The new file keeps the mode of
 * the file it replaces (0666 & ~umask when new).
 *
 * Anything else -- a character device (/dev/stdout, /dev/null, /dev/full), a
 * FIFO, a socket, a path under /dev or /proc -- is written through: opened
 * for writing as it is, never replaced. When the target is the process's own
 * standard output (-, /dev/stdout, or the file stdout already writes to), the
 * output goes to file descriptor 1, keeping the shell's redirection (">>"
 * appends). Write errors are reported there too (ENOSPC on /dev/full).
 *
 * A directory is refused. Nothing but the temporary file this module created
 * is ever removed.
 *
 * Several outputs that belong together (a platform and its hostfile):
 * open all, write all, hnm_out_finish() all, then hnm_out_commit() all; on
 * any error hnm_out_abort() all -- only temporaries are removed. A tool
 * that exit()s with outputs still open loses nothing either: their
 * temporaries are removed at exit.
 */
#ifndef HNM_OUT_H
#define HNM_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "hnm_error.h" /* err, errlen: the convention of every function below */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hnm_out hnm_out;

/* Open PATH ("-" or NULL: standard output) for writing. WHAT names it in
 * messages ("-o", "--hostfile"). Returns NULL with "WHAT: 'PATH': reason" in
 * err. Allocated by the callee: end with hnm_out_commit() or hnm_out_abort(). */
hnm_out *hnm_out_open(const char *path, const char *what, char *err, size_t errlen);

/* The stream to write to. */
FILE *hnm_out_file(hnm_out *o);

/* Whether the output is written through (device, FIFO, stdout) rather than
 * through a temporary file. */
int hnm_out_is_through(const hnm_out *o);

/* Flush and close the stream (fsync for a temporary file), reporting any
 * write error; the temporary is not renamed yet. 0, or -1 with err filled. */
int hnm_out_finish(hnm_out *o, char *err, size_t errlen);

/* hnm_out_finish() if not done, then rename the temporary over the target.
 * Frees o whatever happens; on failure the temporary is removed. 0 or -1. */
int hnm_out_commit(hnm_out *o, char *err, size_t errlen);

/* Give up: close, remove the temporary (never the target), free. NULL is fine. */
void hnm_out_abort(hnm_out *o);

/* For a signal handler (SIGINT, SIGTERM) that ends the tool: remove every
 * temporary still pending -- the files of hnm_out_open() and the
 * directories of hnm_out_dir_open() with what was written into them, and
 * the parents hnm_out_dir_open() made when empty -- as exit() would, then
 * the handler re-raises its signal. Async-signal-safe: only unlink(),
 * unlinkat(), rmdir(), open(), getdents64 and close(); it frees nothing
 * (the process is about to end) and leaves the lists as they are. */
void hnm_out_signal_cleanup(void);

/* Open, write with FN(FILE*, CTX) (0 or -1), commit: the whole sequence for
 * a single output. 0, or -1 with err filled (the target untouched). */
int hnm_out_write(const char *path, const char *what, int (*fn)(FILE *f, void *ctx), void *ctx, char *err,
                  size_t errlen);

/* Whether PATH could be opened as an output now, without opening or
 * creating anything (a FIFO would block): a directory is refused; an
 * existing non-regular file must be writable; otherwise the directory of
 * the final target (symbolic links followed) must exist and be writable.
 * 0, or -1 with "WHAT: 'PATH': reason" in err. For tools that write an
 * output later (at the end of a simulation) and must refuse it first. */
int hnm_out_check(const char *path, const char *what, char *err, size_t errlen);

/* Whether paths A and B name one existing file (device and inode, symbolic
 * links followed): an output that names one of the tool's inputs would
 * destroy it, so tools refuse it before reading. "-" names no file. 1 or 0. */
int hnm_out_same_file(const char *a, const char *b);

/* The one output rule: the tool's inputs. A tool registers every file it
 * reads (or hands to a child that reads it: hnm-run's platform and
 * hostfile) before it opens or checks any output; from then on
 * hnm_out_open(), hnm_out_check(), hnm_out_regular() and hnm_out_dir_open()
 * refuse an output that is one of them -- the same file after following
 * symbolic links, hard links included (device and inode) -- with
 * "WHAT: 'PATH' is INPUT 'IN': writing it would destroy it". INPUT names
 * the input in messages ("-platform"). "-", NULL and paths that do not
 * exist are ignored. 0, or -1 ("out of memory") with err filled. */
int hnm_out_input(const char *path, const char *input, char *err, size_t errlen);

/* Whether PATH, an output, is one of the registered inputs: 0 if not, -1
 * with the message above (WHAT naming the output) if it is. Derived names
 * (X-time.png, X.gp) are checked one by one with this. */
int hnm_out_not_input(const char *path, const char *what, char *err, size_t errlen);

/* Forget every registered input (a test, or a tool that runs several
 * commands one after the other). */
void hnm_out_inputs_clear(void);

/* For an output that must be a regular file: one that a child program
 * (gnuplot) opens by name, or that is read back or locked (a CSV that a
 * sweep resumes). hnm_out_check(), and besides: an existing FIFO, socket or
 * device is refused ("not a regular file": a FIFO would block the child or
 * the tool for ever). 0, or -1 with "WHAT: 'PATH': reason" in err. */
int hnm_out_regular(const char *path, const char *what, char *err, size_t errlen);

/* mkdir -p DIR (mode 0777 & ~umask): every missing directory of the path.
 * 0 (also when it exists), or -1 with the system's reason alone in err
 * ("No such file or directory" for an empty name): the caller names DIR. */
int hnm_out_mkdirs(const char *dir, char *err, size_t errlen);

/* An output directory (a report of several files) written whole or not at
 * all. hnm_out_dir_open() creates the missing parents of PATH and a
 * temporary directory beside it (".NAME.XXXXXX"); the tool writes its files
 * into hnm_out_dir_path() (with hnm_out_open(), whose messages then name
 * PATH/FILE, not the temporary); hnm_out_dir_commit() renames the temporary
 * to PATH when PATH does not exist, or moves each of its files into the
 * existing PATH (replacing files of the same name, leaving every other file
 * there as it is). hnm_out_dir_abort() -- and exit() before the commit --
 * removes the temporary with what was written into it and the parents this
 * module created (when empty): nothing else is ever removed.
 * PATH naming an existing file that is not a directory is refused.
 * NULL with "WHAT: 'PATH': reason" in err. */
typedef struct hnm_out_dir hnm_out_dir;
hnm_out_dir *hnm_out_dir_open(const char *path, const char *what, char *err, size_t errlen);

/* The directory to write into now (the temporary). */
const char *hnm_out_dir_path(const hnm_out_dir *d);

/* Move the files into place; frees d whatever happens. 0, or -1 with err
 * filled (then nothing was moved, and the temporary is removed). */
int hnm_out_dir_commit(hnm_out_dir *d, char *err, size_t errlen);

/* Give up: remove the temporary and what this module created; free. NULL is fine. */
void hnm_out_dir_abort(hnm_out_dir *d);

#ifdef __cplusplus
}
#endif

#endif /* HNM_OUT_H */
