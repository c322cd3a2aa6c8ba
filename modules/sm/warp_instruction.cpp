#include "sm/warp_instruction.h"

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace gputlm::sm {

const char* to_string(UnitType u) {
  switch (u) {
    case UnitType::Sp: return "sp";
    case UnitType::Sfu: return "sfu";
    case UnitType::Dp: return "dp";
    case UnitType::Int: return "int";
    case UnitType::Mem: return "mem";
  }
  return "?";
}

WarpInstructionPool::WarpInstructionPool(std::size_t initial) {
  all_.reserve(initial);
  free_.reserve(initial);
  for (std::size_t i = 0; i < initial; ++i) {
    all_.push_back(std::make_unique<WarpInstruction>());
    free_.push_back(all_.back().get());
  }
}

void WarpInstruction::reset_for_issue() {
  static_assert(std::is_trivially_copyable_v<WarpInstruction> && std::is_standard_layout_v<WarpInstruction>,
                "reset_for_issue copies the fresh fields as bytes");
  static const WarpInstruction fresh{};
  std::memcpy(static_cast<void*>(this), &fresh, offsetof(WarpInstruction, result));
}

WarpInstruction* WarpInstructionPool::acquire_for_issue() {
  WarpInstruction* wi;
  if (free_.empty()) {
    all_.push_back(std::make_unique<WarpInstruction>());
    wi = all_.back().get();
  } else {
    wi = free_.back();
    free_.pop_back();
  }
  wi->reset_for_issue();
  return wi;
}

WarpInstruction* WarpInstructionPool::acquire() {
  WarpInstruction* wi = acquire_for_issue();
  wi->result = isa::StepResult{};
  return wi;
}

void WarpInstructionPool::release(WarpInstruction* wi) {
  if (wi == nullptr) throw std::logic_error("WarpInstructionPool::release(nullptr)");
  if (free_.size() >= all_.size())
    throw std::logic_error("WarpInstructionPool: more releases than acquisitions");
  free_.push_back(wi);
}

UnitType default_unit_for(const isa::Instruction& in, bool has_dp_unit, bool has_int_unit, bool divide_on_sfu) {
  using isa::OpClass;
  if (divide_on_sfu) {
    switch (in.op) {
      case isa::Opcode::Div: case isa::Opcode::Rem: case isa::Opcode::Sqrt: case isa::Opcode::Rcp:
        return in.cls == OpClass::Fp64 && has_dp_unit ? UnitType::Dp : UnitType::Sfu;
      default:
        break;
    }
  }
  switch (in.cls) {
    case OpClass::MemGlobal:
    case OpClass::MemLocal:
    case OpClass::MemShared:
    case OpClass::MemConst:
    case OpClass::MemParam:
    case OpClass::MemTexture:
    case OpClass::MemGeneric:
    case OpClass::Atomic:
    case OpClass::Membar:
      return UnitType::Mem;
    case OpClass::Fp64:
      // GPGPU-Sim's DP_OP is f64 add/sub/min/max/mul/mad/fma (and the divisions above); the
      // other f64 instructions (setp, set, abs, neg, testp, copysign) are ALU_OP, on the SP.
      switch (in.op) {
        case isa::Opcode::Add: case isa::Opcode::Sub: case isa::Opcode::Addc: case isa::Opcode::Subc:
        case isa::Opcode::Min: case isa::Opcode::Max: case isa::Opcode::Mul: case isa::Opcode::Mad:
        case isa::Opcode::Fma: case isa::Opcode::Div: case isa::Opcode::Rem: case isa::Opcode::Sqrt:
        case isa::Opcode::Rcp:
          return has_dp_unit ? UnitType::Dp : UnitType::Sfu;
        default:
          return UnitType::Sp;
      }
    case OpClass::Sfu:
      return UnitType::Sfu;
    case OpClass::IntMul:
    case OpClass::IntDiv:
      return has_int_unit ? UnitType::Int : UnitType::Sp;
    default:
      return UnitType::Sp;
  }
}

void fill_register_keys(WarpInstruction& wi) {
  const isa::Instruction& in = *wi.instr;
  uint8_t w = 0, r = 0;
  for (uint8_t i = 0; i < in.n_dst_regs; ++i) wi.writes[w++] = in.dst_regs[i];
  for (uint8_t i = 0; i < in.n_dst_preds; ++i) wi.writes[w++] = kPredicateKeyBase + in.dst_preds[i];
  for (uint8_t i = 0; i < in.n_src_regs; ++i) wi.reads[r++] = in.src_regs[i];
  for (uint8_t i = 0; i < in.n_src_preds; ++i) wi.reads[r++] = kPredicateKeyBase + in.src_preds[i];
  wi.n_writes = w;
  wi.n_reads = r;
}

bool is_long_latency_load(const isa::Instruction& in) {
  using isa::OpClass;
  if (in.n_dst_regs == 0) return false;
  switch (in.cls) {
    case OpClass::MemGlobal:
    case OpClass::MemLocal:
    case OpClass::MemTexture:
    case OpClass::MemGeneric:
    case OpClass::Atomic:
      return in.is_load || in.cls == OpClass::Atomic;
    default:
      return false;
  }
}

}  // namespace gputlm::sm
