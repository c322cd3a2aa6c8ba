// KAWS' per-SM state (seed 003 §3, digest §B6): a progress counter per CTA slot (warp
// instructions its warps issued, on any scheduler) and the mode of each resident CTA.
// A CTA is in progress mode from the cycle after the CTA scheduler issued its kernel's last
// CTA to the GPU (KernelInstance::last_cta_issue_cycle; a kernel-wide trigger, as the paper
// has it: no SM knows which of its CTAs is the last). The kaws policy orders warps from this.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/stats/stats.h"
#include "sm/sm_cta_if.h"

namespace gputlm::sm {

struct KawsCounts {
  uint64_t cycles = 0, progress_cycles = 0;
};

struct KawsStats {
  KawsStats(stats::Group& sm_group, const KawsCounts& counts);
  stats::Group group;
  stats::CounterRef cycles, progress_cycles;
  stats::Ratio progress_fraction;
  stats::Counter switches;
};

class KawsState {
 public:
  KawsState(uint32_t cta_slots, stats::Group* sm_group);
  KawsState(const KawsState&) = delete;  // its statistics read counts_ in place
  KawsState& operator=(const KawsState&) = delete;

  // CTA slot `slot` now holds a new CTA of `k` (its counter restarts at 0).
  void cta_launched(uint32_t slot, const KernelInstance& k);
  void cta_finished(uint32_t slot);
  // A warp of the CTA in `slot` issued a warp instruction (own or shared scheduler).
  void issued(uint32_t slot) {
    ++progress_[slot];
    if ((progress_mask_ >> slot) & 1u) ++version_;  // the order of progress-mode CTAs moved
  }
  // Start of an SM cycle with resident CTAs: CTAs whose kernel's last CTA was issued before
  // `cycle` enter progress mode.
  void begin_cycle(uint64_t cycle) {
    if (normal_mask_ != 0) switch_modes(cycle);
    ++counts_.cycles;
    if (progress_mask_ != 0) ++counts_.progress_cycles;
  }
  // The SM slept cycles [first, first + n) with the CTAs as they are: account them.
  void account_skipped(uint64_t first, uint64_t n);

  bool progress_mode(uint32_t slot) const { return (progress_mask_ >> slot) & 1u; }
  uint32_t progress(uint32_t slot) const { return progress_[slot]; }
  // Changes whenever an order that depends on modes or counters may have changed.
  uint64_t version() const { return version_; }

 private:
  void switch_modes(uint64_t cycle);

  std::vector<uint32_t> progress_;             // per CTA slot (003: 4 B x 32 per SM)
  std::vector<const KernelInstance*> kernel_;  // per CTA slot, while resident
  uint64_t normal_mask_ = 0, progress_mask_ = 0;  // resident CTA slots by mode
  uint64_t version_ = 0;
  KawsCounts counts_;
  std::unique_ptr<KawsStats> stats_;
};

}  // namespace gputlm::sm
