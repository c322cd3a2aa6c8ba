// Per-instruction facts for the timing model: op class, latency class, memory access
// shape, and the registers/predicates read and written.
#include <algorithm>

#include "isa/frontend/raw.h"

namespace gputlm::isa::frontend {
namespace {

struct ClassInfo {
  OpClass cls;
  LatencyClass lat;
};

ClassInfo by_float_type(ScalarType t, LatencyClass int_lat = LatencyClass::IntAlu) {
  if (t == ScalarType::F64) return {OpClass::Fp64, LatencyClass::Fp64};
  if (t == ScalarType::F32) return {OpClass::Fp32, LatencyClass::Fp32};
  if (is_float(t)) return {OpClass::Fp16, LatencyClass::Fp16};
  OpClass c = int_lat == LatencyClass::IntMul ? OpClass::IntMul
              : int_lat == LatencyClass::IntDiv ? OpClass::IntDiv
                                                : OpClass::IntAlu;
  return {c, int_lat};
}

OpClass mem_class(StateSpace s) {
  switch (s) {
    case StateSpace::Global: return OpClass::MemGlobal;
    case StateSpace::Local: return OpClass::MemLocal;
    case StateSpace::Shared: return OpClass::MemShared;
    case StateSpace::Const: return OpClass::MemConst;
    case StateSpace::Param: return OpClass::MemParam;
    case StateSpace::Texture: return OpClass::MemTexture;
    default: return OpClass::MemGeneric;
  }
}

ClassInfo classify_op(const Instruction& ins) {
  bool approx = ins.flags & kApprox;
  switch (ins.op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Min: case Opcode::Max: case Opcode::Abs:
    case Opcode::Neg: case Opcode::Addc: case Opcode::Subc: case Opcode::Copysign:
    case Opcode::Testp:
      return by_float_type(ins.type);
    case Opcode::Mul: case Opcode::Mad: case Opcode::Mul24: case Opcode::Mad24: case Opcode::Madc:
    case Opcode::Sad: case Opcode::Fma: case Opcode::Dp4a: case Opcode::Dp2a:
      return by_float_type(ins.type, LatencyClass::IntMul);
    case Opcode::Div: case Opcode::Rem:
      if (!is_float(ins.type)) return {OpClass::IntDiv, LatencyClass::IntDiv};
      if (ins.type == ScalarType::F64) return {OpClass::Fp64, LatencyClass::Fp64Div};
      if (approx) return {OpClass::Sfu, LatencyClass::Sfu};
      return {OpClass::Fp32, LatencyClass::Fp32Div};
    case Opcode::Sqrt: case Opcode::Rcp:
      if (approx) return {OpClass::Sfu, LatencyClass::Sfu};
      if (ins.type == ScalarType::F64) return {OpClass::Fp64, LatencyClass::Fp64Div};
      return {OpClass::Fp32, LatencyClass::Fp32Div};
    case Opcode::Rsqrt: case Opcode::Sin: case Opcode::Cos: case Opcode::Lg2: case Opcode::Ex2:
    case Opcode::Tanh:
      return {OpClass::Sfu, LatencyClass::Sfu};
    case Opcode::Setp: case Opcode::Set:
      return by_float_type(ins.type2);
    case Opcode::And: case Opcode::Or: case Opcode::Xor: case Opcode::Not: case Opcode::Cnot:
    case Opcode::Shl: case Opcode::Shr: case Opcode::Shf: case Opcode::Popc: case Opcode::Clz:
    case Opcode::Brev: case Opcode::Bfe: case Opcode::Bfi: case Opcode::Bfind: case Opcode::Prmt:
    case Opcode::Lop3: case Opcode::Selp: case Opcode::Slct: case Opcode::Mov: case Opcode::Cvta:
    case Opcode::Isspacep: case Opcode::Shfl: case Opcode::Vote: case Opcode::Activemask:
    case Opcode::Match:
      return {OpClass::IntAlu, LatencyClass::IntAlu};
    case Opcode::Cvt:
      return {OpClass::Conv, LatencyClass::Conv};
    case Opcode::Ld: case Opcode::Ldu: case Opcode::St:
      return {mem_class(ins.space), LatencyClass::Memory};
    case Opcode::Atom: case Opcode::Red:
      return {OpClass::Atomic, LatencyClass::Memory};
    case Opcode::Prefetch: case Opcode::Prefetchu: case Opcode::Discard: case Opcode::Brkpt:
    case Opcode::Nanosleep:
      return {OpClass::Nop, LatencyClass::Nop};
    case Opcode::Bar: case Opcode::BarWarpSync:
      return {OpClass::Barrier, LatencyClass::Barrier};
    case Opcode::Membar: case Opcode::Fence:
      return {OpClass::Membar, LatencyClass::Barrier};
    case Opcode::Bra: return {OpClass::Branch, LatencyClass::Control};
    case Opcode::Call: return {OpClass::Call, LatencyClass::Control};
    case Opcode::Ret: return {OpClass::Ret, LatencyClass::Control};
    case Opcode::Exit: case Opcode::Trap: return {OpClass::Exit, LatencyClass::Control};
    case Opcode::Count_: break;
  }
  return {OpClass::Nop, LatencyClass::Nop};
}

uint32_t destination_operands(const Instruction& ins) {
  switch (ins.op) {
    case Opcode::St: case Opcode::Red: case Opcode::Prefetch: case Opcode::Prefetchu:
    case Opcode::Discard: case Opcode::Bra: case Opcode::Call: case Opcode::Ret: case Opcode::Exit:
    case Opcode::Trap: case Opcode::Brkpt: case Opcode::Nanosleep: case Opcode::Membar:
    case Opcode::Fence: case Opcode::BarWarpSync:
      return 0;
    case Opcode::Bar:
      return ins.bar == BarKind::Red ? 1 : 0;
    default:
      return 1;
  }
}

template <size_t N>
void add_unique(std::array<uint32_t, N>& list, uint8_t& n, uint32_t v) {
  for (uint8_t i = 0; i < n; ++i)
    if (list[i] == v) return;
  if (n < N) list[n++] = v;
}

}  // namespace

void classify_instruction(const Function& f, Instruction& ins) {
  ClassInfo c = classify_op(ins);
  ins.cls = c.cls;
  ins.lat = c.lat;
  bool mem = ins.op == Opcode::Ld || ins.op == Opcode::Ldu || ins.op == Opcode::St ||
             ins.op == Opcode::Atom || ins.op == Opcode::Red;
  ins.is_load = ins.op == Opcode::Ld || ins.op == Opcode::Ldu || ins.op == Opcode::Atom;
  ins.is_store = ins.op == Opcode::St || ins.op == Opcode::Atom || ins.op == Opcode::Red;
  if (mem) {
    ins.access_bytes = static_cast<uint8_t>(type_bytes(ins.type));
    ins.access_count = ins.vec;
  }
  ins.n_src_regs = ins.n_dst_regs = ins.n_src_preds = ins.n_dst_preds = 0;
  if (ins.guard != kNone) add_unique(ins.src_preds, ins.n_src_preds, ins.guard);
  uint32_t ndst = destination_operands(ins);
  auto visit = [&](const Operand& o, bool is_dst) {
    switch (o.kind) {
      case OperandKind::Reg:
        if (is_dst) add_unique(ins.dst_regs, ins.n_dst_regs, o.index);
        else add_unique(ins.src_regs, ins.n_src_regs, o.index);
        break;
      case OperandKind::Pred:
        if (is_dst) add_unique(ins.dst_preds, ins.n_dst_preds, o.index);
        else add_unique(ins.src_preds, ins.n_src_preds, o.index);
        break;
      case OperandKind::Mem:
        if (o.index != kNone) add_unique(ins.src_regs, ins.n_src_regs, o.index);
        break;
      default:
        break;
    }
  };
  for (uint32_t i = 0; i < ins.nops; ++i) {
    const Operand& o = ins.ops[i];
    bool is_dst = i < ndst;
    if (o.kind == OperandKind::Vector) {
      for (uint32_t k = 0; k < o.count; ++k) visit(f.operand_pool[o.first + k], is_dst);
    } else {
      visit(o, is_dst);
    }
  }
  visit(ins.dst2, true);
}

}  // namespace gputlm::isa::frontend
