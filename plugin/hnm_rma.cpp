/* hnm_rma.cpp -- one-sided communication (MPI RMA) costs, part of libhnm.so.
 *
 * SMPI 3.32 (src/smpi/mpi/smpi_win.cpp, docs/models.md "One-sided
 * communication") moves an MPI_Put / MPI_Get / MPI_Accumulate as a detached
 * point-to-point message, and synchronises windows with barriers and 0-byte
 * messages; it charges them the point-to-point overheads of the cost
 * callbacks (SmpiOperation::ISEND for the origin, RECV for whoever waits for
 * the data), which cannot tell an RMA message from any other: they see a
 * size and two hosts. A model's <rma> element replaces those charges:
 *   - inside MPI_Put, MPI_Rput, MPI_Accumulate, MPI_Raccumulate the origin's
 *     send overhead is put_o + k x put_O; inside MPI_Get, MPI_Rget it is
 *     get_o + k x get_O (MPI_Get_accumulate, MPI_Rget_accumulate,
 *     MPI_Fetch_and_op, MPI_Compare_and_swap: SMPI's get, then put);
 *   - a receive overhead is never charged inside an RMA call: RDMA does not
 *     involve the target's CPU, and the origin's completion is in the
 *     synchronisation's cost;
 *   - the 0-byte messages and barriers SMPI sends inside a synchronisation
 *     call (fence, post/start/complete/wait, lock/unlock, flush) carry no
 *     overhead; the call costs its mode's constant instead, charged when
 *     SMPI's part of it returns.
 *
 * The hook: the MPI profiling interface. SMPI's MPI_Put is a wrapper that
 * calls PMPI_Put, and libsimgrid 3.32 as Debian builds it makes that call
 * through its procedure linkage table, so the global symbol search decides
 * which PMPI_Put runs: libhnm.so, preloaded by hnm-run, comes first and
 * defines the PMPI_ functions below, which mark the calling actor as inside
 * an RMA call, call SimGrid's own (dlsym RTLD_NEXT) and charge the
 * synchronisation cost. This works whatever smpi/privatization is (a
 * program's own MPI_Put binds to SimGrid's through RTLD_DEEPBIND under
 * dlopen privatization, so an MPI_Put here would be bypassed; PMPI_Put is
 * not). SMPI calls the cost callbacks synchronously in the calling actor
 * (Request::start, Request::finish_wait), so a per-actor mark is exact: it
 * never leaks to another actor's messages, whatever runs while this actor
 * sleeps or waits.
 *
 * Self-checks (hnm_rma_install): the running SimGrid is the one hnm was built
 * for, at most the last version checked (hnm_simgrid_version.hpp: SMPI's
 * RMA calls are the same from 3.32 to 4.1), and the global
 * search resolves PMPI_Put to this library. If either fails, one warning,
 * and RMA is timed as SMPI does (the wrappers only forward). Models
 * without <rma> never reach the marks: every wrapper forwards at once.
 *
 * Invariants: the per-actor marks live in a vector indexed by actor id,
 * looked up afresh after every call into SimGrid (another actor may grow
 * it meanwhile); a wrapper restores the mark it found (SMPI's
 * MPI_Fetch_and_op may call PMPI_Get_accumulate). No exception of hnm's
 * leaves this file: the vector's one allocation ends the simulation with a
 * message if it fails. SimGrid's own may pass through, as through SMPI's
 * code (an actor killed while it sleeps is unwound by an exception).
 */
#include "hnm_rma.h"

#include "hnm_simgrid_version.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/version.h>
#include <smpi/smpi.h>
#include <xbt/log.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>


XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(hnm);
namespace sg4 = simgrid::s4u;

