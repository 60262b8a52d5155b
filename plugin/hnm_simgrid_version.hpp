/* hnm_simgrid_version.hpp -- the one place that knows SimGrid's versions
 * (docs/simgrid-versions.md has the table and how each entry was checked).
 *
 * hnm builds against SimGrid 3.32 (Debian 12), 3.34 and later: 3.35
 * (Ubuntu 24.04), 4.0 (Debian 13), 4.1 (Debian sid, Ubuntu 26.04). There
 * was no 3.33 release. Every difference between them that the plugin meets
 * is below, chosen at build time from SimGrid's version macros:
 *
 *   1. public API that changed: the network factor callbacks, a link's
 *      load, a zone's new links and hosts, a zone's place in the platform
 *      (hnm_sg_set_factor_cbs(),
 *      hnm_sg_link_load(), hnm_sg_add_link(), hnm_sg_add_host(),
 *      hnm_sg_attach_zone());
 *   2. uninstalled internals, each declared once for the version range it
 *      was checked against, naming the upstream file it mirrors: the slice
 *      of the max-min solver that the Lazy mend calls (hnm_lmm_fix.cpp);
 *   3. the range of versions each remedy's knowledge of SimGrid's insides
 *      holds for (HNM_SG_DETACHED_LIST, HNM_SG_WIN_LOCKERS_LIST). Inside its
 *      range a remedy still checks the running library by behaviour before
 *      it turns on; outside it, it stays off and says why.
 *
 * Upstream references are to simgrid/simgrid at the release tags v3.32,
 * v3.34, v3.35, v3.36, v4.0 and v4.1.
 *
 * Also here: what the three interpositions (hnm_lmm_fix.cpp,
 * hnm_detached_fix.cpp, hnm_win_fix.cpp) share: the lookup of SimGrid's own
 * definition of a function they replace, and the reader of a field at a
 * checked offset.
 */
#ifndef HNM_SIMGRID_VERSION_HPP
#define HNM_SIMGRID_VERSION_HPP

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <simgrid/version.h>

#include "hnm_log.hpp"

#include <dlfcn.h>

#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

/* SIMGRID_VERSION is 10000 x major + 100 x minor + patch. */
#define HNM_SG_AT_LEAST(major, minor) (SIMGRID_VERSION >= 100UL * (100UL * (major) + (minor)))

#if not HNM_SG_AT_LEAST(3, 32)
#error "hnm needs SimGrid 3.32 or newer (CMakeLists.txt checks it too)"
#endif

/* The newest version checked: a newer SimGrid builds, but the remedies that
 * read its internals stay off until someone checks them against it. */
#define HNM_SG_LAST_CHECKED_MAJOR 4
#define HNM_SG_LAST_CHECKED_MINOR 1
#define HNM_SG_NEWER_THAN_CHECKED                                                                                     \
  (SIMGRID_VERSION >= 100UL * (100UL * HNM_SG_LAST_CHECKED_MAJOR + HNM_SG_LAST_CHECKED_MINOR + 1))

#if not HNM_SG_AT_LEAST(3, 34)
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#endif

/* ---- 1. Public API -------------------------------------------------- */

using hnm_sg_factor_cb = double(double size, const simgrid::s4u::Host* src, const simgrid::s4u::Host* dst,
                                const std::vector<simgrid::s4u::Link*>& links,
                                const std::unordered_set<simgrid::s4u::NetZone*>& netzones);

/* Install the latency and bandwidth factor callbacks of the root zone's
 * network model. 3.32: NetworkModelIntf (installed, public then); from
 * 3.34 that header is private and the netzone sets them (include/simgrid/
 * s4u/NetZone.hpp, set_latency_factor_cb / set_bandwidth_factor_cb). Both
 * throw when smpi/lat-factor or smpi/bw-factor is set too. */
inline void hnm_sg_set_factor_cbs(hnm_sg_factor_cb* lat, hnm_sg_factor_cb* bw)
{
  const simgrid::s4u::NetZone* root = simgrid::s4u::Engine::get_instance()->get_netzone_root();
#if HNM_SG_AT_LEAST(3, 34)
  root->set_latency_factor_cb(lat);
  root->set_bandwidth_factor_cb(bw);
#else
  auto* net = root->get_network_model();
  net->set_lat_factor_cb(lat);
  net->set_bw_factor_cb(bw);
#endif
}

/* A link's load after the last solve, bytes/s: Link::get_usage() in 3.32,
 * get_load() from 3.34 (get_usage() deprecated, removed in 3.38). */
inline double hnm_sg_link_load(const simgrid::s4u::Link* link)
{
#if HNM_SG_AT_LEAST(3, 34)
  return link->get_load();
#else
  return link->get_usage();
#endif
}

/* A link of bandwidth BW (bytes/s), a host of speed SPEED (flop/s) in
 * ZONE: NetZone::create_link() and create_host() until 3.36, add_link()
 * and add_host() from 4.0 (the old names deprecated there, to be removed
 * after 4.2). */
inline simgrid::s4u::Link* hnm_sg_add_link(simgrid::s4u::NetZone* zone, const std::string& name, double bw)
{
#if HNM_SG_AT_LEAST(4, 0)
  return zone->add_link(name, bw);
#else
  return zone->create_link(name, bw);
#endif
}
inline simgrid::s4u::Host* hnm_sg_add_host(simgrid::s4u::NetZone* zone, const std::string& name, double speed)
{
#if HNM_SG_AT_LEAST(4, 0)
  return zone->add_host(name, speed);
#else
  return zone->create_host(name, speed);
#endif
}

