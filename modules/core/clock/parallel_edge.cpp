#include "core/clock/parallel_edge.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define GPUTLM_PAUSE() _mm_pause()
#else
#define GPUTLM_PAUSE() std::this_thread::yield()
#endif

namespace gputlm {

namespace {
// Spins before a worker sleeps: some microseconds, about the serial work
// (memory-side ticks) between two parallel edges of a busy GPU.
constexpr int kSpins = 4000;
}  // namespace

EdgeWorkers::EdgeWorkers(unsigned threads) {
  const unsigned cores = std::thread::hardware_concurrency();
  spins_ = cores == 0 || threads <= cores ? kSpins : 0;
  for (unsigned i = 1; i < threads; ++i) workers_.push_back(std::make_unique<Worker>());
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    Worker* p = workers_[i].get();
    const auto thread = static_cast<uint32_t>(i + 1);
    p->thread = std::thread([this, p, thread] { loop(*p, thread); });
  }
}

EdgeWorkers::~EdgeWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (auto& w : workers_) w->thread.join();
}

void EdgeWorkers::work(uint32_t thread) {
  const uint32_t threads = static_cast<uint32_t>(workers_.size()) + 1;
  for (std::size_t i = 0; i < n_; ++i)
    if (owner_[i] % threads == thread) item_(ctx_, i);
}

void EdgeWorkers::run(std::size_t n, const uint32_t* owner, void (*item)(void*, std::size_t), void* ctx) {
  n_ = n;
  owner_ = owner;
  item_ = item;
  ctx_ = ctx;
  const uint64_t gen = ++generation_;
  bool any_sleeping = false;
  for (auto& w : workers_) {
    // seq_cst on both sides (here and in loop()): a store then a load of the other flag,
    // so that a worker going to sleep either sees the job or is seen sleeping.
    w->go.store(gen);
    any_sleeping = any_sleeping || w->sleeping.load();
  }
  if (any_sleeping) {
    std::lock_guard<std::mutex> lock(mutex_);  // pairs with the sleeper's re-check under the lock
    wake_.notify_all();
  }
  work(0);
  // A worker still busy: spin, then yield (a host with fewer cores than threads may have
  // descheduled it).
  for (auto& w : workers_)
    for (int i = 0; w->done.load(std::memory_order_acquire) != gen; ++i) {
      if (i < spins_) GPUTLM_PAUSE();
      else std::this_thread::yield();
    }
}

void EdgeWorkers::loop(Worker& w, uint32_t thread) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t gen = w.go.load(std::memory_order_acquire);
    for (int i = 0; gen == seen && i < spins_; ++i) {
      GPUTLM_PAUSE();
      gen = w.go.load(std::memory_order_acquire);
    }
    if (gen == seen) {
      std::unique_lock<std::mutex> lock(mutex_);
      w.sleeping.store(true);
      wake_.wait(lock, [&] { return stop_.load() || w.go.load() != seen; });
      w.sleeping.store(false, std::memory_order_relaxed);
      if (stop_.load()) return;
      gen = w.go.load(std::memory_order_acquire);
    }
    seen = gen;
    work(thread);
    w.done.store(gen, std::memory_order_release);
  }
}

}  // namespace gputlm
