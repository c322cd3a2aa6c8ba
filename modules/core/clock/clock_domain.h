// A clock domain is a value: a name and a period. No sc_clock toggles; blocks convert
// between cycles and simulated time and schedule themselves on edges (architecture §3).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>

namespace gputlm {

// The simulated time now: sc_time_stamp() without its out-of-line call (every block asks
// for the cycle several times per cycle).
inline const sc_core::sc_time& sim_now() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

class ClockTicker;

class ClockDomain {
 public:
  // period must be a positive whole number of time-resolution units (1 ps by default).
  ClockDomain(std::string name, sc_core::sc_time period);
  // Period = 1e6/mhz ps rounded to the time resolution; the rounding is deterministic.
  static ClockDomain from_mhz(std::string name, double mhz);
  // A value: copies share the ticker (the memo of now() is copied too).
  ClockDomain(const ClockDomain& o)
      : ticker_(o.ticker_),
        name_(o.name_),
        period_(o.period_),
        ticks_(o.ticks_),
        now_time_(o.now_time_.load()),
        now_cycle_(o.now_cycle_.load()) {}
  ClockDomain& operator=(const ClockDomain& o) {
    ticker_ = o.ticker_;
    name_ = o.name_;
    period_ = o.period_;
    ticks_ = o.ticks_;
    now_time_.store(o.now_time_.load());
    now_cycle_.store(o.now_cycle_.load());
    return *this;
  }

  const std::string& name() const { return name_; }
  const sc_core::sc_time& period() const { return period_; }
  double mhz() const;

  // Cycle index of time t: the number of whole periods elapsed (edge k is at k*period).
  uint64_t cycle_at(const sc_core::sc_time& t) const { return t.value() / ticks_; }
  // Memoised per time step: blocks ask several times per cycle, and the division is not free.
  // Threads of a parallel edge (parallel_edge.h) may ask at once: the cycle is stored before
  // the time that vouches for it (release/acquire: plain moves on x86), so a reader that
  // sees the new time sees its cycle; two writers store the same values.
  uint64_t now() const {
    const uint64_t t = sim_now().value();
    if (t != now_time_.load(std::memory_order_acquire)) {
      const uint64_t c = t / ticks_;
      now_cycle_.store(c, std::memory_order_relaxed);
      now_time_.store(t, std::memory_order_release);
      return c;
    }
    return now_cycle_.load(std::memory_order_relaxed);
  }
  // The cycle of the first edge strictly after now (= cycle_at(edge_after(now))).
  uint64_t next_cycle() const { return now() + 1; }
  sc_core::sc_time time_of(uint64_t cycle) const;
  // The first edge strictly after t.
  sc_core::sc_time edge_after(const sc_core::sc_time& t) const;
  // Delay from now to the first edge strictly after now.
  sc_core::sc_time delay_to_next_edge() const;
  // Delay from now to edge `cycle` (which must not be in the past).
  sc_core::sc_time delay_until(uint64_t cycle) const;
  bool at_edge() const { return sim_now().value() % ticks_ == 0; }

 // The domain's ticker (created with its first ClockedProcess, during elaboration); copies
  // of a domain made after that share it.
  std::shared_ptr<ClockTicker> ticker() const;

 private:
  mutable std::shared_ptr<ClockTicker> ticker_;
  std::string name_;
  sc_core::sc_time period_;
  uint64_t ticks_;  // period in resolution units
  mutable std::atomic<uint64_t> now_time_{0}, now_cycle_{0};  // now(): the cycle of time now_time_
};

}  // namespace gputlm
