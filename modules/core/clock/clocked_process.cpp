#include "core/clock/clocked_process.h"

namespace gputlm {

ClockedProcess::ClockedProcess(const char* /*name*/, const ClockDomain& domain, TickFn tick, bool start_awake)
    : domain_(domain),
      tick_(std::move(tick)),
      ticker_(domain.ticker()),
      id_(ticker_->add(this)),
      group_(ticker_->group_of(id_)) {
  if (start_awake) {
    sleeping_ = false;
    ticker_->schedule(id_, domain_.now());  // this edge (time 0 during elaboration), a delta later
  }
}

ClockedProcess::~ClockedProcess() { ticker_->remove(id_); }

bool ClockedProcess::defer_wake(EdgeGroup& g, uint64_t cycle) {
  if (static_cast<int32_t>(g.index) == group_) return false;
  // kNever: wake(); otherwise wake_at(cycle). The cycle was computed now, at this edge's time.
  g.defer(
      [](void* obj, void*, uint64_t c) {
        auto* p = static_cast<ClockedProcess*>(obj);
        if (c == std::numeric_limits<uint64_t>::max()) p->wake();
        else p->wake_at(c);
      },
      this, nullptr, cycle);
  return true;
}

void ClockedProcess::wake() {
  // One thread-local read here; the deferral itself only inside a parallel edge.
  if (EdgeGroup* g = parallel_edge::current(); g && defer_wake(*g, std::numeric_limits<uint64_t>::max())) return;
  if (in_tick_) {
    wake_requested_ = true;
    return;
  }
  if (sleeping_) {
    ticker_->schedule(id_, domain_.next_cycle());
    return;
  }
  // A tick is scheduled, possibly at this very time step and not yet run; it may decide
  // to sleep. Keep the edge after now as a timer so the wake-up cannot be lost.
  const uint64_t next = domain_.next_cycle();
  if (next < timer_cycle_) timer_cycle_ = next;
}

void ClockedProcess::wake_at(uint64_t cycle) {
  if (EdgeGroup* g = parallel_edge::current(); g && defer_wake(*g, cycle)) return;
  const uint64_t next = domain_.next_cycle();
  if (cycle < next) cycle = next;
  // A sleeping process always has a tick pending no later than timer_cycle_ (run() arms
  // it when the process goes to sleep; wake() only adds earlier ones), so only an earlier
  // timer needs a new one.
  if (cycle >= timer_cycle_) return;
  timer_cycle_ = cycle;
  if (sleeping_ && !in_tick_) ticker_->schedule(id_, cycle);
}

void ClockedProcess::run(uint64_t cycle) {
  if (timer_cycle_ <= cycle) timer_cycle_ = std::numeric_limits<uint64_t>::max();
  sleeping_ = false;
  in_tick_ = true;
  wake_requested_ = false;
  ++activations_;
  const bool busy = tick_(cycle);
  in_tick_ = false;
  if (busy || wake_requested_) {
    ticker_->schedule(id_, cycle + 1);
    return;
  }
  sleeping_ = true;
  if (timer_cycle_ != std::numeric_limits<uint64_t>::max()) ticker_->schedule(id_, timer_cycle_);
}

}  // namespace gputlm
