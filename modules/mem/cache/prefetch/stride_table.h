// A PC-indexed stride table with the thesis's 4-state stride FSM (001 §4.1.1, Figs 4.1-4.2;
// digest §D1): the table of the conventional stride prefetcher, of PCST (with #Access),
// of ITPC (trained with strides instead of addresses) and of MT-HWP's tables.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace gputlm::mem {

enum class StrideState : uint8_t { Init, Transient, Steady, NoPredict };
const char* to_string(StrideState s);

// Digest §D1's transition table: the rows the thesis's text and example give (INIT on an
// incorrect stride -> TRANSIENT, TRANSIENT correct -> STEADY, STEADY incorrect -> TRANSIENT
// keeping the stride) and the classic Chen-Baer completion for the others.
StrideState next_stride_state(StrideState from, bool correct);
// Whether an incorrect stride replaces the entry's stride on this transition: always,
// except STEADY -> TRANSIENT (001 §4.1.1: "except on the STEADY to TRANSIENT transition").
bool replaces_stride(StrideState from, bool correct);
// TRANSIENT and STEADY predict (001 Fig. 4.3 (d)).
inline bool predicts(StrideState s) { return s == StrideState::Transient || s == StrideState::Steady; }

struct StrideEntry {
  uint64_t key = 0;
  uint64_t address = 0;  // prev_addr (PCST's "Address")
  int64_t stride = 0;
  StrideState state = StrideState::Init;
  uint32_t accesses = 0;  // PCST's #Access
  int32_t owner = -1;     // PCST: the CTA whose thread 0 trained it last; MT-HWP inter-thread: the last warp
  uint64_t inserted = 0;  // insertion order (ITPC's "table order")
  uint64_t used = 0;      // last update or lookup (LRU replacement when the table is bounded)
};

class StrideTable {
 public:
  // capacity 0: unlimited (the thesis's "unlimited on-chip storage", 001 §4.4.1-4.4.2);
  // otherwise a full table replaces its least recently used entry.
  explicit StrideTable(uint32_t capacity = 0) : capacity_(capacity) {}

  // D1's rules for an address at `key`: allocate {addr, 0, INIT} on a miss; else compare
  // s = addr - prev_addr with the stride, move the FSM, replace the stride (except on
  // STEADY -> TRANSIENT) and advance prev_addr. #Access counts the updates. Returns the entry.
  StrideEntry& train_address(uint64_t key, uint64_t address);
  // ITPC's update (001 §4.2.2): insert {stride, INIT} on a miss, else compare and move the
  // FSM as D1 (the same stride rule).
  StrideEntry& train_stride(uint64_t key, int64_t stride);
  // The predicted stride (TRANSIENT or STEADY), 0 when none. Never changes the FSM.
  int64_t lookup(uint64_t key);
  StrideEntry* find(uint64_t key);
  // Puts (or replaces) an entry with a stride (MT-HWP's global table: promotion).
  void put(uint64_t key, int64_t stride, StrideState state);
  void clear() { entries_.clear(); }
  std::size_t size() const { return entries_.size(); }
  uint32_t capacity() const { return capacity_; }
  // Entries in key (PC) order.
  const std::map<uint64_t, StrideEntry>& entries() const { return entries_; }
  std::map<uint64_t, StrideEntry>& entries() { return entries_; }

 private:
  StrideEntry& allocate(uint64_t key);
  uint32_t capacity_;
  uint64_t clock_ = 0;
  std::map<uint64_t, StrideEntry> entries_;
};

}  // namespace gputlm::mem
