/* hnm_win_fix.cpp -- SMPI 3.32's passive-target locks, made O(1) per
 * operation from libhnm.so (docs/scale.md, "Passive target at scale").
 *
 * The cost. Each window keeps the ranks that hold a lock on it in
 * lockers_, a std::list<int> (src/smpi/mpi/smpi_win.cpp): Win::lock()
 * appends the caller; Win::unlock() takes it out with std::list::remove(),
 * which walks the whole list; and MPI_Put, MPI_Get, MPI_Accumulate,
 * MPI_Get_accumulate and MPI_Compare_and_swap first check that the caller
 * holds a lock on the target (CHECK_WIN_LOCKED: std::any_of over the
 * target's list, which stops at the caller's entry). MPI_Win_lock_all locks
 * every window of the communicator, so once P ranks have called it every
 * list holds P entries: each one-sided operation walks half a list on
 * average, and each rank's MPI_Win_unlock_all walks P lists, O(P^2) per
 * rank and O(P^3) for the run. Brown et al.'s passive-target halo swap
 * (apps/monc_halo.c) spent 64% of its CPU in unlock at 1,024 ranks, and
 * with unlock remedied, 52% in put's check at 4,096 (perf).
 *
 * The remedy. libhnm.so is preloaded (hnm-run: LD_PRELOAD), so the
 * functions defined here under SMPI's mangled names are the ones that
 * libsimgrid's callers (PMPI_Win_unlock, Win::unlock_all, PMPI_Put...)
 * reach through the PLT in Debian's libsimgrid.so.3.32. Both use an index
 * of each list's nodes by rank, built from the list itself, lazily:
 * entries are only ever appended (Win::lock's push_back) and only ever
 * removed by unlock, so before each use the nodes appended since the last
 * one are indexed by walking back from the tail to the last node indexed.
 * - Win::unlock() does what SMPI's does, in the same order: reset the
 *   target window's mode, take every entry of the caller's rank off the
 *   target's lockers_, release the target's mutex if the lock was
 *   exclusive, flush (SMPI's own Win::flush), return MPI_SUCCESS; only it
 *   finds the caller's entries through the index instead of walking.
 * - The five operations move the caller's entry to the front of the
 *   target's list, then call SMPI's own: its check finds the entry first.
 * The order of a list means nothing to SMPI: lockers_ is only asked
 * whether it holds a rank, whether it is empty, and to drop a rank. So the
 * same ranks are in the same lists as with SMPI's own code, every reader
 * of lockers_ (the lock checks, Win::del) gets the answer it would have
 * got, and no simulated time changes. A list's index is dropped when the
 * list becomes empty; a window whose list is not empty is never freed
 * (Win::del refuses to), so no index outlives its list.
 *
 * The guard. The window's fields are reached at SMPI 3.32's offsets
 * (connected_wins_ at 0xb8, lock_mut_ at 0x110, lockers_ at 0x120, rank_
 * at 0x138, mode_ at 0x13c). The remedy runs only when (1) the running
 * libsimgrid says 3.32.0 and (2) the original unlock()'s machine code is
 * the one those offsets were read from (Debian 12's libsimgrid3.32
 * 3.32-2). At every use (3) the index must account for exactly the
 * list's size, and each node it names must hold the rank it is filed
 * under; otherwise the index is dropped and SMPI's own code walks the
 * list, as without the remedy. Under parallel contexts it stays off
 * (hnm_simgrid.cpp): its index is not shared safely between threads.
 */
#include "hnm_win_fix.h"

#include "hnm_simgrid_internals.hpp"

#include <simgrid/s4u/Mutex.hpp>
#include <xbt/log.h>

#include <cstring>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(hnm);

