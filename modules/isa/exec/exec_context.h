// Internal to the executor: the per-step context handed to instruction handlers, and the
// operand access helpers they share. Operands are materialised as 32-lane rows: a
// register operand is its row in the frame's register file (no copy), other operands are
// computed into a scratch row on the stack.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "isa/exec/float_semantics.h"
#include "isa/exec/functional_executor.h"
#include "isa/exec/int_semantics.h"

namespace gputlm::isa::exec_detail {

// Scratch rows for materialised operands: one per operand slot, vector elements use
// consecutive slots, the last row absorbs writes to a sink '_'.
inline constexpr uint32_t kScratchRows = 16;

struct ExecCtx {
  ExecCtx(GridExecution& g, const LoadedModule& module, WarpContext& warp, CallFrame& frame,
          const Function& function, const Instruction& instr, uint32_t exec_mask, StepResult& result,
          GlobalMemoryLog* global_log = nullptr)
      : grid(g), lm(module), w(warp), f(frame), fn(function), in(instr), mask(exec_mask), r(result),
        log(global_log) {}

  GridExecution& grid;
  const LoadedModule& lm;
  WarpContext& w;
  CallFrame& f;
  const Function& fn;
  const Instruction& in;
  uint32_t mask;  // lanes executing (active and guard true); never 0 in a handler
  StepResult& r;
  GlobalMemoryLog* log;  // non-null: defer global-memory lanes (global_memory_log.h)
  uint64_t global_lo = 1, global_hi = 0;  // last global allocation found (bounds cache)
  uint64_t scratch[kScratchRows][32];
};

template <class F>
inline void for_each_lane(uint32_t mask, F&& f) {
  if (mask == 0xFFFFFFFFu) {
    for (uint32_t l = 0; l < 32; ++l) f(l);
  } else {
    while (mask) {
      uint32_t l = static_cast<uint32_t>(__builtin_ctz(mask));
      mask &= mask - 1;
      f(l);
    }
  }
}

// Typed views of 64-bit register cells.
template <class T>
inline T get(uint64_t v) {
  if constexpr (std::is_same_v<T, float>) return sem::f32_from_bits(static_cast<uint32_t>(v));
  else if constexpr (std::is_same_v<T, double>) return sem::f64_from_bits(v);
  else return static_cast<T>(v);
}
template <class T>
inline uint64_t put(T v) {
  if constexpr (std::is_same_v<T, float>) return sem::f32_bits(v);
  else if constexpr (std::is_same_v<T, double>) return sem::f64_bits(v);
  else return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

// Space-specific address of a symbol used as a value or as an address base.
uint64_t symbol_value(const ExecCtx& c, uint32_t symbol);

// Value of a special register for one lane.
uint64_t special_value(const ExecCtx& c, const Operand& o, uint32_t lane);

// Row of 32 values for a non-register source operand (Imm, Special, SymAddr, Pred as 0/1),
// materialised into scratch row `slot`.
const uint64_t* src_materialise(ExecCtx& c, const Operand& o, uint32_t slot);

// Row of 32 values for a source operand: a register's own row, or a scratch row.
inline const uint64_t* src(ExecCtx& c, const Operand& o, uint32_t slot) {
  if (o.kind == OperandKind::Reg) return &c.f.regs[size_t{o.index} * 32];
  return src_materialise(c, o, slot);
}
inline const uint64_t* src(ExecCtx& c, uint32_t k) { return src(c, c.in.ops[k], k); }

// Row to write a destination operand into (a sink writes to a scratch row).
inline uint64_t* dst(ExecCtx& c, const Operand& o) {
  if (o.kind == OperandKind::Reg) return &c.f.regs[size_t{o.index} * 32];
  return c.scratch[kScratchRows - 1];
}
inline uint64_t* dst(ExecCtx& c, uint32_t k) { return dst(c, c.in.ops[k]); }

// Lane mask of a predicate operand ("!p" applied); an immediate is all-true or all-false.
inline uint32_t pred_mask(const ExecCtx& c, const Operand& o) {
  if (o.kind == OperandKind::Imm) return o.bits ? 0xFFFFFFFFu : 0u;
  uint32_t m = c.f.preds[o.index];
  return o.neg ? ~m : m;
}
// Writes predicate bits `values` for the executing lanes only.
inline void write_pred(ExecCtx& c, const Operand& o, uint32_t values) {
  if (o.kind != OperandKind::Pred) return;  // sink
  uint32_t& p = c.f.preds[o.index];
  p = (p & ~c.mask) | (values & c.mask);
}

// Memory access by one lane in a resolved space (bounds-checked; errors name the lane).
void mem_read(ExecCtx& c, StateSpace s, uint32_t lane, uint64_t addr, void* out, uint32_t bytes);
void mem_write(ExecCtx& c, StateSpace s, uint32_t lane, uint64_t addr, const void* in, uint32_t bytes);
// Resolves a generic address to (space, space address).
StateSpace resolve_generic(uint64_t generic, uint64_t* addr);

// Decode-time handler selection; nullptr for control instructions the executor core
// handles itself. Throws ExecError for an unsupported instruction.
ExecFn select_handler(const Module& m, const Function& fn, uint32_t index);
ExecFn select_alu_handler(const Instruction& in);      // handlers_alu.cpp
ExecFn select_float_handler(const Instruction& in);    // handlers_float.cpp
ExecFn select_data_handler(const Instruction& in);     // handlers_data.cpp
ExecFn select_memory_handler(const Instruction& in);   // handlers_memory.cpp
ExecFn select_warp_handler(const Instruction& in);     // handlers_warp.cpp
ExecFn select_half_handler(const Instruction& in);     // handlers_half.cpp (f16, f16x2)
// vprintf / __assertfail called through `.extern .func` declarations (builtins.cpp).
ExecFn select_builtin_call(const Function& callee);

inline sem::FpModifiers fp_mods(const Instruction& in) {
  sem::FpModifiers m;
  switch (in.rnd) {
    case Rounding::Rz: m.round = sem::RoundMode::Rz; break;
    case Rounding::Rm: m.round = sem::RoundMode::Rm; break;
    case Rounding::Rp: m.round = sem::RoundMode::Rp; break;
    default: m.round = sem::RoundMode::Rn; break;
  }
  m.ftz = (in.flags & kFtz) != 0;
  m.sat = (in.flags & kSat) != 0;
  return m;
}

}  // namespace gputlm::isa::exec_detail
