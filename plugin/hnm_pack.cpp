/* hnm_pack.cpp -- derived-datatype pack/unpack time, charged inside SMPI.
 *
 * SMPI 3.32 packs a non-contiguous datatype inside the MPI call (Request's
 * serialize/unserialize) and charges no simulated time for it, whatever the
 * model (Schneider, Kjolstad and Hoefler 2013 measure it at up to 90% of the
 * communication time). hnm charges the model's pack time (hnm_model.h,
 * "pack") to the sender before the transfer and the unpack time to the
 * receiver after it, as a sleep of the calling actor: deterministic, and
 * independent of smpi/simulate-computation (the sleep is taken with SMPI's
 * computation benchmark suspended, as SMPI itself suspends it inside MPI
 * calls, so that no real time is counted twice).
 *
 * How the datatype reaches hnm, without changing the program (the choice is
 * explained in docs/models.md, "Packing"): libhnm.so is preloaded into
 * smpimain, and libsimgrid's MPI_X entry points call PMPI_X through the
 * PLT (SimGrid 3.32's MPI_CALL wrappers, bindings/smpi_mpi.cpp), so the
 * PMPI_X defined here take their place; each calls the next definition
 * (libsimgrid's, found once with dlsym(RTLD_NEXT)). Only public MPI calls
 * are used, no SMPI internals:
 *   - the type constructors (PMPI_Type_vector ... PMPI_Type_free) record the
 *     layout of each new type from their arguments and the layouts of their
 *     old types: its number of maximal contiguous runs per element, the
 *     offsets of its first and last run, its extent and size, and its class.
 *     (MPI_Type_get_contents cannot be used instead: SMPI 3.32 takes a
 *     reference on every type it returns, and the only public way to drop it,
 *     MPI_Type_free, marks the user's type as freed; it also reports struct
 *     types with MPI_COMBINER_INDEXED and subarrays as their nested vectors.)
 *   - the point-to-point calls charge the time: MPI_Send, MPI_Ssend,
 *     MPI_Isend, MPI_Issend, MPI_Bsend, MPI_Ibsend, MPI_Sendrecv (pack before
 *     the call), MPI_Recv, MPI_Sendrecv (unpack after), MPI_Irecv (the unpack
 *     is charged when MPI_Wait*, MPI_Test* completes the request), and
 *     MPI_Pack / MPI_Unpack. SMPI's own MPI_Rsend, MPI_Irsend and
 *     MPI_Sendrecv_replace call these through the PLT, so they are charged
 *     once, there. Collectives and one-sided calls pack inside SMPI without
 *     passing here: not charged (docs/models.md says so).
 *
 * Invariants: a call with a contiguous datatype (every predefined type, and
 * a derived type of one run) sleeps nothing and calls nothing of SimGrid
 * beyond the real PMPI function, so a program without derived datatypes is
 * timed exactly as before. Per call: one hash lookup (the layout); per
 * constructor: O(number of blocks given to it). The maps have no lock: like
 * the rest of the plugin, they assume that actors run one at a time
 * (SimGrid's default, contexts/nthreads:1; hnm_pack_install() warns
 * otherwise).
 */
#include "hnm_pack.h"

#include "hnm_bench.h"
#include "hnm_simgrid_version.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <smpi/smpi.h>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>


XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(hnm);
XBT_LOG_EXTERNAL_CATEGORY(hnm_trace);
namespace sg4 = simgrid::s4u;