namespace {

/* The original Win::unlock(int)'s first 272 bytes in Debian 12's
 * libsimgrid.so.3.32 (3.32-2), up to its call of Win::flush: `mov
 * 0xb8(%rdi),%rax` (connected_wins_' data), `mov 0x13c(%r13),%ecx` and
 * `movl $0,0x13c(%r13)` (mode_), `lea 0x120(%r13),%r8` (lockers_), `mov
 * 0x138(%rbp),%edi` (rank_), `cmp %edi,0x10(%rsi)` (a node's value),
 * `subq $1,0x130(%r13)` (the list's size), `cmpl $0x1,0x4(%rsp)`
 * (MPI_LOCK_EXCLUSIVE) and `mov 0x110(%r13),%rdi` (lock_mut_). The same
 * bytes mean the same offsets and the same steps. */
constexpr unsigned char ORIGINAL_UNLOCK[] = {
    0x41, 0x57, 0x48, 0x63, 0xd6, 0x41, 0x56, 0x49, 0x89, 0xd6, 0x41, 0x55, 0x41, 0x54, 0x55, 0x48, 0x89, 0xfd, 0x53,
    0x48, 0x83, 0xec, 0x38, 0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00, 0x48, 0x89, 0x44, 0x24, 0x28, 0x31,
    0xc0, 0x48, 0x8b, 0x87, 0xb8, 0x00, 0x00, 0x00, 0x4c, 0x8d, 0x64, 0x24, 0x10, 0x66, 0x49, 0x0f, 0x6e, 0xc4, 0x4c,
    0x89, 0xe3, 0x4c, 0x8b, 0x2c, 0xd0, 0x66, 0x0f, 0x6c, 0xc0, 0x48, 0xc7, 0x44, 0x24, 0x20, 0x00, 0x00, 0x00, 0x00,
    0x0f, 0x29, 0x44, 0x24, 0x10, 0x41, 0x8b, 0x8d, 0x3c, 0x01, 0x00, 0x00, 0x4d, 0x8b, 0xbd, 0x20, 0x01, 0x00, 0x00,
    0x4d, 0x8d, 0x85, 0x20, 0x01, 0x00, 0x00, 0x41, 0xc7, 0x85, 0x3c, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x89,
    0x4c, 0x24, 0x04, 0x4d, 0x39, 0xf8, 0x75, 0x0b, 0xeb, 0x71, 0x0f, 0x1f, 0x40, 0x00, 0x4d, 0x39, 0xf8, 0x74, 0x4b,
    0x4c, 0x89, 0xfe, 0x8b, 0xbd, 0x38, 0x01, 0x00, 0x00, 0x4d, 0x8b, 0x3f, 0x39, 0x7e, 0x10, 0x75, 0xea, 0x49, 0x39,
    0xdf, 0x74, 0xe5, 0x48, 0x39, 0xf3, 0x74, 0xe0, 0x48, 0x89, 0xdf, 0x4c, 0x89, 0xfa, 0x4c, 0x89, 0x44, 0x24, 0x08,
    0xe8, 0x00, 0x38, 0xcb, 0xff, 0x4c, 0x8b, 0x44, 0x24, 0x08, 0x48, 0x83, 0x44, 0x24, 0x20, 0x01, 0x49, 0x83, 0xad,
    0x30, 0x01, 0x00, 0x00, 0x01, 0x48, 0x8b, 0x5c, 0x24, 0x10, 0x4d, 0x39, 0xf8, 0x75, 0xb8, 0x0f, 0x1f, 0x00, 0x4c,
    0x39, 0xe3, 0x74, 0x18, 0x0f, 0x1f, 0x00, 0x48, 0x89, 0xdf, 0x48, 0x8b, 0x1b, 0xbe, 0x18, 0x00, 0x00, 0x00, 0xe8,
    0xa8, 0x06, 0xcb, 0xff, 0x4c, 0x39, 0xe3, 0x75, 0xeb, 0x83, 0x7c, 0x24, 0x04, 0x01, 0x75, 0x11, 0x49, 0x8b, 0xbd,
    0x10, 0x01, 0x00, 0x00, 0x48, 0x85, 0xff, 0x74, 0x31, 0xe8, 0xab, 0x83, 0xcb, 0xff, 0x44, 0x89, 0xf6, 0x48, 0x89,
    0xef, 0xe8, 0xf0, 0x3d, 0xcb, 0xff};

constexpr size_t WIN_CONNECTED     = 0xb8;  /* std::vector<MPI_Win>: its data pointer first */
constexpr size_t WIN_LOCK_MUT      = 0x110; /* s4u::MutexPtr: one pointer */
constexpr size_t WIN_LOCKERS       = 0x120; /* std::list<int> */
constexpr size_t WIN_RANK          = 0x138; /* int */
constexpr size_t WIN_MODE          = 0x13c; /* int */
constexpr int LOCK_EXCLUSIVE       = 1;     /* SMPI's MPI_LOCK_EXCLUSIVE */
constexpr const char* UNLOCK_SYMBOL = "_ZN7simgrid4smpi3Win6unlockEi";
constexpr const char* FLUSH_SYMBOL  = "_ZN7simgrid4smpi3Win5flushEi";

using unlock_fn = int (*)(void*, int);
using flush_fn  = int (*)(void*, int);
using lockers   = std::list<int>;
using node      = std::__detail::_List_node_base;

unlock_fn original_unlock = nullptr;
flush_fn win_flush        = nullptr;
bool remedy_on            = false;
unsigned long long taken  = 0; /* lock entries taken off by unlock */
unsigned long long found  = 0; /* one-sided operations whose lock entry was moved to the front */

/* One list's index: where each rank's entries are. Ranks are a window's
 * ranks in its communicator (0 to P-1), so the first entry of a rank sits
 * in a vector; a second entry of the same rank (a rank that locked the
 * same window twice) goes to the multimap. */
struct list_index {
  std::vector<node*> first;
  std::unordered_multimap<int, node*> more;
  node* seen   = nullptr; /* the last node indexed; the list's header when none */
  size_t count = 0;       /* nodes indexed */
};

/* Allocated once and never freed, like hnm_detached_fix.cpp's set. */
std::unordered_map<const lockers*, list_index>* indexes = nullptr;

constexpr int FIRST_MAX = 1 << 24; /* ranks beyond go to the multimap */

node* header(lockers* l)
{
  return reinterpret_cast<node*>(l); /* _List_impl's _M_node: the header's links come first */
}

int value(const node* n)
{
  return *static_cast<const std::_List_node<int>*>(n)->_M_valptr();
}

void add(list_index& ix, node* n)
{
  int r = value(n);
  if (r >= 0 && r < FIRST_MAX) {
    if (static_cast<size_t>(r) >= ix.first.size())
      ix.first.resize(static_cast<size_t>(r) + 1, nullptr);
    if (ix.first[r] == nullptr) {
      ix.first[r] = n;
      ix.count++;
      return;
    }
  }
  ix.more.emplace(r, n);
  ix.count++;
}

/* Index the nodes appended since the last node indexed. False when that
 * node is no longer in the list or the index does not account for the
 * list's size: the caller drops the index. */
bool sync(lockers* l, list_index& ix)
{
  static std::vector<node*> fresh;
  fresh.clear();
  node* head = header(l);
  for (node* n = head->_M_prev; n != ix.seen; n = n->_M_prev) {
    if (n == head)
      return false;
    fresh.push_back(n);
  }
  for (auto it = fresh.rbegin(); it != fresh.rend(); ++it)
    add(ix, *it);
  ix.seen = head->_M_prev;
  return ix.count == l->size();
}

/* L's index, brought up to date; nullptr when it cannot be (the index
 * is dropped: the caller leaves the list to SMPI's own code). */
list_index* index_of(lockers* l)
{
  auto [it, created] = indexes->try_emplace(l);
  if (created)
    it->second.seen = header(l);
  if (sync(l, it->second))
    return &it->second;
  indexes->erase(it);
  return nullptr;
}

/* The nodes of IX filed under RANK, into MINE; false when one of them
 * does not hold RANK. */
bool entries(const list_index& ix, int rank, std::vector<node*>& mine)
{
  mine.clear();
  if (rank >= 0 && static_cast<size_t>(rank) < ix.first.size() && ix.first[rank] != nullptr)
    mine.push_back(ix.first[rank]);
  auto [b, e] = ix.more.equal_range(rank);
  for (auto m = b; m != e; ++m)
    mine.push_back(m->second);
  for (const node* n : mine)
    if (value(n) != rank)
      return false;
  return true;
}

/* std::list::remove(rank) on L, through the index. */
void remove_rank(lockers* l, int rank)
{
  static std::vector<node*> mine;
  list_index* ix = index_of(l);
  if (ix == nullptr || not entries(*ix, rank, mine)) { /* SMPI's walk */
    indexes->erase(l);
    l->remove(rank);
    return;
  }
  if (rank >= 0 && static_cast<size_t>(rank) < ix->first.size())
    ix->first[rank] = nullptr;
  ix->more.erase(rank);
  for (node* n : mine) {
    if (n == ix->seen)
      ix->seen = n->_M_prev;
    l->erase(lockers::iterator(n));
    ix->count--;
    taken++;
  }
  if (l->empty())
    indexes->erase(l);
}

/* Move RANK's first entry in L, if any, to the list's front. */
void promote(lockers* l, int rank)
{
  static std::vector<node*> mine;
  if (l->empty())
    return;
  list_index* ix = index_of(l);
  if (ix == nullptr)
    return;
  if (not entries(*ix, rank, mine)) {
    indexes->erase(l);
    return;
  }
  if (mine.empty())
    return;
  found++;
  node* n = mine.front();
  if (header(l)->_M_next == n)
    return;
  if (n == ix->seen)
    ix->seen = n->_M_prev;
  l->splice(l->begin(), *l, lockers::iterator(n));
}

} // namespace

