// LAWS state of one SM (digest §B3-B4; 001 §2.5, §3.3): the locality score selector (LSS)
// that switches the schedulers between GTO and GTLR, and LAWS-TH's throttling unit (THU).
// The L1D feeds it every demand-load access with its (Hit, LT) class (the cache's WID
// tags and MSHR field 0: mem::LocalityClass); the SM installs the hook only under laws,
// laws_th and laws_nmd, so other policies pay nothing.
//
// LSS (per SM, or per scheduler with scope = scheduler, §Z18):
//  * primary miss:                 score += 1, Miss_CNT = min(Miss_CNT + 1, miss_cnt_max)
//  * intra-warp L1 or MSHR hit:    score += 1
//  * inter-warp L1 or MSHR hit:    score -= Miss_CNT + 1, Miss_CNT = 0
//  The 16-bit score saturates; GTLR while it is negative, GTO otherwise. Both restart at 0
//  (laws.initial_score) when a kernel's first CTA arrives at an idle SM ("0 at kernel launch").
//
// THU (laws_th, laws_nmd): IL_vec[w] is set by an intra-warp L1 hit of warp w and cleared
// by its primary miss or its exit; Hit_CNT = popcount. An L1D access after which every
// MSHR entry is occupied is an MSHR-full event; in GTO mode, once the previous limit's
// hold has expired, it decides:
//  1. Hit_CNT > 0: Min_CNT / Max_CNT take Hit_CNT in; stable (no update for stable_periods
//     decisions) -> limit = ceil((Min + Max) / 2), else limit = Hit_CNT + 1;
//  2. else (laws_th only) Load_CNT (warps owning MSHR entries) < divergence_loads ->
//     limit = Load_CNT, raised to Hit_CNT + 1 while that is larger;
//  3. else no limit.
//  A limit is at least min_limit and holds hold_cycles. It applies only in GTO mode: the
//  limit-many oldest live warps of the SM not waiting at a barrier may issue. It ends at
//  the next decision (release = on_full_event, the thesis text: a limit stays while the
//  MSHRs never fill again) or, with release = hold_expiry, also once the hold has expired
//  and hold_cycles passed without an MSHR-full event.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/stats/stats.h"
#include "mem/cache/cache_types.h"
#include "sm/sm_config.h"

namespace gputlm::sm {

class WarpTable;

// The counters of group sm<i>.laws (the throttling ones only under laws_th / laws_nmd).
struct LawsStats {
  LawsStats(stats::Group& sm_group, bool throttling);
  stats::Group group;
  stats::Counter cycles, gtlr_cycles, flips;
  stats::CounterVector accesses;  // the LSS inputs by class
  struct Throttle {
    explicit Throttle(stats::Group& g);
    stats::Counter mshr_full_events, decisions, by_intra, by_stable, by_divergence, released, expired, divergence_raises,
        throttled_cycles, divergence_cycles;
    stats::CounterVector limit_cycles;
    stats::Average min_cnt, max_cnt;
    stats::Distribution period_cycles;
  };
  std::unique_ptr<Throttle> thu;
};

class LawsState {
 public:
  enum class Mode : uint8_t { Gto, Gtlr };
  // Which throttling rules run: none (laws), intra-warp only (laws_nmd), all (laws_th).
  enum class Throttling : uint8_t { None, NoDivergence, Full };

  // Throws config::ConfigError naming key_prefix.laws.<key> for a bad parameter.
  LawsState(const LawsSchedulerConfig& cfg, Throttling throttling, uint32_t warp_slots, uint32_t schedulers,
            const std::string& key_prefix, stats::Group* sm_group);
  ~LawsState();

