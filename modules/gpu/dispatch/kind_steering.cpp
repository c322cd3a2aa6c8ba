#include "gpu/dispatch/kind_steering.h"

#include <algorithm>

#include "core/config/config_source.h"
#include "isa/ir.h"

namespace gputlm::gpu {

namespace {
std::string known_kinds(const std::vector<std::string>& kinds) {
  std::vector<std::string> k = kinds;
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  std::string out;
  for (const std::string& s : k) out += (out.empty() ? "" : ", ") + s;
  return out;
}
}  // namespace

KindSteering::KindSteering(const KindSteeringConfig& cfg, std::string prefix)
    : default_kind_(cfg.default_kind), prefix_(std::move(prefix)) {
  if (default_kind_.empty()) throw config::ConfigError("key '" + prefix_ + ".default_kind': empty kind");
  for (std::size_t i = 0; i < cfg.kernels.size(); ++i) {
    const std::string key = prefix_ + ".kernels[" + std::to_string(i) + "]";
    const std::string& rule = cfg.kernels[i];
    const std::size_t eq = rule.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == rule.size() || rule.find('=', eq + 1) != std::string::npos)
      throw config::ConfigError("key '" + key + "': \"" + rule + "\" is not of the form KERNEL=KIND");
    const std::string kernel = rule.substr(0, eq);
    auto [it, fresh] = rules_.emplace(kernel, Rule{rule.substr(eq + 1), i});
    if (!fresh)
      throw config::ConfigError("key '" + key + "': kernel '" + kernel + "' already has a rule (" + prefix_ +
                                ".kernels[" + std::to_string(it->second.index) + "])");
  }
}

void KindSteering::check(const SteeringContext& ctx) const {
  auto has = [&](const std::string& kind) {
    return std::find(ctx.sm_kinds.begin(), ctx.sm_kinds.end(), kind) != ctx.sm_kinds.end();
  };
  if (!has(default_kind_))
    throw config::ConfigError("key '" + prefix_ + ".default_kind': no SM is of kind '" + default_kind_ +
                              "' (kinds of this GPU: " + known_kinds(ctx.sm_kinds) + ")");
  for (const auto& [kernel, rule] : rules_)
    if (!has(rule.kind))
      throw config::ConfigError("key '" + prefix_ + ".kernels[" + std::to_string(rule.index) + "]': no SM is of kind '" +
                                rule.kind + "' (kinds of this GPU: " + known_kinds(ctx.sm_kinds) + ")");
}

const std::string& KindSteering::kind_of(const std::string& mangled) const {
  auto it = rules_.find(mangled);
  if (it == rules_.end()) {
    std::string plain = isa::demangle(mangled);
    plain = plain.substr(0, plain.find('('));
    it = rules_.find(plain);
  }
  return it == rules_.end() ? default_kind_ : it->second.kind;
}

std::vector<uint32_t> KindSteering::choose(const sm::KernelInstance& kernel, uint64_t, const SteeringContext& ctx) const {
  const std::string& kind = kind_of(kernel.name);
  std::vector<uint32_t> out;
  for (uint32_t s = 0; s < ctx.sm_count; ++s)
    if (ctx.sm_kinds[s] == kind) out.push_back(s);
  return out;
}

}  // namespace gputlm::gpu
