/* hnm_lmm_fix.cpp -- SimGrid's selective max-min update, mended from
 * libhnm.so (docs/lazy-bug/README.md, docs/models.md). The defect is the
 * same from 3.32 to 4.1 (src/kernel/lmm/System.cpp,
 * update_modified_cnst_set_from_variable: 3.32 line 693, 4.1 line 719).
 *
 * The defect. Under network/optim:Lazy, SimGrid re-solves only the
 * constraints (links) marked as modified since the last solve. When a
 * variable is enabled (a flow's latency ends), System::enable_var marks its
 * constraints through System::update_modified_cnst_set_from_variable(),
 * which marks the *first* one only and counts on a recursion over enabled
 * variables to reach the others. If that first constraint was already
 * marked in the same round, while this variable was still disabled, its
 * other constraints are never marked, and the flow is solved against part
 * of its route: a shared link can then carry more than its bandwidth.
 *
 * The mend. libhnm.so is preloaded (hnm-run: LD_PRELOAD), so a function of
 * the same name defined here is the one the dynamic linker binds to
 * libsimgrid's calls to update_modified_cnst_set_from_variable() when they
 * go through the PLT (enable_var, disable_var, var_free,
 * update_variable_penalty, in Debian's builds of 3.32, 4.0 and 4.1). Ours
 * marks every constraint of the variable with SimGrid's own
 * System::update_modified_cnst_set(), which does the marking and the
 * recursion exactly as before. Marking more constraints than needed only
 * makes the selective solve re-solve more of the system, as
 * network/optim:Full does for all of it, so a result that was right stays
 * right.
 *
 * The guard, by behaviour only (no version or machine-code test, so a
 * point release, another compiler or a relink keeps it working or turns it
 * off, never wrong). SimGrid's lmm headers are not installed, so the mend
 * reads three fields of SimGrid's internal classes at offsets fixed by the
 * class declarations (the same from 3.32 to 4.1). Before it turns on, a
 * self-check builds a four-flow max-min system with the defect's pattern
 * through SimGrid's own lmm code, three times:
 *   (1) the variables' elements, read at those offsets, must be the
 *       constraints they were expanded on, pointing back at the variable;
 *   (2) solved with the mend off, the system must give the defect's wrong
 *       answer: otherwise this SimGrid has no defect (mend not needed), or
 *       the check cannot see it;
 *   (3) solved with the mend on, it must give max-min's rates: otherwise
 *       the interposition does not reach libsimgrid's calls (a build that
 *       binds them internally) and the caller falls back to
 *       network/optim:Full.
 * When the mend is off (model smpi-default), the original runs unchanged:
 * bit for bit plain SimGrid.
 */
#include "hnm_lmm_fix.h"

#include "hnm_simgrid_version.hpp"

#include <xbt/log.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>


XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(hnm);
namespace lmm = simgrid::kernel::lmm;