namespace {

enum class RmaOp { NONE, PUT, GET, GET_ACCUMULATE, SYNC };

struct Mark {
  RmaOp op   = RmaOp::NONE;
  int isends = 0; /* ISEND charges seen in this call (GET_ACCUMULATE: get first) */
};

bool active = false; /* <rma> costs installed and the hook works */
hnm_rma costs{};
std::vector<Mark> marks; /* by actor id */

Mark* mark_of(aid_t pid)
{
  if (pid < 0)
    return nullptr;
  if ((size_t)pid >= marks.size()) {
    try {
      marks.resize((size_t)pid + 1);
    } catch (...) {
      hnm_log_fatal(&_XBT_LOGV(hnm),
                    "out of memory (one-sided marks of " + std::to_string((long)pid + 1) + " actors)");
    }
  }
  return &marks[(size_t)pid];
}

/* SimGrid's own PMPI function NAME, found once. Missing means another
 * SimGrid than the one hnm was built against: nothing sensible to forward
 * to, so the simulation ends with the name (hnm_next_definition_or_die). */
template <class F> F real(void*& slot, const char* name)
{
  if (slot == nullptr)
    slot = reinterpret_cast<void*>(hnm_next_definition_or_die<F>(&_XBT_LOGV(hnm), name, name));
  return reinterpret_cast<F>(slot);
}
#define HNM_REAL(name, type) real<type>(real_##name, #name)

/* Run CALL inside an RMA call of kind OP, then charge SYNC_COST seconds
 * (a synchronisation's constant) outside SimGrid's benchmarking of the
 * program's own code (smpi_bench_end/begin: the sleep lets other actors
 * run on this thread, whose CPU time must not count as this one's). */
template <class F> int in_rma(RmaOp op, double sync_cost, F&& call)
{
  if (not active)
    return call();
  aid_t pid = sg4::this_actor::get_pid();
  if (mark_of(pid) == nullptr)
    return call();
  Mark saved = *mark_of(pid);
  *mark_of(pid) = Mark{op, 0};
  int rc = call();
  *mark_of(pid) = saved;
  if (sync_cost > 0) {
    smpi_bench_end();
    sg4::this_actor::sleep_for(sync_cost);
    smpi_bench_begin();
  }
  return rc;
}

void* real_PMPI_Put;
void* real_PMPI_Rput;
void* real_PMPI_Get;
void* real_PMPI_Rget;
void* real_PMPI_Accumulate;
void* real_PMPI_Raccumulate;
void* real_PMPI_Get_accumulate;
void* real_PMPI_Rget_accumulate;
void* real_PMPI_Fetch_and_op;
void* real_PMPI_Compare_and_swap;
void* real_PMPI_Win_fence;
void* real_PMPI_Win_post;
void* real_PMPI_Win_start;
void* real_PMPI_Win_complete;
void* real_PMPI_Win_wait;
void* real_PMPI_Win_lock;
void* real_PMPI_Win_unlock;
void* real_PMPI_Win_lock_all;
void* real_PMPI_Win_unlock_all;
void* real_PMPI_Win_flush;
void* real_PMPI_Win_flush_all;
void* real_PMPI_Win_flush_local;
void* real_PMPI_Win_flush_local_all;

} // namespace

int hnm_rma_install(const hnm_rma* c, const char* model_name)
{
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  const char* why = nullptr;
  if (major != SIMGRID_VERSION_MAJOR || minor != SIMGRID_VERSION_MINOR)
    why = "it was built for another SimGrid than the one running (rebuild hnm)";
  else if (HNM_SG_NEWER_THAN_CHECKED)
    why = "it recognises RMA calls the way SMPI 3.32 to 4.1 makes them, and this SimGrid is newer";
  else if (dlsym(RTLD_DEFAULT, "PMPI_Put") != reinterpret_cast<void*>(&PMPI_Put))
    why = "libhnm.so is not ahead of SimGrid in the symbol search (run through hnm-run, which preloads it)";
  if (why != nullptr) {
    XBT_WARN("warning: model '%s' has one-sided costs (<rma>), but %s (found %d.%d.%d): MPI RMA is "
                 "timed as SMPI does, with point-to-point overheads", model_name, why, major, minor, patch);
    return 0;
  }
  costs  = *c;
  active = true;
  return 1;
}

