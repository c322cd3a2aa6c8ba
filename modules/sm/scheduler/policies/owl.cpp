// OWL scheduling policy (digest §A7; Jog et al. ASPLOS'13 §4.1-4.3, no memory-side
// prefetch): CTA groups per SM (OwlState) and the per-scheduler order over them. See
// owl_policy.h for the rules and docs/blocks/scheduler.md ("OWL") for the readings.
#include "sm/scheduler/policies/owl_policy.h"

#include <algorithm>
#include <stdexcept>

#include "core/config/config_source.h"
#include "sm/scheduler/policies/base_policies.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

OwlStats::OwlStats(stats::Group& sm_group)
    : group(sm_group, "owl"),
      groups_formed(group, "groups_formed", "CTA groups opened on this SM (Jog ASPLOS'13 §4.1)"),
      ctas_grouped(group, "ctas_grouped", "CTAs placed on this SM and given a group"),
      prioritized_issues(group, "prioritized_issues",
                         "warp instructions issued from the group the scheduler put first (locality/blp: the "
                         "highest-priority group; cta_aware: the active group)"),
      other_issues(group, "other_issues",
                   "warp instructions issued from another group (the first one had no warp able to issue)") {}

OwlState::OwlState(const OwlSchedulerConfig& cfg, uint32_t warp_slots, uint32_t sm_id, const std::string& key_prefix,
                   stats::Group* sm_group)
    : cfg_(cfg), sm_id_(sm_id), blp_(cfg.scheme == "blp") {
  const std::string p = (key_prefix.empty() ? "" : key_prefix + ".") + "owl.";
  auto fail = [&](const std::string& key, const std::string& what) {
    throw config::ConfigError("key '" + p + key + "': " + what);
  };
  if (cfg.scheme != "cta_aware" && cfg.scheme != "locality" && cfg.scheme != "blp")
    fail("scheme", "unknown scheme \"" + cfg.scheme + "\" (cta_aware, locality or blp)");
  if (warp_slots == 0 || warp_slots > 64)
    throw config::ConfigError("key 'sm.max_warps': the owl policy supports 1..64 warp slots per SM (got " +
                              std::to_string(warp_slots) + ")");
  if (cfg.group_warps == 0 || cfg.group_warps > warp_slots)
    fail("group_warps", std::to_string(cfg.group_warps) + " warps per CTA group: must be 1 to the SM's " +
                            std::to_string(warp_slots) + " warp slots");
  if (cfg.blp_groups == 0) fail("blp_groups", "must be at least 1 (got 0)");
  known_.assign(warp_slots, 0);
  seq_.assign(warp_slots, 0);
  group_.assign(warp_slots, 0);
  key_.assign(warp_slots, 0);
  fresh_.reserve(warp_slots);
  if (sm_group) stats_ = std::make_unique<OwlStats>(*sm_group);
}

void OwlState::update(const WarpTable& table) {
  if (table.residency_version() == seen_residency_) return;
  seen_residency_ = table.residency_version();
  fresh_.clear();
  const uint32_t n = std::min<uint32_t>(table.size(), static_cast<uint32_t>(known_.size()));
  for (uint32_t w = 0; w < n; ++w) {
    const WarpSlot& s = table[w];
    if (!s.valid) {
      known_[w] = 0;
      continue;
    }
    const uint64_t seq = s.age >> 16;  // warp_age(CTA sequence on the SM, warp in CTA)
    if (known_[w] && seq_[w] == seq) continue;
    fresh_.emplace_back(seq, w);
  }
  if (fresh_.empty()) return;
  // CTAs in placement order; all warps of a CTA are placed at once, so a run of equal
  // sequence numbers is a whole CTA.
  std::sort(fresh_.begin(), fresh_.end());
  for (std::size_t i = 0; i < fresh_.size();) {
    std::size_t j = i;
    while (j < fresh_.size() && fresh_[j].first == fresh_[i].first) ++j;
    const uint32_t kernel = table[fresh_[i].second].kernel_id;
    const uint32_t warps = static_cast<uint32_t>(j - i);
    // §4.1: a group gathers consecutive CTAs until it has enough warps; [impl] only CTAs
    // of one kernel share a group.
    if (next_group_ == 0 || kernel != youngest_kernel_ || youngest_warps_ >= cfg_.group_warps) {
      youngest_group_ = next_group_++;
      youngest_kernel_ = kernel;
      youngest_warps_ = 0;
      const uint64_t index = next_index_[kernel]++;
      youngest_key_ = static_cast<int64_t>(youngest_group_);
      if (blp_) {
        // §4.3: SM i starts each block of blp_groups consecutive groups at member
        // i mod blp_groups (odd SMs with their second group at the default 2).
        const uint64_t m = cfg_.blp_groups, pos = index % m, r = sm_id_ % m;
        const uint64_t target = (pos + m - r) % m;
        youngest_key_ += static_cast<int64_t>(target) - static_cast<int64_t>(pos);
      }
      if (stats_) ++stats_->groups_formed;
    }
    youngest_warps_ += warps;
    if (stats_) ++stats_->ctas_grouped;
    for (std::size_t k = i; k < j; ++k) {
      const uint32_t w = fresh_[k].second;
      known_[w] = 1;
      seq_[w] = fresh_[k].first;
      group_[w] = youngest_group_;
      key_[w] = youngest_key_;
    }
    i = j;
  }
}

