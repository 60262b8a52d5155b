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
 * The guard. The maestro's list is reached at SimGrid 3.32's offsets
 * (EngineImpl::maestro_ at 0x1d0, ActorImpl::activities_ at 0xc0). The
 * remedy runs only when (1) the running libsimgrid says 3.32.0, (2) the
 * original detach()'s machine code is the one those offsets were read from
 * (Debian 12's libsimgrid3.32 3.32-2), and, at every call, (3) SimGrid's
 * detach() has grown that list by exactly one node holding this transfer.
 * Otherwise nothing is moved and SimGrid's own code runs alone.
 */
#include "hnm_detached_fix.h"

#include "hnm_simgrid_internals.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <xbt/log.h>

#include <list>
#include <string>
#include <unordered_set>

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(hnm);

namespace {

/* The original CommImpl::detach()'s first 113 bytes in Debian 12's
 * libsimgrid.so.3.32 (3.32-2): `movb $1,0xc0(%rdi)` (detached_), the call
 * of s4u::Engine::get_instance(), `mov (%rax),%rax` (pimpl), `mov
 * 0x1d0(%rax),%r12` (maestro_), the node allocation with the transfer at
 * node+0x10, `lea 0xc0(%r12),%r13` (activities_), the hook, and `addq
 * $1,0xd0(%r12)` (the list's size). The same bytes mean the same offsets. */
constexpr unsigned char ORIGINAL_DETACH[] = {
    0x41, 0x55, 0x41, 0x54, 0x55, 0x53, 0x48, 0x89, 0xfb, 0x48, 0x83, 0xec, 0x28, 0x64, 0x48, 0x8b, 0x04, 0x25, 0x28,
    0x00, 0x00, 0x00, 0x48, 0x89, 0x44, 0x24, 0x18, 0x31, 0xc0, 0xc6, 0x87, 0xc0, 0x00, 0x00, 0x00, 0x01, 0xe8, 0xa7,
    0x26, 0xf7, 0xff, 0xbf, 0x18, 0x00, 0x00, 0x00, 0x48, 0x8b, 0x00, 0x4c, 0x8b, 0xa0, 0xd0, 0x01, 0x00, 0x00, 0xe8,
    0x03, 0xaf, 0xf6, 0xff, 0x48, 0x89, 0xdf, 0x48, 0x89, 0x58, 0x10, 0x4d, 0x8d, 0xac, 0x24, 0xc0, 0x00, 0x00, 0x00,
    0x48, 0x89, 0xc5, 0x4c, 0x89, 0x2c, 0x24, 0x48, 0x89, 0x44, 0x24, 0x08, 0xe8, 0x83, 0x15, 0xf7, 0xff, 0x4c, 0x89,
    0xee, 0x48, 0x89, 0xef, 0xe8, 0x48, 0xb7, 0xf6, 0xff, 0x49, 0x83, 0x84, 0x24, 0xd0, 0x00, 0x00, 0x00, 0x01};

constexpr size_t ENGINE_MAESTRO     = 0x1d0;
constexpr size_t ACTOR_ACTIVITIES   = 0xc0;
constexpr const char* DETACH_SYMBOL = "_ZN7simgrid6kernel8activity8CommImpl6detachEv";
constexpr const char* FINISH_SYMBOL = "_ZN7simgrid6kernel8activity8CommImpl6finishEv";
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

int hnm_detached_fix_enable(std::string& why)
{
  if (remedy_on)
    return 0;
  if (not hnm_simgrid_is_3_32_0(why, "the remedy"))
    return -1;
  original_detach  = hnm_next_definition<detach_fn>(DETACH_SYMBOL);
  original_finish  = hnm_next_definition<finish_fn>(FINISH_SYMBOL);
  activity_release = hnm_next_definition<release_fn>(RELEASE_SYMBOL);
  if (original_detach == nullptr || original_finish == nullptr || activity_release == nullptr) {
    why = "libsimgrid does not export CommImpl::detach(), CommImpl::finish() and intrusive_ptr_release (or "
          "libhnm.so is not preloaded)";
    return -1;
  }
  if (not hnm_code_is(reinterpret_cast<const void*>(original_detach), ORIGINAL_DETACH, why, "CommImpl::detach()",
                      "the remedy"))
    return -1;
  if (held == nullptr)
    held = new std::unordered_set<const void*>();
  remedy_on = true;
  return 0;
}

unsigned long long hnm_detached_fix_moved()
{
  return moved;
}
