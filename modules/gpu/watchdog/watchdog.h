// Deadlock watchdog (issue 5 item 6): while armed, it samples a progress counter every
// `check_interval` core cycles (the sum of warp instructions issued and memory packets
// moved, supplied by the GPU top); when the counter has not changed for `cycles` cycles
// it calls the fire handler, which ends the run with a state dump. A disarmed watchdog
// (no kernel running) schedules nothing, so an idle GPU still sleeps.
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "gpu/gpu_config.h"

namespace gputlm::gpu {

class Watchdog : public sc_core::sc_module {
 public:
  using ProgressFn = std::function<uint64_t()>;
  // stalled_since: the last cycle at which progress was seen.
  using FireFn = std::function<void(uint64_t cycle, uint64_t stalled_since)>;

  Watchdog(sc_core::sc_module_name name, const WatchdogConfig& cfg, const ClockDomain& core, ProgressFn progress,
           FireFn fire);

  // Starts watching from the current cycle (idempotent while armed).
  void arm();
  void disarm() { armed_ = false; }
  bool armed() const { return armed_; }
  bool fired() const { return fired_; }

 private:
  bool tick(uint64_t cycle);

  WatchdogConfig cfg_;
  const ClockDomain& core_;
  ProgressFn progress_;
  FireFn fire_;
  bool armed_ = false, fired_ = false;
  uint64_t last_progress_ = 0, last_change_cycle_ = 0;
  ClockedProcess process_;
};

}  // namespace gputlm::gpu
