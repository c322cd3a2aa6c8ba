// LAWS, LAWS-TH, LAWS-NMD (digest §B3-B4): GTO or GTLR by the SM's (or the scheduler's)
// locality score, over the warps the throttling unit allows. Both inner policies follow
// every issue, so a switch continues from where each would be.
#include "sm/scheduler/policies/laws_policy.h"

#include <stdexcept>

#include "sm/scheduler/laws/laws_state.h"
#include "sm/scheduler/policies/base_policies.h"

namespace gputlm::sm {

namespace {

class LawsPolicy final : public SchedulerPolicyIF {
 public:
  LawsPolicy(LawsState& state, std::string name)
      : state_(state), name_(std::move(name)), gto_(policies::make_gto()), gtlr_(policies::make_gtlr()) {}
  const char* name() const override { return name_.c_str(); }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    if (warps.empty()) return;
    const uint64_t allowed = state_.allowed();
    const std::vector<WarpView>* ws = &warps;
    if (allowed != ~uint64_t{0}) {
      subset_.clear();
      for (const WarpView& w : warps)
        if (w.slot >= 64 || ((allowed >> w.slot) & 1u) != 0) subset_.push_back(w);
      ws = &subset_;
    }
    // A scheduler's warps all map to its score (scope = scheduler) or to the SM's.
    SchedulerPolicyIF& p = state_.mode_of_warp(warps.front().slot) == LawsState::Mode::Gtlr ? *gtlr_ : *gto_;
    p.order(*ws, out);
  }
  void issued(uint32_t slot, const isa::Instruction& in) override {
    gto_->issued(slot, in);
    gtlr_->issued(slot, in);
  }
  void warp_removed(uint32_t slot) override {
    gto_->warp_removed(slot);
    gtlr_->warp_removed(slot);
  }
  bool has_state_version() const override { return true; }
  uint64_t state_version() const override { return state_.version(); }

 private:
  LawsState& state_;
  std::string name_;
  std::unique_ptr<SchedulerPolicyIF> gto_, gtlr_;
  std::vector<WarpView> subset_;
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_laws_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                    const PolicyContext& context) {
  if (context.laws == nullptr) {
    LawsState check(cfg.laws, LawsState::Throttling::None, 1, 1, key_prefix, nullptr);  // a bad parameter first
    throw std::invalid_argument("laws scheduling policy: no LAWS state given (the SM creates it)");
  }
  return std::make_unique<LawsPolicy>(*context.laws, cfg.policy);
}

}  // namespace gputlm::sm
