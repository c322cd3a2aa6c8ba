// Mascar (002 §III-A/B): two groups per scheduler by the WST's is_mem bit — memory-ready
// warps (next instruction a memory one) and compute-ready warps. EP: memory group first,
// GTO within each group (the greedy warp leads its group); MP: compute group first, oldest
// first within each group. The scheduler still checks readiness; this policy also vetoes
// a memory instruction of a non-owner while MP mode has an owner (its WST stall bit). The
// mode and owner (versioned by MascarState) and the WST bits (the warp table's head-class
// masks) make up the policy's state version; the scheduler re-decides when it changed.
#include "sm/scheduler/policies/mascar_policy.h"

#include <algorithm>
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
    memory_.reserve(64);
    compute_.reserve(64);
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
      groups_valid_ = false;
    }
    // The WST's is_mem bits (the warps passed in are the live ones) split the warps into
    // the memory-ready and compute-ready groups, each oldest first.
    const uint64_t mem = state_.memory_heads(table_) & resident_;
    if (!groups_valid_ || mem != groups_mem_) {
      memory_.clear();
      compute_.clear();
      for (uint32_t w : by_age_) (((mem >> w) & 1u) ? memory_ : compute_).push_back(w);
      groups_mem_ = mem;
      groups_valid_ = true;
    }
    if (state_.mode() == MascarState::Mode::MP) {  // compute-ready first, oldest first within each
      out.insert(out.end(), compute_.begin(), compute_.end());
      out.insert(out.end(), memory_.begin(), memory_.end());
    } else {  // memory-ready first, GTO within each group
      const bool greedy_resident = greedy_ != kNoWarp && ((resident_ >> greedy_) & 1u);
      const bool greedy_memory = greedy_resident && ((mem >> greedy_) & 1u);
      append_group(memory_, greedy_memory, out);
      append_group(compute_, greedy_resident && !greedy_memory, out);
    }
  }
  void issued(uint32_t slot, const isa::Instruction& in) override {
    greedy_ = slot;
    state_.issued(slot, in);
  }
  void warp_removed(uint32_t slot) override {
    if (slot == greedy_) greedy_ = kNoWarp;
  }
  // Besides what this scheduler issued and its residency, the order depends on the mode
  // and the WST's is_mem bits of its warps, the veto on the mode and the owner: the
  // version changes whenever one of them did.
  bool has_state_version() const override { return true; }
  uint64_t state_version() const override {
    const uint64_t mem = state_.memory_heads(table_) & resident_;
    if (mem != seen_mem_ || state_.version() != seen_state_) {
      seen_mem_ = mem;
      seen_state_ = state_.version();
      ++version_;
    }
    return version_;
  }
  bool vetoes_instructions() const override { return true; }
  bool may_issue(uint32_t slot, const isa::Instruction& in) override {
    return !state_.is_memory(in) || state_.may_issue_memory(slot);
  }

 private:
  // Appends `group` (oldest first); with `greedy_first` the greedy warp, one of them,
  // moves to the group's front.
  void append_group(const std::vector<uint32_t>& group, bool greedy_first, std::vector<uint32_t>& out) const {
    const std::size_t start = out.size();
    out.insert(out.end(), group.begin(), group.end());
    if (!greedy_first) return;
    const auto first = out.begin() + static_cast<std::ptrdiff_t>(start);
    const auto g = std::find(first, out.end(), greedy_);
    std::rotate(first, g, g + 1);
  }

  MascarState& state_;
  const WarpTable& table_;
  uint32_t greedy_ = kNoWarp;
  uint64_t sorted_residency_ = ~uint64_t{0}, resident_ = 0;
  std::vector<uint32_t> by_age_;  // the warps, oldest first
  bool groups_valid_ = false;
  uint64_t groups_mem_ = 0;                 // the is_mem bits memory_ and compute_ follow
  std::vector<uint32_t> memory_, compute_;  // the groups, oldest first
  mutable uint64_t seen_mem_ = 0, seen_state_ = ~uint64_t{0}, version_ = 0;  // state_version()
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
