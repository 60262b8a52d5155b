/* hnm_proc.h -- a tool's children die with it.
 *
 * A tool that starts a child (a launcher, hnm-run, gnuplot, a checker)
 * and is then killed, even by SIGKILL, must leave nothing running: no
 * handler runs on SIGKILL, so the request is the child's own, made between
 * fork() and exec (PR_SET_PDEATHSIG: the kernel sends the signal when the
 * parent ends; exec keeps the request). A launcher that must clean up its
 * own children asks for SIGTERM; a child with nothing to clean up, SIGKILL.
 *
 * Library code: nothing is printed. In the child, a failure is the caller's
 * to turn into _exit() (or to ignore: the child then merely does not die
 * with its parent).
 */
#ifndef HNM_PROC_H
#define HNM_PROC_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In a child, between fork() and exec: SIGINT, SIGTERM and SIGHUP back to
 * their default actions (a handler the parent installed, or an ignore, is
 * not the child's), and SIG sent to this process when its parent ends.
 * PARENT is the parent's pid, taken with getpid() before fork(): a parent
 * that ended before the request (getppid() is then another process) makes
 * the child raise SIG itself. 0, or -1 (errno from prctl) when the request
 * could not be made. */
int hnm_proc_child_setup(pid_t parent, int sig);

#ifdef __cplusplus
}
#endif
#endif
