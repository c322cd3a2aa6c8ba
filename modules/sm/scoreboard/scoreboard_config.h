// The scoreboard policy of an SM (sm.scoreboard): which ScoreboardIF implementation the
// issue stage asks (scoreboard_registry.h).
#pragma once

#include <string>
#include <vector>

#include "core/config/params.h"

namespace gputlm::sm {

// Names accepted by ScoreboardConfig::policy (the registry's keys, in order).
const std::vector<std::string>& scoreboard_policy_names();

struct ScoreboardConfig {
  std::string policy = "conventional";

  template <class V>
  void visit(V& v) {
    v.param("policy", policy,
            "conventional: per warp, the registers with a write in flight (GPGPU-Sim); barrel: one "
            "instruction in flight per warp, the next issues when it is written back (stall on issue, "
            "004 Table 1's ILP baseline)",
            config::one_of(scoreboard_policy_names()));
  }
};

}  // namespace gputlm::sm
