#include "core/clock/clock_domain.h"

#include "core/clock/clock_ticker.h"

#include <cmath>
#include <stdexcept>

namespace gputlm {

ClockDomain::ClockDomain(std::string name, sc_core::sc_time period)
    : name_(std::move(name)), period_(period), ticks_(period.value()) {
  if (ticks_ == 0)
    throw std::invalid_argument("clock domain '" + name_ +
                                "': period must be at least one time-resolution unit");
}

ClockDomain ClockDomain::from_mhz(std::string name, double mhz) {
  if (!(mhz > 0) || !std::isfinite(mhz))
    throw std::invalid_argument("clock domain '" + name + "': frequency must be positive, got " +
                                std::to_string(mhz) + " MHz");
  const double res_ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
  const double units = std::round(1e6 / mhz / res_ps);
  if (units < 1)
    throw std::invalid_argument("clock domain '" + name + "': " + std::to_string(mhz) +
                                " MHz is faster than the time resolution allows");
  return ClockDomain(std::move(name),
                     sc_core::sc_get_time_resolution() * static_cast<double>(units));
}

std::shared_ptr<ClockTicker> ClockDomain::ticker() const {
  if (!ticker_) ticker_ = std::make_shared<ClockTicker>(period_);
  return ticker_;
}

double ClockDomain::mhz() const { return 1e-6 / period_.to_seconds(); }

sc_core::sc_time ClockDomain::time_of(uint64_t cycle) const {
  return sc_core::sc_time::from_value(cycle * ticks_);
}

sc_core::sc_time ClockDomain::edge_after(const sc_core::sc_time& t) const {
  return sc_core::sc_time::from_value((t.value() / ticks_ + 1) * ticks_);
}

sc_core::sc_time ClockDomain::delay_to_next_edge() const {
  const sc_core::sc_time now = sim_now();
  return edge_after(now) - now;
}

sc_core::sc_time ClockDomain::delay_until(uint64_t cycle) const {
  const sc_core::sc_time now = sim_now();
  const sc_core::sc_time at = time_of(cycle);
  if (at < now)
    throw std::logic_error("clock domain '" + name_ + "': cycle " + std::to_string(cycle) +
                           " is in the past");
  return at - now;
}

}  // namespace gputlm
