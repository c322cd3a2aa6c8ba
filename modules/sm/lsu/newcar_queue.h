// ELF's NewCAR (000 §3.4, digest §C2): a re-execution queue between the LSU and the L1s
// that takes every request an L1 refused and every new request the ordering rules do not
// let bypass the queued ones, so the LSU moves on to later requests (hit under miss).
// Weak-consistency ordering per warp: a load may pass older loads of its warp but not its
// stores; a store (or atomic) passes nothing of its warp; any warp passes another's.
// Service: a new LSU request first; the queue when it is full or the LSU is idle.
#pragma once

#include <cstdint>
#include <vector>

#include "sm/lsu/reexec_queue.h"

namespace gputlm::sm {

class NewCarQueue final : public ReexecQueueIF {
 public:
  // `rotate`: after the L1 refuses a queued request, the next service looks at the entries
  // queued after it first (wrapping); false: always the oldest eligible entry (§Z7).
  NewCarQueue(uint32_t entries, bool rotate);

  const char* name() const override { return "newcar"; }
  bool pick(bool lsu_has_new, uint64_t cycle, LsuRequest& out) override;
  bool must_queue(const LsuRequest& r) const override;
  bool take(const LsuRequest& r, uint64_t cycle) override;
  bool blocks_new_instructions() const override { return entries_.size() >= capacity_; }
  uint32_t occupancy() const override { return static_cast<uint32_t>(entries_.size()); }
  bool has_queued(int32_t warp) const override;
  uint64_t queued_version() const override { return queued_version_; }

 private:
  struct Entry {
    LsuRequest req;
    uint64_t stamp = 0;  // queue order: older entries have smaller stamps
  };
  static bool writes(const LsuRequest& r) { return r.kind != AccessKind::Load; }
  // Whether entries_[i] may be served before every older entry of its warp.
  bool eligible(std::size_t i) const;
  void insert(const LsuRequest& r, uint64_t stamp);
  struct WarpCount {
    uint32_t loads = 0, writes = 0;
  };
  WarpCount& count(int32_t warp);
  const WarpCount* find_count(int32_t warp) const;

  uint32_t capacity_;
  bool rotate_;
  std::vector<Entry> entries_;  // ascending stamp; capacity reserved (no allocation)
  std::vector<WarpCount> per_warp_;
  uint64_t next_stamp_ = 0;
  LsuRequest picked_{};        // the entry last handed to the LSU (nullptr gp: none)
  uint64_t picked_stamp_ = 0;
  bool resume_after_ = false;  // rotate: start the next scan after resume_stamp_
  uint64_t resume_stamp_ = 0;
  uint64_t queued_version_ = 0;  // bumped when has_queued() changes for some warp
};

}  // namespace gputlm::sm
