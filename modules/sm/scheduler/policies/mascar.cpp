// Mascar (002 §III-A/B): two groups per scheduler by the WST's is_mem bit — memory-ready
// warps (next instruction a memory one) and compute-ready warps. EP: memory group first,
// GTO within each group (the greedy warp leads its group); MP: compute group first, oldest
// first within each group. The scheduler still checks readiness; this policy also vetoes
// a memory instruction of a non-owner while MP mode has an owner (its WST stall bit). The
// mode and the owner change with the L1s' saturation and every issue, so the order is
// recomputed every cycle (order_changes_only_on_issue() is false).
#include "sm/scheduler/policies/mascar_policy.h"

#include <stdexcept>

#include "sm/scheduler/mascar/mascar_state.h"
#include "sm/scheduler/policies/base_policies.h"

namespace gputlm::sm {

namespace {

constexpr uint32_t kNoWarp = 0xffffffffu;

class MascarPolicy final : public SchedulerPolicyIF {
 public:
  explicit MascarPolicy(MascarState& state) : state_(state) {
    memory_.reserve(64);
    compute_.reserve(64);
  }
  const char* name() const override { return "mascar"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    memory_.clear();
    compute_.clear();
    for (const WarpView& w : warps) (state_.is_mem(w.slot) ? memory_ : compute_).push_back(w);
    if (state_.mode() == MascarState::Mode::MP) {
      policies::oldest_first(compute_, kNoWarp, out);
      policies::oldest_first(memory_, kNoWarp, out);
    } else {
      greedy_then_oldest(memory_, out);
      greedy_then_oldest(compute_, out);
    }
  }
  void issued(uint32_t slot, const isa::Instruction& in) override {
    greedy_ = slot;
    state_.issued(slot, in);
  }
  void warp_removed(uint32_t slot) override {
    if (slot == greedy_) greedy_ = kNoWarp;
  }
  bool order_changes_only_on_issue() const override { return false; }
  bool vetoes_instructions() const override { return true; }
  bool may_issue(uint32_t slot, const isa::Instruction& in) override {
    if (!state_.is_memory(in) || state_.may_issue_memory(slot)) return true;
    state_.note_vetoed();
    return false;
  }

 private:
  void greedy_then_oldest(const std::vector<WarpView>& group, std::vector<uint32_t>& out) const {
    bool has_greedy = false;
    for (const WarpView& w : group) has_greedy = has_greedy || w.slot == greedy_;
    if (has_greedy) out.push_back(greedy_);
    policies::oldest_first(group, has_greedy ? greedy_ : kNoWarp, out);
  }

  MascarState& state_;
  uint32_t greedy_ = kNoWarp;
  std::vector<WarpView> memory_, compute_;
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_mascar_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                      const PolicyContext& context) {
  if (context.mascar == nullptr) {
    // Check the parameters first, so a bad one is reported as such.
    MascarState check(cfg.mascar, 1, 128, key_prefix, nullptr);
    throw std::invalid_argument("mascar scheduling policy: no Mascar state given (the SM creates it)");
  }
  return std::make_unique<MascarPolicy>(*context.mascar);
}

}  // namespace gputlm::sm
