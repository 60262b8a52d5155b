/* hnm_simgrid_internals.hpp -- the one place where hnm declares parts of
 * SimGrid that SimGrid does not install.
 *
 * libsimgrid 3.32 exports these functions, but the headers that declare them
 * (src/kernel/resource/NetworkModel.hpp, src/kernel/lmm/maxmin.hpp) are not
 * installed. Declaring them with their exact 3.32 signatures lets the linker
 * bind them by their mangled names. No data member is declared: code that
 * reads SimGrid's internal fields (hnm_lmm_fix.cpp) reads them at offsets it
 * checks against the running library first. The exceptions to "declared
 * here": hnm_detached_fix.cpp defines CommImpl::detach() and
 * CommImpl::finish(), and hnm_win_fix.cpp smpi::Win's unlock() and five
 * one-sided operations, under their mangled names (asm labels), since a
 * class with virtual members cannot be redeclared in part; each checks the
 * running library's code before it touches any field.
 *
 * Everything here is true of SimGrid 3.32 only. The build requires exactly
 * that version (CMakeLists.txt, pkg_check_modules simgrid=3.32), and this
 * header refuses to compile against any other: a declaration that no longer
 * matches would link and then call the wrong code.
 */
#ifndef HNM_SIMGRID_INTERNALS_HPP
#define HNM_SIMGRID_INTERNALS_HPP

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/version.h>

#include "hnm_log.hpp"

#include <dlfcn.h>

#include <cstring>
#include <list>
#include <string>
#include <string_view>

#if SIMGRID_VERSION_MAJOR != 3 || SIMGRID_VERSION_MINOR != 32
#error "hnm_simgrid_internals.hpp declares SimGrid 3.32's uninstalled internals: check each declaration against the new version's source before changing this guard"
#endif

/* Whether the running libsimgrid is 3.32.0, the version whose internals the
 * code that interposes or reads them (hnm_lmm_fix.cpp,
 * hnm_detached_fix.cpp, hnm_win_fix.cpp) was written for; if not, WHY says which version it
 * is and that WHAT was written for 3.32.0. */
inline bool hnm_simgrid_is_3_32_0(std::string& why, const char* what)
{
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  if (major == 3 && minor == 32 && patch == 0)
    return true;
  why = "SimGrid is " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch) + ", " +
        what + " was written for 3.32.0";
  return false;
}

/* What the interpositions (hnm_lmm_fix.cpp, hnm_detached_fix.cpp,
 * hnm_win_fix.cpp) share. */

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

/* Whether the machine code at CODE starts with BYTES, the code of Debian
 * 12's libsimgrid 3.32-2 whose offsets WHAT reads; if not, WHY says that
 * libsimgrid's NAME is not that code. */
template <size_t N>
bool hnm_code_is(const void* code, const unsigned char (&bytes)[N], std::string& why, const char* name,
                 const char* what)
{
  if (std::memcmp(code, bytes, N) == 0)
    return true;
  why = std::string("libsimgrid's ") + name + " is not the code " + what + " was written for (Debian 12's 3.32-2)";
  return false;
}

/* The field of type T at OFFSET bytes into the object at BASE (one of the
 * offsets above, checked against the running library's code first). */
template <class T> T hnm_field(const void* base, size_t offset)
{
  T value;
  std::memcpy(&value, static_cast<const char*>(base) + offset, sizeof value);
  return value;
}

namespace simgrid::kernel::resource {
/* src/kernel/resource/NetworkModel.hpp: the links a network action crosses
 * (hnm_routed_zone.cpp counts the flows on each link with it). */
class NetworkAction : public Action {
public:
  std::list<StandardLinkImpl*> get_links() const;
};
} // namespace simgrid::kernel::resource

/* src/kernel/lmm/maxmin.hpp: the slice of the max-min system that
 * hnm_lmm_fix.cpp's mend and its self-check call (exported, non-virtual). */
namespace simgrid::kernel::lmm {
class Constraint {
public:
  double get_usage() const;
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
};
} // namespace simgrid::kernel::lmm

#endif
