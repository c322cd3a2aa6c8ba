// CCWS state of one SM (digest §A9; Rogers et al., MICRO 2012): per warp slot a victim
// tag array (VTA) and a lost-locality score (LLS), and the cutoff test deciding which
// warps may issue loads. In hardware the VTAs sit beside the L1D and the scores beside the
// schedulers; here one object holds both, shared by the SM's schedulers (IssueShared) and
// fed by the L1D (Sm installs the cache hooks only when the policy is ccws).
//
//  * evicted(wid, block): a valid L1D line allocated by warp `wid` was replaced; its tag
//    enters wid's VTA (set = block mod sets, fifo or lru victim; a tag already present is
//    refreshed, not duplicated).
//  * probe(wid, block): a demand-load miss of warp `wid`; a VTA hit is lost intra-warp
//    locality: LLS[wid] += score_on_hit + LLDS, LLDS = hits / issued x k_throttle x cutoff
//    (hits and issued counted over the resident warps), capped when score_cap_k > 0.
//  * advance(cycle, active): every LLS above base_score loses decay_per_cycle per cycle
//    since the last call (never below base); then the active warps are stacked by LLS,
//    highest first (ties: lower slot first) and a warp may issue loads while the sum of the
//    scores stacked below it is under the cutoff = active warps x cutoff_per_warp (0:
//    base_score). The highest-score warp is always allowed; with every score at base all are.
// A warp leaving its slot takes its VTA, score and counts with it (the next warp in the
// slot starts at base_score with an empty VTA).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/stats/stats.h"
#include "sm/sm_config.h"

namespace gputlm::sm {

// The counters of group sm<i>.ccws.
struct CcwsStats {
  explicit CcwsStats(stats::Group& sm_group);
  stats::Group group;
  stats::Counter evictions_recorded, vta_probes, vta_hits, limited_cycles, throttled_warp_cycles,
      throttled_load_blocks;
};

class CcwsState {
 public:
  // Throws config::ConfigError naming key_prefix.ccws.<key> for a bad parameter.
  // Statistics under sm_group (none when null).
  CcwsState(const CcwsSchedulerConfig& cfg, uint32_t warp_slots, const std::string& key_prefix,
            stats::Group* sm_group);

  // L1D side.
  void evicted(int32_t wid, uint64_t block);
  bool probe(int32_t wid, uint64_t block);  // true on a VTA hit
  // Scheduler side.
  void issued(uint32_t slot);
  // Decay up to `cycle` and redo the cutoff test over the warps whose bit is set in
  // `active` (slots < 64).
  void advance(uint64_t cycle, uint64_t active);
  bool may_issue_load(uint32_t slot) const { return slot >= 64 || ((allowed_ >> slot) & 1u) != 0; }
  // Some active warp is above the cutoff (the state then changes with time alone).
  bool limited() const { return (active_ & ~allowed_) != 0; }
  uint64_t allowed_mask() const { return allowed_; }
  void warp_removed(uint32_t slot);
  // A vetoed load (statistics only).
  void note_throttled_load() {
    if (stats_) ++stats_->throttled_load_blocks;
  }

  // Introspection (tests, docs).
  uint64_t score(uint32_t slot) const { return score_[slot]; }
  void set_score(uint32_t slot, uint64_t s) { score_[slot] = s; }
  bool vta_holds(uint32_t slot, uint64_t block) const;
  uint64_t cutoff() const { return cutoff_; }
  // The points a VTA hit would add now (score_on_hit + LLDS).
  uint64_t hit_points() const { return cfg_.score_on_hit + llds(); }
  const CcwsSchedulerConfig& config() const { return cfg_; }
  CcwsStats* stats() { return stats_.get(); }

 private:
  struct Tag {
    bool valid = false;
    uint64_t block = 0;
    uint64_t stamp = 0;  // fifo: insertion; lru: last use
  };
  Tag* find(uint32_t slot, uint64_t block);
  uint64_t llds() const;
  uint64_t cutoff_for(uint32_t active_warps) const;

  CcwsSchedulerConfig cfg_;
  uint32_t slots_, sets_;
  bool lru_;
  std::vector<Tag> vta_;  // slot-major: slot * entries + set * ways + way
  std::vector<uint64_t> score_, hits_, issued_;
  uint64_t hits_total_ = 0, issued_total_ = 0;  // of the warps now in their slots
  uint64_t stamp_ = 0;
  uint64_t last_cycle_ = 0;
  bool started_ = false;
  uint64_t active_ = 0, allowed_ = ~uint64_t{0};
  uint64_t cutoff_;
  std::unique_ptr<CcwsStats> stats_;
};

}  // namespace gputlm::sm
