// The receiving side of a socket: a bounded buffer that an nb_transport call fills
// and the owner's tick() drains. Whether the owner's tick at edge t runs before or
// after a sender's call at edge t is up to SystemC's scheduler, so a slot freed by a
// pop at cycle t only becomes free for senders at cycle t+1, and an entry pushed at
// cycle t is only visible to the owner at t+1. Acceptance decisions and contents are
// therefore the same whatever the evaluation order (architecture §3).
#pragma once

#include <cstdint>

#include "core/clock/cycle_queue.h"

namespace gputlm {

template <class T>
class InputBuffer {
 public:
  explicit InputBuffer(std::size_t capacity = 1) : queue_(capacity) {}
  void resize(std::size_t capacity) { queue_.resize(capacity); freed_cycle_ = ~uint64_t{0}; freed_ = 0; }

  // Called by the sender's nb_transport at cycle `now`.
  bool can_accept(uint64_t now) const {
    const std::size_t freed_now = freed_cycle_ == now ? freed_ : 0;
    return queue_.size() + freed_now < queue_.capacity();
  }
  void push(const T& v, uint64_t now) { queue_.push(v, now + 1); }

  // Called by the owner's tick at cycle `now`.
  bool ready(uint64_t now) const { return queue_.ready(now); }
  T& front() { return queue_.front(); }
  void pop(uint64_t now) {
    queue_.pop();
    if (freed_cycle_ != now) {
      freed_cycle_ = now;
      freed_ = 0;
    }
    ++freed_;
  }

  std::size_t size() const { return queue_.size(); }
  bool empty() const { return queue_.empty(); }
  std::size_t capacity() const { return queue_.capacity(); }
  // Scan and remove for schedulers that do not serve in order (FR-FCFS).
  T& at(std::size_t i) { return queue_.at(i); }
  bool ready_at(std::size_t i, uint64_t now) const { return queue_.ready_cycle_at(i) <= now; }
  void erase(std::size_t i, uint64_t now) {
    queue_.erase(i);
    if (freed_cycle_ != now) {
      freed_cycle_ = now;
      freed_ = 0;
    }
    ++freed_;
  }

 private:
  CycleQueue<T> queue_;
  uint64_t freed_cycle_ = ~uint64_t{0};
  std::size_t freed_ = 0;
};

}  // namespace gputlm
