// One SystemC process per clock domain that ticks every due ClockedProcess of the domain at
// an edge, instead of one SystemC process and one timed notification per block and edge
// (the kernel's timed-event heap was ~10 % of a GPU run's host time).
//
// Order: the due processes of an edge tick in the order they were created, or in a
// seeded per-edge shuffle (set_order_seed): the clocked-process pattern makes a block's
// tick independent of the order of same-edge ticks, and the shuffle is how tests check it.
//
// Threads (set_threads): processes created inside a GroupScope belong to that group (an
// SM's caches, memory port and core); with more than one thread, the groups due at an edge
// tick concurrently, each in creation order, and their deferred effects (parallel_edge.h)
// are applied after them in group order; processes of no group tick after every group.
// An edge whose order this cannot reproduce (an ungrouped process due before a grouped one,
// a shuffled order) ticks serially.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <systemc>
#include <utility>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/parallel_edge.h"

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
  void remove(uint32_t id);
  // The group of process `id` (-1: none).
  int32_t group_of(uint32_t id) const { return procs_[id].group; }

  // While alive, processes created (on any ticker) belong to group `group` (>= 0).
  class GroupScope {
   public:
    explicit GroupScope(int32_t group) : previous_(elaboration_group_) { elaboration_group_ = group; }
    ~GroupScope() { elaboration_group_ = previous_; }
    GroupScope(const GroupScope&) = delete;
    GroupScope& operator=(const GroupScope&) = delete;

   private:
    int32_t previous_;
  };
  // Host threads that tick the groups of an edge (1: everything on the simulation thread).
  void set_threads(unsigned threads);
  unsigned threads() const { return workers_ ? workers_->threads() : 1; }
  // hook() runs at the end of every edge at which group `group` ticked in parallel, after its
  // deferred calls, in group order (e.g. an SM applying its global-memory log).
  void add_edge_end_hook(int32_t group, std::function<void()> hook);
  // Edges ticked in parallel and serially since creation (a busy GPU's edges should be the first).
  uint64_t parallel_edges() const { return parallel_edges_; }
  uint64_t serial_edges() const { return serial_edges_; }
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
    int32_t group = -1;
  };
  struct DueGroup {
    int32_t group;
    uint64_t due;  // bit k: the group's member k ticks
  };
  void run();
  bool tick_parallel(uint64_t cycle);
  void tick_group(std::size_t i);
  EdgeGroup& edge_group(int32_t g);
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
  static inline thread_local int32_t elaboration_group_ = -1;

  std::unique_ptr<EdgeWorkers> workers_;
  std::vector<std::unique_ptr<EdgeGroup>> groups_;  // by group number
  std::vector<DueGroup> due_groups_;
  std::vector<uint32_t> tail_ids_, due_owner_;
  // Groups are parallel only while each has consecutive ids and at most 64 processes.
  bool groups_parallel_ = true;
  uint64_t parallel_cycle_ = 0;
  uint64_t parallel_edges_ = 0, serial_edges_ = 0;
};

}  // namespace gputlm
