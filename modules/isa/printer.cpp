// Decoded instruction -> PTX text (printer.h). Modifiers are printed in PTX's usual order;
// the parser accepts any order, so what matters is that every decoded field is printed.
#include "isa/printer.h"

#include <cinttypes>
#include <cstdio>

namespace gputlm::isa {
namespace {

const char* rounding_name(Rounding r) {
  static const char* const n[] = {"", ".rn", ".rz", ".rm", ".rp", ".rna", ".rni", ".rzi", ".rmi", ".rpi"};
  return n[static_cast<int>(r)];
}
const char* cmp_name(CmpOp c) {
  static const char* const n[] = {"", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi",
                                  ".hs", ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan"};
  return n[static_cast<int>(c)];
}
const char* bool_name(BoolOp b) {
  static const char* const n[] = {"", ".and", ".or", ".xor", ".popc"};
  return n[static_cast<int>(b)];
}
const char* atom_name(AtomOp a) {
  static const char* const n[] = {"", ".add", ".min", ".max", ".inc", ".dec", ".cas", ".exch", ".and", ".or", ".xor"};
  return n[static_cast<int>(a)];
}
const char* cache_name(CacheOp c) {
  static const char* const n[] = {"", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"};
  return n[static_cast<int>(c)];
}
const char* sem_name(MemSem s) {
  static const char* const n[] = {"", ".weak", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc", ".volatile"};
  return n[static_cast<int>(s)];
}
const char* scope_name(Scope s) {
  static const char* const n[] = {"", ".cta", ".gpu", ".sys", ".cluster"};
  return n[static_cast<int>(s)];
}
const char* space_mod(StateSpace s) {
  switch (s) {
    case StateSpace::Global: return ".global";
    case StateSpace::Shared: return ".shared";
    case StateSpace::Local: return ".local";
    case StateSpace::Const: return ".const";
    case StateSpace::Param: return ".param";
    default: return "";
  }
}

std::string imm_text(const Operand& o) {
  char buf[40];
  if (o.type == ScalarType::F32) {
    std::snprintf(buf, sizeof buf, "0f%08" PRIX32, static_cast<uint32_t>(o.bits));
  } else if (o.type == ScalarType::F64) {
    std::snprintf(buf, sizeof buf, "0d%016" PRIX64, o.bits);
  } else if (o.type == ScalarType::F16) {
    // Exact: every half value is a float; the parser rounds it back to the same half.
    uint32_t h = static_cast<uint32_t>(o.bits), sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f,
             man = h & 0x3ff, f;
    if (e == 0x1f) {
      f = sign | 0x7f800000u | (man << 13);
    } else if (e != 0) {
      f = sign | ((e + 112) << 23) | (man << 13);
    } else if (man == 0) {
      f = sign;
    } else {  // subnormal half: normalise
      int shift = 0;
      while (!(man & 0x400)) {
        man <<= 1;
        ++shift;
      }
      f = sign | ((113 - static_cast<uint32_t>(shift)) << 23) | ((man & 0x3ff) << 13);
    }
    std::snprintf(buf, sizeof buf, "0f%08" PRIX32, f);
  } else {
    std::snprintf(buf, sizeof buf, "%" PRIu64, o.bits);
  }
  return buf;
}

}  // namespace

std::string format_instruction(const Module& m, const Function& f, const Instruction& ins,
                               const PrintNames& names) {
  auto sym = [&](uint32_t s) { return names.symbol ? names.symbol(s) : m.symbols[s].name; };
  auto label = [&](uint32_t t) { return names.label ? names.label(t) : "$I" + std::to_string(t); };
  auto func = [&](uint32_t fn) { return names.function ? names.function(fn) : m.functions[fn].name; };
  auto reg = [&](uint32_t r) { return names.reg ? names.reg(r) : f.regs[r].name; };
  auto pred = [&](uint32_t p) { return names.pred ? names.pred(p) : f.preds[p].name; };
  auto offset = [](int64_t off) {  // "+8", "+-8" (both are PTX)
    return off == 0 ? std::string() : "+" + std::to_string(off);
  };
  std::string s;
  if (ins.guard != kNone) s += std::string("@") + (ins.guard_neg ? "!" : "") + pred(ins.guard) + " ";

  // Opcode and modifiers.
  if (ins.op == Opcode::BarWarpSync) {
    s += "bar.warp.sync";
  } else {
    s += (ins.op == Opcode::Bar && (ins.flags & kSync)) ? "barrier" : opcode_name(ins.op);
    if (ins.op == Opcode::Bar) {
      s += ins.bar == BarKind::Sync ? ".sync" : ins.bar == BarKind::Arrive ? ".arrive" : ".red";
      if (ins.flags & kAligned) s += ".aligned";
      s += bool_name(ins.boolop);
    } else if (ins.op == Opcode::Fence) {
      s += sem_name(ins.sem);
      s += scope_name(ins.scope);
    } else if (ins.op == Opcode::Membar) {
      s += ins.membar == MembarLevel::Cta ? ".cta" : ins.membar == MembarLevel::Gl ? ".gl" : ".sys";
    } else {
      if ((ins.flags & kSync) && (ins.op == Opcode::Shfl || ins.op == Opcode::Vote || ins.op == Opcode::Match))
        s += ".sync";
      static const char* const shfl[] = {"", ".up", ".down", ".bfly", ".idx"};
      static const char* const vote[] = {"", ".all", ".any", ".uni", ".ballot"};
      static const char* const match[] = {"", ".any", ".all"};
      static const char* const prmt[] = {"", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"};
      static const char* const shf[] = {"", ".l.wrap", ".l.clamp", ".r.wrap", ".r.clamp"};
      static const char* const testp[] = {"", ".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal"};
      s += shfl[static_cast<int>(ins.shfl)];
      s += vote[static_cast<int>(ins.vote)];
      s += match[static_cast<int>(ins.match)];
      s += shf[static_cast<int>(ins.shf)];
      s += testp[static_cast<int>(ins.testp)];
      if (ins.op == Opcode::Cvta && (ins.flags & kCvtaTo)) s += ".to";
      s += sem_name(ins.sem);
      s += scope_name(ins.scope);
      s += space_mod(ins.space);
      if (ins.op == Opcode::Prefetch || ins.op == Opcode::Discard) s += ".L2";
      if (ins.op == Opcode::Prefetchu) s += ".L1";
      s += cache_name(ins.cache);
      if (ins.flags & kNc) s += ".nc";
      if (ins.flags & kCacheHint) s += ".L1::evict_last";
      s += atom_name(ins.atom);
      if (ins.flags & kNoFtz) s += ".noftz";
      s += cmp_name(ins.cmp);
      s += bool_name(ins.boolop);
      static const char* const mul[] = {"", ".lo", ".hi", ".wide"};
      s += mul[static_cast<int>(ins.mul)];
      s += rounding_name(ins.rnd);
      if (ins.flags & kApprox) s += ".approx";
      if (ins.flags & kFull) s += ".full";
      if (ins.flags & kShiftAmt) s += ".shiftamt";
      if (ins.flags & kFtz) s += ".ftz";
      if (ins.flags & kSat) s += ".sat";
      if (ins.flags & kRelu) s += ".relu";
      if (ins.flags & kNaN) s += ".NaN";
      if (ins.flags & kCarryOut) s += ".cc";
      if (ins.flags & kUni) s += ".uni";
      if (ins.vec > 1) s += ins.vec == 2 ? ".v2" : ".v4";
      s += prmt[static_cast<int>(ins.prmt)];
    }
    if (ins.type != ScalarType::None && ins.op != Opcode::Isspacep)
      s += std::string(".") + type_name(ins.type);
    bool two_types = ins.op == Opcode::Cvt || ins.op == Opcode::Set || ins.op == Opcode::Slct ||
                     ins.op == Opcode::Dp4a || ins.op == Opcode::Dp2a;
    if (two_types && ins.type2 != ScalarType::None) s += std::string(".") + type_name(ins.type2);
  }

  // Operands.
  std::function<std::string(const Operand&)> operand = [&](const Operand& o) -> std::string {
    switch (o.kind) {
      case OperandKind::None: return "";
      case OperandKind::Reg: return reg(o.index);
      case OperandKind::Pred: return (o.neg ? "!" : "") + pred(o.index);
      case OperandKind::Imm: return imm_text(o);
      case OperandKind::Special: {
        std::string n = special_reg_name(o.sreg);
        if (o.sreg == SpecialReg::Envreg) return n + std::to_string(o.component);
        if (o.sreg == SpecialReg::Tid || o.sreg == SpecialReg::Ntid || o.sreg == SpecialReg::Ctaid ||
            o.sreg == SpecialReg::Nctaid)
          return n + (o.component == 0 ? ".x" : o.component == 1 ? ".y" : ".z");
        return n;
      }
      case OperandKind::SymAddr: return sym(o.symbol) + offset(o.offset);
      case OperandKind::Mem: {
        std::string base = o.index != kNone ? reg(o.index) : o.symbol != kNone ? sym(o.symbol) : "";
        if (base.empty()) return "[" + std::to_string(o.offset) + "]";
        return "[" + base + offset(o.offset) + "]";
      }
      case OperandKind::Vector: {
        std::string v = "{";
        for (uint32_t k = 0; k < o.count; ++k) v += (k ? ", " : "") + operand(f.operand_pool[o.first + k]);
        return v + "}";
      }
      case OperandKind::Label: return label(o.index);
      case OperandKind::Func: return func(o.index);
      case OperandKind::Sink: return "_";
    }
    return "";
  };
  auto list = [&](uint32_t first, uint32_t count) {
    std::string v = "(";
    for (uint32_t k = 0; k < count; ++k) v += (k ? ", " : "") + operand(f.operand_pool[first + k]);
    return v + ")";
  };
  if (ins.op == Opcode::Call) {
    s += " ";
    if (ins.call_ret_count) s += list(ins.call_ret_first, ins.call_ret_count) + ", ";
    s += func(ins.callee);
    s += ", " + list(ins.call_arg_first, ins.call_arg_count);
    return s + ";";
  }
  for (uint32_t i = 0; i < ins.nops; ++i) {
    s += i == 0 ? " " : ", ";
    s += operand(ins.ops[i]);
    if (i == 0 && ins.dst2.kind != OperandKind::None) s += "|" + operand(ins.dst2);
  }
  return s + ";";
}

}  // namespace gputlm::isa
