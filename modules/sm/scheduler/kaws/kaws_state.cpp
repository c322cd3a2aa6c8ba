#include "sm/scheduler/kaws/kaws_state.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputlm::sm {

KawsStats::KawsStats(stats::Group& sm_group, const KawsCounts& counts)
    : group(sm_group, "kaws"),
      cycles(group, "cycles", "SM cycles with resident CTAs", counts.cycles),
      progress_cycles(group, "progress_cycles",
                      "of cycles: some resident CTA was in progress mode (its kernel's last CTA had been issued; "
                      "003 §3)",
                      counts.progress_cycles),
      progress_fraction(group, "progress_fraction", "progress_cycles / cycles", progress_cycles, cycles),
      switches(group, "switches", "CTAs that entered progress mode on this SM") {}

KawsState::KawsState(uint32_t cta_slots, stats::Group* sm_group) : progress_(cta_slots, 0), kernel_(cta_slots, nullptr) {
  if (cta_slots == 0 || cta_slots > 64)
    throw std::invalid_argument("kaws: 1..64 CTA slots per SM (got " + std::to_string(cta_slots) + ")");
  if (sm_group) stats_ = std::make_unique<KawsStats>(*sm_group, counts_);
}

void KawsState::cta_launched(uint32_t slot, const KernelInstance& k) {
  progress_[slot] = 0;
  kernel_[slot] = &k;
  normal_mask_ |= uint64_t{1} << slot;
  progress_mask_ &= ~(uint64_t{1} << slot);
  ++version_;
}

void KawsState::cta_finished(uint32_t slot) {
  kernel_[slot] = nullptr;
  normal_mask_ &= ~(uint64_t{1} << slot);
  progress_mask_ &= ~(uint64_t{1} << slot);
  ++version_;
}

void KawsState::switch_modes(uint64_t cycle) {
  for (uint64_t m = normal_mask_; m != 0; m &= m - 1) {
    const uint32_t c = static_cast<uint32_t>(__builtin_ctzll(m));
    if (kernel_[c]->last_cta_issue_cycle >= cycle) continue;  // from the cycle after the issue
    normal_mask_ &= ~(uint64_t{1} << c);
    progress_mask_ |= uint64_t{1} << c;
    ++version_;
    if (stats_) ++stats_->switches;
  }
}

void KawsState::account_skipped(uint64_t first, uint64_t n) {
  if (n == 0) return;
  counts_.cycles += n;
  if (progress_mask_ != 0) {
    counts_.progress_cycles += n;
    return;
  }
  // The first cycle a normal CTA would have been in progress mode, if within the gap.
  uint64_t from = first + n;
  for (uint64_t m = normal_mask_; m != 0; m &= m - 1) {
    const uint64_t issued = kernel_[__builtin_ctzll(m)]->last_cta_issue_cycle;
    if (issued != KernelInstance::kNotIssued) from = std::min(from, std::max(first, issued + 1));
  }
  counts_.progress_cycles += first + n - from;
}

}  // namespace gputlm::sm
