// Steering policy "by_kind": a kernel runs on every SM of one kind (steering_policy.h),
// for GPUs whose SMs differ (the ILP/TLP heterogeneous GPU, seed-mechanisms §F5). The
// kind comes from a per-kernel rule "KERNEL=KIND" (KERNEL: the mangled name, or the
// demangled name without its parameter list) or, without a rule, the default kind.
// Concurrent kernels of one kind share that kind's SMs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gpu/dispatch/steering_policy.h"

namespace gputlm::gpu {

class KindSteering final : public SteeringPolicyIF {
 public:
  // Parses the rules; `prefix` names the parameter group in errors ("cta_scheduler.by_kind").
  // Throws config::ConfigError for a malformed or duplicate rule.
  KindSteering(const KindSteeringConfig& cfg, std::string prefix);
  std::string name() const override { return "by_kind"; }
  // Every kind named (default and rules) must have at least one SM.
  void check(const SteeringContext& ctx) const override;
  std::vector<uint32_t> choose(const sm::KernelInstance& kernel, uint64_t cta_count,
                               const SteeringContext& ctx) const override;

  // The kind for a kernel's mangled name.
  const std::string& kind_of(const std::string& mangled) const;

 private:
  struct Rule {
    std::string kind;
    std::size_t index;  // in the kernels list, for errors
  };
  std::string default_kind_;
  std::map<std::string, Rule> rules_;  // kernel name -> kind
  std::string prefix_;
};

}  // namespace gputlm::gpu
