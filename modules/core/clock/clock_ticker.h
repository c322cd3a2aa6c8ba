// One SystemC process per clock domain that ticks every due ClockedProcess of the domain at
// an edge, instead of one SystemC process and one timed notification per block and edge
// (the kernel's timed-event heap was ~10 % of a GPU run's host time).
//
// Order: the due processes of an edge tick in the order they were created, or in a
// seeded per-edge shuffle (set_order_seed): the clocked-process pattern makes a block's
// tick independent of the order of same-edge ticks, and the shuffle is how tests check it.
#pragma once

#include <cstdint>
#include <limits>
#include <systemc>
#include <utility>
#include <vector>

#include "core/clock/clock_domain.h"

namespace gputlm {

class ClockedProcess;

class ClockTicker {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  // Must be created during elaboration (it spawns an SC_METHOD in the current module).
  explicit ClockTicker(const sc_core::sc_time& period);
  ClockTicker(const ClockTicker&) = delete;
  ClockTicker& operator=(const ClockTicker&) = delete;

  uint32_t add(ClockedProcess* p);
  void remove(uint32_t id) { procs_[id] = Entry{}; }
  // Tick process `id` at edge `cycle` (not in the past); its earliest pending edge wins
  // (a later one is forgotten, as an sc_event keeps only its earliest notification).
  void schedule(uint32_t id, uint64_t cycle);

  // 0: creation order (the default); otherwise a shuffle per edge drawn from the seed.
  // Process-wide, for order-independence tests (`gputlm run --tick-order-seed`).
  static void set_order_seed(uint64_t seed) { order_seed_ = seed; }
  static uint64_t order_seed() { return order_seed_; }

 private:
  struct Entry {
    ClockedProcess* p = nullptr;
    uint64_t due = kNever;
  };
  void run();
  void arm(uint64_t cycle);
  uint64_t now_cycle() const { return sim_now().value() / ticks_; }
  void tick_shuffled(uint64_t cycle);

  uint64_t ticks_;  // period in resolution units
  std::vector<Entry> procs_;
  // Processes due within the next kSlots edges sit in a timing wheel: slot c % kSlots holds
  // a bit per id for edge c, and occupied_ a bit per non-empty slot, so scheduling and
  // finding the next edge cost a few bit operations. Edges further ahead wait in a min-heap
  // of (cycle, id). Entries whose process got an earlier edge meanwhile are stale: they are
  // skipped because the process's `due` differs.
  static constexpr uint64_t kSlots = 64;
  uint64_t* slot(uint64_t cycle) { return &wheel_[(cycle % kSlots) * words_]; }
  std::size_t words_ = 0;  // 64-bit words per slot
  std::vector<uint64_t> wheel_, current_;
  uint64_t occupied_ = 0;
  uint64_t window_ = 0;
  std::vector<std::pair<uint64_t, uint32_t>> heap_;
  std::vector<uint32_t> order_;  // shuffle scratch
  uint64_t armed_ = kNever;      // the edge event_ is notified for
  sc_core::sc_event event_;
  static inline uint64_t order_seed_ = 0;
};

}  // namespace gputlm