namespace {

const hnm_model* model = nullptr;
bool active            = false; /* the model charges a pack style */
bool trace             = false;
bool warned_unknown    = false;

double jump(MPI_Aint from, MPI_Aint to)
{
  return hnm_bench_pack_jump((long long)from, (long long)to);
}

/* The layout of one element of a datatype, offsets in bytes from the
 * element's start address (the buffer pointer). */
struct Layout {
  long long runs = 0;      /* maximal contiguous runs, in type-map order; 0 = no data */
  MPI_Aint first = 0;      /* start of the first run */
  MPI_Aint second = 0;     /* start of the second run (runs >= 2) */
  MPI_Aint last_start = 0; /* start of the last run */
  MPI_Aint last_end = 0;   /* end of the last run */
  MPI_Aint extent = 0;     /* MPI extent: the distance between consecutive elements */
  long long size = 0;      /* bytes of data */
  double jumps = 0;        /* the runs' jump weights (core/hnm_bench.h), multiples of 1/4: exact */
  long long period = 0;    /* runs of one repetition of irregular block lengths (core/hnm_bench.h); 0: regular */
  hnm_pack_class cls = HNM_PACK_VECTOR;
  /* count consecutive elements form one run */
  bool dense() const { return runs == 1 && last_end - first == extent; }
  /* the last run of an element continues into the next element's first */
  bool joins() const { return last_end == extent + first; }
  /* Jumps added by each element after the first, of a non-dense layout:
   * from this element's last run to the next one's first, or, when they
   * join into one run (which starts at this element's last run), from that
   * run to the next element's second instead of from its first. */
  double jumps_between() const
  {
    if (not joins())
      return jump(last_start, extent + first);
    return jump(last_start, extent + second) - jump(first, second);
  }
};

std::unordered_map<MPI_Datatype, Layout> layouts;   /* derived types built through hnm */
std::unordered_map<MPI_Request, double> unpack_due; /* MPI_Irecv requests with an unpack to charge, seconds */

/* The definition of NAME that this file's NAME hides (libsimgrid's);
 * missing, a fatal error naming it (hnm_next_definition_or_die). */
#define REAL(name) (([]() {                                                                       \
  static auto f = hnm_next_definition_or_die<decltype(&::name)>(&_XBT_LOGV(hnm), #name, #name);  \
  return f;                                                                                       \
})())

/* A predefined type (or one built by a constructor hnm does not read,
 * MPI_Type_create_darray): one contiguous run of its size. */
Layout basic_layout(MPI_Datatype t)
{
  Layout l;
  int size = 0;
  MPI_Aint lb = 0;
  MPI_Aint extent = 0;
  REAL(PMPI_Type_size)(t, &size);
  REAL(PMPI_Type_get_extent)(t, &lb, &extent);
  l.size       = size;
  l.runs       = size > 0 ? 1 : 0;
  l.first      = lb;
  l.last_start = lb;
  l.last_end   = lb + size;
  l.extent     = extent;
  return l;
}

Layout layout_of(MPI_Datatype t)
{
  if (auto it = layouts.find(t); it != layouts.end())
    return it->second;
  int ni = 0;
  int na = 0;
  int nd = 0;
  int combiner = MPI_COMBINER_NAMED;
  REAL(PMPI_Type_get_envelope)(t, &ni, &na, &nd, &combiner);
  if (combiner != MPI_COMBINER_NAMED && not warned_unknown) {
    warned_unknown = true;
    XBT_WARN("warning: a derived datatype was built by a constructor hnm does not read "
                         "(MPI_Type_create_darray?): its packing is not charged (docs/models.md, \"Packing\")");
  }
  return basic_layout(t);
}

/* The runs of a type map built element by element, in type-map order.
 * own: the class of the constructor being read. The runs are also counted
 * per class, to give the new type the class of the structure that makes
 * most of its runs: an old type that is itself non-contiguous passes its
 * class on (a struct of subarrays packs like subarrays, an hvector of
 * vectors like vectors), a contiguous one makes one run of the
 * constructor's own class. */
