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
    by_age_.reserve(64);
    last_order_.reserve(64);
  }
  const char* name() const override { return "mascar"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    // The warps (and their ages) change only with residency: sort them oldest first then.
    if (sorted_residency_ != table_.residency_version() || by_age_.size() != warps.size()) {
      by_age_.clear();
      policies::oldest_first(warps, kNoWarp, by_age_);
      resident_ = 0;
      for (uint32_t w : by_age_) resident_ |= uint64_t{1} << w;
      sorted_residency_ = table_.residency_version();
    }
    // The WST's is_mem bits (the warps passed in are the live ones).
    const uint64_t mem = state_.memory_heads(table_) & resident_;
    // The order is a function of the warps, the groups, the mode and the greedy warp:
    // reuse the last one while they are unchanged.
    const Key key{sorted_residency_, mem, state_.mode(), greedy_};
    if (!(key == last_key_)) {
      last_key_ = key;
      last_order_.clear();
      if (state_.mode() == MascarState::Mode::MP) {
        append_group(~mem, kNoWarp);  // compute-ready first, oldest first within each group
        append_group(mem, kNoWarp);
      } else {
        const uint32_t greedy = greedy_ != kNoWarp && ((resident_ >> greedy_) & 1u) ? greedy_ : kNoWarp;
        append_group(mem, greedy);  // memory-ready first, GTO within each group
        append_group(~mem, greedy);
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
  // Appends the warps of `group` (a slot mask), `greedy` first when it is one of them,
  // then the others oldest first.
  void append_group(uint64_t group, uint32_t greedy) {
    if (greedy != kNoWarp && ((group >> greedy) & 1u)) last_order_.push_back(greedy);
    for (uint32_t w : by_age_)
      if (((group >> w) & 1u) && w != greedy) last_order_.push_back(w);
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
  uint64_t sorted_residency_ = ~uint64_t{0}, resident_ = 0;
  std::vector<uint32_t> by_age_;  // the warps, oldest first
  std::vector<uint32_t> last_order_;
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
