// LAWS scheduling policies (digest §B3-B4; 001 §2.5, §3.3): laws orders a scheduler's
// warps by GTO while its locality score is >= 0 and by GTLR while it is negative
// (sm/scheduler/laws/laws_state.h); laws_th and laws_nmd add the throttling unit's warp
// limit (only the allowed warps are ordered). Readings: docs/blocks/scheduler.md, "LAWS".
#pragma once

#include <memory>
#include <string>

#include "sm/scheduler/scheduler_policy.h"

namespace gputlm::sm {

// Throws config::ConfigError naming key_prefix.laws.<key> for a bad parameter;
// std::invalid_argument without context.laws.
std::unique_ptr<SchedulerPolicyIF> make_laws_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                    const PolicyContext& context);

}  // namespace gputlm::sm
