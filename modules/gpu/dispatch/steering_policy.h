// Kernel steering: which SMs a kernel may run on. The CTA scheduler asks the policy once,
// when a kernel is admitted, and then assigns that kernel's CTAs only to the chosen SMs.
// "all" (every SM) is the default; the heterogeneous ILP/TLP GPU (seed-mechanisms §F5)
// adds a policy that picks the ILP or the TLP SMs from the kernel's resource usage.
// Adding a policy: one class implementing SteeringPolicyIF plus one line in
// steering_policy.cpp's registry.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sm/sm_cta_if.h"

namespace gputlm::gpu {

// What a steering policy may look at besides the kernel.
struct SteeringContext {
  uint32_t sm_count = 0;
  // Per SM: its kind as the platform names it ("tlp", "ilp", ...); all "sm" on a
  // homogeneous GPU.
  std::vector<std::string> sm_kinds;
  // Kernels currently admitted (running) and the SM set each was given, so a policy can
  // place concurrent kernels on disjoint sets.
  std::vector<std::vector<uint32_t>> running_sets;
};

class SteeringPolicyIF {
 public:
  virtual ~SteeringPolicyIF() = default;
  virtual std::string name() const = 0;
  // The SM ids `kernel` may use, ascending, non-empty, each < ctx.sm_count.
  virtual std::vector<uint32_t> choose(const sm::KernelInstance& kernel, uint64_t cta_count,
                                       const SteeringContext& ctx) const = 0;
};

// Throws config::ConfigError naming `key` and the known policies for an unknown name.
std::unique_ptr<SteeringPolicyIF> make_steering_policy(const std::string& name,
                                                       const std::string& key = "cta_scheduler.steering");
std::vector<std::string> steering_policies();

}  // namespace gputlm::gpu