bool hnm_rma_cost(HnmRmaCharge op, double size, double* cost)
{
  if (not active)
    return false;
  const sg4::Actor* self = sg4::Actor::self();
  if (self == nullptr)
    return false;
  aid_t pid = self->get_pid();
  if (pid < 0 || (size_t)pid >= marks.size() || marks[(size_t)pid].op == RmaOp::NONE)
    return false;
  Mark& m = marks[(size_t)pid];
  *cost   = 0;
  if (op != HnmRmaCharge::ISEND)
    return true; /* receive (RDMA) and synchronisation messages: no overhead */
  bool get = m.op == RmaOp::GET || (m.op == RmaOp::GET_ACCUMULATE && m.isends == 0);
  m.isends++;
  if (m.op == RmaOp::SYNC)
    return true;
  *cost = get ? costs.get_o + size * costs.get_O : costs.put_o + size * costs.put_O;
  return true;
}

/* The interposed PMPI functions (C linkage, SMPI's signatures). */
extern "C" {

int PMPI_Put(const void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win w)
{
  using F = int (*)(const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win);
  return in_rma(RmaOp::PUT, 0, [&] { return HNM_REAL(PMPI_Put, F)(oa, oc, ot, tr, td, tc, tt, w); });
}

int PMPI_Rput(const void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win w,
              MPI_Request* r)
{
  using F = int (*)(const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win, MPI_Request*);
  return in_rma(RmaOp::PUT, 0, [&] { return HNM_REAL(PMPI_Rput, F)(oa, oc, ot, tr, td, tc, tt, w, r); });
}

int PMPI_Get(void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win w)
{
  using F = int (*)(void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win);
  return in_rma(RmaOp::GET, 0, [&] { return HNM_REAL(PMPI_Get, F)(oa, oc, ot, tr, td, tc, tt, w); });
}

int PMPI_Rget(void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win w,
              MPI_Request* r)
{
  using F = int (*)(void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win, MPI_Request*);
  return in_rma(RmaOp::GET, 0, [&] { return HNM_REAL(PMPI_Rget, F)(oa, oc, ot, tr, td, tc, tt, w, r); });
}

int PMPI_Accumulate(const void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op,
                    MPI_Win w)
{
  using F = int (*)(const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op, MPI_Win);
  return in_rma(RmaOp::PUT, 0, [&] { return HNM_REAL(PMPI_Accumulate, F)(oa, oc, ot, tr, td, tc, tt, op, w); });
}

int PMPI_Raccumulate(const void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op,
                     MPI_Win w, MPI_Request* r)
{
  using F = int (*)(const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op, MPI_Win, MPI_Request*);
  return in_rma(RmaOp::PUT, 0, [&] { return HNM_REAL(PMPI_Raccumulate, F)(oa, oc, ot, tr, td, tc, tt, op, w, r); });
}

int PMPI_Get_accumulate(const void* oa, int oc, MPI_Datatype ot, void* ra, int rc, MPI_Datatype rt, int tr,
                        MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op, MPI_Win w)
{
  using F = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op,
                    MPI_Win);
  return in_rma(RmaOp::GET_ACCUMULATE, 0,
                [&] { return HNM_REAL(PMPI_Get_accumulate, F)(oa, oc, ot, ra, rc, rt, tr, td, tc, tt, op, w); });
}

int PMPI_Rget_accumulate(const void* oa, int oc, MPI_Datatype ot, void* ra, int rc, MPI_Datatype rt, int tr,
                         MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op, MPI_Win w, MPI_Request* r)
{
  using F = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op,
                    MPI_Win, MPI_Request*);
  return in_rma(RmaOp::GET_ACCUMULATE, 0,
                [&] { return HNM_REAL(PMPI_Rget_accumulate, F)(oa, oc, ot, ra, rc, rt, tr, td, tc, tt, op, w, r); });
}

int PMPI_Fetch_and_op(const void* oa, void* ra, MPI_Datatype t, int tr, MPI_Aint td, MPI_Op op, MPI_Win w)
{
  using F = int (*)(const void*, void*, MPI_Datatype, int, MPI_Aint, MPI_Op, MPI_Win);
  return in_rma(RmaOp::GET_ACCUMULATE, 0, [&] { return HNM_REAL(PMPI_Fetch_and_op, F)(oa, ra, t, tr, td, op, w); });
}

