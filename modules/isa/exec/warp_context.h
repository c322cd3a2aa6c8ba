// Functional state of warps and CTAs: registers (struct-of-arrays, one 32-lane row per
// register), predicates (one lane mask per predicate register), the SIMT reconvergence
// stack, the call stack, per-thread local memory, per-CTA shared memory and barriers.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "isa/exec/step_result.h"
#include "isa/ir.h"

namespace gputlm::isa {

class CtaContext;

// One SIMT stack entry (PDOM, as GPGPU-Sim): lanes in `mask` execute from instruction
// `pc` of `func` until they reach `rpc` (their reconvergence point), where the entry pops.
struct SimtEntry {
  uint32_t func = kNone;
  uint32_t pc = 0;
  uint32_t rpc = kNone;  // kNone: reconverges only when its lanes exit or return
  uint32_t mask = 0;
};

// One activation of a function on a warp. Frame 0 is the kernel entry.
struct CallFrame {
  uint32_t func = kNone;
  uint32_t simt_base = 0;    // SIMT stack depth below this frame's entries
  uint32_t call_index = kNone;  // caller's call instruction (frames > 0)
  uint32_t local_base = 0;   // byte offset of this frame in each thread's local memory
  uint32_t returned_mask = 0;  // lanes that executed `ret` in this frame
  // Which call this slot holds (unique per warp context, never reused): a deferred global
  // load names its destination by frame index and activation (global_memory_log.h).
  uint64_t activation = 0;
  std::vector<uint64_t> regs;        // nregs * 32, register r of lane l at r*32 + l
  std::vector<uint32_t> preds;       // lane mask per predicate register
  std::vector<uint8_t> param_in;     // incoming .param area, lane l at l*param_bytes
  std::vector<uint8_t> param_ret;    // return .param area, lane l at l*return_bytes
  std::vector<uint8_t> call_params;  // call-sequence .param area, lane l at l*call_param_bytes
};

struct PendingBarRed {
  bool active = false;
  BoolOp op = BoolOp::None;
  uint32_t lanes = 0;       // lanes that contributed (and receive the result)
  uint32_t true_lanes = 0;  // contributing lanes whose predicate was true
  Operand dst{};            // destination register or predicate
};

class WarpContext {
 public:
  // Identity (set when the CTA starts).
  CtaContext* cta = nullptr;
  uint32_t warp_in_cta = 0;
  uint32_t valid_mask = 0;  // lanes that are real threads of the CTA

  // Set by the timing model (special registers %smid %warpid %nwarpid %nsmid); the
  // functional runner leaves smid = 0, hw_warp_id = warp_in_cta.
  uint32_t smid = 0, hw_warp_id = 0, nwarpid = 64, nsmid = 1;

  WarpStatus status = WarpStatus::Ready;
  uint32_t barrier_id = 0;
  uint32_t exited_mask = 0;
  uint32_t carry_mask = 0;  // .cc carry flag per lane
  uint64_t instructions = 0;

  std::vector<SimtEntry> simt;
  std::vector<CallFrame> frames;  // frames[0 .. depth) live; later ones keep capacity
  uint32_t depth = 0;
  uint64_t activations = 0;  // frames pushed over the context's life (CallFrame::activation)
  // The log and epoch of this warp's last deferred load or atomic destination
  // (GlobalMemoryLog::note_write looks only at warps whose epoch is the log's current one).
  const void* deferred_log = nullptr;
  uint64_t deferred_epoch = 0;

  // Local memory: lane l's bytes at l*local_capacity; [0, local_top) is in use.
  std::vector<uint8_t> local;
  uint32_t local_capacity = 0;
  uint32_t local_top = 0;

  PendingBarRed bar_red;
  StepResult last;  // result of the latest step (valid until the next step of this warp)

  // Read only by %tid and address setup: kept after the fields every step reads, which
  // then share the context's first cache lines (a timing run steps thousands of warps in
  // turn, each context cold).
  std::array<uint32_t, 32> tid_x{}, tid_y{}, tid_z{};

  bool finished() const { return status == WarpStatus::Finished; }
  const CallFrame& frame() const { return frames[depth - 1]; }
  CallFrame& frame() { return frames[depth - 1]; }
};

inline constexpr uint32_t kNumBarriers = 16;

struct BarrierState {
  uint32_t arrived = 0;     // bit w: warp w arrived
  uint32_t waiting = 0;     // bit w: warp w waits (bar.sync), released on completion
  uint32_t expected = 0;    // warps expected; 0 = every warp with a live thread
  uint32_t red_popc = 0;    // bar.red accumulators over contributing threads
  bool red_all = true, red_any = false;
};

class CtaContext {
 public:
  uint64_t linear_id = 0;
  std::array<uint32_t, 3> ctaid{};
  std::vector<uint8_t> shared;
  std::vector<WarpContext> warps;
  std::array<BarrierState, kNumBarriers> barriers{};
  uint32_t live_warps = 0;  // warps with at least one non-exited thread
  bool in_use = false;

  bool finished() const { return live_warps == 0; }
};

}  // namespace gputlm::isa