  // L1D side (the SM's access hook): an access; `r.mshr_full` says whether every L1D MSHR
  // entry is occupied after it; `owners` returns the mask of warps owning an entry
  // (Load_CNT; asked only when a divergence decision needs it).
  void access(const mem::AccessRecord& r, const std::function<uint64_t()>& owners);
  // SM side: once per SM cycle with resident CTAs, before the schedulers; cycles the SM
  // slept are added by account_skipped.
  void begin_cycle(uint64_t cycle, const WarpTable& table);
  void account_skipped(uint64_t cycles);
  // release = hold_expiry with a limit in force: begin_cycle may lift it without an outside
  // event, so the SM must keep ticking (the lift happens in the exact cycle).
  bool release_pending() const { return release_on_expiry_ && limit_ > 0; }
  void warp_exited(uint32_t slot);  // IL_vec[slot] = 0
  // A CTA arrives: on an SM with no resident CTA and a new kernel, the LSS restarts.
  void cta_launched(uint32_t kernel_id, bool sm_was_idle);

  // Scheduler side.
  Mode mode(uint32_t scheduler) const { return modes_[scope_sm_ ? 0 : scheduler]; }
  Mode mode_of_warp(uint32_t slot) const { return modes_[scope_of(static_cast<int32_t>(slot))]; }
  // Warps that may issue (bit w); all while no limit applies.
  uint64_t allowed() const { return allowed_; }
  // Changes whenever mode() or allowed() may have changed.
  uint64_t version() const { return version_; }

  // Introspection (tests, docs).
  int32_t score(uint32_t scope = 0) const { return scores_[scope]; }
  uint32_t miss_cnt(uint32_t scope = 0) const { return miss_cnts_[scope]; }
  uint64_t il_vec() const { return il_vec_; }
  uint32_t warp_limit() const { return limit_; }  // 0: none
  uint32_t min_cnt() const { return min_cnt_; }
  uint32_t max_cnt() const { return max_cnt_; }
  bool divergence_throttling() const { return divergence_; }
  const LawsSchedulerConfig& config() const { return cfg_; }
  LawsStats* stats() { return stats_.get(); }

 private:
  uint32_t scope_of(int32_t warp) const { return scope_sm_ || warp < 0 ? 0 : static_cast<uint32_t>(warp) % schedulers_; }
  void update_score(uint32_t scope, mem::LocalityClass c);
  Mode initial_mode() const { return cfg_.initial_score < 0 ? Mode::Gtlr : Mode::Gto; }
  void decide(uint64_t cycle, const std::function<uint64_t()>& owners);
  // new_period: a decision (ends the running throttle period, starts another if limit > 0).
  void set_limit(uint32_t limit, uint64_t cycle, bool new_period);
  void count_cycles(uint64_t n);
  uint32_t hit_cnt() const { return static_cast<uint32_t>(__builtin_popcountll(il_vec_)); }

  LawsSchedulerConfig cfg_;
  Throttling throttling_;
  uint32_t slots_, schedulers_;
  bool scope_sm_;
  std::vector<int32_t> scores_;
  std::vector<uint32_t> miss_cnts_;
  std::vector<Mode> modes_;
  uint32_t last_kernel_ = ~0u;
  uint64_t version_ = 0;

  // THU.
  uint64_t il_vec_ = 0;
  uint32_t min_cnt_ = 0, max_cnt_ = 0;  // valid once seen_ (the first decision sets both)
  bool seen_ = false;
  uint32_t unchanged_min_ = 0, unchanged_max_ = 0;  // decisions since each last changed
  uint32_t limit_ = 0;                               // 0: none
  bool divergence_ = false;                          // the limit came from rule 2
  uint32_t load_cnt_ = 0;
  uint64_t hold_until_ = 0;
  uint64_t last_full_ = 0;  // the last MSHR-full event's cycle
  bool release_on_expiry_ = false;
  uint64_t period_start_ = 0;
  bool in_period_ = false, period_intra_ = false, decided_intra_ = false;
  uint32_t period_min_ = 0, period_max_ = 0;
  // The allowed mask follows the limit, the mode and the live warps' ages.
  uint64_t allowed_ = ~uint64_t{0};
  uint64_t mask_residency_ = ~uint64_t{0}, mask_barriers_ = ~uint64_t{0};
  bool mask_stale_ = true;

  std::unique_ptr<LawsStats> stats_;
};

}  // namespace gputlm::sm
