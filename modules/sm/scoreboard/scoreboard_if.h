// The scoreboard seen by the issue stage and the mechanisms built on it: pending register
// writes per warp, RAW and WAW hazards, and per pending register whether it is the result
// of a memory instruction (ELF stall class) and of a long-latency load (Mascar's owner
// release, 002 §III-A). An interface so the ILP many-thread-aware scoreboard (digest §F3)
// can replace the conventional one.
#pragma once

#include <cstdint>
#include <functional>
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

  // --- scoreboards that commit in order (ilp_commit); the defaults suit the others --------
  // check() with the active mask the instruction would issue with (asked instead of check()
  // when wants_active_mask()).
  virtual bool wants_active_mask() const { return false; }
  virtual Hazard check_masked(uint32_t warp, const isa::Instruction& in, uint32_t /*active_mask*/) const {
    return check(warp, in);
  }
  // One cycle of commit, first in the issue stage's cycle: `warps` (bit w) changed what
  // check() answers for them, `emptied` that they have nothing left to commit (quiet() may
  // have turned true), `all` that every warp's answer may have changed (a shared table
  // filled or freed), `busy` that completed work waits to commit next cycle.
  struct CommitResult {
    uint64_t warps = 0;
    uint64_t emptied = 0;
    bool all = false;
    bool busy = false;
  };
  virtual bool commits() const { return false; }
  virtual CommitResult commit(uint64_t /*cycle*/) { return {}; }
  // Nothing of the warp is left uncommitted: it may retire.
  virtual bool quiet(uint32_t /*warp*/) const { return true; }
  // Called when reserve() changes what check() answers for other warps too.
  virtual void set_shared_change_hook(std::function<void()> /*f*/) {}
};

}  // namespace gputlm::sm