struct Runs {
  hnm_pack_class own;
  long long runs = 0;
  double jumps = 0;
  bool any = false;
  MPI_Aint first = 0;
  MPI_Aint second = 0; /* runs >= 2 */
  MPI_Aint last_start = 0;
  MPI_Aint end = 0;
  double by_class[HNM_PACK_CLASSES] = {0, 0, 0};
  long long period = 0; /* the largest period of the old types added */
  explicit Runs(hnm_pack_class c) : own(c) {}
  hnm_pack_class cls() const
  {
    int best = own;
    for (int c = 0; c < HNM_PACK_CLASSES; c++)
      if (by_class[c] > by_class[best])
        best = c;
    return (hnm_pack_class)best;
  }
  /* Append one instance: l's runs shifted by at, or, when whole, the single
   * run [at + l.first, end_of_run). */
  void instance(const Layout& l, MPI_Aint at, MPI_Aint end_of_run)
  {
    if (not any) {
      any        = true;
      runs       = l.runs;
      jumps      = l.jumps;
      first      = at + l.first;
      second     = at + l.second;
      last_start = at + l.last_start;
      end        = end_of_run;
      return;
    }
    bool join = end == at + l.first;
    if (runs == 1 && (l.runs >= 2 || not join))
      second = join ? at + l.second : at + l.first;
    if (join) {
      /* the joined run starts at our last run: the jump into the
       * instance's second run is counted from there */
      if (l.runs >= 2) {
        jumps += l.jumps - jump(at + l.first, at + l.second) + jump(last_start, at + l.second);
        last_start = at + l.last_start;
      }
      runs += l.runs - 1;
    } else {
      jumps += l.jumps + jump(last_start, at + l.first);
      runs += l.runs;
      last_start = at + l.last_start;
    }
    end = end_of_run;
  }
  /* n consecutive elements of layout l, the first at byte offset at. The
   * first two are appended one by one; every further one adds the same
   * runs and jumps (O(1) whatever n). */
  void add(const Layout& l, MPI_Aint at, long long n)
  {
    if (l.runs == 0 || n <= 0)
      return;
    period = std::max(period, l.period);
    by_class[l.runs > 1 ? l.cls : own] += (double)n * (double)(l.runs > 1 ? l.runs : 1);
    if (l.dense()) {
      Layout whole = l;
      whole.jumps  = 0;
      instance(whole, at, at + l.first + n * l.extent);
      return;
    }
    instance(l, at, at + l.last_end);
    if (n > 1)
      instance(l, at + l.extent, at + l.extent + l.last_end);
    if (n > 2) {
      runs += (n - 2) * (l.runs - (l.joins() ? 1 : 0));
      jumps += (double)(n - 2) * (l.jumps_between() + l.jumps);
      last_start = at + (n - 1) * l.extent + l.last_start;
      end        = at + (n - 1) * l.extent + l.last_end;
    }
  }
};

/* Record the layout of a type a constructor just built. irregular: the
 * constructor gave its blocks different lengths, so that one element of the
 * new type is one period (core/hnm_bench.h); otherwise the new type repeats
 * its old types and keeps their largest period. */
void record(MPI_Datatype t, const Runs& r, bool irregular = false)
{
  Layout l = basic_layout(t);
  l.runs       = r.any ? r.runs : 0;
  l.jumps      = r.any ? r.jumps : 0;
  l.period     = not r.any ? 0 : irregular ? r.runs : r.period;
  l.first      = r.first;
  l.second     = r.second;
  l.last_start = r.last_start;
  l.last_end   = r.end;
  l.cls        = r.cls();
  layouts[t]   = l;
}

/* Blocks, bytes and jumps of COUNT elements of T: O(1), from T's layout
 * recorded once when it was built. */
void message_shape(MPI_Datatype t, int count, Layout* l, double* blocks, double* bytes, double* jumps)
{
  *l      = layout_of(t);
  *blocks = 0;
  *bytes  = 0;
  *jumps  = 0;
  if (count <= 0 || l->runs == 0)
    return;
  *bytes = (double)count * (double)l->size;
  if (l->dense()) {
    *blocks = 1;
    return;
  }
  *blocks = (double)count * (double)l->runs - (l->joins() ? (double)(count - 1) : 0.0);
  *jumps  = (double)count * (double)l->jumps + (double)(count - 1) * (double)l->jumps_between();
}

