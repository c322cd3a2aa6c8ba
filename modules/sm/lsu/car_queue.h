// Mascar's cache access re-execution queue, CAR (002 §III-C/D, digest §C1): a request an L1
// refuses (no MSHR / miss-queue slot, or a NACK for a non-owner miss in MP mode) leaves
// the LSU for this queue's tail, so the LSU goes on with later requests, which may hit
// (hit under miss). Served head first when the queue is full (the LSU then takes no new
// instruction) or when the LSU has nothing new to send; a queued request refused again
// goes from the head to the tail (recycling keeps the owner's entry moving forward).
//
// One memory instruction per warp: the scheduler holds a warp's next memory instruction
// while it has a queued one (the SM's issue filter, has_queued()). Requests of one
// instruction may fill several entries (digest §Z30: all of its requests are held). An
// instruction issued before an older one of its warp was queued reaches the LSU later;
// its requests queue behind the older ones (must_queue) and are served only once no older
// instruction of the warp is queued, so a warp's accesses reach the L1 in program order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/stats/stats.h"
#include "sm/lsu/reexec_queue.h"

namespace gputlm::sm {

// The counts CarQueue bumps on every service, kept beside the ring (the statistics read them).
struct CarCounts {
  uint64_t services = 0, recycled = 0, recycled_nacked = 0, occupancy_cycles = 0;
};

// Counters of group <lsu>.car.
struct CarStats {
  CarStats(stats::Group& parent, const CarCounts& counts);
  stats::Group group;
  stats::Counter enqueued, enqueued_nacked, held;
  stats::CounterRef services, recycled, recycled_nacked, occupancy_cycles;
  stats::Average occupancy;
};

class CarQueue final : public ReexecQueueIF {
 public:
  // Statistics under stats_parent (none when null).
  CarQueue(uint32_t entries, stats::Group* stats_parent);
  ~CarQueue() override;
  CarQueue(const CarQueue&) = delete;  // its statistics read counts_ in place
  CarQueue& operator=(const CarQueue&) = delete;

  const char* name() const override { return "car"; }
  bool pick(bool lsu_has_new, uint64_t cycle, LsuRequest& out) override;
  bool must_queue(const LsuRequest& r) const override;
  bool take(const LsuRequest& r, uint64_t cycle) override;
  bool blocks_new_instructions() const override { return count_ >= capacity_; }
  uint32_t occupancy() const override { return count_; }
  bool has_queued(int32_t warp) const override;
  int32_t head_warp() const override { return count_ == 0 ? -1 : at(0).warp; }
  uint64_t queued_version() const override {
    commit_bump();
    return queued_version_;
  }

  // Introspection (tests): the queued requests, head first.
  std::vector<LsuRequest> entries() const;
  CarStats* stats() { return stats_.get(); }

 private:
  // The i-th queued request from the head.
  const LsuRequest& at(uint32_t i) const { return ring_[slot(i)]; }
  uint32_t slot(uint32_t i) const {
    const uint32_t s = head_ + i;
    return s >= capacity_ ? s - capacity_ : s;
  }
  void push_back(const LsuRequest& r);
  void erase(uint32_t i);  // the i-th from the head; the order of the others is kept
  // Whether at(i) may be served: no older instruction of its warp is queued.
  bool eligible(std::size_t i) const;
  // A served entry that was its warp's last changes has_queued(): the version bump waits
  // until someone reads (has_queued, queued_version) or the queue changes otherwise, so a
  // request refused again (it leaves and comes back, no read between) changes nothing
  // and readers keep what they decided (schedulers, Mascar's hand-over check). The
  // version stays monotonic: no reader ever sees one value for two states.
  void commit_bump() const {
    if (!bump_pending_) return;
    bump_pending_ = false;
    ++queued_version_;
  }
  void add(const LsuRequest& r);     // one more queued request
  void remove(const LsuRequest& r);  // one fewer
  struct WarpEntries {
    uint32_t count = 0;         // queued requests of the warp
    uint64_t oldest = 0;        // seq of its oldest queued instruction (when count > 0)
    uint32_t oldest_count = 0;  // queued requests of that instruction
  };
  void note_occupancy(uint64_t cycle);  // before every change of the occupancy

  uint32_t capacity_;
  // The queue: a ring of capacity_ requests, head at head_ (serving and recycling the head
  // moves no entries).
  std::vector<LsuRequest> ring_;
  uint32_t head_ = 0, count_ = 0;
  CarCounts counts_;
  std::vector<WarpEntries> per_warp_;
  LsuRequest picked_{};              // the entry last handed to the LSU (gp null: none)
  uint64_t last_change_ = 0;
  mutable uint64_t queued_version_ = 0;
  mutable bool bump_pending_ = false;
  // Entries of an instruction with an older one of its warp queued (sum over the warps of
  // count - oldest_count): while 0 the head is eligible.
  uint32_t held_back_ = 0;
  std::unique_ptr<CarStats> stats_;
};

}  // namespace gputlm::sm
