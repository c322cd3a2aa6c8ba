#include "gpu/dispatch/steering_policy.h"

#include <functional>
#include <map>

#include "core/config/config_source.h"

namespace gputlm::gpu {

namespace {

// Every kernel may use every SM (a homogeneous GPU; concurrent kernels share SMs).
class AllSmsSteering final : public SteeringPolicyIF {
 public:
  std::string name() const override { return "all"; }
  std::vector<uint32_t> choose(const sm::KernelInstance&, uint64_t, const SteeringContext& ctx) const override {
    std::vector<uint32_t> out(ctx.sm_count);
    for (uint32_t i = 0; i < ctx.sm_count; ++i) out[i] = i;
    return out;
  }
};

using Factory = std::function<std::unique_ptr<SteeringPolicyIF>()>;

const std::map<std::string, Factory>& registry() {
  static const std::map<std::string, Factory> r = {
      {"all", [] { return std::make_unique<AllSmsSteering>(); }},
  };
  return r;
}

}  // namespace

std::unique_ptr<SteeringPolicyIF> make_steering_policy(const std::string& name, const std::string& key) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& kv : registry()) known += (known.empty() ? "" : ", ") + kv.first;
    throw config::ConfigError("key '" + key + "': unknown steering policy '" + name + "' (known: " + known + ")");
  }
  return it->second();
}

std::vector<std::string> steering_policies() {
  std::vector<std::string> out;
  for (const auto& kv : registry()) out.push_back(kv.first);
  return out;
}

}  // namespace gputlm::gpu
