// Steering policy "ilp_tlp": the static kernel-steering rule of the heterogeneous
// TLP + ILP GPU (GPU-H, seed-mechanisms §F5, ILP paper §V), from the kernel's resource
// usage at launch:
//   1. the kernel's maximum concurrent warps per SM (occupancy on an SM of the TLP kind x
//      warps per CTA) below `ilp_below_warps` (16)        -> every SM of the ILP kind;
//   2. else its total threads at most `ilp_max_threads` (32768) -> the ILP SMs;
//   3. else                                                  -> every SM of the TLP kind.
// (§Z 40: an earlier sentence of §V says "> 24 warps = high TLP"; the rule above is the
// one that matches the reported winners.) Concurrent kernels run on disjoint SM sets: a
// kernel whose kind's SMs a running kernel uses waits (`when_busy` = wait) or shares
// them (share). A kernel placed alone (none runs, none of another stream waits) whose CTAs
// do not all fit its kind's SMs at once takes every SM when `when_alone` = spill, its
// kind's SMs preferred (the reading under which 004 Fig. 11's single kernels can use the
// whole GPU-H, docs/platforms/ilp.md); with `kind` (the default) it keeps to its kind.
#pragma once

#include <string>
#include <vector>

#include "gpu/dispatch/steering_policy.h"

namespace gputlm::gpu {

class IlpTlpSteering final : public SteeringPolicyIF {
 public:
  // `prefix` names the parameter group in errors ("cta_scheduler.ilp_tlp").
  IlpTlpSteering(const IlpTlpSteeringConfig& cfg, std::string prefix);
  std::string name() const override { return "ilp_tlp"; }
  // Both kinds must have SMs.
  void check(const SteeringContext& ctx) const override;
  std::vector<uint32_t> choose(const sm::KernelInstance& kernel, uint64_t cta_count,
                               const SteeringContext& ctx) const override;
  // A spilled kernel prefers its kind's SMs.
  std::vector<uint32_t> preferred(const sm::KernelInstance& kernel, uint64_t cta_count,
                                  const SteeringContext& ctx) const override;

  // The kind the rule gives a kernel whose CTAs fit `ctas_per_sm` at a time on a TLP SM.
  const std::string& kind_for(const sm::KernelInstance& kernel, uint64_t cta_count, uint32_t ctas_per_sm) const;

 private:
  // The rule's kind's SMs, and whether the kernel spills onto every SM.
  struct Placement {
    std::vector<uint32_t> kind_sms;
    bool spill = false;
  };
  Placement place(const sm::KernelInstance& kernel, uint64_t cta_count, const SteeringContext& ctx) const;

  IlpTlpSteeringConfig cfg_;
  bool share_;
  bool spill_;
  std::string prefix_;
};

}  // namespace gputlm::gpu
