// Golden reference for MSHR decisions (allocate / merge / reject, which structure,
// whether the line is reserved, tag comparisons), written from the organisations'
// definitions in seed-mechanisms §E with plain ordered maps, independently of the
// table-based implementation under test.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mem/mshr/mshr_if.h"

namespace gputlm::mem::tb {

struct GoldenDecision {
  MshrAction action = MshrAction::Fail;
  ReservationFail cause = ReservationFail::None;
  MshrStructure structure = MshrStructure::Main;
  bool reserve_line = false;
  uint64_t compares = 0;
};

class GoldenMshr {
 public:
  explicit GoldenMshr(const MshrConfig& cfg) : cfg_(cfg) {}

  struct Entry {
    std::vector<int32_t> warps;
    std::vector<bool> writes;
    bool small = false;
    bool reserve_line = false;
  };

  GoldenDecision decide(const MissQuery& q) const {
    GoldenDecision d;
    const std::string& org = cfg_.organisation;
    const auto it = entries_.find(q.block);
    if (org == "conventional" || org == "set_assoc") {
      if (q.matched_way < 0 && q.allocate_on_miss && q.victim_way < 0) return fail(d, ReservationFail::SetLocked);
      d.compares = org == "conventional" ? cfg_.entries : cfg_.ways;
      if (it != entries_.end()) return merge(d, it->second);
      const bool full = org == "conventional" ? count(false) >= cfg_.entries
                                              : in_mshr_set(q.block) >= cfg_.ways;
      if (full) return fail(d, ReservationFail::MshrEntriesFull);
      d.action = MshrAction::Allocate;
      d.reserve_line = q.allocate_on_miss;
      return d;
    }
    if (q.matched_way >= 0) return merge(d, it->second);  // shared tag: TSMA secondary miss
    if (org == "tsma") return tsma_primary(d, q);
    // htsma (Listing 5.1)
    const bool small_has = it != entries_.end() && it->second.small;
    const uint32_t small_used = count(true);
    if (small_used > 0) d.compares = cfg_.small_entries;  // empty bit skips the search
    if (q.set_reserved + 1 >= q.ways) {
      if (small_has) return merge(d, it->second);
      if (small_used >= cfg_.small_entries) return fail(d, ReservationFail::MshrEntriesFull);
      return small_alloc(d);
    }
    if (small_has) return merge(d, it->second);
    if (q.victim_hit && small_used < cfg_.small_entries) return small_alloc(d);
    return tsma_primary(d, q);
  }

  void apply(const GoldenDecision& d, uint64_t block, int32_t warp, bool write) {
    if (d.action == MshrAction::Merge) {
      entries_.at(block).warps.push_back(warp);
      entries_.at(block).writes.push_back(write);
    } else if (d.action == MshrAction::Allocate) {
      Entry e;
      e.warps.push_back(warp);
      e.writes.push_back(write);
      e.small = d.structure == MshrStructure::Small;
      e.reserve_line = d.reserve_line;
      entries_[block] = e;
    }
  }
  Entry take(uint64_t block) {
    Entry e = entries_.at(block);
    entries_.erase(block);
    return e;
  }
  const std::map<uint64_t, Entry>& entries() const { return entries_; }
  uint32_t occupied() const { return static_cast<uint32_t>(entries_.size()); }
  uint32_t capacity() const { return cfg_.entries + (cfg_.organisation == "htsma" ? cfg_.small_entries : 0); }

 private:
  uint32_t count(bool small) const {
    uint32_t n = 0;
    for (const auto& [b, e] : entries_) n += e.small == small ? 1 : 0;
    return n;
  }
  uint32_t in_mshr_set(uint64_t block) const {
    const uint64_t sets = cfg_.entries / cfg_.ways;
    uint32_t n = 0;
    for (const auto& [b, e] : entries_) n += b % sets == block % sets ? 1 : 0;
    return n;
  }
  static GoldenDecision fail(GoldenDecision d, ReservationFail c) {
    d.action = MshrAction::Fail;
    d.cause = c;
    return d;
  }
  GoldenDecision merge(GoldenDecision d, const Entry& e) const {
    if (e.warps.size() >= cfg_.fields) return fail(d, ReservationFail::MshrFieldsFull);
    d.action = MshrAction::Merge;
    d.structure = e.small ? MshrStructure::Small : MshrStructure::Main;
    return d;
  }
  GoldenDecision tsma_primary(GoldenDecision d, const MissQuery& q) const {
    if (q.victim_way < 0) return fail(d, ReservationFail::SetLocked);
    if (count(false) >= cfg_.entries) return fail(d, ReservationFail::MshrEntriesFull);
    d.action = MshrAction::Allocate;
    d.reserve_line = true;
    return d;
  }
  static GoldenDecision small_alloc(GoldenDecision d) {
    d.action = MshrAction::Allocate;
    d.structure = MshrStructure::Small;
    return d;
  }

  MshrConfig cfg_;
  std::map<uint64_t, Entry> entries_;
};

}  // namespace gputlm::mem::tb
