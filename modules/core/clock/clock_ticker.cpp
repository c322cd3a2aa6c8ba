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
  procs_.push_back(Entry{p, kNever, elaboration_group_});
  if (elaboration_group_ >= 0) {
    EdgeGroup& g = edge_group(elaboration_group_);
    const auto id = static_cast<uint32_t>(procs_.size() - 1);
    if (g.members.empty()) g.first_id = id;
    if (id != g.first_id + g.members.size() || g.members.size() == 64) groups_parallel_ = false;
    g.members.push_back(p);
  }
  const std::size_t words = (procs_.size() + 63) / 64;
  if (words != words_) {  // re-lay the wheel with a word more per slot
    std::vector<uint64_t> wheel(kSlots * words, 0);
    if (words_ > 0)  // (the first process: no wheel yet, and &wheel_[0] of an empty vector is UB)
      for (uint64_t s = 0; s < kSlots; ++s) std::copy_n(wheel_.data() + s * words_, words_, wheel.data() + s * words);
    wheel_.swap(wheel);
    words_ = words;
    current_.resize(words, 0);
  }
  return static_cast<uint32_t>(procs_.size() - 1);
}

void ClockTicker::remove(uint32_t id) {
  if (const int32_t g = procs_[id].group; g >= 0) groups_[g]->members[id - groups_[g]->first_id] = nullptr;
  procs_[id] = Entry{};
}

void ClockTicker::schedule(uint32_t id, uint64_t cycle) {
  // Inside a group's parallel tick the wheel is shared: apply at the end of the edge. The
  // result is the same (the earliest cycle wins whatever the order).
  if (EdgeGroup* g = parallel_edge::current()) {
    if (g->owner == this && cycle == parallel_cycle_ + 1 && id - g->first_id < g->members.size())
      g->next_edge |= uint64_t{1} << (id - g->first_id);
    else
      g->schedules.push_back(EdgeGroup::Schedule{this, id, cycle});
    return;
  }
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
  } else if (workers_ && tick_parallel(cycle)) {
    ++parallel_edges_;
  } else {
    ++serial_edges_;
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

// --- parallel edges ------------------------------------------------------------------

void ClockTicker::set_threads(unsigned threads) {
  if (threads <= 1) workers_.reset();
  else if (!workers_ || workers_->threads() != threads) workers_ = std::make_unique<EdgeWorkers>(threads);
}

EdgeGroup& ClockTicker::edge_group(int32_t g) {
  if (static_cast<std::size_t>(g) >= groups_.size()) groups_.resize(static_cast<std::size_t>(g) + 1);
  if (!groups_[g]) {
    groups_[g] = std::make_unique<EdgeGroup>();
    groups_[g]->index = static_cast<uint32_t>(g);
    groups_[g]->owner = this;
  }
  return *groups_[g];
}

void ClockTicker::add_edge_end_hook(int32_t group, std::function<void()> hook) {
  edge_group(group).edge_end_hooks.push_back(std::move(hook));
}

void ClockTicker::tick_group(std::size_t i) {
  const DueGroup& d = due_groups_[i];
  EdgeGroup& g = *groups_[d.group];
  parallel_edge::set_current(&g);
  try {
    // The group's own member list, not procs_ (which this edge's schedules rewrite on the
    // simulation thread): a worker reads only what it and elaboration wrote.
    for (uint64_t m = d.due; m != 0; m &= m - 1) g.members[__builtin_ctzll(m)]->run(parallel_cycle_);
  } catch (...) {
    g.error = std::current_exception();
  }
  parallel_edge::set_current(nullptr);
}

// Ticks current_'s processes by groups on the workers; false (nothing ticked) when the edge
// has fewer than two groups or an order the groups cannot reproduce.
bool ClockTicker::tick_parallel(uint64_t cycle) {
  if (!groups_parallel_) return false;
  due_groups_.clear();
  tail_ids_.clear();
  for (std::size_t w = 0; w < words_; ++w) {
    for (uint64_t m = current_[w]; m != 0; m &= m - 1) {
      const auto id = static_cast<uint32_t>(w * 64 + static_cast<unsigned>(__builtin_ctzll(m)));
      const int32_t g = procs_[id].group;
      if (g < 0) {
        tail_ids_.push_back(id);
        continue;
      }
      if (!tail_ids_.empty()) return false;  // an ungrouped process ticks between groups
      if (due_groups_.empty() || due_groups_.back().group != g) due_groups_.push_back(DueGroup{g, 0});
      due_groups_.back().due |= uint64_t{1} << (id - groups_[g]->first_id);
    }
  }
  if (due_groups_.size() < 2) return false;
  for (std::size_t w = 0; w < words_; ++w) current_[w] = 0;

  due_owner_.clear();
  for (const DueGroup& d : due_groups_)
    // Always the same thread, a contiguous block of SMs per thread (neighbouring SMs'
    // objects share cache lines at their ends); the simulation thread, which also runs the
    // serial part, takes the first and smaller block.
    due_owner_.push_back(static_cast<uint32_t>(uint64_t{static_cast<uint32_t>(d.group)} * workers_->threads() /
                                               groups_.size()));
  parallel_cycle_ = cycle;
  workers_->run(
      due_groups_.size(), due_owner_.data(),
      [](void* self, std::size_t i) { static_cast<ClockTicker*>(self)->tick_group(i); }, this);

  // The groups' effects in group order, as if they had ticked one after another.
  std::exception_ptr error;
  for (const DueGroup& d : due_groups_) {
    EdgeGroup& g = *groups_[d.group];
    for (uint64_t m = g.next_edge; m != 0; m &= m - 1)
      schedule(g.first_id + static_cast<uint32_t>(__builtin_ctzll(m)), cycle + 1);
    g.next_edge = 0;
    for (const EdgeGroup::Schedule& s : g.schedules) s.ticker->schedule(s.id, s.cycle);
    g.schedules.clear();
    for (const EdgeGroup::Call& c : g.calls) c.fn(c.obj, c.arg, c.value);
    g.calls.clear();
    if (g.error) {
      if (!error) error = g.error;
      g.error = nullptr;
    }
    for (auto& hook : g.edge_end_hooks) hook();
  }
  if (error) std::rethrow_exception(error);
  for (uint32_t id : tail_ids_)
    if (ClockedProcess* p = procs_[id].p) p->run(cycle);
  return true;
}

}  // namespace gputlm
