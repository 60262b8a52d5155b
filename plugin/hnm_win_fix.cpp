/* hnm_win_fix.cpp -- SMPI's passive-target locks, made O(1) per
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
 * The guard, by behaviour (no machine-code test: a rebuild, a point
 * release or another compiler keeps it working or turns it off, never
 * wrong). The file is compiled in for the versions whose Win class and
 * Win::unlock() were checked to be 3.32's, 3.32 to 4.1
 * (HNM_SG_WIN_LOCKERS_LIST, hnm_simgrid_version.hpp). The window's fields
 * are reached at offsets fixed by that class declaration (connected_wins_
 * at 0xb8, lock_mut_ at 0x110, lockers_ at 0x120, rank_ at 0x138, mode_ at
 * 0x13c). (1) The running libsimgrid must be the version hnm was built
 * for. (2) The first window the remedy meets is checked against SMPI's own
 * accessors before any field is written: rank_ must be what Win::rank()
 * returns, connected_wins_ must hold Win::comm()'s size windows with this
 * one at its rank, lock_mut_ must be set, and lockers_ must be a
 * well-formed std::list (its header's neighbours point back at it). The
 * layout is the class's, so one window decides for all; if it fails, the
 * remedy turns itself off and SMPI's own code runs. At every use (3) the
 * index must account for exactly the list's size, and each node it names
 * must hold the rank it is filed under; otherwise the index is dropped and
 * SMPI's own code walks the list, as without the remedy. Under parallel
 * contexts it stays off (hnm_simgrid.cpp): its index is not shared safely
 * between threads.
 */
#include "hnm_win_fix.h"

#include "hnm_simgrid_version.hpp"

#if HNM_SG_WIN_LOCKERS_LIST

#include <simgrid/s4u/Mutex.hpp>
#include <xbt/log.h>

#include <cstring>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(hnm);

namespace {

/* Offsets in SMPI's class Win (3.32 to 4.1, x86-64 Itanium ABI). */
constexpr size_t WIN_CONNECTED     = 0xb8;  /* std::vector<MPI_Win>: its data pointer first */
constexpr size_t WIN_LOCK_MUT      = 0x110; /* s4u::MutexPtr: one pointer */
constexpr size_t WIN_LOCKERS       = 0x120; /* std::list<int> */
constexpr size_t WIN_RANK          = 0x138; /* int */
constexpr size_t WIN_MODE          = 0x13c; /* int */
constexpr int LOCK_EXCLUSIVE       = 1;     /* SMPI's MPI_LOCK_EXCLUSIVE */
constexpr const char* UNLOCK_SYMBOL = "_ZN7simgrid4smpi3Win6unlockEi";
constexpr const char* FLUSH_SYMBOL  = "_ZN7simgrid4smpi3Win5flushEi";
constexpr const char* RANK_SYMBOL   = "_ZNK7simgrid4smpi3Win4rankEv";
constexpr const char* COMM_SYMBOL   = "_ZNK7simgrid4smpi3Win4commEv";
constexpr const char* SIZE_SYMBOL   = "_ZNK7simgrid4smpi4Comm4sizeEv";

using unlock_fn = int (*)(void*, int);
using flush_fn  = int (*)(void*, int);
using lockers   = std::list<int>;
using node      = std::__detail::_List_node_base;

unlock_fn original_unlock       = nullptr;
flush_fn win_flush              = nullptr;
int (*win_rank)(const void*)    = nullptr; /* SMPI's Win::rank(), for the layout check */
void* (*win_comm)(const void*)  = nullptr; /* Win::comm() */
int (*comm_size)(const void*)   = nullptr; /* Comm::size() */
bool remedy_on                  = false;
enum class Layout { UNCHECKED, OK, WRONG } layout = Layout::UNCHECKED;
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

/* Guard (2): WIN's fields, read at the offsets above, agree with SMPI's
 * own accessors. Decided once, on the first window met. */
bool layout_checked(const void* win)
{
  if (layout == Layout::UNCHECKED) {
    bool ok           = false;
    int rank          = win_rank(win);
    const void* comm  = win_comm(win);
    char* const* wins = hnm_field<char* const*>(win, WIN_CONNECTED);
    char* const* end  = hnm_field<char* const*>(win, WIN_CONNECTED + sizeof(void*));
    if (comm != nullptr && hnm_field<int>(win, WIN_RANK) == rank && rank >= 0 && wins != nullptr &&
        end - wins == comm_size(comm) && rank < end - wins && wins[rank] == win &&
        hnm_field<void*>(win, WIN_LOCK_MUT) != nullptr) {
      auto* head = reinterpret_cast<const node*>(static_cast<const char*>(win) + WIN_LOCKERS);
      ok         = head->_M_next != nullptr && head->_M_prev != nullptr && head->_M_next->_M_prev == head &&
                   head->_M_prev->_M_next == head;
    }
    layout = ok ? Layout::OK : Layout::WRONG;
    if (not ok)
      XBT_INFO("note: SMPI's window is not laid out as hnm's unlock remedy reads it: the remedy stays off "
               "(hnm_win_fix.cpp)");
  }
  return layout == Layout::OK;
}

} // namespace

/* The interposed function, under SMPI's mangled name (smpi_win.hpp is not
 * installed): see the top of this file. */
extern "C" int hnm_win_unlock(void* win, int rank) __asm__("_ZN7simgrid4smpi3Win6unlockEi");

extern "C" int hnm_win_unlock(void* win, int rank)
{
  if (original_unlock == nullptr)
    original_unlock = hnm_next_definition_or_die<unlock_fn>(&_XBT_LOGV(hnm), UNLOCK_SYMBOL, "Win::unlock()");
  if (not remedy_on || not layout_checked(win))
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
  if (not remedy_on || not layout_checked(win))
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
  if (not hnm_sg_running_as_built(why, "the remedy"))
    return -1;
  original_unlock = hnm_next_definition<unlock_fn>(UNLOCK_SYMBOL);
  win_flush       = hnm_next_definition<flush_fn>(FLUSH_SYMBOL);
  win_rank        = hnm_next_definition<int (*)(const void*)>(RANK_SYMBOL);
  win_comm        = hnm_next_definition<void* (*)(const void*)>(COMM_SYMBOL);
  comm_size       = hnm_next_definition<int (*)(const void*)>(SIZE_SYMBOL);
  if (original_unlock == nullptr || win_flush == nullptr || win_rank == nullptr || win_comm == nullptr ||
      comm_size == nullptr) {
    why = "libsimgrid does not export Win::unlock(), flush(), rank(), comm() and Comm::size() (or libhnm.so is not "
          "preloaded)";
    return -1;
  }
  if (indexes == nullptr)
    indexes = new std::unordered_map<const lockers*, list_index>();
  remedy_on = true;
  why       = "SMPI " + hnm_sg_running_version() + " keeps a window's lockers in a std::list; the first window's "
              "layout is checked against SMPI's accessors before use";
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

#else /* a SimGrid newer than the last one checked */

int hnm_win_fix_enable(std::string& why)
{
  why = "SimGrid " + hnm_sg_running_version() + " is newer than the last version whose windows were checked (" +
        std::to_string(HNM_SG_LAST_CHECKED_MAJOR) + "." + std::to_string(HNM_SG_LAST_CHECKED_MINOR) +
        "): SMPI's own code runs";
  return -1;
}

unsigned long long hnm_win_fix_taken()
{
  return 0;
}

unsigned long long hnm_win_fix_found()
{
  return 0;
}

#endif
