// The clocked-process pattern of architecture §3: a block ticks on the edges of its
// clock domain while it has work, and sleeps on an event when idle. An incoming
// transaction calls wake(); a block that knows when its next useful work is (a DRAM
// timing constraint, a fixed-latency pipe) calls wake_at(cycle). A sleeping block costs
// no activations at all.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <systemc>

#include "core/clock/clock_domain.h"
#include "core/clock/clock_ticker.h"

namespace gputlm {

class ClockedProcess {
 public:
  // tick(cycle) does one cycle of work and returns true while the block is busy (it
  // wants the next edge too); false puts the process to sleep until wake()/wake_at().
  using TickFn = std::function<bool(uint64_t cycle)>;

  // Must be called during elaboration (the domain's ClockTicker spawns its SC_METHOD with
  // the first process). The process starts asleep unless start_awake is true.
  ClockedProcess(const char* name, const ClockDomain& domain, TickFn tick, bool start_awake = false);
  ClockedProcess(const ClockedProcess&) = delete;
  ClockedProcess& operator=(const ClockedProcess&) = delete;
  ~ClockedProcess();

  // Tick at the first edge strictly after now (so that the order in which SystemC
  // evaluates processes within one time step never matters).
  void wake();
  // Tick at edge `cycle` (at the latest); a past or current cycle means the next edge.
  void wake_at(uint64_t cycle);

  bool sleeping() const { return sleeping_; }
  int32_t group() const { return group_; }  // the ticker group (-1: none)
  uint64_t activations() const { return activations_; }
  const ClockDomain& domain() const { return domain_; }

 private:
  friend class ClockTicker;
  void run(uint64_t cycle);
  // Called inside group g's parallel tick: a wake-up from another group waits for the end of
  // the edge (this process's state belongs to its own group's thread); true if deferred.
  bool defer_wake(EdgeGroup& g, uint64_t cycle);

  const ClockDomain& domain_;
  TickFn tick_;
  std::shared_ptr<ClockTicker> ticker_;
  uint32_t id_ = 0;    // in ticker_
  int32_t group_ = -1;  // ticker_'s group of this process (-1: none)
  bool sleeping_ = true;
  bool in_tick_ = false;
  bool wake_requested_ = false;  // wake() during our own tick: tick again next edge
  uint64_t timer_cycle_ = std::numeric_limits<uint64_t>::max();
  uint64_t activations_ = 0;
};

}  // namespace gputlm
