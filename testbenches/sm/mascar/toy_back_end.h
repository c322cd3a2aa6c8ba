// Testbench only: the back end of the toy machine of Mascar's Fig. 3 (002 §II-C), behind
// the real SM front half (fetch, I-buffers, scoreboard, schedulers with the real mascar
// policy and MascarState). One load unit with one instruction latch and `mshrs` MSHRs (0:
// unlimited): a load leaves for memory in the cycle it is issued if an MSHR is free, else
// it waits in the latch (which takes no other load meanwhile) and leaves in the first
// cycle an MSHR is free; its data returns `load_latency` cycles after it left, and its
// dependants issue in the cycle after (writeback frees the register and the MSHR). ALU
// instructions complete `alu_latency` cycles after issue. It is also the memory side of
// MascarState: the saturation flag is "free MSHRs <= saturation_margin" (after this
// cycle's sends), the owner input is recorded, a load leaving tells the state (sent()),
// the L1D presence probe answers all_resident, the LSU is stalled while its latch is held,
// and a scripted re-execution queue head and per-warp "has a queued request" flags stand
// in for CAR (a warp's flag, and the head if it is that warp, clear when it sends a load).
#pragma once

#include <array>
#include <cstdint>
#include <systemc>
#include <utility>
#include <vector>

#include "core/clock/clock_domain.h"
#include "sm/pipeline_protocol.h"
#include "sm/scheduler/mascar/mascar_state.h"

namespace gputlm::sm::tb {

struct ToyEvent {
  uint64_t cycle;
  uint32_t warp;
};

class ToyBackEnd : public sc_core::sc_module, public IssueStatusIF, public PipelineStage, public MascarMemoryIF {
 public:
  PipelineInSocket issue_in;
  PipelineOutSocket writeback_out;
  sc_core::sc_export<IssueStatusIF> status_export;

  ToyBackEnd(sc_core::sc_module_name name, const ClockDomain& clock, uint32_t alu_latency, uint32_t load_latency,
             uint32_t mshrs, uint32_t saturation_margin);

  // IssueStatusIF
  bool can_accept(uint32_t scheduler, UnitType unit) const override;
  UnitType unit_for(const isa::Instruction& in) const override { return default_unit_for(in, false, false, true); }
  uint64_t availability_version(uint64_t cycle) const override { return cycle; }
  // PipelineStage
  bool tick(uint64_t cycle) override;

  // MascarMemoryIF
  bool memory_saturated() const override { return mshrs_ > 0 && mshrs_ - busy_ <= margin_; }
  int32_t reexec_head_warp() const override { return head_warp; }
  bool reexec_has_queued(uint32_t warp) const override { return warp < 64 && ((queued_warps >> warp) & 1u) != 0; }
  uint64_t reexec_queued_version() const override { return queued_warps; }  // equal masks, equal answers
  void set_owner_warp(int32_t warp) override { owners.push_back({clock_.now(), warp}); }
  bool lsu_saturation_stalled(uint64_t) const override { return latch_ != nullptr; }
  bool l1d_holds_any(const uint64_t*, uint32_t n, mem::CacheStatusIF::ProbeStamp*) const override {
    return n > 0 && all_resident;
  }
  uint64_t l1d_contents_version() const override { return all_resident ? 1 : 0; }

  std::vector<ToyEvent> sends;                          // loads leaving for memory
  std::vector<std::pair<uint64_t, int32_t>> owners;     // (cycle, warp) set_owner_warp calls
  int32_t head_warp = -1;                               // scripted re-execution queue head
  uint64_t queued_warps = 0;                            // scripted has_queued bits
  // Scripted queue state that appears when the first load leaves (then as above).
  int32_t arm_head_warp = -1;
  uint64_t arm_queued_warps = 0;
  MascarState* state = nullptr;                         // told about loads leaving
  bool all_resident = false;                            // the presence probe's answer

 private:
  void receive(WarpInstruction& wi);
  void send(WarpInstruction& wi, uint64_t cycle);
  const ClockDomain& clock_;
  uint32_t alu_latency_, load_latency_, mshrs_, margin_;
  uint32_t busy_ = 0;  // MSHRs in use
  WarpInstruction* latch_ = nullptr;
  struct Pending {
    uint64_t cycle;
    WarpInstruction* wi;
    bool load;
  };
  std::vector<Pending> pending_;  // writebacks due
};

}  // namespace gputlm::sm::tb
