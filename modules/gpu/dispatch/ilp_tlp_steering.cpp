#include "gpu/dispatch/ilp_tlp_steering.h"

#include <algorithm>

#include "core/config/config_source.h"

namespace gputlm::gpu {

IlpTlpSteering::IlpTlpSteering(const IlpTlpSteeringConfig& cfg, std::string prefix)
    : cfg_(cfg), share_(cfg.when_busy == "share"), spill_(cfg.when_alone == "spill"), prefix_(std::move(prefix)) {
  if (cfg_.ilp_kind.empty()) throw config::ConfigError("key '" + prefix_ + ".ilp_kind': empty kind");
  if (cfg_.tlp_kind.empty()) throw config::ConfigError("key '" + prefix_ + ".tlp_kind': empty kind");
  if (cfg_.ilp_kind == cfg_.tlp_kind)
    throw config::ConfigError("key '" + prefix_ + ".tlp_kind': \"" + cfg_.tlp_kind + "\" is also " + prefix_ +
                              ".ilp_kind (the rule needs two kinds)");
  if (cfg_.when_busy != "wait" && cfg_.when_busy != "share")
    throw config::ConfigError("key '" + prefix_ + ".when_busy': \"" + cfg_.when_busy + "\" is not one of wait, share");
  if (cfg_.when_alone != "kind" && cfg_.when_alone != "spill")
    throw config::ConfigError("key '" + prefix_ + ".when_alone': \"" + cfg_.when_alone +
                              "\" is not one of kind, spill");
}

void IlpTlpSteering::check(const SteeringContext& ctx) const {
  auto require = [&](const char* key, const std::string& kind) {
    if (std::find(ctx.sm_kinds.begin(), ctx.sm_kinds.end(), kind) == ctx.sm_kinds.end())
      throw config::ConfigError("key '" + prefix_ + "." + key + "': no SM is of kind '" + kind +
                                "' (steering ilp_tlp needs a GPU with " + cfg_.ilp_kind + " and " + cfg_.tlp_kind +
                                " SMs)");
  };
  require("ilp_kind", cfg_.ilp_kind);
  require("tlp_kind", cfg_.tlp_kind);
}

const std::string& IlpTlpSteering::kind_for(const sm::KernelInstance& kernel, uint64_t cta_count,
                                            uint32_t ctas_per_sm) const {
  const uint64_t warps_per_sm = uint64_t{ctas_per_sm} * kernel.demand.warps;
  const uint64_t threads = cta_count * kernel.demand.threads;
  return warps_per_sm < cfg_.ilp_below_warps || threads <= cfg_.ilp_max_threads ? cfg_.ilp_kind : cfg_.tlp_kind;
}

IlpTlpSteering::Placement IlpTlpSteering::place(const sm::KernelInstance& kernel, uint64_t cta_count,
                                                const SteeringContext& ctx) const {
  // The kernel's concurrency is judged on the baseline (TLP) SM, as the paper does.
  const auto tlp = std::find(ctx.sm_kinds.begin(), ctx.sm_kinds.end(), cfg_.tlp_kind);
  const uint32_t ctas_per_sm =
      tlp == ctx.sm_kinds.end() ? 0 : ctx.max_resident_ctas.at(static_cast<std::size_t>(tlp - ctx.sm_kinds.begin()));
  const std::string& kind = kind_for(kernel, cta_count, ctas_per_sm);
  Placement p;
  uint64_t kind_ctas = 0;  // CTAs its kind's SMs hold at once
  for (uint32_t s = 0; s < ctx.sm_count; ++s)
    if (ctx.sm_kinds[s] == kind) {
      p.kind_sms.push_back(s);
      kind_ctas += ctx.max_resident_ctas.empty() ? 0 : ctx.max_resident_ctas[s];
    }
  // Alone (nothing runs, nothing else waits) and too big for its kind in one wave: the
  // other kind's SMs would idle, so the kernel takes them too.
  p.spill = spill_ && ctx.running_sets.empty() && ctx.waiting_kernels == 0 && cta_count > kind_ctas;
  return p;
}

std::vector<uint32_t> IlpTlpSteering::choose(const sm::KernelInstance& kernel, uint64_t cta_count,
                                             const SteeringContext& ctx) const {
  Placement p = place(kernel, cta_count, ctx);
  if (p.spill) {
    std::vector<uint32_t> all(ctx.sm_count);
    for (uint32_t s = 0; s < ctx.sm_count; ++s) all[s] = s;
    return all;
  }
  if (share_) return std::move(p.kind_sms);
  for (const std::vector<uint32_t>& set : ctx.running_sets)
    for (uint32_t s : p.kind_sms)
      if (std::binary_search(set.begin(), set.end(), s)) return {};  // busy: wait
  return std::move(p.kind_sms);
}

std::vector<uint32_t> IlpTlpSteering::preferred(const sm::KernelInstance& kernel, uint64_t cta_count,
                                                const SteeringContext& ctx) const {
  Placement p = place(kernel, cta_count, ctx);
  return p.spill ? std::move(p.kind_sms) : std::vector<uint32_t>{};
}

}  // namespace gputlm::gpu
