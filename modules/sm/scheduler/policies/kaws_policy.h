// KAWS' kernel-aware warp order (seed 003 §3, digest §B6): oldest first (optionally GTO)
// while a CTA's kernel still has CTAs to issue; once its last CTA was issued to the GPU,
// the warps of the CTAs with the fewest warp instructions issued first, oldest within
// (sm/scheduler/kaws/kaws_state.h). Readings: docs/blocks/scheduler.md, "KAWS".
#pragma once

#include <memory>
#include <string>

#include "sm/scheduler/scheduler_policy.h"

namespace gputlm::sm {

// std::invalid_argument without context.kaws or context.warps.
std::unique_ptr<SchedulerPolicyIF> make_kaws_policy(const SchedulerConfig& cfg, const PolicyContext& context);

}  // namespace gputlm::sm
