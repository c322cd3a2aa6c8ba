// The scoreboard policy of an SM (sm.scoreboard): which ScoreboardIF implementation the
// issue stage asks (scoreboard_registry.h).
#pragma once

#include <string>
#include <vector>

#include "core/config/params.h"
#include "sm/scoreboard/ilp_commit_config.h"

namespace gputlm::sm {

// Names accepted by ScoreboardConfig::policy (the registry's keys, in order).
const std::vector<std::string>& scoreboard_policy_names();

struct ScoreboardConfig {
  std::string policy = "conventional";
  IlpCommitConfig ilp_commit;

  template <class V>
  void visit(V& v) {
    v.param("policy", policy,
            "conventional: per warp, the registers with a write in flight (GPGPU-Sim); barrel: one "
            "instruction in flight per warp, the next issues when it is written back (stall on issue, "
            "004 Table 1's ILP baseline); ilp_commit: a table of `ilp_commit.entries` shared by the SM's warps, "
            "stall on use, in-order commit (004 §4.2, digest §F3)",
            config::one_of(scoreboard_policy_names()));
    v.group("ilp_commit", ilp_commit, "the ilp_commit scoreboard's table");
  }
};

}  // namespace gputlm::sm
