// Testbench only: a minimal stand-in for the SM back end (operand collectors, execution
// units, LSU) so the front half can be tested alone. Per (scheduler, unit type) it
// accepts one instruction every `interval[unit]` cycles and sends it to writeback
// `latency[unit]` cycles after it was received. Memory instructions are not sent to any
// memory: they take latency[Mem] cycles like the others.
#pragma once

#include <array>
#include <cstdint>
#include <systemc>
#include <utility>
#include <vector>

#include "core/clock/clock_domain.h"
#include "sm/pipeline_protocol.h"

namespace gputlm::sm::tb {

class StandInBackEnd : public sc_core::sc_module, public IssueStatusIF, public PipelineStage {
 public:
  PipelineInSocket issue_in;
  PipelineOutSocket writeback_out;
  sc_core::sc_export<IssueStatusIF> status_export;

  StandInBackEnd(sc_core::sc_module_name name, const ClockDomain& clock, uint32_t schedulers,
                 std::array<uint32_t, kUnitTypes> latency, std::array<uint32_t, kUnitTypes> interval);

  bool can_accept(uint32_t scheduler, UnitType unit) const override;
  UnitType unit_for(const isa::Instruction& in) const override { return default_unit_for(in, false, false, true); }
  bool tick(uint64_t cycle) override;
  // Every cycle may change an answer (per-unit initiation intervals): schedulers re-check.
  uint64_t availability_version(uint64_t cycle) const override { return cycle; }

  uint64_t received() const { return received_; }

 private:
  void receive(WarpInstruction& wi);
  const ClockDomain& clock_;
  std::array<uint32_t, kUnitTypes> latency_, interval_;
  std::vector<std::array<uint64_t, kUnitTypes>> next_accept_;  // per scheduler
  std::vector<std::pair<uint64_t, WarpInstruction*>> in_flight_;  // (writeback cycle, wi), FIFO per latency
  uint64_t received_ = 0;
};

}  // namespace gputlm::sm::tb
