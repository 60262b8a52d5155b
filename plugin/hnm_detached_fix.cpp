/* hnm_detached_fix.cpp -- SimGrid 3.32's list of detached transfers, kept
 * short from libhnm.so (docs/scale.md).
 *
 * The cost. Every detached transfer (SMPI: a send at or below
 * smpi/send-is-detached-thresh) is appended by CommImpl::detach() to the
 * maestro's activities_, a std::list of references that keeps the transfer
 * alive until it ends. CommImpl::finish() then takes it out with
 * std::list::remove(), which walks the whole list: O(transfers in flight)
 * per transfer, O(n^2) over a run where n transfers are in flight at once.
 * At 4,096 ranks of gcr that walk was 27% of all CPU; SimGrid 3.34 replaced
 * the list by a set.
 *
 * The remedy. libhnm.so is preloaded (hnm-run: LD_PRELOAD), so the two
 * functions defined here under SimGrid's mangled names are the ones the
 * dynamic linker binds: CommImpl::detach() is called through the PLT
 * (CommImpl::isend, s4u::Comm::detach) and CommImpl::finish() through the
 * vtable, whose entry is relocated against the symbol, in Debian's
 * libsimgrid.so.3.32. Ours call SimGrid's own. After SimGrid's detach()
 * has appended the transfer, ours takes that last list node off again and
 * keeps its reference in a hash set; after SimGrid's finish() has walked
 * the (now short) list, ours drops the reference if it holds one. The
 * transfer lives exactly as long as before: the reference moves from one
 * container to another, and finish() is where SimGrid dropped it. Nothing
 * else reads the maestro's list during a run (it is walked when the
 * maestro is suspended, resumed or destroyed: never, never, at exit), so no
 * simulated time can change. Transfers still in flight when the simulation
 * ends are left to the process's exit instead of the maestro's destructor.
 *
 * The guard, by behaviour (no machine-code test: a rebuild or a point
 * release keeps it working or turns it off, never wrong). The file is
 * compiled in for SimGrid 3.32 only (HNM_SG_DETACHED_LIST,
 * hnm_simgrid_version.hpp): from 3.34 the list is a std::set and there is
 * nothing to remedy. The maestro's list is reached at offsets fixed by
 * 3.32's class declarations (src/kernel/EngineImpl.hpp line 54: maestro_
 * at 0x1d0; src/kernel/actor/ActorImpl.hpp line 105: activities_ at 0xc0). The remedy turns
 * on only when (1) the running libsimgrid is the 3.32 it was built for,
 * (2) the pointer at the first offset is the maestro, as SimGrid's own
 * ActorImpl::self() answers from the maestro's context, and (3) the bytes
 * at the second are a well-formed empty std::list (its header linked to
 * itself, size 0): no transfer exists before the platform is loaded. At
 * every call, (4) SimGrid's detach() must have grown that list by exactly
 * one node holding this transfer. Otherwise nothing is moved and SimGrid's
 * own code runs alone.
 */
#include "hnm_detached_fix.h"

#include "hnm_simgrid_version.hpp"

#if HNM_SG_DETACHED_LIST

#include <simgrid/s4u/Engine.hpp>
#include <xbt/log.h>

#include <list>
#include <string>
#include <unordered_set>

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(hnm);

namespace {

constexpr size_t ENGINE_MAESTRO     = 0x1d0;
constexpr size_t ACTOR_ACTIVITIES   = 0xc0;
constexpr const char* DETACH_SYMBOL = "_ZN7simgrid6kernel8activity8CommImpl6detachEv";
constexpr const char* FINISH_SYMBOL = "_ZN7simgrid6kernel8activity8CommImpl6finishEv";
constexpr const char* SELF_SYMBOL   = "_ZN7simgrid6kernel5actor9ActorImpl4selfEv";
constexpr const char* RELEASE_SYMBOL =
    "_ZN7simgrid6kernel8activity21intrusive_ptr_releaseEPNS1_12ActivityImplE";

using detach_fn  = void* (*)(void*);
using finish_fn  = void (*)(void*);
using release_fn = void (*)(void*);

detach_fn original_detach   = nullptr;
finish_fn original_finish   = nullptr;
release_fn activity_release = nullptr;
bool remedy_on              = false;
unsigned long long moved    = 0;

/* The references taken off the maestro's list: allocated once and never
 * freed, so that a finish() during the process's exit still finds it. */
std::unordered_set<const void*>* held = nullptr;

/* The maestro's activities_: a std::list of boost::intrusive_ptr, which is
 * one pointer, so a std::list<void*> has its layout. */
using activity_list = std::list<void*>;

activity_list* maestro_activities()
{
  auto* maestro = hnm_field<char*>(simgrid::s4u::Engine::get_instance()->get_impl(), ENGINE_MAESTRO);
  return maestro == nullptr ? nullptr : reinterpret_cast<activity_list*>(maestro + ACTOR_ACTIVITIES);
}

} // namespace

