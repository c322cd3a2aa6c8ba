// The sockets of a GPU a run can observe, by kind, and the transaction recorders put on
// them (docs/observability.md):
//   l1i   fetch -> L1I              (per SM, core clock)
//   l1d   LSU -> L1D                (per SM)
//   l1c   LSU -> L1 constant        (per SM)
//   l1t   LSU -> L1 texture         (per SM)
//   icnt  SM memory port -> crossbar (per SM: the SM's L1 misses)
//   l2    -> L2 bank                (per partition, L2 clock; after the ROP stage)
//   dram  L2<->DRAM queues -> DRAM  (per partition, DRAM clock)
// A kind nobody observes gets no recorder: its sockets are bound directly.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/tlm/socket_tap.h"
#include "core/tlm/transaction_recorder.h"

namespace gputlm::gpu {

// Every kind, in the order above.
const std::vector<std::string>& socket_kinds();
// "l1d,l2,dram" (or "all") as kinds; throws std::invalid_argument naming an unknown or
// empty entry and listing the known kinds.
std::vector<std::string> parse_socket_kinds(const std::string& list);

class SocketTaps : public SocketTapIF {
 public:
  // Every socket of the given kinds reports to `sink` (not owned; outlives the run).
  void observe(const std::vector<std::string>& kinds, TransactionSink& sink);
  bool empty() const { return sinks_.empty(); }

  std::unique_ptr<TlmPassThrough> tap(const char* kind, const std::string& initiator, const std::string& target,
                                      const ClockDomain& clock) override;
  // The recorders made so far (owned by the blocks they sit in).
  const std::vector<TransactionRecorder*>& recorders() const { return recorders_; }
  // Transactions begun and not finished, over every recorder (0 after a complete run).
  std::size_t open_transactions() const;
  // Hands them to the sinks (TransactionRecorder::report_unfinished), recorder by recorder.
  void report_unfinished();

 private:
  std::map<std::string, std::vector<TransactionSink*>> sinks_;
  std::vector<TransactionRecorder*> recorders_;
};

}  // namespace gputlm::gpu
