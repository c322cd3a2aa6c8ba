// CCWS — cache-conscious wavefront scheduling (digest §A9; Rogers et al., MICRO 2012):
// GTO order; a warp whose stacked lost-locality score is above the cutoff (CcwsState,
// per SM) may not issue loads (throttle = loads: global, local and generic loads, the
// instructions that go to the L1D; its other instructions issue) or, with throttle =
// warps, is left out of the order altogether. The cutoff test changes with time (score
// decay) and with L1D feedback, so order_changes_only_on_issue() is false.
#include "sm/scheduler/policies/ccws_policy.h"

#include <stdexcept>

#include "sm/scheduler/ccws/ccws_state.h"
#include "sm/scheduler/policies/base_policies.h"

namespace gputlm::sm {

bool is_ccws_throttled_load(const isa::Instruction& in) {
  if (!in.is_load) return false;
  return in.cls == isa::OpClass::MemGlobal || in.cls == isa::OpClass::MemLocal || in.cls == isa::OpClass::MemGeneric;
}

namespace {

class CcwsPolicy final : public SchedulerPolicyIF {
 public:
  explicit CcwsPolicy(CcwsState& state)
      : state_(state), gto_(policies::make_gto()), whole_warps_(state.config().throttle == "warps") {}
  const char* name() const override { return "ccws"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    if (!whole_warps_) {
      gto_->order(warps, out);
      return;
    }
    subset_.clear();
    for (const WarpView& w : warps)
      if (state_.may_issue_load(w.slot)) subset_.push_back(w);
    gto_->order(subset_, out);
  }
  void issued(uint32_t slot, const isa::Instruction& in) override {
    gto_->issued(slot, in);
    state_.issued(slot);
  }
  // The SM core resets the warp's CCWS state (once, not per scheduler).
  void warp_removed(uint32_t slot) override { gto_->warp_removed(slot); }
  bool order_changes_only_on_issue() const override { return false; }
  bool vetoes_instructions() const override { return !whole_warps_; }
  bool may_issue(uint32_t slot, const isa::Instruction& in) override {
    if (!is_ccws_throttled_load(in) || state_.may_issue_load(slot)) return true;
    state_.note_throttled_load();
    return false;
  }

 private:
  CcwsState& state_;
  std::unique_ptr<SchedulerPolicyIF> gto_;
  bool whole_warps_;
  std::vector<WarpView> subset_;
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_ccws_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                    const PolicyContext& context) {
  if (context.ccws == nullptr) {
    // Check the parameters first, so a bad one is reported as such.
    CcwsState check(cfg.ccws, 1, key_prefix, nullptr);
    throw std::invalid_argument("ccws scheduling policy: no CCWS state given (the SM creates it)");
  }
  return std::make_unique<CcwsPolicy>(*context.ccws);
}

}  // namespace gputlm::sm
