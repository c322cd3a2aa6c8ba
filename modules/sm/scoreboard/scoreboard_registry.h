// Scoreboards by name (sm.scoreboard.policy). Each is a ScoreboardModule (an sc_module
// implementing ScoreboardIF); the SM core binds its schedulers' ports to it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/stats/stats.h"
#include "sm/scoreboard/scoreboard_config.h"
#include "sm/scoreboard/scoreboard_if.h"

namespace gputlm::sm {

// Throws config::ConfigError naming `key` + ".policy" for an unknown policy.
std::unique_ptr<ScoreboardIF> make_scoreboard(const ScoreboardConfig& cfg, const std::string& key,
                                              sc_core::sc_module_name name, uint32_t max_warps,
                                              stats::Group* parent = nullptr);

}  // namespace gputlm::sm