/* Make ZONE, a zone of hnm's own (libhnmplatform's routed zone), part of
 * the platform. Until 3.36 the first zone created becomes the root and
 * initialises the models (src/kernel/routing/NetZoneImpl.cpp, the
 * constructor). From 4.0 the engine has a root of its own, "_world_",
 * made with the models by Engine::get_netzone_root() on first use (upstream
 * 02ee070ade), and a new zone has no parent, hence no CPU model for its
 * hosts: it becomes a child of that root. */
inline void hnm_sg_attach_zone(simgrid::kernel::routing::NetZoneImpl* zone)
{
#if HNM_SG_AT_LEAST(4, 0)
  zone->set_parent(simgrid::s4u::Engine::get_instance()->get_netzone_root()->get_impl());
#else
  (void)zone;
#endif
}

/* ---- 2. Internals ---------------------------------------------------- */

/* src/kernel/lmm/System.hpp (classes Constraint, Variable and System: 3.32
 * lines 207-607, 4.1 lines 210-612): the slice
 * of the max-min system that hnm_lmm_fix.cpp's mend and its self-check
 * call. libsimgrid exports these functions (non-virtual members), but does
 * not install the header; their signatures are the same from 3.32 to 4.1,
 * except the constraint's load, get_usage() in 3.32 and get_load() from
 * 3.34 (hnm_sg_constraint_load()). No data member is declared: the mend
 * reads the three fields it needs at offsets it checks by behaviour first
 * (hnm_lmm_fix.cpp). */
namespace simgrid::kernel::lmm {
class Constraint {
public:
#if HNM_SG_AT_LEAST(3, 34)
  double get_load() const;
#else
  double get_usage() const;
#endif
  static int next_rank_;
};
class Variable {
public:
  static int next_rank_;
};
class System {
public:
  static System* build(std::string_view solver_name, bool selective_update);
  Constraint* constraint_new(resource::Resource* id, double bound_value);
  Variable* variable_new(resource::Action* id, double sharing_penalty, double bound, size_t number_of_constraints);
  void expand(Constraint* cnst, Variable* var, double consumption_weight, bool force_creation);
  void update_variable_penalty(Variable* var, double penalty);
  void solve();
  void update_modified_cnst_set(Constraint* cnst);
  void update_modified_cnst_set_from_variable(const Variable* var);
  void print() const;
};
} // namespace simgrid::kernel::lmm

inline double hnm_sg_constraint_load(const simgrid::kernel::lmm::Constraint* c)
{
#if HNM_SG_AT_LEAST(3, 34)
  return c->get_load();
#else
  return c->get_usage();
#endif
}

/* ---- 3. The remedies' ranges ----------------------------------------- */

/* SimGrid 3.32 keeps each actor's detached transfers in a std::list
 * (src/kernel/actor/ActorImpl.hpp line 105, activities_), walked by every
 * transfer's end; 3.34 made it a std::set (4.1: line 111), so hnm_detached_fix.cpp
 * has nothing to remedy there and is not compiled in. */
#define HNM_SG_DETACHED_LIST (not HNM_SG_AT_LEAST(3, 34))

/* SMPI's window keeps its lockers in a std::list<int> from 3.32 to 4.1 at
 * least (src/smpi/include/smpi_win.hpp, class Win: the same members in the
 * same order, 3.32 lines 21-44, 4.1 lines 20-43), and Win::unlock() takes
 * the same steps (src/smpi/mpi/smpi_win.cpp: 3.32 line 551, 4.1 line 549).
 * hnm_win_fix.cpp re-does those steps, so it is compiled in for this range
 * only. */
#define HNM_SG_WIN_LOCKERS_LIST (not HNM_SG_NEWER_THAN_CHECKED)

/* The running libsimgrid's version, "MAJOR.MINOR.PATCH" (it may differ
 * from the headers' if the library was upgraded after the build). */
inline std::string hnm_sg_running_version()
{
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

/* Whether the running libsimgrid has the major and minor version of the
 * headers hnm was built with; if not, WHY says so for WHAT. */
inline bool hnm_sg_running_as_built(std::string& why, const char* what)
{
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  if (major == SIMGRID_VERSION_MAJOR && minor == SIMGRID_VERSION_MINOR)
    return true;
  why = "SimGrid " + hnm_sg_running_version() + " runs, but hnm was built against " +
        std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR) + ": " + what +
        " stays off (rebuild hnm)";
  return false;
}

/* ---- What the interpositions share ------------------------------------ */

/* The definition of SYMBOL that libhnm.so's own hides: libsimgrid's, found
 * with dlsym(RTLD_NEXT); nullptr when libsimgrid does not export it. */
template <class F> F hnm_next_definition(const char* symbol)
{
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, symbol));
}

/* The same, for an interposed function that must forward to it: when it is
 * missing, a fatal error in CAT naming NAME (exit status 2). */
template <class F> F hnm_next_definition_or_die(xbt_log_category_t cat, const char* symbol, const char* name)
{
  if (F f = hnm_next_definition<F>(symbol))
    return f;
  const char* why = dlerror();
  hnm_log_fatal(cat, std::string("cannot find SimGrid's ") + name + ": " + (why != nullptr ? why : "not exported"));
}

/* The field of type T at OFFSET bytes into the object at BASE (an offset
 * the caller has checked by behaviour first). */
template <class T> T hnm_field(const void* base, size_t offset)
{
  T value;
  std::memcpy(&value, static_cast<const char*>(base) + offset, sizeof value);
  return value;
}

#endif
