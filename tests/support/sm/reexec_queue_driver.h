// Drives a re-execution queue (ReexecQueueIF) the way Lsu::send_requests does, for the
// queue testbenches' scripted LSU and L1: one send slot takes the queue's pick, or else the
// LSU's next new request, which goes straight into the queue when it may not pass queued
// ones; the scripted L1 then accepts or refuses what was sent.
#pragma once

#include <cstdint>
#include <deque>

#include "sm/lsu/reexec_queue.h"

namespace gputlm::sm::test {

struct SendSlot {
  LsuRequest request;
  bool from_queue = false;
};

// One LSU send slot in `cycle`; `lsu` holds the LSU's new requests in order. True: `slot`
// goes to the L1. False: nothing does (the LSU is idle, or its new request was queued).
bool lsu_send_slot(ReexecQueueIF& q, std::deque<LsuRequest>& lsu, uint64_t cycle, SendSlot& slot);
// The L1 accepted the request of `slot`.
void lsu_accepted(std::deque<LsuRequest>& lsu, const SendSlot& slot);
// The L1 refused the request of `slot`: the queue takes it (a queue always takes back its
// own request); a new request the queue does not take stays at the LSU's head. Returns
// whether the queue took it.
bool lsu_refused(ReexecQueueIF& q, std::deque<LsuRequest>& lsu, const SendSlot& slot, uint64_t cycle);

}  // namespace gputlm::sm::test
