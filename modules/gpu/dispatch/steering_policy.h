// Kernel steering: which SMs a kernel may run on. The CTA scheduler asks the policy once,
// when a kernel is admitted, and then assigns that kernel's CTAs only to the chosen SMs.
// A policy may also answer "no SMs now": the kernel then stays in the launch queue and is
// asked again once the set of running kernels has changed (a completion or another
// admission), so a policy's answer must depend only on its arguments.
//
//   all      every SM (the default; concurrent kernels share SMs)
//   split    the SMs form `split.parts` fixed groups of consecutive ids; a kernel gets
//            the lowest-numbered group no running kernel uses, so concurrent kernels get
//            disjoint SM sets; with every group in use it waits (`split.when_full` =
//            wait) or shares the group with the fewest running kernels (share)
//   by_kind  every SM of one kind (SteeringContext::sm_kinds, e.g. "ilp" / "tlp" on the
//            heterogeneous GPU of seed-mechanisms §F5): the kind a rule in
//            `by_kind.kernels` gives the kernel, else `by_kind.default_kind`
//   ilp_tlp  the ILP or the TLP SMs by the kernel's resource usage, the static rule of
//            the heterogeneous GPU-H (seed-mechanisms §F5), concurrent kernels disjoint
//
// Adding a policy: one class implementing SteeringPolicyIF in dispatch/ plus one line in
// steering_policy.cpp's registry; its parameters go in a group of SteeringConfig.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config/params.h"
#include "sm/sm_cta_if.h"

namespace gputlm::gpu {

struct SplitSteeringConfig {
  uint32_t parts = 2;
  std::string when_full = "wait";

  template <class V>
  void visit(V& v) {
    v.param("parts", parts,
            "steering 'split': number of fixed SM groups (consecutive SM ids, sizes differ by at most one); "
            "at most the SM count",
            config::at_least(1));
    v.param("when_full", when_full,
            "steering 'split': a kernel admitted while every group is in use waits in the queue until a "
            "group frees (wait) or shares the group with the fewest running kernels, lowest first (share)",
            config::one_of({"wait", "share"}));
  }
};

struct KindSteeringConfig {
  std::string default_kind = "sm";
  std::vector<std::string> kernels;

  template <class V>
  void visit(V& v) {
    v.param("default_kind", default_kind,
            "steering 'by_kind': SM kind of kernels no rule names (homogeneous GPUs: \"sm\")", config::any());
    v.param("kernels", kernels,
            "steering 'by_kind': rules \"KERNEL=KIND\"; KERNEL is the mangled name or the demangled name "
            "without its parameter list (e.g. \"saxpy=ilp\")",
            config::any());
  }
};

struct IlpTlpSteeringConfig {
  std::string ilp_kind = "ilp";
  std::string tlp_kind = "tlp";
  uint32_t ilp_below_warps = 16;
  uint64_t ilp_max_threads = 32768;
  std::string when_busy = "wait";
  std::string when_alone = "kind";

  template <class V>
  void visit(V& v) {
    v.param("ilp_kind", ilp_kind, "steering 'ilp_tlp': SM kind of the ILP SMs", config::any());
    v.param("tlp_kind", tlp_kind, "steering 'ilp_tlp': SM kind of the TLP (baseline) SMs", config::any());
    v.param("ilp_below_warps", ilp_below_warps,
            "steering 'ilp_tlp': a kernel whose maximum concurrent warps per (TLP) SM is below this goes to "
            "the ILP SMs (ILP paper §V: 16)",
            config::at_least(0));
    v.param("ilp_max_threads", ilp_max_threads,
            "steering 'ilp_tlp': otherwise a kernel of at most this many threads in total goes to the ILP SMs "
            "(ILP paper §V: 32768)",
            config::at_least(0));
    v.param("when_busy", when_busy,
            "steering 'ilp_tlp': a kernel whose kind's SMs a running kernel uses waits until they are free "
            "(wait: concurrent kernels on disjoint sets, as the paper) or shares them (share)",
            config::one_of({"wait", "share"}));
    v.param("when_alone", when_alone,
            "steering 'ilp_tlp': a kernel placed while no other kernel runs or waits uses only its kind's SMs "
            "(kind) or, when its CTAs do not all fit its kind's SMs at once, every SM (spill: the reading under "
            "which a single kernel can use the whole GPU-H, ILP paper Fig. 11)",
            config::one_of({"kind", "spill"}));
  }
};

// What a steering policy may look at besides the kernel.
struct SteeringContext {
  uint32_t sm_count = 0;
  // Per SM: its kind as the platform names it ("tlp", "ilp", ...); all "sm" on a
  // homogeneous GPU.
  std::vector<std::string> sm_kinds;
  // Kernels currently admitted (running) and the SM set each was given, so a policy can
  // place concurrent kernels on disjoint sets.
  std::vector<std::vector<uint32_t>> running_sets;
  // Kernels of other streams waiting in the launch queue (not yet placed).
  uint32_t waiting_kernels = 0;
  // Per SM: CTAs of the kernel being placed that fit on it when empty
  // (SmCtaIF::max_resident_ctas); empty in check().
  std::vector<uint32_t> max_resident_ctas;
};

class SteeringPolicyIF {
 public:
  virtual ~SteeringPolicyIF() = default;
  virtual std::string name() const = 0;
  // Checks the policy's parameters against the GPU it steers for (SM count and kinds;
  // ctx.running_sets is empty). Throws config::ConfigError naming the key. The CTA
  // scheduler calls it once, at the first launch.
  virtual void check(const SteeringContext& ctx) const = 0;
  // The SM ids `kernel` may use, ascending, each < ctx.sm_count; empty: none now (the
  // kernel waits for a running kernel to complete).
  virtual std::vector<uint32_t> choose(const sm::KernelInstance& kernel, uint64_t cta_count,
                                       const SteeringContext& ctx) const = 0;
  // Of choose()'s answer (same arguments), the SMs the kernel's CTAs go to first: another
  // chosen SM gets a CTA only when none of these can take one. Empty (the default): all
  // chosen SMs alike.
  virtual std::vector<uint32_t> preferred(const sm::KernelInstance& kernel, uint64_t cta_count,
                                          const SteeringContext& ctx) const {
    (void)kernel, (void)cta_count, (void)ctx;
    return {};
  }
};

// Every steering policy's parameters (groups of cta_scheduler in the config).
struct SteeringConfig {
  SplitSteeringConfig split;
  KindSteeringConfig by_kind;
  IlpTlpSteeringConfig ilp_tlp;
};

// Creates policy `name` with its parameters; `prefix` is the config group holding
// "steering" and the parameter groups ("cta_scheduler"). Throws config::ConfigError
// naming the key for an unknown name or a malformed parameter.
std::unique_ptr<SteeringPolicyIF> make_steering_policy(const std::string& name, const SteeringConfig& params,
                                                       const std::string& prefix = "cta_scheduler");
// The same with default parameters; `key` names the policy's key in errors.
std::unique_ptr<SteeringPolicyIF> make_steering_policy(const std::string& name,
                                                       const std::string& key = "cta_scheduler.steering");
std::vector<std::string> steering_policies();

}  // namespace gputlm::gpu
