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

// Counters of group <lsu>.car.
struct CarStats {
  explicit CarStats(stats::Group& parent);
  stats::Group group;
  stats::Counter enqueued, enqueued_nacked, held, services, recycled, recycled_nacked, occupancy_cycles;
  stats::Average occupancy;
};

class CarQueue final : public ReexecQueueIF {
 public:
  // Statistics under stats_parent (none when null).
  CarQueue(uint32_t entries, stats::Group* stats_parent);
  ~CarQueue() override;

  const char* name() const override { return "car"; }
  bool pick(bool lsu_has_new, uint64_t cycle, LsuRequest& out) override;
  bool must_queue(const LsuRequest& r) const override;
  bool take(const LsuRequest& r, uint64_t cycle) override;
  bool blocks_new_instructions() const override { return entries_.size() >= capacity_; }
  uint32_t occupancy() const override { return static_cast<uint32_t>(entries_.size()); }
  bool has_queued(int32_t warp) const override;
  int32_t head_warp() const override { return entries_.empty() ? -1 : entries_.front().warp; }
  uint64_t queued_version() const override { return queued_version_; }

  // Introspection (tests): the queued requests, head first.
  const std::vector<LsuRequest>& entries() const { return entries_; }
  CarStats* stats() { return stats_.get(); }

 private:
  // Whether entries_[i] may be served: no older instruction of its warp is queued.
  bool eligible(std::size_t i) const;
  void add(const LsuRequest& r);     // one more queued request
  void remove(const LsuRequest& r);  // one fewer
  struct WarpEntries {
    uint32_t count = 0;         // queued requests of the warp
    uint64_t oldest = 0;        // seq of its oldest queued instruction (when count > 0)
    uint32_t oldest_count = 0;  // queued requests of that instruction
  };
  void note_occupancy(uint64_t cycle);  // before every change of the occupancy

  uint32_t capacity_;
  std::vector<LsuRequest> entries_;  // head first; capacity reserved (no allocation)
  std::vector<WarpEntries> per_warp_;
  LsuRequest picked_{};              // the entry last handed to the LSU (gp null: none)
  uint64_t last_change_ = 0;
  uint64_t queued_version_ = 0;
  std::unique_ptr<CarStats> stats_;
};

}  // namespace gputlm::sm
