// A bounded FIFO whose entries become visible at a given cycle: the payload event queue
// between blocks and the pipeline latch inside them. Storage is allocated once at
// construction (no allocation per transaction); a full queue is back-pressure that the
// caller must model (push() on a full queue is a logic error).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputlm {

template <class T>
class CycleQueue {
 public:
  explicit CycleQueue(std::size_t capacity = 1) { resize(capacity); }

  void resize(std::size_t capacity) {
    if (capacity == 0) throw std::invalid_argument("CycleQueue capacity must be positive");
    slots_.assign(capacity, Slot{});
    head_ = count_ = 0;
  }

  std::size_t capacity() const { return slots_.size(); }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool full() const { return count_ == slots_.size(); }
  std::size_t free_slots() const { return slots_.size() - count_; }

  // ready_cycle: the first cycle at which the entry may be popped.
  void push(const T& value, uint64_t ready_cycle) {
    if (full()) throw std::logic_error("CycleQueue: push on a full queue (back-pressure ignored)");
    Slot& s = slots_[(head_ + count_) % slots_.size()];
    s.value = value;
    s.ready = ready_cycle;
    ++count_;
  }

  // True when the head entry exists and is ready at `cycle`.
  bool ready(uint64_t cycle) const { return count_ > 0 && slots_[head_].ready <= cycle; }
  uint64_t head_ready_cycle() const { return slots_[head_].ready; }
  T& front() { return slots_[head_].value; }
  const T& front() const { return slots_[head_].value; }
  // i-th entry from the head (0 = head), for blocks that scan their queue (FR-FCFS).
  T& at(std::size_t i) { return slots_[(head_ + i) % slots_.size()].value; }
  uint64_t ready_cycle_at(std::size_t i) const { return slots_[(head_ + i) % slots_.size()].ready; }

  void pop() {
    if (count_ == 0) throw std::logic_error("CycleQueue: pop on an empty queue");
    head_ = (head_ + 1) % slots_.size();
    --count_;
  }
  // Remove the i-th entry, keeping the order of the others.
  void erase(std::size_t i) {
    if (i >= count_) throw std::out_of_range("CycleQueue::erase");
    for (std::size_t k = i; k + 1 < count_; ++k)
      slots_[(head_ + k) % slots_.size()] = slots_[(head_ + k + 1) % slots_.size()];
    --count_;
  }

 private:
  struct Slot {
    T value{};
    uint64_t ready = 0;
  };
  std::vector<Slot> slots_;
  std::size_t head_ = 0, count_ = 0;
};

}  // namespace gputlm
