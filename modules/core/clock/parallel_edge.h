// Parallel clock edges (issue 20 point 2): the processes of a clock domain are partitioned
// into groups (one per SM: its caches, memory port and core), and the groups due at an edge
// tick on several host threads. A group's tick may only touch its own state; everything it
// does to the rest of the model (wake-ups, the interconnect's routing table, CTA
// completions, global memory) is deferred and applied at the end of the edge in group
// order, so the result is the one of ticking the groups one after another in creation order,
// whatever the thread count.
//
// Code that can run inside a group's tick and touches shared state asks
// `parallel_edge::current()`: nullptr means "not in a parallel phase, act now".
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace gputlm {

class ClockTicker;

class ClockedProcess;

// One group of a ticker: its processes, and its deferred effects during a parallel edge,
// applied in group order. Cache-line aligned: two threads fill two groups' vectors at once.
struct alignas(64) EdgeGroup {
  // A call made at the end of the edge: fn(obj, arg, value). A plain function pointer and
  // three words, so that deferring allocates nothing once the vector has grown.
  struct Call {
    void (*fn)(void* obj, void* arg, uint64_t value);
    void* obj;
    void* arg;
    uint64_t value;
  };

  uint32_t index = 0;
  // The group's processes in creation order (their ticker ids are first_id, first_id + 1, ...).
  uint32_t first_id = 0;
  std::vector<ClockedProcess*> members;
  struct Schedule {
    ClockTicker* ticker;
    uint32_t id;
    uint64_t cycle;
  };
  std::vector<Schedule> schedules;
  // Members (bit k: member k) that asked for the owner's next edge: the common schedule,
  // kept in this group's own cache line instead of the list above.
  const ClockTicker* owner = nullptr;
  uint64_t next_edge = 0;
  std::vector<Call> calls;
  std::vector<std::function<void()>> edge_end_hooks;  // registered at elaboration, run after the calls
  std::exception_ptr error;                            // the first exception of the group's tick

  void defer(void (*fn)(void*, void*, uint64_t), void* obj, void* arg = nullptr, uint64_t value = 0) {
    calls.push_back(Call{fn, obj, arg, value});
  }
};

namespace parallel_edge {
inline thread_local EdgeGroup* current_group = nullptr;
// The group the calling thread is ticking in a parallel phase, or nullptr.
inline EdgeGroup* current() { return current_group; }
inline void set_current(EdgeGroup* g) { current_group = g; }
// Calls fn(obj, arg, value) now, or at the end of the edge when called from a group's tick.
inline void run_or_defer(void (*fn)(void*, void*, uint64_t), void* obj, void* arg = nullptr, uint64_t value = 0) {
  if (EdgeGroup* g = current()) g->defer(fn, obj, arg, value);
  else fn(obj, arg, value);
}
}  // namespace parallel_edge

// A pool of host threads that run the items of one job with the calling thread. Workers
// spin briefly between jobs (an edge's job follows the previous one within microseconds)
// and then sleep, so an idle pool costs no CPU.
class EdgeWorkers {
 public:
  // `threads` counts the calling thread: threads - 1 workers are started.
  explicit EdgeWorkers(unsigned threads);
  ~EdgeWorkers();
  EdgeWorkers(const EdgeWorkers&) = delete;
  EdgeWorkers& operator=(const EdgeWorkers&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Runs item(ctx, i) for every i in [0, n), each exactly once, on this thread and the
  // workers; returns when all have finished. item must not throw. Item i runs on thread
  // owner[i] % threads() (0: the calling thread): an SM that always ticks on the same
  // thread keeps its working set in that core's caches (handing items out dynamically made
  // every SM's state migrate between cores and doubled the cost of its tick).
  void run(std::size_t n, const uint32_t* owner, void (*item)(void* ctx, std::size_t i), void* ctx);

 private:
  struct Worker {
    std::thread thread;
    std::atomic<uint64_t> go{0};    // the job generation to run
    std::atomic<uint64_t> done{0};  // the last generation finished
    std::atomic<bool> sleeping{false};
  };
  void work(uint32_t thread);
  void loop(Worker& w, uint32_t thread);

  std::vector<std::unique_ptr<Worker>> workers_;
  // Spins before waiting: none when there are more threads than cores (a spinning thread
  // would hold the core the thread with the work needs).
  int spins_ = 0;
  uint64_t generation_ = 0;
  // The current job: written by run() only while every worker has finished the previous one.
  std::size_t n_ = 0;
  const uint32_t* owner_ = nullptr;
  void (*item_)(void*, std::size_t) = nullptr;
  void* ctx_ = nullptr;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace gputlm
