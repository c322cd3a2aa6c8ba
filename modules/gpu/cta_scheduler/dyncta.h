// DYNCTA (seed-mechanisms §A10; Kayiran et al., PACT 2013, "Neither More Nor Less",
// Algorithm 1 as we read it): a per-SM limit n on the CTAs resident at once, moved by one
// every sampling period from two counts of the period (SmIssueStalls, sm/sm_cta_if.h):
//   C_idle: cycles the SM issued nothing and had too few warps (KAWS class idle),
//   C_mem:  cycles the SM issued nothing and the cause was memory (ELF mem_conflict/mem_dep).
// Rule (dyncta_next):
//   if C_idle >= t_idle      n = n + 1
//   else if C_mem < t_mem_l  n = n + 1
//   else if C_mem > t_mem_h  n = n - 1
//   n clamped to [1, max], max = the CTAs of the kernel the SM can hold (occupancy).
// DYNCTA never preempts: the CTA scheduler stops issuing to an SM whose resident CTAs
// are >= n. The seed gives no thresholds nor sampling period (unspec.); the defaults
// are our reading of Kayiran PACT'13 (docs/blocks/gpu.md, "CTA limit").
#pragma once

#include <cstdint>
#include <string>

#include "core/config/params.h"
#include "core/stats/stats.h"

namespace gputlm::gpu {

struct DynctaConfig {
  uint32_t period = 2048;
  uint32_t t_idle = 16;
  uint32_t t_mem_l = 128;
  uint32_t t_mem_h = 1024;
  std::string initial = "max";

  template <class V>
  void visit(V& v) {
    v.param("period", period,
            "limit 'dyncta': sampling period in core cycles; n is updated at every multiple of it (seed: unspec.; "
            "Kayiran PACT'13 as we read it: 2048)",
            config::at_least(1));
    v.param("t_idle", t_idle,
            "limit 'dyncta': a period with C_idle >= t_idle (cycles the SM issued nothing and had too few warps) "
            "raises n by one (seed: unspec.; our reading of Kayiran PACT'13: 16)",
            config::at_least(0));
    v.param("t_mem_l", t_mem_l,
            "limit 'dyncta': otherwise a period with C_mem < t_mem_l (cycles the SM issued nothing because of "
            "memory) raises n by one (seed: unspec.; our reading of Kayiran PACT'13: 128); at most t_mem_h",
            config::at_least(0));
    v.param("t_mem_h", t_mem_h,
            "limit 'dyncta': otherwise a period with C_mem > t_mem_h lowers n by one (seed: unspec.; our reading "
            "of Kayiran PACT'13: 1024); at least t_mem_l, below period to ever lower n",
            config::at_least(0));
    v.param("initial", initial,
            "limit 'dyncta': n when a kernel starts on an idle SM: max (the occupancy maximum, the default "
            "scheduler's concurrency) or half (ceil(max / 2), Kayiran's alternative start)",
            config::one_of({"max", "half"}));
  }

  // Throws config::ConfigError naming the key under `prefix` ("cta_scheduler.dyncta").
  void validate(const std::string& prefix = "cta_scheduler.dyncta") const;
};

// How one period changed n.
enum class DynctaStep : uint8_t { Hold, Up, Down };

struct DynctaDecision {
  uint32_t n = 1;
  DynctaStep step = DynctaStep::Hold;  // Up/Down only when n actually changed
};

// The n-update rule: the next n from the period's counts, the current n and the
// occupancy maximum (max >= 1; n outside [1, max] is clamped first).
DynctaDecision dyncta_next(const DynctaConfig& cfg, uint64_t c_idle, uint64_t c_mem, uint32_t n, uint32_t max);
// n at the start of a kernel on an idle SM (max >= 1).
uint32_t dyncta_initial(const DynctaConfig& cfg, uint32_t max);

// A statistic holding the current value of a quantity (an SM's n): the same in every
// view (a per-kernel epoch reports the value at the epoch's end).
class GaugeStat : public stats::Stat {
 public:
  using stats::Stat::Stat;
  void set(uint64_t v) { v_ = v; }
  uint64_t value() const { return v_; }
  nlohmann::json to_json(stats::View) const override { return v_; }
  double scalar(stats::View) const override { return static_cast<double>(v_); }
  void end_epoch() override {}
  void reset() override { v_ = 0; }

 private:
  uint64_t v_ = 0;
};

}  // namespace gputlm::gpu
