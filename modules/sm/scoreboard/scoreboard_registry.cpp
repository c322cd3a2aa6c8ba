#include "sm/scoreboard/scoreboard_registry.h"

#include "core/config/config_source.h"
#include "sm/scoreboard/barrel_scoreboard.h"
#include "sm/scoreboard/scoreboard.h"

namespace gputlm::sm {

const std::vector<std::string>& scoreboard_policy_names() {
  static const std::vector<std::string> names = {"conventional", "barrel"};
  return names;
}

std::unique_ptr<ScoreboardIF> make_scoreboard(const ScoreboardConfig& cfg, const std::string& key,
                                              sc_core::sc_module_name name, uint32_t max_warps) {
  if (cfg.policy == "conventional") return std::make_unique<Scoreboard>(name, max_warps);
  if (cfg.policy == "barrel") return std::make_unique<BarrelScoreboard>(name, max_warps);
  throw config::ConfigError("key '" + key + ".policy': unknown scoreboard \"" + cfg.policy +
                            "\" (known: conventional, barrel)");
}

}  // namespace gputlm::sm
