#include "gpu/cta_scheduler/dyncta.h"

#include <algorithm>

#include "core/config/config_source.h"

namespace gputlm::gpu {

void DynctaConfig::validate(const std::string& prefix) const {
  if (period == 0) throw config::ConfigError("key '" + prefix + ".period': must be at least 1 (got 0)");
  if (t_mem_l > t_mem_h)
    throw config::ConfigError("key '" + prefix + ".t_mem_l': " + std::to_string(t_mem_l) + " exceeds " + prefix +
                              ".t_mem_h (" + std::to_string(t_mem_h) + ")");
  if (initial != "max" && initial != "half")
    throw config::ConfigError("key '" + prefix + ".initial': \"" + initial + "\" is not one of max, half");
}

DynctaDecision dyncta_next(const DynctaConfig& cfg, uint64_t c_idle, uint64_t c_mem, uint32_t n, uint32_t max) {
  max = std::max<uint32_t>(max, 1);
  n = std::clamp<uint32_t>(n, 1, max);
  DynctaDecision d{n, DynctaStep::Hold};
  int delta = 0;
  if (c_idle >= cfg.t_idle) delta = 1;
  else if (c_mem < cfg.t_mem_l) delta = 1;
  else if (c_mem > cfg.t_mem_h) delta = -1;
  if (delta > 0 && n < max) d = {n + 1, DynctaStep::Up};
  else if (delta < 0 && n > 1) d = {n - 1, DynctaStep::Down};
  return d;
}

uint32_t dyncta_initial(const DynctaConfig& cfg, uint32_t max) {
  max = std::max<uint32_t>(max, 1);
  return cfg.initial == "half" ? (max + 1) / 2 : max;
}

}  // namespace gputlm::gpu
