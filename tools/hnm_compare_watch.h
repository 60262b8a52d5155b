/* hnm_compare_watch.h -- the runs of hnm-compare die with it.
 *
 * Each run is its own process group (so that a timeout kills the whole
 * group: hnm-run, smpirun, the simulator). If hnm-compare itself is killed
 * with SIGKILL, nothing of it runs to kill them: a watchdog process, forked
 * once, learns every run's group through a pipe and, when the pipe's write
 * end closes (hnm-compare has ended, however it ended), sends SIGTERM then,
 * a second later, SIGKILL to every group still registered. Runs also get
 * PR_SET_PDEATHSIG (SIGKILL) for their first process. */
#ifndef HNM_COMPARE_WATCH_H
#define HNM_COMPARE_WATCH_H

#include <sys/types.h>

/* Fork the watchdog (once). 0, or -1 with errno (then runs are not
 * watched; the caller may go on). */
int cmp_watch_start(void);
/* A run's process group started / ended (no-op without a watchdog). */
void cmp_watch_add(pid_t pgid);
void cmp_watch_del(pid_t pgid);
/* In a run's child, before exec: the default actions of SIGINT, SIGTERM
 * and SIGHUP, and death with hnm-compare (PARENT: its pid, taken before
 * fork; hnm_proc_child_setup(), SIGKILL). */
void cmp_watch_child(pid_t parent);

#endif
