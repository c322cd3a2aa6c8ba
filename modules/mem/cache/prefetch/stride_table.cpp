#include "mem/cache/prefetch/stride_table.h"

namespace gputlm::mem {

const char* to_string(StrideState s) {
  switch (s) {
    case StrideState::Init: return "INIT";
    case StrideState::Transient: return "TRANSIENT";
    case StrideState::Steady: return "STEADY";
    case StrideState::NoPredict: return "NO-PREDICT";
  }
  return "?";
}

StrideState next_stride_state(StrideState from, bool correct) {
  switch (from) {
    case StrideState::Init: return correct ? StrideState::Steady : StrideState::Transient;
    case StrideState::Transient: return correct ? StrideState::Steady : StrideState::NoPredict;
    case StrideState::Steady: return correct ? StrideState::Steady : StrideState::Transient;
    case StrideState::NoPredict: return correct ? StrideState::Transient : StrideState::NoPredict;
  }
  return StrideState::Init;
}

bool replaces_stride(StrideState from, bool correct) { return !correct && from != StrideState::Steady; }

StrideEntry& StrideTable::allocate(uint64_t key) {
  if (capacity_ != 0 && entries_.size() >= capacity_) {
    auto victim = entries_.begin();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->second.used < victim->second.used) victim = it;
    entries_.erase(victim);
  }
  StrideEntry& e = entries_[key];
  e = StrideEntry{};
  e.key = key;
  e.inserted = ++clock_;
  e.used = clock_;
  return e;
}

StrideEntry* StrideTable::find(uint64_t key) {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

StrideEntry& StrideTable::train_address(uint64_t key, uint64_t address) {
  StrideEntry* e = find(key);
  if (!e) {
    StrideEntry& n = allocate(key);
    n.address = address;
    n.accesses = 1;
    return n;
  }
  const int64_t s = static_cast<int64_t>(address - e->address);
  const bool correct = s == e->stride;
  if (replaces_stride(e->state, correct)) e->stride = s;
  e->state = next_stride_state(e->state, correct);
  e->address = address;
  ++e->accesses;
  e->used = ++clock_;
  return *e;
}

StrideEntry& StrideTable::train_stride(uint64_t key, int64_t stride) {
  StrideEntry* e = find(key);
  if (!e) {
    StrideEntry& n = allocate(key);
    n.stride = stride;
    return n;
  }
  const bool correct = stride == e->stride;
  if (replaces_stride(e->state, correct)) e->stride = stride;
  e->state = next_stride_state(e->state, correct);
  e->used = ++clock_;
  return *e;
}

int64_t StrideTable::lookup(uint64_t key) {
  StrideEntry* e = find(key);
  if (!e) return 0;
  e->used = ++clock_;
  return predicts(e->state) ? e->stride : 0;
}

void StrideTable::put(uint64_t key, int64_t stride, StrideState state) {
  StrideEntry* e = find(key);
  if (!e) e = &allocate(key);
  e->stride = stride;
  e->state = state;
  e->used = ++clock_;
}

}  // namespace gputlm::mem
