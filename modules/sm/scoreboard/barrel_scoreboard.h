// Stall-on-issue ("barrel") scoreboard (004 Table 1's ILP baseline, digest §F1): a warp has
// at most one instruction in flight; its next instruction issues when that one is written
// back, whatever registers the two use. With data bypassing (sm.exec.forwarding = alu) the
// warp is ready again when the instruction reaches its bypass point (004 §4.1: the ready
// bit set at EX_L, digest §F1-F2); the forwarded instruction is written back later. See
// docs/blocks/sm.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sm/scoreboard/scoreboard_module.h"

namespace gputlm::sm {

class BarrelScoreboard : public ScoreboardModule {
 public:
  BarrelScoreboard(sc_core::sc_module_name name, uint32_t max_warps);

  // Memory when the instruction in flight is a memory instruction, Other when it is any
  // other, None when the warp has none in flight.
  Hazard check(uint32_t warp, const isa::Instruction& in) const override;
  // The instruction in flight is a long-latency load and `in` reads one of its registers.
  bool depends_on_long_latency_load(uint32_t warp, const isa::Instruction& in) const override;
  // Throws PipelineError when the warp already has an instruction in flight.
  void reserve(const WarpInstruction& wi) override;
  // The instruction in flight no longer holds the warp. Throws PipelineError when wi is not
  // the instruction in flight or is a memory instruction.
  void forward(const WarpInstruction& wi) override;
  // Throws PipelineError when wi is neither the instruction in flight nor a forwarded one.
  void release(const WarpInstruction& wi) override;
  uint32_t pending_writes(uint32_t warp) const override;
  std::string describe(uint32_t warp) const override;

 private:
  struct InFlight {
    bool busy = false;
    bool memory = false;
    bool long_latency = false;
    uint64_t pc = 0;
    uint64_t seq = 0;
    uint8_t n_writes = 0;  // distinct register keys it writes
    uint32_t writes[kMaxWriteKeys] = {};
  };
  struct Forwarded {
    uint64_t seq = 0;
    uint8_t n_writes = 0;
  };
  std::vector<InFlight> warps_;
  // Per warp, the forwarded instructions not yet written back (used only with forwarding).
  std::vector<std::vector<Forwarded>> forwarded_;
};

}  // namespace gputlm::sm