double pack_time(MPI_Datatype t, int count, hnm_pack_op op)
{
  if (not active || layouts.empty() || t == MPI_DATATYPE_NULL)
    return 0.0; /* only derived types built through hnm can be non-contiguous */
  Layout l;
  double blocks;
  double bytes;
  double jumps;
  message_shape(t, count, &l, &blocks, &bytes, &jumps);
  hnm_pack_shape shape = {blocks, bytes, jumps, (double)count, (double)l.period};
  double s = hnm_model_pack_time_of(model, l.cls, op, &shape);
  if (trace && s > 0)
    XBT_CVERB(hnm_trace, "%s %s, %.0f blocks, %.0f jumps, %.0f bytes, %d elements, period %lld: %.17g s",
              op == HNM_PACK_OP_PACK ? "pack" : "unpack", hnm_pack_class_name(l.cls), blocks, jumps, bytes, count,
              l.period, s);
  return s;
}

/* Sleep S seconds of simulated time as the calling actor, with SMPI's
 * computation benchmark suspended (it runs between MPI calls). */
void charge(double s)
{
  if (s <= 0)
    return;
  smpi_bench_end();
  sg4::this_actor::sleep_for(s);
  smpi_bench_begin();
}

/* Requests completed by a Wait/Test call: charge their pending unpacks. */
void charge_completed(const MPI_Request* before, int n, const int* which, int nwhich)
{
  double s = 0;
  auto take = [&s](MPI_Request r) {
    if (auto it = unpack_due.find(r); it != unpack_due.end()) {
      s += it->second;
      unpack_due.erase(it);
    }
  };
  if (which == nullptr)
    for (int i = 0; i < n; i++)
      take(before[i]);
  else
    for (int k = 0; k < nwhich; k++)
      if (which[k] >= 0 && which[k] < n)
        take(before[which[k]]);
  charge(s);
}

std::vector<MPI_Request> snapshot(const MPI_Request* r, int n)
{
  if (unpack_due.empty() || r == nullptr || n <= 0)
    return {};
  return std::vector<MPI_Request>(r, r + n);
}

} // namespace

void hnm_pack_install(const hnm_model* m, bool trace_calls)
{
  model  = m;
  trace  = trace_calls;
  active = hnm_model_pack_style(m) != HNM_PACK_NONE;
  if (active && dlsym(RTLD_DEFAULT, "PMPI_Send") != reinterpret_cast<void*>(&PMPI_Send))
    XBT_WARN("warning: libhnm.so does not come first in the symbol lookup of this process, so "
                         "model '%s' cannot charge datatype packing (start the simulation with hnm-run, which "
                         "preloads it)",
                 hnm_model_name(m));
  if (active && simgrid::config::get_value<int>("contexts/nthreads") > 1)
    XBT_WARN("warning: --cfg=contexts/nthreads:%d runs actors in parallel, but hnm's datatype "
                         "bookkeeping assumes one at a time; use contexts/nthreads:1 with model '%s'",
                 simgrid::config::get_value<int>("contexts/nthreads"), hnm_model_name(m));
}

#define HNM_EXPORT extern "C" __attribute__((visibility("default")))

/* ---- type constructors: record the layout of the new type ---- */

HNM_EXPORT int PMPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_contiguous)(count, old, nt);
  if (rc == MPI_SUCCESS) {
    Layout o = layout_of(old);
    Runs r(o.cls);
    r.add(o, 0, count);
    record(*nt, r);
  }
  return rc;
}

HNM_EXPORT int PMPI_Type_vector(int count, int bl, int stride, MPI_Datatype old, MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_vector)(count, bl, stride, old, nt);
  if (rc == MPI_SUCCESS) {
    Layout o = layout_of(old);
    Runs r(HNM_PACK_VECTOR);
    for (int i = 0; i < count; i++)
      r.add(o, (MPI_Aint)i * stride * o.extent, bl);
    record(*nt, r);
  }
  return rc;
}

static void record_hvector(int count, int bl, MPI_Aint stride, MPI_Datatype old, MPI_Datatype nt)
{
  Layout o = layout_of(old);
  Runs r(HNM_PACK_VECTOR);
  for (int i = 0; i < count; i++)
    r.add(o, (MPI_Aint)i * stride, bl);
  record(nt, r);
}

