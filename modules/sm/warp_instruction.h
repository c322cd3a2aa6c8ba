// The warp instruction: the object that flows through an SM's pipeline
// (fetch -> decode -> I-buffer -> issue -> operand collector -> execution unit / LSU ->
// writeback) inside TLM sockets of the pipeline protocol (pipeline_protocol.h).
//
// It is created at issue, after the functional model executed the instruction
// (GridExecution::step), so it carries what the back end needs to time it: the decoded
// instruction, the active/exec masks, the per-lane addresses of a memory access, and the
// registers the scoreboard reserved. It comes back exactly once through the SM's
// writeback socket, which releases its registers and returns it to the pool.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <memory>
#include <vector>

#include "isa/exec/step_result.h"
#include "isa/ir.h"

namespace gputlm::sm {

// Execution-unit classes an instruction is dispatched to (operand collectors exist per
// unit type, and per scheduler where the config says so).
enum class UnitType : uint8_t { Sp, Sfu, Dp, Int, Mem };
inline constexpr uint32_t kUnitTypes = 5;
const char* to_string(UnitType u);

// Scoreboard keys: general register r of the executing function is key r; predicate p
// is key kPredicateKeyBase + p. Register indices are per function (isa/ir.h); treating
// equal indices of different functions as one register is conservative (a false
// dependency across a call boundary, never a missed one).
inline constexpr uint32_t kPredicateKeyBase = 0x80000000u;
// A key as the scoreboards' watchdog text names it: "r5", "%p2".
inline std::string register_key_name(uint32_t key) {
  return key >= kPredicateKeyBase ? "%p" + std::to_string(key - kPredicateKeyBase) : "r" + std::to_string(key);
}
inline constexpr uint32_t kMaxWriteKeys = isa::kMaxDstRegs + 2;
inline constexpr uint32_t kMaxReadKeys = isa::kMaxSrcRegs + 3;

struct WarpInstruction {
  // --- identity -----------------------------------------------------------------------
  uint64_t seq = 0;             // issue sequence number within the SM (tracing, golden models)
  uint32_t sm = 0;              // SM id
  uint32_t warp = 0;            // warp slot within the SM
  uint32_t scheduler = 0;       // scheduler that owns the warp (warp % schedulers)
  uint32_t issue_scheduler = 0; // scheduler that issued it (differs under KAWS warp sharing)
  uint32_t cta_slot = 0;        // CTA slot within the SM
  uint32_t kernel_id = 0;
  int32_t cta_global = -1;      // linear CTA id within its grid (MemExtension::cta)

  // --- what ----------------------------------------------------------------------------
  const isa::Instruction* instr = nullptr;  // decoded once at load (never null once issued)
  uint64_t pc = 0;                          // byte PC (isa convention: 8 bytes per instruction)
  UnitType unit = UnitType::Sp;
  uint32_t active_mask = 0;                 // SIMT active mask at issue
  uint32_t exec_mask = 0;                   // lanes that executed (active and guard true)

  // --- registers (scoreboard keys, see kPredicateKeyBase) -------------------------------
  uint8_t n_writes = 0, n_reads = 0;
  std::array<uint32_t, kMaxWriteKeys> writes{};  // reserved at issue, released at writeback
  std::array<uint32_t, kMaxReadKeys> reads{};

  // --- timing ---------------------------------------------------------------------------
  uint64_t fetch_cycle = 0;   // cycle its L1I request was sent
  uint64_t decode_cycle = 0;  // cycle it entered the I-buffer
  uint64_t issue_cycle = 0;
  uint64_t dispatch_cycle = 0;   // set by the operand collector when sent to a unit
  uint64_t complete_cycle = 0;   // set by the unit / LSU when sent to writeback

  // --- facts for scheduling mechanisms ---------------------------------------------------
  // The destination registers receive the result of a long-latency load (global, local,
  // texture; not shared/const/param): the scoreboard marks them (Mascar owner release,
  // 002 §III-A) and a hazard on them is a memory dependency (ELF stall class).
  bool long_latency_load = false;
  bool is_memory = false;        // goes to the LSU (load, store, atomic, membar, ...)
  bool is_global_load = false;   // ELF: a global load (a program point, 000 §3.1)
  bool is_branch = false;        // ELF: a branch whose outcome may trigger a recalculation
  bool elf_recalc = false;       // ELF: the branch's recalc bit (isa::kElfRecalc)
  bool mascar_owner = false;     // Mascar: issued by the owner warp (sets MemExtension::owner)
  uint32_t reexecutions = 0;     // Mascar CAR / ELF NewCAR: times this request was re-executed
  bool forwarded = false;        // its result reached the bypass point (sm.exec.forwarding)

  // --- the functional model's report (last: reset_for_issue() leaves it) ---------------
  // Copied at issue, since the warp's own StepResult is overwritten by its next issue
  // while this one may still be in the LSU. For memory instructions result.mem has space,
  // kind, element size/count, lane mask and per-lane addresses.
  isa::StepResult result;

  // Clears every field.
  void reset() { *this = WarpInstruction{}; }
  // Clears every field but `result`, which the issuing scheduler assigns whole
  // (WarpInstructionPool::acquire_for_issue: zeroing the 300-byte report per instruction
  // showed in profiles).
  void reset_for_issue();
};

// Fixed set of recycled warp instructions: no allocation per instruction in steady state
// (the pool grows only to the maximum number in flight). Pointer values are never used
// for ordering anything.
class WarpInstructionPool {
 public:
  explicit WarpInstructionPool(std::size_t initial = 64);
  WarpInstructionPool(const WarpInstructionPool&) = delete;
  WarpInstructionPool& operator=(const WarpInstructionPool&) = delete;

  WarpInstruction* acquire();            // reset, ready to fill
  // As acquire(), but `result` is left for the caller to assign whole (issue does).
  WarpInstruction* acquire_for_issue();
  void release(WarpInstruction* wi);     // back to the pool
  std::size_t in_use() const { return all_.size() - free_.size(); }
  std::size_t created() const { return all_.size(); }

 private:
  std::vector<std::unique_ptr<WarpInstruction>> all_;
  std::vector<WarpInstruction*> free_;
};

// Unit type an instruction goes to by default, given which optional units exist: memory
// classes to Mem; Fp64 to Dp (else Sfu, as GPGPU-Sim's Fermi model sends DP to the SFU);
// Sfu to Sfu; integer multiply/divide to Int when present; everything else (ALU, FP32,
// FP16, conversions, control, barriers, exit, nop) to Sp.
// divide_on_sfu: div/rem/sqrt/rcp of any type go to the SFU (GPGPU-Sim; FP64 to the DP
// unit when there is one).
UnitType default_unit_for(const isa::Instruction& in, bool has_dp_unit, bool has_int_unit, bool divide_on_sfu);

// Fills writes/reads of `wi` from its instruction's registers and predicates.
void fill_register_keys(WarpInstruction& wi);

// True for instructions whose destination is produced by the memory system with a long,
// variable latency (global, local, texture, generic loads and atomics with a result).
bool is_long_latency_load(const isa::Instruction& in);

}  // namespace gputlm::sm
