// Data bypassing (sm.exec.forwarding = alu, 004 §4.1, digest §F2): an execution unit tells
// the issue side that an instruction's result has reached its bypass point (the last
// execution stage, EX_L, of its first slice), so dependent instructions of the same warp
// may issue from that cycle on. The SM core implements it; the units call it through an
// optional port (unbound when forwarding is off).
#pragma once

#include <systemc>

#include "sm/warp_instruction.h"

namespace gputlm::sm {

class ForwardSinkIF : public virtual sc_core::sc_interface {
 public:
  // wi's destination registers are readable by instructions issued from this cycle on
  // (called from a unit's tick, which runs before the issue stage's in the same cycle, or
  // from its receive). Called at most once per instruction, before its writeback.
  virtual void forwarded(WarpInstruction& wi) = 0;
};

}  // namespace gputlm::sm