HNM_EXPORT int PMPI_Type_hvector(int count, int bl, MPI_Aint stride, MPI_Datatype old, MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_hvector)(count, bl, stride, old, nt);
  if (rc == MPI_SUCCESS)
    record_hvector(count, bl, stride, old, *nt);
  return rc;
}

HNM_EXPORT int PMPI_Type_create_hvector(int count, int bl, MPI_Aint stride, MPI_Datatype old, MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_create_hvector)(count, bl, stride, old, nt);
  if (rc == MPI_SUCCESS)
    record_hvector(count, bl, stride, old, *nt);
  return rc;
}

/* indexed family: displacement i is disp(i) elements of old (scale = its
 * extent) or bytes (scale = 1); block length bl(i). */
template <class D, class B>
static void record_indexed(int count, B bl, D disp, bool bytes, MPI_Datatype old, MPI_Datatype nt)
{
  Layout o = layout_of(old);
  MPI_Aint scale = bytes ? 1 : o.extent;
  Runs r(HNM_PACK_INDEXED);
  bool irregular = false;
  int first_bl   = -1;
  for (int i = 0; i < count; i++) {
    r.add(o, (MPI_Aint)disp(i) * scale, bl(i));
    if (bl(i) > 0) {
      irregular = irregular || (first_bl >= 0 && bl(i) != first_bl);
      if (first_bl < 0)
        first_bl = bl(i);
    }
  }
  record(nt, r, irregular);
}

HNM_EXPORT int PMPI_Type_indexed(int count, const int* bls, const int* disps, MPI_Datatype old, MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_indexed)(count, bls, disps, old, nt);
  if (rc == MPI_SUCCESS)
    record_indexed(count, [bls](int i) { return bls[i]; }, [disps](int i) { return disps[i]; }, false, old, *nt);
  return rc;
}

HNM_EXPORT int PMPI_Type_create_indexed(int count, const int* bls, const int* disps, MPI_Datatype old,
                                        MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_create_indexed)(count, bls, disps, old, nt);
  if (rc == MPI_SUCCESS)
    record_indexed(count, [bls](int i) { return bls[i]; }, [disps](int i) { return disps[i]; }, false, old, *nt);
  return rc;
}

HNM_EXPORT int PMPI_Type_create_indexed_block(int count, int bl, const int* disps, MPI_Datatype old, MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_create_indexed_block)(count, bl, disps, old, nt);
  if (rc == MPI_SUCCESS)
    record_indexed(count, [bl](int) { return bl; }, [disps](int i) { return disps[i]; }, false, old, *nt);
  return rc;
}

HNM_EXPORT int PMPI_Type_hindexed(int count, const int* bls, const MPI_Aint* disps, MPI_Datatype old,
                                  MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_hindexed)(count, bls, disps, old, nt);
  if (rc == MPI_SUCCESS)
    record_indexed(count, [bls](int i) { return bls[i]; }, [disps](int i) { return disps[i]; }, true, old, *nt);
  return rc;
}

HNM_EXPORT int PMPI_Type_create_hindexed(int count, const int* bls, const MPI_Aint* disps, MPI_Datatype old,
                                         MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_create_hindexed)(count, bls, disps, old, nt);
  if (rc == MPI_SUCCESS)
    record_indexed(count, [bls](int i) { return bls[i]; }, [disps](int i) { return disps[i]; }, true, old, *nt);
  return rc;
}

HNM_EXPORT int PMPI_Type_create_hindexed_block(int count, int bl, const MPI_Aint* disps, MPI_Datatype old,
                                               MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_create_hindexed_block)(count, bl, disps, old, nt);
  if (rc == MPI_SUCCESS)
    record_indexed(count, [bl](int) { return bl; }, [disps](int i) { return disps[i]; }, true, old, *nt);
  return rc;
}

