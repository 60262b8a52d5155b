/* hnm_lmm_fix.cpp -- SimGrid 3.32's selective max-min update, mended from
 * libhnm.so (docs/lazy-bug/README.md, docs/models.md).
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
 * libsimgrid's calls to update_modified_cnst_set_from_variable(): all four
 * (enable_var, disable_var, var_free, update_variable_penalty) go through
 * the PLT in Debian's libsimgrid.so.3.32. Ours marks every constraint of the
 * variable with SimGrid's own System::update_modified_cnst_set(), which does
 * the marking and the recursion exactly as before. Marking more constraints
 * than needed only makes the selective solve re-solve more of the system,
 * as network/optim:Full does for all of it, so a result that was right
 * stays right.
 *
 * The guard. SimGrid's lmm headers are not installed, so the function
 * reads three fields of SimGrid's internal classes at their 3.32 offsets.
 * It runs only when (1) the running libsimgrid says 3.32.0, (2) the
 * original function's machine code is the one those offsets were read from
 * (Debian 12's libsimgrid3.32 3.32-2), and (3) a self-check passes: a
 * four-flow max-min system with the defect's pattern, built and solved
 * through SimGrid's own lmm code, gives max-min's rates. Otherwise the
 * function does exactly what SimGrid's does (it calls the original), and
 * the caller falls back to network/optim:Full. When the mend is off (model
 * smpi-default), the original runs unchanged: bit for bit plain SimGrid.
 */
#include "hnm_lmm_fix.h"

#include "hnm_simgrid_internals.hpp"

#include <xbt/log.h>

#include <cmath>
#include <string>
#include <string_view>


XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(hnm);
namespace lmm = simgrid::kernel::lmm;

namespace {

/* Layout of SimGrid 3.32's Variable and Element (src/kernel/lmm/maxmin.hpp),
 * as the original update_modified_cnst_set_from_variable() and enable_var()
 * read it in Debian's build: Variable::cnsts_ (a std::vector<Element>) at
 * 0x20, Variable::sharing_penalty_ at 0x38; sizeof(Element) 0x50, with
 * Element::constraint at 0x30 and Element::variable at 0x38 (after the
 * three intrusive-list hooks). */
constexpr size_t VAR_CNSTS_BEGIN     = 0x20;
constexpr size_t VAR_CNSTS_END       = 0x28;
constexpr size_t VAR_SHARING_PENALTY = 0x38;
constexpr size_t ELEM_SIZE           = 0x50;
constexpr size_t ELEM_CONSTRAINT     = 0x30;
constexpr size_t ELEM_VARIABLE       = 0x38;

/* The first 32 bytes of the original function in Debian 12's
 * libsimgrid.so.3.32 (3.32-2), up to its tail call: `cmpb $0,0x70(%rdi)`
 * (selective_update_active), the cnsts_ emptiness test at 0x20/0x28, the
 * penalty test at 0x38, `mov 0x30(%rax),%rsi` (cnsts_[0].constraint), then
 * the jmp opcode whose displacement follows. The same bytes mean the same
 * offsets. */
constexpr unsigned char ORIGINAL_CODE[] = {0x80, 0x7f, 0x70, 0x00, 0x74, 0x22, 0x48, 0x8b, 0x46, 0x20, 0x48,
                                           0x3b, 0x46, 0x28, 0x74, 0x18, 0x66, 0x0f, 0xef, 0xc0, 0x66, 0x0f,
                                           0x2f, 0x46, 0x38, 0x73, 0x0d, 0x48, 0x8b, 0x70, 0x30, 0xe9};

constexpr const char* SYMBOL = "_ZN7simgrid6kernel3lmm6System38update_modified_cnst_set_from_variableEPKNS1_8VariableE";

using original_fn = void (*)(lmm::System*, const lmm::Variable*);
original_fn original = nullptr;
bool mend_on         = false;

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

/* The defect's pattern (docs/lazy-bug/): links LA (100), LB and LC (10);
 * four flows created disabled, two over LA then LB, two over LA then LC,
 * then enabled one after the other in one round, as latencies that end
 * together. Max-min: LB and LC carry 10 each, LA 20. SimGrid 3.32 without
 * the mend leaves LC unsolved (its flows get 45 each: LC carries 90). The
 * rank counters are restored, so the check leaves no trace on the run. */
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

bool self_check(std::string& why)
{
  int cnst_rank   = lmm::Constraint::next_rank_;
  int var_rank    = lmm::Variable::next_rank_;
  double usage[3] = {-1, -1, -1};
  bool layout_ok  = true;
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
        usage[i] = links[i]->get_usage();
    }
    for (CheckAction* f : flows)
      delete f; /* frees its variable in sys */
  } /* the model deletes sys */
  lmm::Constraint::next_rank_ = cnst_rank;
  lmm::Variable::next_rank_   = var_rank;
  if (not layout_ok) {
    why = "SimGrid's lmm variables are not laid out as the mend expects";
    return false;
  }
  const double want[3] = {20.0, 10.0, 10.0};
  for (int i = 0; i < 3; i++)
    if (std::fabs(usage[i] - want[i]) > 1e-9 * want[i]) {
      why = "the self-check's max-min system gave link " + std::to_string(i) + " a load of " +
            std::to_string(usage[i]) + " instead of " + std::to_string(want[i]) +
            " (is libhnm.so preloaded ahead of libsimgrid?)";
      return false;
    }
  return true;
}

} // namespace

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
  if (not hnm_simgrid_is_3_32_0(why, "the mend"))
    return -1;
  const void* code = reinterpret_cast<const void*>(find_original());
  if (code == nullptr) {
    why = "libsimgrid does not export update_modified_cnst_set_from_variable (or libhnm.so is not preloaded)";
    return -1;
  }
  if (not hnm_code_is(code, ORIGINAL_CODE, why, "update_modified_cnst_set_from_variable", "the mend"))
    return -1;
  mend_on = true;
  if (not self_check(why)) {
    mend_on = false;
    return -1;
  }
  return 0;
}

bool hnm_lmm_fix_enabled()
{
  return mend_on;
}
