// Parameters of the ilp_commit scoreboard (sm.scoreboard.ilp_commit; ilp_commit_scoreboard.h).
#pragma once

#include <cstdint>
#include <string>

#include "core/config/params.h"

namespace gputlm::sm {

struct IlpCommitConfig {
  uint32_t entries = 8;
  uint32_t commits_per_cycle = 0;
  std::string store_waits_for = "committed";

  template <class V>
  void visit(V& v) {
    v.param("entries", entries, "entries shared by the SM's warps (004 §4.2: 8)", config::in_range(1, 1024));
    v.param("commits_per_cycle", commits_per_cycle,
            "register-file commits per cycle over the SM; 0 = every warp commits its oldest complete entry each "
            "cycle (004 leaves the write-port budget open)",
            config::at_least(0));
    v.param("store_waits_for", store_waits_for,
            "a store issues once every earlier instruction of its warp is committed (\"so the store is the "
            "oldest\", the default) or only completed (004's wording; digest Z43)",
            config::one_of({"committed", "completed"}));
  }
};

}  // namespace gputlm::sm