static void record_struct(int count, const int* bls, const MPI_Aint* disps, const MPI_Datatype* olds,
                          MPI_Datatype nt)
{
  Runs r(HNM_PACK_INDEXED);
  /* A block's length: its bytes when its old type is one run, else the
   * old type and the count (blocks of different non-contiguous types
   * differ). */
  bool irregular = false;
  bool any       = false;
  long long first_len = 0;
  MPI_Datatype first_type = MPI_DATATYPE_NULL;
  for (int i = 0; i < count; i++) {
    Layout o = layout_of(olds[i]);
    r.add(o, disps[i], bls[i]);
    if (bls[i] <= 0 || o.runs == 0)
      continue;
    bool one_run          = o.runs == 1;
    long long len         = one_run ? (long long)bls[i] * o.size : bls[i];
    MPI_Datatype len_type = one_run ? MPI_DATATYPE_NULL : olds[i];
    if (any)
      irregular = irregular || len != first_len || len_type != first_type;
    else {
      any        = true;
      first_len  = len;
      first_type = len_type;
    }
  }
  record(nt, r, irregular);
}

HNM_EXPORT int PMPI_Type_struct(int count, const int* bls, const MPI_Aint* disps, const MPI_Datatype* olds,
                                MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_struct)(count, bls, disps, olds, nt);
  if (rc == MPI_SUCCESS)
    record_struct(count, bls, disps, olds, *nt);
  return rc;
}

HNM_EXPORT int PMPI_Type_create_struct(int count, const int* bls, const MPI_Aint* disps, const MPI_Datatype* olds,
                                       MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_create_struct)(count, bls, disps, olds, nt);
  if (rc == MPI_SUCCESS)
    record_struct(count, bls, disps, olds, *nt);
  return rc;
}

/* The rows of the subarray (runs of subsizes[inner] elements along the
 * fastest dimension), in type-map order: C order walks dimension 0 slowest. */
HNM_EXPORT int PMPI_Type_create_subarray(int ndims, const int* sizes, const int* subsizes, const int* starts, int order,
                                         MPI_Datatype old, MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_create_subarray)(ndims, sizes, subsizes, starts, order, old, nt);
  if (rc != MPI_SUCCESS || ndims <= 0)
    return rc;
  Layout o = layout_of(old);
  std::vector<int> dim(ndims); /* dims from slowest to fastest */
  for (int k = 0; k < ndims; k++)
    dim[k] = order == MPI_ORDER_FORTRAN ? ndims - 1 - k : k;
  std::vector<MPI_Aint> stride(ndims); /* elements */
  MPI_Aint s = 1;
  for (int k = ndims - 1; k >= 0; k--) {
    stride[k] = s;
    s *= sizes[dim[k]];
  }
  Runs r(HNM_PACK_SUBARRAY);
  bool empty = false;
  for (int k = 0; k < ndims; k++)
    empty = empty || subsizes[dim[k]] <= 0;
  std::vector<int> idx(ndims, 0);
  while (not empty) {
    MPI_Aint off = 0;
    for (int k = 0; k < ndims; k++)
      off += (MPI_Aint)(starts[dim[k]] + idx[k]) * stride[k];
    r.add(o, off * o.extent, subsizes[dim[ndims - 1]]);
    int k = ndims - 2;
    while (k >= 0 && ++idx[k] == subsizes[dim[k]])
      idx[k--] = 0;
    if (k < 0)
      break;
  }
  record(*nt, r);
  return rc;
}

HNM_EXPORT int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_create_resized)(old, lb, extent, nt);
  if (rc == MPI_SUCCESS) {
    Layout o = layout_of(old);
    Layout l = basic_layout(*nt);
    o.extent    = l.extent;
    layouts[*nt] = o;
  }
  return rc;
}

HNM_EXPORT int PMPI_Type_dup(MPI_Datatype old, MPI_Datatype* nt)
{
  int rc = REAL(PMPI_Type_dup)(old, nt);
  if (rc == MPI_SUCCESS)
    layouts[*nt] = layout_of(old);
  return rc;
}

HNM_EXPORT int PMPI_Type_free(MPI_Datatype* t)
{
  if (t != nullptr)
    layouts.erase(*t);
  return REAL(PMPI_Type_free)(t);
}

