#include "gpu/watchdog/watchdog.h"

namespace gputlm::gpu {

Watchdog::Watchdog(sc_core::sc_module_name name, const WatchdogConfig& cfg, const ClockDomain& core,
                   ProgressFn progress, FireFn fire)
    : sc_core::sc_module(name),
      cfg_(cfg),
      core_(core),
      progress_(std::move(progress)),
      fire_(std::move(fire)),
      process_("process", core, [this](uint64_t c) { return tick(c); }) {}

void Watchdog::arm() {
  if (armed_ || cfg_.cycles == 0) return;
  armed_ = true;
  last_progress_ = progress_();
  last_change_cycle_ = core_.now();
  process_.wake_at(core_.now() + cfg_.check_interval);
}

bool Watchdog::tick(uint64_t cycle) {
  if (!armed_ || fired_) return false;
  const uint64_t p = progress_();
  if (p != last_progress_) {
    last_progress_ = p;
    last_change_cycle_ = cycle;
  } else if (cycle - last_change_cycle_ >= cfg_.cycles) {
    fired_ = true;
    armed_ = false;
    fire_(cycle, last_change_cycle_);
    return false;
  }
  process_.wake_at(cycle + cfg_.check_interval);
  return false;
}

}  // namespace gputlm::gpu