/* The interposed function, under SMPI's mangled name (smpi_win.hpp is not
 * installed): see the top of this file. */
extern "C" int hnm_win_unlock(void* win, int rank) __asm__("_ZN7simgrid4smpi3Win6unlockEi");

extern "C" int hnm_win_unlock(void* win, int rank)
{
  if (original_unlock == nullptr)
    original_unlock = hnm_next_definition_or_die<unlock_fn>(&_XBT_LOGV(hnm), UNLOCK_SYMBOL, "Win::unlock()");
  if (not remedy_on)
    return original_unlock(win, rank);
  char* target   = hnm_field<char**>(win, WIN_CONNECTED)[rank];
  int mode       = hnm_field<int>(target, WIN_MODE);
  auto* mutex    = hnm_field<simgrid::s4u::Mutex*>(target, WIN_LOCK_MUT);
  if (mode == LOCK_EXCLUSIVE && mutex == nullptr) /* SMPI's own code fails on it: let it */
    return original_unlock(win, rank);
  int zero = 0;
  std::memcpy(target + WIN_MODE, &zero, sizeof zero);
  remove_rank(reinterpret_cast<lockers*>(target + WIN_LOCKERS), hnm_field<int>(win, WIN_RANK));
  if (mode == LOCK_EXCLUSIVE)
    mutex->unlock();
  win_flush(win, rank);
  return 0; /* MPI_SUCCESS, as SMPI's */
}