/* The interposed functions, under SimGrid's mangled names (their classes'
 * headers are not installed): see the top of this file. */
extern "C" void* hnm_comm_detach(void* comm) __asm__("_ZN7simgrid6kernel8activity8CommImpl6detachEv");
extern "C" void hnm_comm_finish(void* comm) __asm__("_ZN7simgrid6kernel8activity8CommImpl6finishEv");

extern "C" void* hnm_comm_detach(void* comm)
{
  if (original_detach == nullptr)
    original_detach = hnm_next_definition_or_die<detach_fn>(&_XBT_LOGV(hnm), DETACH_SYMBOL, "CommImpl::detach()");
  if (not remedy_on || held->count(comm) != 0)
    return original_detach(comm);
  activity_list* list = maestro_activities();
  size_t before       = list != nullptr ? list->size() : 0;
  void* result        = original_detach(comm);
  if (list != nullptr && list->size() == before + 1 && list->back() == comm) {
    list->pop_back(); /* the node only: its reference is now ours */
    held->insert(comm);
    moved++;
  }
  return result;
}

extern "C" void hnm_comm_finish(void* comm)
{
  if (original_finish == nullptr)
    original_finish = hnm_next_definition_or_die<finish_fn>(&_XBT_LOGV(hnm), FINISH_SYMBOL, "CommImpl::finish()");
  original_finish(comm);
  if (held != nullptr && held->erase(comm) != 0)
    activity_release(comm); /* where SimGrid's list::remove() dropped it */
}

namespace {

/* Whether the bytes at L are an empty std::list: its header's links point
 * at the header itself and its size is 0 (libstdc++'s _List_node_header:
 * next, prev, size). */
bool is_empty_list(const void* l)
{
  return hnm_field<const void*>(l, 0) == l && hnm_field<const void*>(l, sizeof(void*)) == l &&
         hnm_field<size_t>(l, 2 * sizeof(void*)) == 0;
}

} // namespace

int hnm_detached_fix_enable(std::string& why)
{
  if (remedy_on)
    return 0;
  if (not hnm_sg_running_as_built(why, "the remedy"))
    return -1;
  original_detach  = hnm_next_definition<detach_fn>(DETACH_SYMBOL);
  original_finish  = hnm_next_definition<finish_fn>(FINISH_SYMBOL);
  activity_release = hnm_next_definition<release_fn>(RELEASE_SYMBOL);
  auto self        = hnm_next_definition<void* (*)()>(SELF_SYMBOL);
  if (original_detach == nullptr || original_finish == nullptr || activity_release == nullptr || self == nullptr) {
    why = "libsimgrid does not export CommImpl::detach(), CommImpl::finish(), intrusive_ptr_release and "
          "ActorImpl::self() (or libhnm.so is not preloaded)";
    return -1;
  }
  const void* maestro = hnm_field<const void*>(simgrid::s4u::Engine::get_instance()->get_impl(), ENGINE_MAESTRO);
  if (maestro == nullptr || maestro != self()) {
    why = "the engine's field at the maestro's offset is not the maestro";
    return -1;
  }
  if (not is_empty_list(static_cast<const char*>(maestro) + ACTOR_ACTIVITIES)) {
    why = "the maestro's field at the offset of its activities is not an empty std::list";
    return -1;
  }
  if (held == nullptr)
    held = new std::unordered_set<const void*>();
  remedy_on = true;
  why       = "SimGrid 3.32's maestro keeps detached transfers in a std::list; its layout checked";
  return 0;
}

unsigned long long hnm_detached_fix_moved()
{
  return moved;
}

#else /* SimGrid 3.34 and later */

int hnm_detached_fix_enable(std::string& why)
{
  why = "SimGrid " + hnm_sg_running_version() + " keeps detached transfers in a std::set, not a list: nothing to remedy";
  return 1;
}

unsigned long long hnm_detached_fix_moved()
{
  return 0;
}

#endif
