// One execution unit of an SM (SP, SFU, DP or INT; docs/blocks/exec.md): `width` issue
// lanes, each taking a new instruction once the previous one's initiation interval has
// passed; an instruction taken in cycle D is finished at D + latency (both from the
// OpTimingTable) and sent to writeback from its tick of that cycle on, oldest finish
// first, then issue order, while writeback has room. At most `result_buffer` finished
// results wait for writeback; while that many wait the unit accepts nothing.
//
// With exec.forwarding = alu an instruction with destination registers is also reported
// through `forward_sink` at its bypass point (see forward_cycle in exec_unit.cpp).
//
// Sockets: `in` (from the operand collector), `out` (to writeback); status: exports
// UnitStatusIF, reads WritebackStatusIF through `writeback_status`; `forward_sink` (bound
// only with forwarding on).
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/stats/stats.h"
#include "sm/exec/exec_config.h"
#include "sm/exec/forward_sink_if.h"
#include "sm/exec/op_timing.h"
#include "sm/exec/unit_status_if.h"
#include "sm/pipeline_protocol.h"

namespace gputlm::sm {

class ExecUnit : public sc_core::sc_module, public PipelineStage, public UnitStatusIF {
 public:
  PipelineInSocket in;
  PipelineOutSocket out;
  sc_core::sc_export<UnitStatusIF> status_export;
  sc_core::sc_port<WritebackStatusIF> writeback_status;
  sc_core::sc_port<ForwardSinkIF, 1, sc_core::SC_ZERO_OR_MORE_BOUND> forward_sink;

  // Validates cfg (config::ConfigError naming "exec.<key>").
  ExecUnit(sc_core::sc_module_name name, UnitType type, const ExecConfig& cfg, const ClockDomain& domain,
           stats::Group& parent);

  // UnitStatusIF
  bool can_accept() const override;
  UnitType unit_type() const override { return type_; }
  // PipelineStage
  bool tick(uint64_t cycle) override;
  std::string state_dump() const override;

  bool idle() const { return active_.empty(); }
  // The owner's mask of units to tick: receive() sets `bit` in it (an idle unit's tick does
  // nothing, so the owner skips it until then).
  void set_activity_mask(uint64_t* mask, uint64_t bit) {
    activity_mask_ = mask;
    activity_bit_ = bit;
  }
  const OpTimingTable& timing() const { return timing_; }
  // Cycle at which an instruction of latency `latency` dispatched (received) in cycle
  // `dispatch` reaches the bypass point, as seen by the issue stage.
  static uint64_t forward_cycle(uint64_t dispatch, uint32_t latency);
  stats::Group& stats_group() { return stats_; }

 private:
  struct Entry {
    WarpInstruction* wi = nullptr;
    uint64_t ready = 0;
  };
  struct PendingForward {
    WarpInstruction* wi = nullptr;
    uint64_t at = 0;
  };
  void receive(WarpInstruction& wi);
  void forward_due(uint64_t cycle);
  void end_of_elaboration() override;

  // What tick, can_accept and receive read, together (on a GPU of many SMs a unit is cold
  // when its SM's turn comes).
  std::vector<Entry> active_;        // in the pipeline or finished and waiting for writeback
  std::vector<uint64_t> lane_free_;  // first cycle each lane accepts again
  NextCycleFlag blocked_;            // result buffer full for the next cycle
  const ClockDomain& domain_;
  WritebackStatusIF* writeback_if_ = nullptr;  // writeback_status's interface, found at the first tick
  uint64_t* activity_mask_ = nullptr;
  uint64_t activity_bit_ = 0;
  uint64_t instructions_count_ = 0, busy_cycles_count_ = 0, writeback_stall_count_ = 0;
  uint32_t slices_;         // cycles a warp instruction occupies a lane (cfg validated by timing_)
  uint32_t result_buffer_;  // cfg_.result_buffer
  uint32_t pipeline_registers_;
  bool forwarding_;                       // cfg_.forwarding == alu
  ForwardSinkIF* forward_if_ = nullptr;   // forward_sink's interface (forwarding only)
  std::vector<PendingForward> forwards_;  // not yet at their bypass point (empty without forwarding)

  UnitType type_;
  ExecConfig cfg_;
  OpTimingTable timing_;

  stats::Group stats_;
  stats::CounterRef instructions_, writeback_stall_cycles_, busy_cycles_;
};

}  // namespace gputlm::sm
