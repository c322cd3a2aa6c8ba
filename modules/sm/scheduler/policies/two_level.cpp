// Two-level scheduling with fetch groups (digest §A6): the scheduler's warps are split
// into groups of `group_size` by their index within the scheduler (local / group_size).
// The active group's warps come first, ordered by the inner policy; then the other groups,
// in round-robin order after the active group (outer lrr) or oldest group first (outer
// gto: a group's age is its oldest warp's), each ordered by the inner policy. Issuing from
// another group makes it the active group, so the active group changes exactly when none
// of its warps could issue.
#include <algorithm>

#include "sm/scheduler/policies/base_policies.h"

namespace gputlm::sm::policies {
namespace {

class TwoLevel : public SchedulerPolicyIF {
 public:
  TwoLevel(uint32_t group_size, std::unique_ptr<SchedulerPolicyIF> inner, bool outer_gto)
      : group_size_(group_size), inner_(std::move(inner)), outer_gto_(outer_gto) {}
  const char* name() const override { return "two_level"; }

  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    resolve_active(warps);
    groups_.clear();
    for (const WarpView& w : warps) {
      const uint32_t g = w.local / group_size_;
      if (std::find(groups_.begin(), groups_.end(), g) == groups_.end()) groups_.push_back(g);
    }
    std::sort(groups_.begin(), groups_.end());
    // Group order: active first, then the outer policy's order.
    ordered_.clear();
    if (std::find(groups_.begin(), groups_.end(), active_) != groups_.end()) ordered_.push_back(active_);
    if (outer_gto_) {
      std::vector<std::pair<uint64_t, uint32_t>> by_age;
      for (uint32_t g : groups_) {
        if (g == active_) continue;
        uint64_t oldest = ~uint64_t{0};
        for (const WarpView& w : warps)
          if (w.local / group_size_ == g) oldest = std::min(oldest, w.age);
        by_age.emplace_back(oldest, g);
      }
      std::sort(by_age.begin(), by_age.end());
      for (const auto& p : by_age) ordered_.push_back(p.second);
    } else {
      for (uint32_t g : groups_)
        if (g > active_) ordered_.push_back(g);
      for (uint32_t g : groups_)
        if (g < active_) ordered_.push_back(g);
    }
    for (uint32_t g : ordered_) {
      subset_.clear();
      for (const WarpView& w : warps)
        if (w.local / group_size_ == g) subset_.push_back(w);
      inner_->order(subset_, out);
    }
  }

  void issued(uint32_t slot, const isa::Instruction& in) override {
    inner_->issued(slot, in);
    pending_slot_ = slot;
  }
  void warp_removed(uint32_t slot) override { inner_->warp_removed(slot); }

 private:
  // issued() only has the slot; its group is resolved at the next order().
  void resolve_active(const std::vector<WarpView>& warps) {
    for (const WarpView& w : warps)
      if (w.slot == pending_slot_) active_ = w.local / group_size_;
    pending_slot_ = 0xffffffffu;
  }

  uint32_t group_size_;
  std::unique_ptr<SchedulerPolicyIF> inner_;
  bool outer_gto_;
  uint32_t active_ = 0;
  uint32_t pending_slot_ = 0xffffffffu;
  std::vector<uint32_t> groups_, ordered_;
  std::vector<WarpView> subset_;
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_two_level(uint32_t group_size, std::unique_ptr<SchedulerPolicyIF> inner,
                                                  bool outer_gto) {
  return std::make_unique<TwoLevel>(group_size, std::move(inner), outer_gto);
}

}  // namespace gputlm::sm::policies