int PMPI_Compare_and_swap(const void* oa, void* ca, void* ra, MPI_Datatype t, int tr, MPI_Aint td, MPI_Win w)
{
  using F = int (*)(const void*, void*, void*, MPI_Datatype, int, MPI_Aint, MPI_Win);
  return in_rma(RmaOp::GET_ACCUMULATE, 0,
                [&] { return HNM_REAL(PMPI_Compare_and_swap, F)(oa, ca, ra, t, tr, td, w); });
}

int PMPI_Win_fence(int a, MPI_Win w)
{
  using F = int (*)(int, MPI_Win);
  return in_rma(RmaOp::SYNC, costs.fence, [&] { return HNM_REAL(PMPI_Win_fence, F)(a, w); });
}

int PMPI_Win_post(MPI_Group g, int a, MPI_Win w)
{
  using F = int (*)(MPI_Group, int, MPI_Win);
  return in_rma(RmaOp::SYNC, costs.pscw, [&] { return HNM_REAL(PMPI_Win_post, F)(g, a, w); });
}

int PMPI_Win_start(MPI_Group g, int a, MPI_Win w)
{
  using F = int (*)(MPI_Group, int, MPI_Win);
  return in_rma(RmaOp::SYNC, costs.pscw, [&] { return HNM_REAL(PMPI_Win_start, F)(g, a, w); });
}

int PMPI_Win_complete(MPI_Win w)
{
  using F = int (*)(MPI_Win);
  return in_rma(RmaOp::SYNC, costs.pscw, [&] { return HNM_REAL(PMPI_Win_complete, F)(w); });
}

int PMPI_Win_wait(MPI_Win w)
{
  using F = int (*)(MPI_Win);
  return in_rma(RmaOp::SYNC, costs.pscw, [&] { return HNM_REAL(PMPI_Win_wait, F)(w); });
}

int PMPI_Win_lock(int type, int rank, int a, MPI_Win w)
{
  using F = int (*)(int, int, int, MPI_Win);
  return in_rma(RmaOp::SYNC, costs.lock, [&] { return HNM_REAL(PMPI_Win_lock, F)(type, rank, a, w); });
}

int PMPI_Win_unlock(int rank, MPI_Win w)
{
  using F = int (*)(int, MPI_Win);
  return in_rma(RmaOp::SYNC, costs.lock, [&] { return HNM_REAL(PMPI_Win_unlock, F)(rank, w); });
}

int PMPI_Win_lock_all(int a, MPI_Win w)
{
  using F = int (*)(int, MPI_Win);
  return in_rma(RmaOp::SYNC, costs.lock, [&] { return HNM_REAL(PMPI_Win_lock_all, F)(a, w); });
}

int PMPI_Win_unlock_all(MPI_Win w)
{
  using F = int (*)(MPI_Win);
  return in_rma(RmaOp::SYNC, costs.lock, [&] { return HNM_REAL(PMPI_Win_unlock_all, F)(w); });
}

int PMPI_Win_flush(int rank, MPI_Win w)
{
  using F = int (*)(int, MPI_Win);
  return in_rma(RmaOp::SYNC, costs.flush, [&] { return HNM_REAL(PMPI_Win_flush, F)(rank, w); });
}

int PMPI_Win_flush_all(MPI_Win w)
{
  using F = int (*)(MPI_Win);
  return in_rma(RmaOp::SYNC, costs.flush, [&] { return HNM_REAL(PMPI_Win_flush_all, F)(w); });
}

int PMPI_Win_flush_local(int rank, MPI_Win w)
{
  using F = int (*)(int, MPI_Win);
  return in_rma(RmaOp::SYNC, costs.flush, [&] { return HNM_REAL(PMPI_Win_flush_local, F)(rank, w); });
}

int PMPI_Win_flush_local_all(MPI_Win w)
{
  using F = int (*)(MPI_Win);
  return in_rma(RmaOp::SYNC, costs.flush, [&] { return HNM_REAL(PMPI_Win_flush_local_all, F)(w); });
}

} // extern "C"
