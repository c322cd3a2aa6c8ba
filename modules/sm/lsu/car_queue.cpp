#include "sm/lsu/car_queue.h"

#include <stdexcept>

namespace gputlm::sm {

CarStats::CarStats(stats::Group& parent, const CarCounts& counts)
    : group(parent, "car"),
      enqueued(group, "enqueued",
               "requests the LSU put into the queue (refused by an L1, or held behind an older instruction of their "
               "warp)"),
      enqueued_nacked(group, "enqueued_nacked", "of enqueued: refused with a NACK (non-owner miss in MP mode)"),
      held(group, "held", "of enqueued: never sent, held behind a queued older instruction of their warp"),
      services(group, "services", "queued requests sent to an L1 (each is an L1 access)", counts.services),
      recycled(group, "recycled", "services refused again: the request went from the head to the tail",
               counts.recycled),
      recycled_nacked(group, "recycled_nacked", "of recycled: refused with a NACK", counts.recycled_nacked),
      occupancy_cycles(group, "occupancy_cycles",
                       "sum over cycles of the entries held (mean occupancy = this / the SM's cycles)",
                       counts.occupancy_cycles),
      occupancy(group, "occupancy", "entries held after each enqueue (max: the peak occupancy)") {}

CarQueue::CarQueue(uint32_t entries, stats::Group* stats_parent) : capacity_(entries) {
  if (entries == 0) throw std::invalid_argument("CAR re-execution queue with 0 entries");
  ring_.resize(entries);
  per_warp_.resize(64);
  if (stats_parent) stats_ = std::make_unique<CarStats>(*stats_parent, counts_);
}

CarQueue::~CarQueue() = default;

std::vector<LsuRequest> CarQueue::entries() const {
  std::vector<LsuRequest> v;
  for (uint32_t i = 0; i < count_; ++i) v.push_back(at(i));
  return v;
}

void CarQueue::push_back(const LsuRequest& r) {
  if (count_ >= capacity_) throw std::logic_error("CAR: push into a full queue");
  ring_[slot(count_)] = r;
  ++count_;
}

void CarQueue::erase(uint32_t i) {
  // The entries in front of it move back one slot and the head follows: served entries
  // are near the head (the first eligible one), so this moves few.
  for (uint32_t k = i; k > 0; --k) ring_[slot(k)] = ring_[slot(k - 1)];
  head_ = slot(1);
  --count_;
}

void CarQueue::add(const LsuRequest& r) {
  if (r.warp < 0) throw std::logic_error("CAR: request without a warp");
  if (static_cast<std::size_t>(r.warp) >= per_warp_.size()) per_warp_.resize(static_cast<std::size_t>(r.warp) + 1);
  WarpEntries& e = per_warp_[static_cast<std::size_t>(r.warp)];
  held_back_ -= e.count - e.oldest_count;
  if (e.count++ == 0) {
    if (bump_pending_) bump_pending_ = false;  // the warp's last entry came back unread
    else ++queued_version_;
    e.oldest = r.seq;
    e.oldest_count = 1;
  } else if (r.seq == e.oldest) {
    ++e.oldest_count;
  } else if (r.seq < e.oldest) {
    e.oldest = r.seq;
    e.oldest_count = 1;
  }
  held_back_ += e.count - e.oldest_count;
}

void CarQueue::remove(const LsuRequest& r) {
  WarpEntries& e = per_warp_[static_cast<std::size_t>(r.warp)];
  if (r.seq != e.oldest) --held_back_;  // a later instruction's entry (served only after the race)
  if (--e.count == 0) {
    e.oldest_count = 0;
    bump_pending_ = true;  // (pick() committed any earlier one)
    return;
  }
  if (r.seq != e.oldest || --e.oldest_count > 0) return;
  // The warp's oldest instruction left and a later one is queued (the race in the header).
  e.oldest = ~uint64_t{0};
  for (uint32_t i = 0; i < count_; ++i) {
    const LsuRequest& o = at(i);
    if (o.warp != r.warp) continue;
    if (o.seq < e.oldest) {
      e.oldest = o.seq;
      e.oldest_count = 0;
    }
    if (o.seq == e.oldest) ++e.oldest_count;
  }
  held_back_ -= e.oldest_count;  // the new oldest instruction's entries may be served
}

bool CarQueue::has_queued(int32_t warp) const {
  commit_bump();
  return warp >= 0 && static_cast<std::size_t>(warp) < per_warp_.size() &&
         per_warp_[static_cast<std::size_t>(warp)].count > 0;
}

void CarQueue::note_occupancy(uint64_t cycle) {
  if (cycle <= last_change_) return;
  counts_.occupancy_cycles += uint64_t{count_} * (cycle - last_change_);
  last_change_ = cycle;
}

bool CarQueue::must_queue(const LsuRequest& r) const {
  return has_queued(r.warp) && per_warp_[static_cast<std::size_t>(r.warp)].oldest < r.seq;
}

bool CarQueue::eligible(std::size_t i) const {
  const LsuRequest& r = at(static_cast<uint32_t>(i));
  return r.seq == per_warp_[static_cast<std::size_t>(r.warp)].oldest;
}

bool CarQueue::pick(bool lsu_has_new, uint64_t cycle, LsuRequest& out) {
  picked_.gp = nullptr;  // the last entry handed out was not given back: the L1 took it
  commit_bump();
  if (count_ == 0 || (lsu_has_new && count_ < capacity_)) return false;
  // The head, unless an older instruction of its warp waits behind it (only after the
  // race described in the header); the entry of the oldest instruction is always eligible.
  std::size_t i = 0;
  if (held_back_ > 0)
    while (i + 1 < count_ && !eligible(i)) ++i;
  note_occupancy(cycle);
  out = at(static_cast<uint32_t>(i));
  erase(static_cast<uint32_t>(i));
  remove(out);
  picked_ = out;
  ++counts_.services;
  return true;
}

bool CarQueue::take(const LsuRequest& r, uint64_t cycle) {
  if (picked_.gp && r.gp == picked_.gp) {  // refused again: from the head to the tail (002 §III-D)
    picked_.gp = nullptr;
    note_occupancy(cycle);
    push_back(r);
    add(r);
    ++counts_.recycled;
    if (r.nacked) ++counts_.recycled_nacked;
    return true;
  }
  commit_bump();  // a new entry: the last one served is gone for good
  if (count_ >= capacity_) return false;  // the LSU keeps it (not reached: a full queue is served first)
  const bool held = must_queue(r);  // the LSU never sent it
  note_occupancy(cycle);
  push_back(r);
  add(r);
  if (stats_) {
    ++stats_->enqueued;
    if (r.nacked) ++stats_->enqueued_nacked;
    if (held) ++stats_->held;
    stats_->occupancy.sample(static_cast<double>(count_));
  }
  return true;
}

}  // namespace gputlm::sm
