// The scoreboard seen by the issue stage and the mechanisms built on it: pending register
// writes per warp, RAW and WAW hazards, and per pending register whether it is the result
// of a memory instruction (ELF stall class) and of a long-latency load (Mascar's owner
// release, 002 §III-A). An interface so the ILP many-thread-aware scoreboard (digest §F3)
// can replace the conventional one.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>

#include "isa/ir.h"
#include "sm/warp_instruction.h"

namespace gputlm::sm {

enum class Hazard : uint8_t {
  None,    // no pending write conflicts with the instruction
  Memory,  // some conflicting pending write comes from a memory instruction
  Other,   // conflicting pending writes come from non-memory instructions only
};
const char* to_string(Hazard h);

class ScoreboardIF : public virtual sc_core::sc_interface {
 public:
  // RAW (a source is pending) or WAW (a destination is pending) for `warp` issuing `in`.
  virtual Hazard check(uint32_t warp, const isa::Instruction& in) const = 0;
  // Mascar: OR of the long-latency bits over the instruction's source registers.
  virtual bool depends_on_long_latency_load(uint32_t warp, const isa::Instruction& in) const = 0;
  // Issue: marks wi.writes pending (with wi.is_memory / wi.long_latency_load).
  virtual void reserve(const WarpInstruction& wi) = 0;
  // Bypass point (sm.exec.forwarding = alu; never a memory instruction): wi's results are
  // readable from now on by instructions of its warp; they stay pending for everything
  // else until release. Throws PipelineError if wi is not in flight or was forwarded.
  virtual void forward(const WarpInstruction& wi) = 0;
  // Writeback: clears wi.writes (wi.forwarded says whether forward(wi) was called). Throws
  // PipelineError if one was not pending, or its forwarded state differs from wi's.
  virtual void release(const WarpInstruction& wi) = 0;
  virtual uint32_t pending_writes(uint32_t warp) const = 0;
  // Text for the watchdog: the warp's pending registers.
  virtual std::string describe(uint32_t warp) const = 0;
};

}  // namespace gputlm::sm