namespace {

/* Before a one-sided operation of WIN's caller on TARGET: its lock entry
 * to the front of the target window's list. */
void promote_for(const void* win, int target)
{
  if (not remedy_on)
    return;
  char* const* wins = hnm_field<char* const*>(win, WIN_CONNECTED);
  char* const* end  = hnm_field<char* const*>(win, WIN_CONNECTED + sizeof(void*));
  if (target < 0 || target >= end - wins)
    return;
  promote(reinterpret_cast<lockers*>(wins[target] + WIN_LOCKERS), hnm_field<int>(win, WIN_RANK));
}

} // namespace

/* The five operations that check the caller's lock (SMPI's smpi_win.hpp
 * declarations; MPI_Datatype, MPI_Op and MPI_Request* as pointers). */
#define HNM_WIN_OP(NAME, SYMBOL, PARAMS, ARGS)                                                                     \
  extern "C" int hnm_win_##NAME PARAMS __asm__(SYMBOL);                                                              \
  extern "C" int hnm_win_##NAME PARAMS                                                                               \
  {                                                                                                                  \
    using fn               = int(*) PARAMS;                                                                          \
    static const fn smpi   = hnm_next_definition_or_die<fn>(&_XBT_LOGV(hnm), SYMBOL, "Win::" #NAME "()");           \
    promote_for(win, target);                                                                                        \
    return smpi ARGS;                                                                                                \
  }

HNM_WIN_OP(put, "_ZN7simgrid4smpi3Win3putEPKviPNS0_8DatatypeEiliS5_PPNS0_7RequestE",
           (void* win, const void* origin, int origin_count, void* origin_type, int target, long disp,
            int target_count, void* target_type, void** request),
           (win, origin, origin_count, origin_type, target, disp, target_count, target_type, request))
HNM_WIN_OP(get, "_ZN7simgrid4smpi3Win3getEPviPNS0_8DatatypeEiliS4_PPNS0_7RequestE",
           (void* win, void* origin, int origin_count, void* origin_type, int target, long disp, int target_count,
            void* target_type, void** request),
           (win, origin, origin_count, origin_type, target, disp, target_count, target_type, request))
HNM_WIN_OP(accumulate, "_ZN7simgrid4smpi3Win10accumulateEPKviPNS0_8DatatypeEiliS5_PNS0_2OpEPPNS0_7RequestE",
           (void* win, const void* origin, int origin_count, void* origin_type, int target, long disp,
            int target_count, void* target_type, void* op, void** request),
           (win, origin, origin_count, origin_type, target, disp, target_count, target_type, op, request))
HNM_WIN_OP(get_accumulate,
           "_ZN7simgrid4smpi3Win14get_accumulateEPKviPNS0_8DatatypeEPviS5_iliS5_PNS0_2OpEPPNS0_7RequestE",
           (void* win, const void* origin, int origin_count, void* origin_type, void* result, int result_count,
            void* result_type, int target, long disp, int target_count, void* target_type, void* op,
            void** request),
           (win, origin, origin_count, origin_type, result, result_count, result_type, target, disp, target_count,
            target_type, op, request))
HNM_WIN_OP(compare_and_swap, "_ZN7simgrid4smpi3Win16compare_and_swapEPKvS3_PvPNS0_8DatatypeEil",
           (void* win, const void* origin, const void* compare, void* result, void* type, int target, long disp),
           (win, origin, compare, result, type, target, disp))

int hnm_win_fix_enable(std::string& why)
{
  if (remedy_on)
    return 0;
  if (not hnm_simgrid_is_3_32_0(why, "the remedy"))
    return -1;
  original_unlock = hnm_next_definition<unlock_fn>(UNLOCK_SYMBOL);
  win_flush       = hnm_next_definition<flush_fn>(FLUSH_SYMBOL);
  if (original_unlock == nullptr || win_flush == nullptr) {
    why = "libsimgrid does not export Win::unlock() and Win::flush() (or libhnm.so is not preloaded)";
    return -1;
  }
  if (not hnm_code_is(reinterpret_cast<const void*>(original_unlock), ORIGINAL_UNLOCK, why, "Win::unlock()",
                      "the remedy"))
    return -1;
  if (indexes == nullptr)
    indexes = new std::unordered_map<const lockers*, list_index>();
  remedy_on = true;
  return 0;
}

unsigned long long hnm_win_fix_taken()
{
  return taken;
}

unsigned long long hnm_win_fix_found()
{
  return found;
}
