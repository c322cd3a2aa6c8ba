#include "gpu/dispatch/steering_policy.h"

#include <functional>
#include <map>

#include "core/config/config_source.h"
#include "gpu/dispatch/ilp_tlp_steering.h"
#include "gpu/dispatch/kind_steering.h"
#include "gpu/dispatch/split_steering.h"

namespace gputlm::gpu {

namespace {

// Every kernel may use every SM (a homogeneous GPU; concurrent kernels share SMs).
class AllSmsSteering final : public SteeringPolicyIF {
 public:
  std::string name() const override { return "all"; }
  void check(const SteeringContext&) const override {}  // no parameters
  std::vector<uint32_t> choose(const sm::KernelInstance&, uint64_t, const SteeringContext& ctx) const override {
    std::vector<uint32_t> out(ctx.sm_count);
    for (uint32_t i = 0; i < ctx.sm_count; ++i) out[i] = i;
    return out;
  }
};

// A factory gets the policy parameters and the config group that holds them.
using Factory = std::function<std::unique_ptr<SteeringPolicyIF>(const SteeringConfig&, const std::string& prefix)>;

const std::map<std::string, Factory>& registry() {
  static const std::map<std::string, Factory> r = {
      {"all", [](const SteeringConfig&, const std::string&) { return std::make_unique<AllSmsSteering>(); }},
      {"split",
       [](const SteeringConfig& c, const std::string& p) { return std::make_unique<SplitSteering>(c.split, p + ".split"); }},
      {"by_kind",
       [](const SteeringConfig& c, const std::string& p) {
         return std::make_unique<KindSteering>(c.by_kind, p + ".by_kind");
       }},
      {"ilp_tlp",
       [](const SteeringConfig& c, const std::string& p) {
         return std::make_unique<IlpTlpSteering>(c.ilp_tlp, p + ".ilp_tlp");
       }},
  };
  return r;
}

const Factory& factory(const std::string& name, const std::string& key) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& kv : registry()) known += (known.empty() ? "" : ", ") + kv.first;
    throw config::ConfigError("key '" + key + "': unknown steering policy '" + name + "' (known: " + known + ")");
  }
  return it->second;
}

}  // namespace

std::unique_ptr<SteeringPolicyIF> make_steering_policy(const std::string& name, const SteeringConfig& params,
                                                       const std::string& prefix) {
  const Factory& chosen = factory(name, prefix + ".steering");
  // Every policy's parameters are checked, used or not: a malformed key is an error
  // whatever the policy in use.
  for (const auto& kv : registry())
    if (&kv.second != &chosen) kv.second(params, prefix);
  return chosen(params, prefix);
}

std::unique_ptr<SteeringPolicyIF> make_steering_policy(const std::string& name, const std::string& key) {
  const std::string prefix = key.size() > 9 && key.compare(key.size() - 9, 9, ".steering") == 0
                                 ? key.substr(0, key.size() - 9)
                                 : std::string("cta_scheduler");
  return factory(name, key)(SteeringConfig{}, prefix);
}

std::vector<std::string> steering_policies() {
  std::vector<std::string> out;
  for (const auto& kv : registry()) out.push_back(kv.first);
  return out;
}

}  // namespace gputlm::gpu
