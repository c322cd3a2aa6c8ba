#include "stand_in_back_end.h"

#include <algorithm>

namespace gputlm::sm::tb {

StandInBackEnd::StandInBackEnd(sc_core::sc_module_name name, const ClockDomain& clock, uint32_t schedulers,
                               std::array<uint32_t, kUnitTypes> latency, std::array<uint32_t, kUnitTypes> interval)
    : sc_core::sc_module(name),
      issue_in("issue_in"),
      writeback_out("writeback_out"),
      status_export("status_export"),
      clock_(clock),
      latency_(latency),
      interval_(interval),
      next_accept_(schedulers) {
  status_export.bind(*this);
  issue_in.register_receiver([this](WarpInstruction& wi) { receive(wi); });
  for (auto& a : next_accept_) a.fill(0);
}

bool StandInBackEnd::can_accept(uint32_t scheduler, UnitType unit) const {
  return clock_.now() >= next_accept_.at(scheduler)[static_cast<uint32_t>(unit)];
}

void StandInBackEnd::receive(WarpInstruction& wi) {
  const uint64_t now = clock_.now();
  const uint32_t u = static_cast<uint32_t>(wi.unit);
  if (!can_accept(wi.issue_scheduler, wi.unit)) throw PipelineError("stand-in back end: unit busy");
  next_accept_[wi.issue_scheduler][u] = now + interval_[u];
  in_flight_.emplace_back(now + latency_[u], &wi);
  ++received_;
}

bool StandInBackEnd::tick(uint64_t cycle) {
  // Oldest first among those due (stable: equal due cycles keep issue order).
  std::stable_sort(in_flight_.begin(), in_flight_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t n = 0;
  while (n < in_flight_.size() && in_flight_[n].first <= cycle) {
    in_flight_[n].second->complete_cycle = cycle;
    writeback_out.send(*in_flight_[n].second);
    ++n;
  }
  in_flight_.erase(in_flight_.begin(), in_flight_.begin() + static_cast<std::ptrdiff_t>(n));
  // Busy while something is in flight or a unit becomes available again by itself.
  bool interval_pending = false;
  for (const auto& per_scheduler : next_accept_)
    for (uint64_t next : per_scheduler) interval_pending = interval_pending || next > cycle;
  return !in_flight_.empty() || interval_pending;
}

}  // namespace gputlm::sm::tb
