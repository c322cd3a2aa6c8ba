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
  bits_.resize(words, 0);
  current_.resize(words, 0);
  return static_cast<uint32_t>(procs_.size() - 1);
}

void ClockTicker::schedule(uint32_t id, uint64_t cycle) {
  Entry& e = procs_[id];
  if (cycle >= e.due) return;
  e.due = cycle;
  if (!bits_any_) {
    bits_any_ = true;
    bits_cycle_ = cycle;
  }
  if (cycle == bits_cycle_) {
    bits_[id >> 6] |= uint64_t{1} << (id & 63);
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
  const uint64_t now = sc_core::sc_time_stamp().value();
  event_.notify(sc_core::sc_time::from_value(at - now));  // 0: a delta notification
}

void ClockTicker::run() {
  const uint64_t cycle = now_cycle();
  armed_ = kNever;
  // Gather this edge's processes into current_ (bits_ may refill for the next edge while
  // they tick).
  if (bits_any_ && bits_cycle_ == cycle) {
    bits_.swap(current_);
    bits_any_ = false;
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
  for (std::size_t w = 0; w < current_.size(); ++w) {
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
    for (std::size_t w = 0; w < current_.size(); ++w) {
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
  uint64_t next = bits_any_ ? bits_cycle_ : kNever;
  if (!heap_.empty()) next = std::min(next, heap_.front().first);
  if (next != kNever) arm(next);
}

void ClockTicker::tick_shuffled(uint64_t cycle) {
  order_.clear();
  for (std::size_t w = 0; w < current_.size(); ++w) {
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
