#include "core/clock/clock_ticker.h"

#include <algorithm>
#include <functional>

#include "core/clock/clocked_process.h"
#include "core/random/splitmix64.h"

namespace gputlm {

namespace {
constexpr auto kLater = std::greater<std::pair<uint64_t, uint32_t>>();
}

ClockTicker::ClockTicker(const sc_core::sc_time& period) : ticks_(period.value()) {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  opts.set_sensitivity(&event_);
  sc_core::sc_spawn([this] { run(); }, sc_core::sc_gen_unique_name("clock_ticker"), &opts);
}

uint32_t ClockTicker::add(ClockedProcess* p) {
  procs_.push_back(Entry{p, kNever});
  const std::size_t words = (procs_.size() + 63) / 64;
  if (words != words_) {  // re-lay the wheel with a word more per slot
    std::vector<uint64_t> wheel(kSlots * words, 0);
    for (uint64_t s = 0; s < kSlots; ++s)
      std::copy_n(&wheel_[s * words_], words_, &wheel[s * words]);
    wheel_.swap(wheel);
    words_ = words;
    current_.resize(words, 0);
  }
  return static_cast<uint32_t>(procs_.size() - 1);
}

void ClockTicker::schedule(uint32_t id, uint64_t cycle) {
  Entry& e = procs_[id];
  if (cycle >= e.due) return;
  e.due = cycle;
  // Every wheel entry lies in [window_, window_ + kSlots), window_ being the edge after the
  // last one that ran (each occupied slot's edge is armed and clears its slot when it
  // runs), so a slot means one edge. Edges beyond the window wait in the heap.
  if (cycle - window_ < kSlots) {
    slot(cycle)[id >> 6] |= uint64_t{1} << (id & 63);
    occupied_ |= uint64_t{1} << (cycle % kSlots);
  } else {
    heap_.emplace_back(cycle, id);
    std::push_heap(heap_.begin(), heap_.end(), kLater);
  }
  arm(cycle);
}

void ClockTicker::arm(uint64_t cycle) {
  if (cycle >= armed_) return;
  armed_ = cycle;
  const uint64_t at = cycle * ticks_;
  const uint64_t now = sim_now().value();
  event_.notify(sc_core::sc_time::from_value(at - now));  // 0: a delta notification
}

void ClockTicker::run() {
  const uint64_t cycle = now_cycle();
  armed_ = kNever;
  window_ = cycle + 1;
  // Gather this edge's processes into current_ (the wheel may refill for later edges
  // while they tick).
  const uint64_t here = uint64_t{1} << (cycle % kSlots);
  if (occupied_ & here) {
    uint64_t* s = slot(cycle);
    for (std::size_t w = 0; w < words_; ++w) {
      current_[w] |= s[w];
      s[w] = 0;
    }
    occupied_ &= ~here;
  }
  while (!heap_.empty() && heap_.front().first <= cycle) {
    const uint32_t id = heap_.front().second;
    current_[id >> 6] |= uint64_t{1} << (id & 63);
    std::pop_heap(heap_.begin(), heap_.end(), kLater);
    heap_.pop_back();
  }
  // Take the edge's processes off the schedule before any of them ticks: a process due
  // now and woken by another's tick before its own ticks again at the next edge, as the
  // wake-up asks (the sc_event of a process keeps a notification made after it fired).
  for (std::size_t w = 0; w < words_; ++w) {
    for (uint64_t m = current_[w]; m != 0; m &= m - 1) {
      const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
      Entry& e = procs_[w * 64 + b];
      if (e.p != nullptr && e.due == cycle) e.due = kNever;
      else current_[w] &= ~(uint64_t{1} << b);  // stale, or removed
    }
  }
  if (order_seed_ != 0) {
    tick_shuffled(cycle);
  } else {
    for (std::size_t w = 0; w < words_; ++w) {
      for (uint64_t m = current_[w]; m != 0; m &= m - 1) {
        ClockedProcess* p = procs_[w * 64 + static_cast<unsigned>(__builtin_ctzll(m))].p;
        if (p != nullptr) p->run(cycle);
      }
      current_[w] = 0;
    }
  }
  // Stale heap tops would arm a useless edge: drop them.
  while (!heap_.empty() && procs_[heap_.front().second].due != heap_.front().first) {
    std::pop_heap(heap_.begin(), heap_.end(), kLater);
    heap_.pop_back();
  }
  uint64_t next = kNever;
  if (occupied_ != 0) {  // the first occupied slot after this edge's
    const unsigned from = static_cast<unsigned>((cycle + 1) % kSlots);
    const uint64_t rotated = (occupied_ >> from) | (from == 0 ? 0 : occupied_ << (kSlots - from));
    next = cycle + 1 + static_cast<uint64_t>(__builtin_ctzll(rotated));
  }
  if (!heap_.empty()) next = std::min(next, heap_.front().first);
  if (next != kNever) arm(next);
}

void ClockTicker::tick_shuffled(uint64_t cycle) {
  order_.clear();
  for (std::size_t w = 0; w < words_; ++w) {
    for (uint64_t m = current_[w]; m != 0; m &= m - 1)
      order_.push_back(static_cast<uint32_t>(w * 64 + static_cast<unsigned>(__builtin_ctzll(m))));
    current_[w] = 0;
  }
  uint64_t state = order_seed_ ^ SplitMix64::mix(cycle ^ ticks_);
  for (std::size_t i = order_.size(); i > 1; --i)  // Fisher-Yates
    std::swap(order_[i - 1], order_[SplitMix64::step(state) % i]);
  for (uint32_t id : order_)
    if (ClockedProcess* p = procs_[id].p) p->run(cycle);
}

}  // namespace gputlm
