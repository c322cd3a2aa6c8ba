// The scheduler policy registry: adding a policy is one file in this folder plus one line
// in each table below.
#include "core/config/config_source.h"
#include "sm/scheduler/policies/base_policies.h"

namespace gputlm::sm {

const std::vector<std::string>& scheduler_policy_names() {
  static const std::vector<std::string> names = {"lrr", "gto", "oldest", "gtrr", "gtlr", "sfp", "two_level", "swl"};
  return names;
}

std::unique_ptr<SchedulerPolicyIF> make_base_policy(const std::string& name, const std::string& key) {
  if (name == "lrr") return policies::make_lrr();
  if (name == "gto") return policies::make_gto();
  if (name == "oldest") return policies::make_oldest();
  if (name == "gtrr") return policies::make_gtrr();
  if (name == "gtlr") return policies::make_gtlr();
  if (name == "sfp") return policies::make_sfp();
  throw config::ConfigError("key '" + key + "': unknown scheduling policy \"" + name + "\"");
}

std::unique_ptr<SchedulerPolicyIF> make_scheduler_policy(const SchedulerConfig& cfg, const std::string& key_prefix) {
  const std::string p = key_prefix.empty() ? "" : key_prefix + ".";
  if (cfg.policy == "swl") return policies::make_swl(cfg.warp_limit);
  if (cfg.policy == "two_level")
    return policies::make_two_level(cfg.fetch_group_size, make_base_policy(cfg.inner_policy, p + "inner_policy"),
                                    cfg.outer_policy == "gto");
  return make_base_policy(cfg.policy, p + "policy");
}

}  // namespace gputlm::sm
