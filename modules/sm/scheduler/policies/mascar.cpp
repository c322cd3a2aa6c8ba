// Mascar (002 §III-A/B): two groups per scheduler by the WST's is_mem bit — memory-ready
// warps (next instruction a memory one) and compute-ready warps. EP: memory group first,
// GTO within each group (the greedy warp leads its group); MP: compute group first, oldest
// first within each group. The scheduler still checks readiness; this policy also vetoes
// a memory instruction of a non-owner while MP mode has an owner (its WST stall bit). The
// mode, the owner and the WST change with the L1s' saturation, the I-buffers and issues;
// MascarState versions them, and the scheduler re-decides when the version changed.
#include "sm/scheduler/policies/mascar_policy.h"

#include <stdexcept>

#include "sm/scheduler/mascar/mascar_state.h"
#include "sm/scheduler/policies/base_policies.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

namespace {

constexpr uint32_t kNoWarp = 0xffffffffu;

class MascarPolicy final : public SchedulerPolicyIF {
 public:
  MascarPolicy(MascarState& state, const WarpTable& table) : state_(state), table_(table) {
    memory_.reserve(64);
    compute_.reserve(64);
    last_order_.reserve(64);
  }
  const char* name() const override { return "mascar"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    uint64_t mem = 0;
    for (const WarpView& w : warps)
      if (state_.is_mem(w.slot, table_)) mem |= uint64_t{1} << w.slot;
    // The order is a function of the warps (residency), the groups, the mode and the
    // greedy warp: reuse the last one while they are unchanged.
    const Key key{table_.residency_version(), mem, state_.mode(), greedy_};
    if (!(key == last_key_)) {
      last_key_ = key;
      memory_.clear();
      compute_.clear();
      for (const WarpView& w : warps) (((mem >> w.slot) & 1u) ? memory_ : compute_).push_back(w);
      last_order_.clear();
      if (state_.mode() == MascarState::Mode::MP) {
        policies::oldest_first(compute_, kNoWarp, last_order_);
        policies::oldest_first(memory_, kNoWarp, last_order_);
      } else {
        greedy_then_oldest(memory_, last_order_);
        greedy_then_oldest(compute_, last_order_);
      }
    }
    out.insert(out.end(), last_order_.begin(), last_order_.end());
  }
  void issued(uint32_t slot, const isa::Instruction& in) override {
    greedy_ = slot;
    state_.issued(slot, in);
  }
  void warp_removed(uint32_t slot) override {
    if (slot == greedy_) greedy_ = kNoWarp;
  }
  // The order depends on the mode and the I-buffers (WST) besides what this scheduler
  // issued; the mode and owner are versioned, the I-buffers the scheduler tracks: it
  // repeats an unchanged decision and recomputes the order whenever it decides.
  bool has_state_version() const override { return true; }
  uint64_t state_version() const override { return state_.version(); }
  bool vetoes_instructions() const override { return true; }
  bool may_issue(uint32_t slot, const isa::Instruction& in) override {
    return !state_.is_memory(in) || state_.may_issue_memory(slot);
  }

 private:
  void greedy_then_oldest(const std::vector<WarpView>& group, std::vector<uint32_t>& out) const {
    bool has_greedy = false;
    for (const WarpView& w : group) has_greedy = has_greedy || w.slot == greedy_;
    if (has_greedy) out.push_back(greedy_);
    policies::oldest_first(group, has_greedy ? greedy_ : kNoWarp, out);
  }

  struct Key {
    uint64_t residency = ~uint64_t{0}, memory = 0;
    MascarState::Mode mode = MascarState::Mode::EP;
    uint32_t greedy = kNoWarp;
    bool operator==(const Key& o) const {
      return residency == o.residency && memory == o.memory && mode == o.mode && greedy == o.greedy;
    }
  };

  MascarState& state_;
  const WarpTable& table_;
  uint32_t greedy_ = kNoWarp;
  Key last_key_;
  std::vector<uint32_t> last_order_;
  std::vector<WarpView> memory_, compute_;
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_mascar_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                      const PolicyContext& context) {
  if (context.mascar == nullptr || context.warps == nullptr) {
    // Check the parameters first, so a bad one is reported as such.
    MascarState check(cfg.mascar, 1, 128, key_prefix, nullptr);
    throw std::invalid_argument("mascar scheduling policy: no Mascar state or warp table given (the SM creates them)");
  }
  return std::make_unique<MascarPolicy>(*context.mascar, *context.warps);
}

}  // namespace gputlm::sm
