// Steering policy "split": concurrent kernels on disjoint SM groups (steering_policy.h).
// The SMs are cut into `parts` fixed groups of consecutive ids, group g holding SMs
// [g*n/parts, (g+1)*n/parts) (integer division, so sizes differ by at most one). A kernel
// gets the lowest-numbered group that no running kernel's SM set touches. With every
// group in use, "wait" answers no SMs (the kernel stays queued until a kernel completes)
// and "share" gives the group touched by the fewest running kernels, the lowest on ties.
#pragma once

#include <string>
#include <vector>

#include "gpu/dispatch/steering_policy.h"

namespace gputlm::gpu {

class SplitSteering final : public SteeringPolicyIF {
 public:
  // `prefix` names the parameter group in errors ("cta_scheduler.split").
  SplitSteering(const SplitSteeringConfig& cfg, std::string prefix);
  std::string name() const override { return "split"; }
  void check(const SteeringContext& ctx) const override;
  std::vector<uint32_t> choose(const sm::KernelInstance& kernel, uint64_t cta_count,
                               const SteeringContext& ctx) const override;

  // SMs of group g (ascending) on a GPU of sm_count SMs.
  std::vector<uint32_t> group(uint32_t g, uint32_t sm_count) const;

 private:
  uint32_t parts_;
  bool share_;
  std::string prefix_;
};

}  // namespace gputlm::gpu
