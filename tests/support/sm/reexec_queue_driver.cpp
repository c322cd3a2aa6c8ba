#include "support/sm/reexec_queue_driver.h"

#include <catch2/catch.hpp>

namespace gputlm::sm::test {

bool lsu_send_slot(ReexecQueueIF& q, std::deque<LsuRequest>& lsu, uint64_t cycle, SendSlot& slot) {
  slot.from_queue = q.pick(!lsu.empty(), cycle, slot.request);
  if (slot.from_queue) return true;
  if (lsu.empty()) return false;
  slot.request = lsu.front();
  if (q.must_queue(slot.request)) {
    REQUIRE(q.take(slot.request, cycle));  // a queue that asks for a request takes it
    lsu.pop_front();
    return false;
  }
  return true;
}

void lsu_accepted(std::deque<LsuRequest>& lsu, const SendSlot& slot) {
  if (!slot.from_queue) lsu.pop_front();
}

bool lsu_refused(ReexecQueueIF& q, std::deque<LsuRequest>& lsu, const SendSlot& slot, uint64_t cycle) {
  const bool taken = q.take(slot.request, cycle);
  if (slot.from_queue) {
    REQUIRE(taken);
  } else if (taken) {
    lsu.pop_front();
  }
  return taken;
}

}  // namespace gputlm::sm::test
