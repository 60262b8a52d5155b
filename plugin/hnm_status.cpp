/* hnm_status.cpp -- the simulator's exit status tells how the program ended.
 *
 * SimGrid 3.32's smpimain returns 0 when a rank calls MPI_Abort (the ranks
 * are killed, the simulation ends) and when it detects a deadlock (it lists
 * the blocked actors and ends): smpirun, then hnm-run, exit 0, and a script
 * cannot tell a failed run from a good one. libhnm records the failure --
 * MPI_Abort's error code (SimGrid drops it; PMPI_Abort is interposed here
 * to record it, then SimGrid's is called), Engine::on_deadlock, a --link-load file that
 * could not be written (hnm_linkload.cpp) -- and, when the simulator exits,
 * prints a one-line summary after SimGrid's own output and exits with:
 *   MPI_Abort(comm, c)   c (taken modulo 256; 1 if that is 0),
 *   deadlock             1,
 *   --link-load failed   1.
 * The first failure recorded wins (after MPI_Abort, SimGrid also reports the
 * other ranks as deadlocked). A program's non-zero return is SimGrid's own
 * business (smpimain already returns it), and wins over a deadlock: a rank
 * that calls exit(3) or returns 3 early leaves the others blocked, and the
 * run's status is 3, as with plain smpirun (status_at_exit()).
 */
#include "hnm_status.h"

#include <simgrid/s4u/Engine.hpp>
#include <smpi/smpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>


namespace {

/* Plain data: set from the constructor, possibly before dynamic
 * initialisers of this file. */
int status_code = 0;
char status_summary[512];

bool status_deadlock = false; /* the failure recorded is the deadlock */

/* STATUS: what smpimain exits with (glibc's on_exit passes it): SimGrid's
 * own status, the first non-zero one a rank returned or gave exit() (its
 * smpi_exit). A rank that exits early leaves the others blocked: SimGrid
 * then reports a deadlock, whose cause is the rank's exit, not the
 * program's communication -- plain smpirun exits with the rank's status,
 * and so does hnm-run, without a line of its own. */
void status_at_exit(int status, void*)
{
  if (status_code == 0 || (status_deadlock && status != 0))
    return;
  std::fflush(nullptr);
  /* Written directly, in hnm_log.hpp's form: at exit SimGrid 4.x has
   * already shut its logging down (an XBT_CRITICAL here prints nothing
   * there), and a critical line is not one a threshold may hide. */
  std::fprintf(stderr, "hnm: %s (exit status %d)\n", status_summary, status_code);
  std::fflush(stderr);
  _exit(status_code);
}

} // namespace

void hnm_status_fail(int code, const char* summary)
{
  if (status_code != 0)
    return;
  code &= 255;
  status_code = code == 0 ? 1 : code;
  std::snprintf(status_summary, sizeof status_summary, "%s", summary);
}

void hnm_status_init()
{
  on_exit(status_at_exit, nullptr);
  simgrid::s4u::Engine::on_deadlock_cb([] {
    status_deadlock = status_code == 0;
    hnm_status_fail(1, "the simulation ended in a deadlock: ranks still wait for messages (SimGrid's list above)");
  });
}

/* SimGrid loads a privatized program with RTLD_DEEPBIND, so the program's
 * MPI_Abort binds to libsimgrid's; libsimgrid's MPI_Abort calls PMPI_Abort
 * through the global scope, where the preloaded libhnm.so comes first. */
extern "C" int PMPI_Abort(MPI_Comm comm, int errorcode)
{
  using abort_fn = int (*)(MPI_Comm, int);
  static abort_fn real = nullptr;
  if (real == nullptr)
    real = reinterpret_cast<abort_fn>(dlsym(RTLD_NEXT, "PMPI_Abort"));
  char summary[128];
  std::snprintf(summary, sizeof summary, "the program called MPI_Abort with error code %d", errorcode);
  hnm_status_fail(errorcode, summary);
  return real != nullptr ? real(comm, errorcode) : MPI_SUCCESS;
}
