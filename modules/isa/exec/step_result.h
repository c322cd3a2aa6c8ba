// What one executed warp instruction tells the timing model (the "what" half of "timing
// decides when, the functional model decides what").
#pragma once

#include <array>
#include <cstdint>

#include "isa/ir.h"

namespace gputlm::isa {

enum class AccessKind : uint8_t { None, Load, Store, Atomic, Reduction };

// Per-lane effective addresses of a memory instruction, for the coalescer.
// Addresses are in the resolved space: global = device address; shared = byte offset in
// the CTA's shared memory; local = byte offset in the thread's local memory (the timing
// model chooses the physical interleaving); const = offset in bank 0; param = param-space
// address (see device_memory.h). A generic access reports the space each lane resolved to:
// `space` when all lanes agree, otherwise `mixed_spaces` and `lane_space`.
struct MemAccess {
  StateSpace space = StateSpace::None;
  AccessKind kind = AccessKind::None;
  uint8_t element_bytes = 0;  // bytes per element (ld.v4.f32: 4)
  uint8_t elements = 0;       // elements per lane, contiguous from addr[lane] (ld.v4: 4)
  bool mixed_spaces = false;
  uint32_t lane_mask = 0;     // lanes that accessed memory
  std::array<uint64_t, 32> addr{};
  std::array<StateSpace, 32> lane_space{};  // meaningful only when mixed_spaces
};

enum class WarpStatus : uint8_t {
  Ready,           // can issue its next instruction
  AtBarrier,       // waiting at a CTA barrier (barrier_id in WarpContext)
  Finished,        // every thread exited
};

struct StepResult {
  const Instruction* instr = nullptr;  // the decoded instruction executed
  uint32_t function = kNone;           // Module::functions index it belongs to
  uint32_t index = kNone;              // instruction index within that function
  uint64_t pc = 0;                     // its byte PC
  uint32_t active_mask = 0;            // SIMT active mask at issue
  uint32_t exec_mask = 0;              // lanes that executed (active and guard true; for
                                       // a branch: the lanes that take it)
  bool is_memory = false;              // `mem` is valid
  MemAccess mem;

  bool is_branch = false;
  bool branch_taken = false;           // some lane took the branch
  bool diverged = false;               // lanes went different ways (SIMT stack pushed)
  bool reconverged = false;            // the SIMT stack popped after this instruction
  bool is_call = false, is_return = false;

  bool at_barrier = false;             // the warp now waits at barrier `barrier_id`
  bool barrier_arrive = false;         // bar.arrive: counted, does not wait
  uint32_t barrier_id = 0;
  bool barrier_released = false;       // this arrival (or exit) completed a barrier: warps
                                       // of the CTA waiting on it are Ready again
  bool warp_finished = false;          // every thread of the warp has exited
  uint32_t exited_mask = 0;            // lanes that executed `exit` in this step
};

}  // namespace gputlm::isa
