// CCWS scheduling policy (digest §A9; Rogers et al., MICRO 2012): GTO with loads (or
// whole warps) held back by the per-SM lost-locality cutoff (sm/scheduler/ccws/ccws_state.h).
// Readings of the unspecified constants: docs/blocks/scheduler.md, "CCWS".
#pragma once

#include <memory>
#include <string>

#include "sm/scheduler/scheduler_policy.h"

namespace gputlm::sm {

// The instructions CCWS throttles: loads that go to the L1D (global, local, generic).
bool is_ccws_throttled_load(const isa::Instruction& in);

// Throws config::ConfigError naming key_prefix.ccws.<key> for a bad parameter;
// std::invalid_argument without context.ccws.
std::unique_ptr<SchedulerPolicyIF> make_ccws_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                    const PolicyContext& context);

}  // namespace gputlm::sm