namespace {

/* Layout of SimGrid's Variable and Element (src/kernel/lmm/System.hpp, the
 * same members in the same order from 3.32 to 4.1; x86-64 Itanium ABI):
 * Variable::cnsts_ (a std::vector<Element>, after two intrusive-list hooks)
 * at 0x20, Variable::sharing_penalty_ at 0x38; sizeof(Element) 0x50, with
 * Element::constraint at 0x30 and Element::variable at 0x38 (after the
 * three intrusive-list hooks). Checked by self_check() before use. */
constexpr size_t VAR_CNSTS_BEGIN     = 0x20;
constexpr size_t VAR_CNSTS_END       = 0x28;
constexpr size_t VAR_SHARING_PENALTY = 0x38;
constexpr size_t ELEM_SIZE           = 0x50;
constexpr size_t ELEM_CONSTRAINT     = 0x30;
constexpr size_t ELEM_VARIABLE       = 0x38;

constexpr const char* PRINT_SYMBOL = "_ZNK7simgrid6kernel3lmm6System5printEv";
constexpr const char* SYMBOL = "_ZN7simgrid6kernel3lmm6System38update_modified_cnst_set_from_variableEPKNS1_8VariableE";

using original_fn = void (*)(lmm::System*, const lmm::Variable*);
original_fn original = nullptr;
bool mend_on         = false;
bool in_self_check   = false; /* solve_pattern() runs */

original_fn find_original()
{
  if (original == nullptr)
    original = hnm_next_definition<original_fn>(SYMBOL);
  return original;
}

void call_original(lmm::System* sys, const lmm::Variable* var)
{
  if (original == nullptr)
    original = hnm_next_definition_or_die<original_fn>(&_XBT_LOGV(hnm), SYMBOL,
                                                       "System::update_modified_cnst_set_from_variable");
  original(sys, var);
}

/* A flow of the self-check: an action of a throw-away model. */
class CheckAction : public simgrid::kernel::resource::Action {
public:
  explicit CheckAction(simgrid::kernel::resource::Model* model) : Action(model, 1.0, false) {}
  void update_remains_lazy(double) override {}
};

/* The variable's elements, read at the offsets above, are its two
 * constraints in order and each points back at the variable. */
bool layout_matches(const lmm::Variable* var, const lmm::Constraint* first, const lmm::Constraint* second)
{
  auto* elem = hnm_field<const char*>(var, VAR_CNSTS_BEGIN);
  auto* end  = hnm_field<const char*>(var, VAR_CNSTS_END);
  return end - elem == 2 * (long)ELEM_SIZE && hnm_field<const lmm::Variable*>(elem, ELEM_VARIABLE) == var &&
         hnm_field<const lmm::Variable*>(elem + ELEM_SIZE, ELEM_VARIABLE) == var &&
         hnm_field<const lmm::Constraint*>(elem, ELEM_CONSTRAINT) == first &&
         hnm_field<const lmm::Constraint*>(elem + ELEM_SIZE, ELEM_CONSTRAINT) == second &&
         hnm_field<double>(var, VAR_SHARING_PENALTY) == 0.0;
}

/* The defect's pattern (docs/lazy-bug/): links LA (100), LB and LC (10);
 * four flows created disabled, two over LA then LB, two over LA then LC,
 * then enabled one after the other in one round, as latencies that end
 * together. Max-min: LB and LC carry 10 each, LA 20. SimGrid (3.32 to 4.1) without
 * the mend leaves LC unsolved (its flows get 45 each: LC carries 90). The
 * rank counters are restored, so the check leaves no trace on the run. */
/* Build that system and solve it (mend_on as the caller set it): the three
 * links' loads into LOAD. False when the variables are not laid out as the
 * mend reads them (LOAD is then not filled). */
bool solve_pattern(double load[3])
{
  int cnst_rank  = lmm::Constraint::next_rank_;
  int var_rank   = lmm::Variable::next_rank_;
  bool layout_ok = true;
  {
    simgrid::kernel::resource::Model model("hnm-lmm-selfcheck");
    lmm::System* sys = lmm::System::build("maxmin", true);
    model.set_maxmin_system(sys);
    lmm::Constraint* links[3] = {sys->constraint_new(nullptr, 100.0), sys->constraint_new(nullptr, 10.0),
                                 sys->constraint_new(nullptr, 10.0)};
    CheckAction* flows[4];
    lmm::Variable* vars[4];
    for (int i = 0; i < 4; i++) {
      flows[i] = new CheckAction(&model);
      vars[i]  = sys->variable_new(flows[i], 0.0, -1.0, 2);
      flows[i]->set_variable(vars[i]);
      sys->expand(links[0], vars[i], 1.0, false);
      sys->expand(links[i < 2 ? 1 : 2], vars[i], 1.0, false);
      layout_ok = layout_ok && layout_matches(vars[i], links[0], links[i < 2 ? 1 : 2]);
    }
    sys->solve();
    if (layout_ok) {
      for (lmm::Variable* v : vars)
        sys->update_variable_penalty(v, 1.0);
      sys->solve();
      for (int i = 0; i < 3; i++)
        load[i] = hnm_sg_constraint_load(links[i]);
    }
    for (CheckAction* f : flows)
      delete f; /* frees its variable in sys */
  } /* the model deletes sys */
  lmm::Constraint::next_rank_ = cnst_rank;
  lmm::Variable::next_rank_   = var_rank;
  return layout_ok;
}

/* Max-min's answer for the pattern: LA 20, LB 10, LC 10. */
bool is_maxmin(const double load[3])
{
  const double want[3] = {20.0, 10.0, 10.0};
  for (int i = 0; i < 3; i++)
    if (std::fabs(load[i] - want[i]) > 1e-9 * want[i])
      return false;
  return true;
}

std::string loads_text(const double load[3])
{
  char buf[128];
  std::snprintf(buf, sizeof buf, "%g, %g, %g", load[0], load[1], load[2]);
  return buf;
}

} // namespace

