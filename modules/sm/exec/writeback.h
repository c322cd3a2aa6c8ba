// Writeback with a port limit (docs/blocks/exec.md): finished warp instructions from the
// execution units (and the LSU) wait in a buffer; each cycle at most `ports` of them are
// written back, the oldest finish (complete_cycle) first, then issue order (seq), and
// passed on through `out` to the SM's retire sink, which releases their scoreboard
// registers (pipeline protocol rule 3). An instruction received in cycle N is written
// back at N+1 at the earliest.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>

#include "core/clock/clock_domain.h"
#include "core/clock/input_buffer.h"
#include "core/stats/stats.h"
#include "sm/exec/unit_status_if.h"
#include "sm/pipeline_protocol.h"

namespace gputlm::sm {

class Writeback : public sc_core::sc_module, public PipelineStage, public WritebackStatusIF {
 public:
  PipelineInSocket in;
  PipelineOutSocket out;
  sc_core::sc_export<WritebackStatusIF> status_export;

  Writeback(sc_core::sc_module_name name, uint32_t ports, uint32_t buffer, const ClockDomain& domain,
            stats::Group& parent);

  bool can_accept() const override { return buffer_.can_accept(domain_.now()); }
  bool tick(uint64_t cycle) override;
  std::string state_dump() const override;
  bool idle() const { return buffer_.empty(); }

 private:
  void receive(WarpInstruction& wi);

  uint32_t ports_;
  const ClockDomain& domain_;
  InputBuffer<WarpInstruction*> buffer_;
  stats::Group stats_;
  stats::Counter written_, port_limited_cycles_;
};

}  // namespace gputlm::sm
