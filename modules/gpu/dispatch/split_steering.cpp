#include "gpu/dispatch/split_steering.h"

#include <algorithm>

#include "core/config/config_source.h"

namespace gputlm::gpu {

SplitSteering::SplitSteering(const SplitSteeringConfig& cfg, std::string prefix)
    : parts_(cfg.parts), share_(cfg.when_full == "share"), prefix_(std::move(prefix)) {
  if (parts_ == 0) throw config::ConfigError("key '" + prefix_ + ".parts': must be at least 1");
  if (cfg.when_full != "wait" && cfg.when_full != "share")
    throw config::ConfigError("key '" + prefix_ + ".when_full': \"" + cfg.when_full +
                              "\" is not one of wait, share");
}

void SplitSteering::check(const SteeringContext& ctx) const {
  if (parts_ > ctx.sm_count)
    throw config::ConfigError("key '" + prefix_ + ".parts': " + std::to_string(parts_) +
                              " groups need at least as many SMs, but the GPU has " + std::to_string(ctx.sm_count));
}

std::vector<uint32_t> SplitSteering::group(uint32_t g, uint32_t sm_count) const {
  const uint64_t lo = uint64_t{g} * sm_count / parts_, hi = (uint64_t{g} + 1) * sm_count / parts_;
  std::vector<uint32_t> out;
  for (uint64_t s = lo; s < hi; ++s) out.push_back(static_cast<uint32_t>(s));
  return out;
}

std::vector<uint32_t> SplitSteering::choose(const sm::KernelInstance&, uint64_t, const SteeringContext& ctx) const {
  // Running kernels touching each group (a running set may come from an explicit SM set
  // and straddle groups).
  std::vector<uint32_t> users(parts_, 0);
  for (uint32_t g = 0; g < parts_; ++g) {
    const std::vector<uint32_t> sms = group(g, ctx.sm_count);
    for (const std::vector<uint32_t>& set : ctx.running_sets) {
      const bool touches = std::any_of(sms.begin(), sms.end(),
                                       [&](uint32_t s) { return std::binary_search(set.begin(), set.end(), s); });
      if (touches) ++users[g];
    }
  }
  const auto least = std::min_element(users.begin(), users.end());  // first minimum: lowest group
  if (*least > 0 && !share_) return {};
  return group(static_cast<uint32_t>(least - users.begin()), ctx.sm_count);
}

}  // namespace gputlm::gpu
