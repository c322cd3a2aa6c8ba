// Mascar memory-aware scheduling policy (digest §B5; Sethia et al., HPCA'15). Orders a
// scheduler's warps by the SM's Mascar mode (sm/scheduler/mascar/mascar_state.h): EP mode
// memory-ready warps first, GTO within each group; MP mode compute-ready warps first,
// oldest first within each group; and vetoes the memory instructions of non-owner warps
// while MP mode has an owner. Readings of the open points: docs/blocks/scheduler.md, "Mascar".
#pragma once

#include <memory>
#include <string>

#include "sm/scheduler/scheduler_policy.h"

namespace gputlm::sm {

// Throws config::ConfigError naming key_prefix.mascar.<key> for a bad parameter;
// std::invalid_argument without context.mascar.
std::unique_ptr<SchedulerPolicyIF> make_mascar_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                      const PolicyContext& context);

}  // namespace gputlm::sm
