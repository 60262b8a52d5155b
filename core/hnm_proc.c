/* hnm_proc.c -- a tool's children die with it (hnm_proc.h). */
#define _GNU_SOURCE /* prctl's PR_SET_PDEATHSIG */
#include "hnm_proc.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

int hnm_proc_child_setup(pid_t parent, int sig)
{
  static const int reset[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof reset / sizeof *reset; i++)
    signal(reset[i], SIG_DFL);
  if (prctl(PR_SET_PDEATHSIG, sig) != 0)
    return -1;
  /* The parent gone before the request: the signal it will never send. */
  if (getppid() != parent)
    raise(sig);
  return 0;
}