/* ---- point-to-point: pack before sending, unpack after receiving ---- */

HNM_EXPORT int PMPI_Send(const void* buf, int count, MPI_Datatype t, int dst, int tag, MPI_Comm comm)
{
  charge(pack_time(t, count, HNM_PACK_OP_PACK));
  return REAL(PMPI_Send)(buf, count, t, dst, tag, comm);
}

HNM_EXPORT int PMPI_Ssend(const void* buf, int count, MPI_Datatype t, int dst, int tag, MPI_Comm comm)
{
  charge(pack_time(t, count, HNM_PACK_OP_PACK));
  return REAL(PMPI_Ssend)(buf, count, t, dst, tag, comm);
}

HNM_EXPORT int PMPI_Bsend(const void* buf, int count, MPI_Datatype t, int dst, int tag, MPI_Comm comm)
{
  charge(pack_time(t, count, HNM_PACK_OP_PACK));
  return REAL(PMPI_Bsend)(buf, count, t, dst, tag, comm);
}

HNM_EXPORT int PMPI_Isend(const void* buf, int count, MPI_Datatype t, int dst, int tag, MPI_Comm comm, MPI_Request* r)
{
  charge(pack_time(t, count, HNM_PACK_OP_PACK));
  return REAL(PMPI_Isend)(buf, count, t, dst, tag, comm, r);
}

HNM_EXPORT int PMPI_Issend(const void* buf, int count, MPI_Datatype t, int dst, int tag, MPI_Comm comm,
                           MPI_Request* r)
{
  charge(pack_time(t, count, HNM_PACK_OP_PACK));
  return REAL(PMPI_Issend)(buf, count, t, dst, tag, comm, r);
}

HNM_EXPORT int PMPI_Ibsend(const void* buf, int count, MPI_Datatype t, int dst, int tag, MPI_Comm comm,
                           MPI_Request* r)
{
  charge(pack_time(t, count, HNM_PACK_OP_PACK));
  return REAL(PMPI_Ibsend)(buf, count, t, dst, tag, comm, r);
}

HNM_EXPORT int PMPI_Recv(void* buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status* st)
{
  int rc = REAL(PMPI_Recv)(buf, count, t, src, tag, comm, st);
  if (rc == MPI_SUCCESS)
    charge(pack_time(t, count, HNM_PACK_OP_UNPACK));
  return rc;
}

HNM_EXPORT int PMPI_Irecv(void* buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request* r)
{
  int rc = REAL(PMPI_Irecv)(buf, count, t, src, tag, comm, r);
  if (rc == MPI_SUCCESS && r != nullptr && *r != MPI_REQUEST_NULL) {
    double s = pack_time(t, count, HNM_PACK_OP_UNPACK);
    if (s > 0)
      unpack_due[*r] = s;
  }
  return rc;
}

HNM_EXPORT int PMPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dst, int stag, void* rbuf,
                             int rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Status* st)
{
  charge(pack_time(stype, scount, HNM_PACK_OP_PACK));
  int rc = REAL(PMPI_Sendrecv)(sbuf, scount, stype, dst, stag, rbuf, rcount, rtype, src, rtag, comm, st);
  if (rc == MPI_SUCCESS)
    charge(pack_time(rtype, rcount, HNM_PACK_OP_UNPACK));
  return rc;
}

HNM_EXPORT int PMPI_Pack(const void* in, int incount, MPI_Datatype t, void* out, int outsize, int* pos, MPI_Comm comm)
{
  int rc = REAL(PMPI_Pack)(in, incount, t, out, outsize, pos, comm);
  if (rc == MPI_SUCCESS)
    charge(pack_time(t, incount, HNM_PACK_OP_PACK));
  return rc;
}

HNM_EXPORT int PMPI_Unpack(const void* in, int insize, int* pos, void* out, int outcount, MPI_Datatype t,
                           MPI_Comm comm)
{
  int rc = REAL(PMPI_Unpack)(in, insize, pos, out, outcount, t, comm);
  if (rc == MPI_SUCCESS)
    charge(pack_time(t, outcount, HNM_PACK_OP_UNPACK));
  return rc;
}

