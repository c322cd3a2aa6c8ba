// Remembers, per transaction in flight through a block, a small value (the port a
// request came in on, so its response can be routed back). Keyed by payload address
// for lookup only: nothing iterates the table, so results never depend on pointer
// values. Open addressing with linear probing and backward-shift deletion; the table
// grows by doubling, so steady-state traffic allocates nothing.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <tlm>

namespace gputlm {

class RouteTable {
 public:
  explicit RouteTable(std::size_t initial_capacity = 64) { rehash(round_up(initial_capacity * 2)); }

  void insert(const tlm::tlm_generic_payload* gp, uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
    std::size_t i = home(gp);
    while (slots_[i].key != nullptr) {
      if (slots_[i].key == gp)
        throw std::logic_error("RouteTable: transaction already in flight (payload reused before its response)");
      i = (i + 1) & mask_;
    }
    slots_[i] = Slot{gp, value};
    ++size_;
  }

  // Removes the entry and returns its value; a missing entry is a protocol error of
  // the caller (a response for a request that never passed here). `who` (the block's
  // name) is a C string so that the hot path builds no std::string.
  uint32_t take(const tlm::tlm_generic_payload* gp, const char* who) {
    std::size_t i = home(gp);
    while (slots_[i].key != gp) {
      if (slots_[i].key == nullptr)
        throw std::runtime_error(std::string(who) + ": response for a transaction that did not pass through it");
      i = (i + 1) & mask_;
    }
    const uint32_t value = slots_[i].value;
    erase_slot(i);
    return value;
  }

  // The value of an entry that must exist.
  uint32_t at(const tlm::tlm_generic_payload* gp, const char* who) const {
    for (std::size_t i = home(gp); slots_[i].key != nullptr; i = (i + 1) & mask_)
      if (slots_[i].key == gp) return slots_[i].value;
    throw std::runtime_error(std::string(who) + ": unknown transaction");
  }

  bool contains(const tlm::tlm_generic_payload* gp) const {
    for (std::size_t i = home(gp); slots_[i].key != nullptr; i = (i + 1) & mask_)
      if (slots_[i].key == gp) return true;
    return false;
  }
  std::size_t size() const { return size_; }

 private:
  struct Slot {
    const tlm::tlm_generic_payload* key = nullptr;
    uint32_t value = 0;
  };
  static std::size_t round_up(std::size_t n) {
    std::size_t c = 16;
    while (c < n) c *= 2;
    return c;
  }
  std::size_t home(const tlm::tlm_generic_payload* gp) const {
    uint64_t x = reinterpret_cast<uintptr_t>(gp);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return static_cast<std::size_t>(x) & mask_;
  }
  void erase_slot(std::size_t i) {
    // Backward-shift deletion keeps every probe chain unbroken without tombstones.
    std::size_t j = i;
    for (;;) {
      j = (j + 1) & mask_;
      if (slots_[j].key == nullptr) break;
      const std::size_t h = home(slots_[j].key);
      const bool movable = (j > i) ? (h <= i || h > j) : (h <= i && h > j);
      if (movable) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = Slot{};
    --size_;
  }
  void rehash(std::size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    size_ = 0;
    for (const Slot& s : old)
      if (s.key) insert(s.key, s.value);
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0, size_ = 0;
};

}  // namespace gputlm
