// OWL — CTA-aware warp scheduling (digest §A7; Jog et al., "OWL: Cooperative Thread Array
// Aware Scheduling Techniques for Improving GPGPU Performance", ASPLOS 2013, §4), without
// the opportunistic memory-side prefetching of its §4.4 (Mascar, 002 §IV-C, compares with
// OWL so). Readings of what the sources leave open: docs/blocks/scheduler.md, "OWL".
//
// OwlState, one per SM (IssueShared), shared by the SM's schedulers:
//  * CTA groups (§4.1): a CTA placed on the SM joins the youngest group when that group
//    belongs to the same kernel and holds fewer than `group_warps` warps; otherwise it opens
//    a new group. Groups are numbered in the order they open (their age), and within a
//    kernel on this SM (their index, for the BLP pairing).
//  * priority key (§4.2, §4.3): locality — the group's age (oldest first, so the group in
//    front keeps priority until its warps are done, and regains it whenever one of them is
//    ready); blp — the groups of a kernel are taken in blocks of `blp_groups` consecutive
//    indices and SM i puts block member (i mod blp_groups) first, then the following
//    members, wrapping within the block (SMs 0, 2, 4... start with their first group, SMs
//    1, 3, 5... with their second), so neighbouring SMs, which the round-robin CTA scheduler
//    gives consecutive CTAs, do not prioritise consecutive CTAs at once.
// The policy (one per scheduler) orders its warps group by group — the highest-priority
// group first (locality, blp) or the active group first and the others in round-robin
// order of age (cta_aware: the group of the last warp issued is active, §4.1) — each
// group's warps in `inner_policy` order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/stats/stats.h"
#include "sm/scheduler/scheduler_policy.h"
#include "sm/sm_config.h"

namespace gputlm::sm {

// The counters of group sm<i>.owl.
struct OwlStats {
  explicit OwlStats(stats::Group& sm_group);
  stats::Group group;
  stats::Counter groups_formed, ctas_grouped, prioritized_issues, other_issues;
};

class OwlState {
 public:
  // Throws config::ConfigError naming key_prefix.owl.<key> for a bad parameter (and
  // 'sm.max_warps' for a table the policy cannot serve). Statistics under sm_group (none
  // when null).
  OwlState(const OwlSchedulerConfig& cfg, uint32_t warp_slots, uint32_t sm_id, const std::string& key_prefix,
           stats::Group* sm_group);

  const OwlSchedulerConfig& config() const { return cfg_; }
  uint32_t sm_id() const { return sm_id_; }

  // Groups the CTAs placed since the last call (nothing to do while
  // table.residency_version() is unchanged); CTAs are taken in placement order.
  void update(const WarpTable& table);

  // Of the warp in `slot` (valid after update() saw its CTA): its group's age (0 = the
  // SM's first group) and its priority key (smaller first; locality: the age).
  uint64_t group_of(uint32_t slot) const { return group_[slot]; }
  int64_t priority_of(uint32_t slot) const { return key_[slot]; }
  // Groups opened so far on this SM.
  uint64_t groups_formed() const { return next_group_; }

  // An issue from the group the policy put first (or not).
  void note_issue(bool prioritized);
  OwlStats* stats() { return stats_.get(); }

 private:
  OwlSchedulerConfig cfg_;
  uint32_t sm_id_;
  bool blp_;
  uint64_t seen_residency_ = ~uint64_t{0};
  // Per warp slot: the CTA sequence it was grouped under, its group, its key.
  std::vector<uint8_t> known_;
  std::vector<uint64_t> seq_;
  std::vector<uint64_t> group_;
  std::vector<int64_t> key_;
  // The youngest group (the only one a CTA may join).
  uint64_t next_group_ = 0;
  uint32_t youngest_kernel_ = 0;
  uint32_t youngest_warps_ = 0;
  uint64_t youngest_group_ = 0;
  int64_t youngest_key_ = 0;
  std::map<uint32_t, uint64_t> next_index_;  // per kernel: index of its next group on this SM
  std::vector<std::pair<uint64_t, uint32_t>> fresh_;  // scratch: (CTA sequence, slot)
  std::unique_ptr<OwlStats> stats_;
};

// Throws config::ConfigError naming key_prefix.owl.<key> for a bad parameter;
// std::invalid_argument without context.owl or context.warps.
std::unique_ptr<SchedulerPolicyIF> make_owl_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                   const PolicyContext& context);

}  // namespace gputlm::sm
