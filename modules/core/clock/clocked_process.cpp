#include "core/clock/clocked_process.h"

namespace gputlm {

ClockedProcess::ClockedProcess(const char* name, const ClockDomain& domain, TickFn tick,
                               bool start_awake)
    : domain_(domain), tick_(std::move(tick)), wake_event_((std::string(name) + "_wake").c_str()) {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  opts.set_sensitivity(&wake_event_);
  sc_core::sc_spawn([this] { run(); }, name, &opts);
  if (start_awake) {
    sleeping_ = false;
    wake_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

void ClockedProcess::schedule_wakeup(uint64_t cycle) {
  // sc_event keeps the earliest pending notification, which is what we want.
  wake_event_.notify(domain_.delay_until(cycle));
}

void ClockedProcess::wake() {
  if (in_tick_) {
    wake_requested_ = true;
    return;
  }
  if (sleeping_) {
    wake_event_.notify(domain_.delay_to_next_edge());
    return;
  }
  // A tick is scheduled, possibly at this very time step and not yet run; it may decide
  // to sleep. Keep the edge after now as a timer so the wake-up cannot be lost.
  const uint64_t next = domain_.next_cycle();
  if (next < timer_cycle_) timer_cycle_ = next;
}

void ClockedProcess::wake_at(uint64_t cycle) {
  const uint64_t next = domain_.next_cycle();
  if (cycle < next) cycle = next;
  // A sleeping process always has a notification pending no later than timer_cycle_ (run()
  // arms it when the process goes to sleep; wake() only adds earlier ones), so only an
  // earlier timer needs a new one.
  if (cycle >= timer_cycle_) return;
  timer_cycle_ = cycle;
  if (sleeping_ && !in_tick_) schedule_wakeup(cycle);
}

void ClockedProcess::run() {
  const uint64_t cycle = domain_.now();
  if (timer_cycle_ <= cycle) timer_cycle_ = std::numeric_limits<uint64_t>::max();
  sleeping_ = false;
  in_tick_ = true;
  wake_requested_ = false;
  ++activations_;
  const bool busy = tick_(cycle);
  in_tick_ = false;
  if (busy || wake_requested_) {
    sc_core::next_trigger(domain_.period());
    return;
  }
  sleeping_ = true;
  if (timer_cycle_ != std::numeric_limits<uint64_t>::max()) schedule_wakeup(timer_cycle_);
  // Static sensitivity (wake_event_) applies again.
}

}  // namespace gputlm