void OwlState::note_issue(bool prioritized) {
  if (!stats_) return;
  if (prioritized)
    ++stats_->prioritized_issues;
  else
    ++stats_->other_issues;
}

namespace {

constexpr uint64_t kNoGroup = ~uint64_t{0};

class OwlPolicy final : public SchedulerPolicyIF {
 public:
  OwlPolicy(OwlState& state, const WarpTable& table, std::unique_ptr<SchedulerPolicyIF> inner)
      : state_(state),
        table_(table),
        inner_(std::move(inner)),
        round_robin_(state.config().scheme == "cta_aware") {
    groups_.reserve(64);
    subset_.reserve(64);
  }
  const char* name() const override { return "owl"; }

  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    state_.update(table_);
    groups_.clear();
    for (const WarpView& w : warps) {
      const uint64_t g = state_.group_of(w.slot);
      bool seen = false;
      for (const Group& x : groups_) seen = seen || x.id == g;
      if (!seen) groups_.push_back(Group{round_robin_ ? 0 : state_.priority_of(w.slot), g});
    }
    std::sort(groups_.begin(), groups_.end(),
              [](const Group& a, const Group& b) { return a.key != b.key ? a.key < b.key : a.id < b.id; });
    if (round_robin_) {
      // §4.1: the active group first, then the groups after it in age order, wrapping
      // (if the active group is gone, the next one after it leads).
      auto first = std::find_if(groups_.begin(), groups_.end(), [&](const Group& x) { return x.id >= active_; });
      std::rotate(groups_.begin(), first, groups_.end());
    }
    first_ = groups_.empty() ? kNoGroup : groups_.front().id;
    for (const Group& g : groups_) {
      subset_.clear();
      for (const WarpView& w : warps)
        if (state_.group_of(w.slot) == g.id) subset_.push_back(w);
      inner_->order(subset_, out);
    }
  }

  void issued(uint32_t slot, const isa::Instruction& in) override {
    inner_->issued(slot, in);
    const uint64_t g = state_.group_of(slot);
    state_.note_issue(g == first_);
    if (round_robin_) active_ = g;
  }
  void warp_removed(uint32_t slot) override { inner_->warp_removed(slot); }

 private:
  struct Group {
    int64_t key;
    uint64_t id;
  };
  OwlState& state_;
  const WarpTable& table_;
  std::unique_ptr<SchedulerPolicyIF> inner_;
  bool round_robin_;
  uint64_t active_ = 0;  // cta_aware: group of the last warp issued (0: the oldest group)
  uint64_t first_ = kNoGroup;
  std::vector<Group> groups_;
  std::vector<WarpView> subset_;
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_owl_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                   const PolicyContext& context) {
  const std::string p = (key_prefix.empty() ? "" : key_prefix + ".") + "owl.";
  auto inner = make_base_policy(cfg.owl.inner_policy, p + "inner_policy");
  if (context.owl == nullptr || context.warps == nullptr) {
    // Check the parameters first, so a bad one is reported as such.
    OwlState check(cfg.owl, 64, 0, key_prefix, nullptr);
    throw std::invalid_argument("owl scheduling policy: no OWL state or warp table given (the SM creates them)");
  }
  return std::make_unique<OwlPolicy>(*context.owl, *context.warps, std::move(inner));
}

}  // namespace gputlm::sm
