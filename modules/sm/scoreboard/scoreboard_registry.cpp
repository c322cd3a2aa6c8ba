#include "sm/scoreboard/scoreboard_registry.h"

#include "core/config/config_source.h"
#include "sm/scoreboard/barrel_scoreboard.h"
#include "sm/scoreboard/ilp_commit_scoreboard.h"
#include "sm/scoreboard/scoreboard.h"

namespace gputlm::sm {

const std::vector<std::string>& scoreboard_policy_names() {
  static const std::vector<std::string> names = {"conventional", "barrel", "ilp_commit"};
  return names;
}

std::unique_ptr<ScoreboardIF> make_scoreboard(const ScoreboardConfig& cfg, const std::string& key,
                                              sc_core::sc_module_name name, uint32_t max_warps,
                                              stats::Group* parent) {
  if (cfg.policy == "conventional") return std::make_unique<Scoreboard>(name, max_warps);
  if (cfg.policy == "barrel") return std::make_unique<BarrelScoreboard>(name, max_warps);
  if (cfg.policy == "ilp_commit") return std::make_unique<IlpCommitScoreboard>(name, max_warps, cfg.ilp_commit, parent);
  throw config::ConfigError("key '" + key + ".policy': unknown scoreboard \"" + cfg.policy +
                            "\" (known: conventional, barrel, ilp_commit)");
}

}  // namespace gputlm::sm