/* SimGrid's own check of each solution (System::print(), which solve()
 * calls under --log=ker_lmm.thres:debug, and whose assertion aborts on an
 * overloaded link in Debian's 4.x builds) must not see the self-check's
 * systems: the unmended one overloads a link on purpose. Interposed like
 * the mend; the run's own systems are checked as before. */
void lmm::System::print() const
{
  if (in_self_check)
    return;
  using print_fn = void (*)(const lmm::System*);
  static const print_fn original_print =
      hnm_next_definition_or_die<print_fn>(&_XBT_LOGV(hnm), PRINT_SYMBOL, "System::print()");
  original_print(this);
}

/* The interposed function: see the top of this file. */
void lmm::System::update_modified_cnst_set_from_variable(const Variable* var)
{
  if (not mend_on) {
    call_original(this, var);
    return;
  }
  if (hnm_field<double>(var, VAR_SHARING_PENALTY) <= 0)
    return; /* disabled: reached by no recursion, marks nothing (as SimGrid) */
  auto* elem = hnm_field<const char*>(var, VAR_CNSTS_BEGIN);
  auto* end  = hnm_field<const char*>(var, VAR_CNSTS_END);
  for (; elem < end; elem += ELEM_SIZE)
    update_modified_cnst_set(hnm_field<Constraint*>(elem, ELEM_CONSTRAINT));
}

int hnm_lmm_fix_enable(std::string& why)
{
  if (mend_on)
    return 0;
  if (find_original() == nullptr) {
    why = "libsimgrid does not export update_modified_cnst_set_from_variable (or libhnm.so is not preloaded)";
    return -1;
  }
  double unmended[3] = {-1, -1, -1};
  double mended[3]   = {-1, -1, -1};
  in_self_check      = true;
  bool layout_ok     = solve_pattern(unmended);
  in_self_check      = false;
  if (not layout_ok) {
    why = "SimGrid's lmm variables are not laid out as the mend reads them";
    return -1;
  }
  if (is_maxmin(unmended)) {
    why = "this SimGrid solves the self-check's system right without it (link loads " + loads_text(unmended) + ")";
    return 1;
  }
  mend_on       = true;
  in_self_check = true;
  solve_pattern(mended);
  in_self_check = false;
  if (not is_maxmin(mended)) {
    mend_on = false;
    why     = "the self-check's system gives link loads " + loads_text(mended) + " with it, not max-min's 20, 10, 10 "
              "(libsimgrid does not call update_modified_cnst_set_from_variable through its PLT, or libhnm.so is not "
              "preloaded)";
    return -1;
  }
  why = "the self-check's system gives link loads " + loads_text(unmended) + " without it, max-min's " +
        loads_text(mended) + " with it";
  return 0;
}

bool hnm_lmm_fix_enabled()
{
  return mend_on;
}