/* ---- completion of MPI_Irecv requests ---- */

HNM_EXPORT int PMPI_Wait(MPI_Request* r, MPI_Status* st)
{
  MPI_Request before = r != nullptr ? *r : MPI_REQUEST_NULL;
  int rc = REAL(PMPI_Wait)(r, st);
  if (not unpack_due.empty())
    charge_completed(&before, 1, nullptr, 0);
  return rc;
}

HNM_EXPORT int PMPI_Waitall(int n, MPI_Request rs[], MPI_Status sts[])
{
  std::vector<MPI_Request> before = snapshot(rs, n);
  int rc = REAL(PMPI_Waitall)(n, rs, sts);
  if (not before.empty())
    charge_completed(before.data(), n, nullptr, 0);
  return rc;
}

HNM_EXPORT int PMPI_Waitany(int n, MPI_Request rs[], int* index, MPI_Status* st)
{
  std::vector<MPI_Request> before = snapshot(rs, n);
  int rc = REAL(PMPI_Waitany)(n, rs, index, st);
  if (not before.empty() && index != nullptr && *index != MPI_UNDEFINED)
    charge_completed(before.data(), n, index, 1);
  return rc;
}

HNM_EXPORT int PMPI_Waitsome(int n, MPI_Request rs[], int* outcount, int* indices, MPI_Status sts[])
{
  std::vector<MPI_Request> before = snapshot(rs, n);
  int rc = REAL(PMPI_Waitsome)(n, rs, outcount, indices, sts);
  if (not before.empty() && outcount != nullptr && *outcount != MPI_UNDEFINED)
    charge_completed(before.data(), n, indices, *outcount);
  return rc;
}

HNM_EXPORT int PMPI_Test(MPI_Request* r, int* flag, MPI_Status* st)
{
  MPI_Request before = r != nullptr ? *r : MPI_REQUEST_NULL;
  int rc = REAL(PMPI_Test)(r, flag, st);
  if (not unpack_due.empty() && flag != nullptr && *flag)
    charge_completed(&before, 1, nullptr, 0);
  return rc;
}

HNM_EXPORT int PMPI_Testall(int n, MPI_Request rs[], int* flag, MPI_Status sts[])
{
  std::vector<MPI_Request> before = snapshot(rs, n);
  int rc = REAL(PMPI_Testall)(n, rs, flag, sts);
  if (not before.empty() && flag != nullptr && *flag)
    charge_completed(before.data(), n, nullptr, 0);
  return rc;
}

HNM_EXPORT int PMPI_Testany(int n, MPI_Request rs[], int* index, int* flag, MPI_Status* st)
{
  std::vector<MPI_Request> before = snapshot(rs, n);
  int rc = REAL(PMPI_Testany)(n, rs, index, flag, st);
  if (not before.empty() && flag != nullptr && *flag && index != nullptr && *index != MPI_UNDEFINED)
    charge_completed(before.data(), n, index, 1);
  return rc;
}

HNM_EXPORT int PMPI_Testsome(int n, MPI_Request rs[], int* outcount, int* indices, MPI_Status sts[])
{
  std::vector<MPI_Request> before = snapshot(rs, n);
  int rc = REAL(PMPI_Testsome)(n, rs, outcount, indices, sts);
  if (not before.empty() && outcount != nullptr && *outcount != MPI_UNDEFINED)
    charge_completed(before.data(), n, indices, *outcount);
  return rc;
}

/* A freed or cancelled receive is not unpacked. */
HNM_EXPORT int PMPI_Request_free(MPI_Request* r)
{
  if (r != nullptr)
    unpack_due.erase(*r);
  return REAL(PMPI_Request_free)(r);
}

HNM_EXPORT int PMPI_Cancel(MPI_Request* r)
{
  if (r != nullptr)
    unpack_due.erase(*r);
  return REAL(PMPI_Cancel)(r);
}
