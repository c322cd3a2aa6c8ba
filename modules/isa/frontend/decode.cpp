// Instruction decoder: opcode dispatch, modifier consumption and operand resolution.
// Every modifier must be consumed by the opcode's decoder; anything left over is an
// "unsupported modifier" error at its own position.
#include <cstring>

#include "isa/frontend/decoder.h"
#include "isa/ptx_parser.h"

namespace gputlm::isa::frontend {

void DecodeContext::fail(const Token* at, const std::string& message) const {
  throw PtxError(file_name(), at->line, at->column, token_display(*at), message);
}

void decode_instruction(const RawInstruction& raw, uint32_t instr_index, DecodeContext& ctx,
                        Instruction& out) {
  Decoder d(raw, instr_index, ctx, out);
  d.run();
}

Decoder::Decoder(const RawInstruction& raw, uint32_t index, DecodeContext& ctx, Instruction& out)
    : raw_(raw), index_(index), ctx_(ctx), ins_(out), fn_(ctx.function()),
      name_(raw.op_tok->text), used_(raw.mods.size(), false) {}

namespace {
struct OpName {
  const char* name;
  Opcode op;
};
const OpName kOpNames[] = {
    {"add", Opcode::Add},       {"sub", Opcode::Sub},         {"mul", Opcode::Mul},
    {"mad", Opcode::Mad},       {"mul24", Opcode::Mul24},     {"mad24", Opcode::Mad24},
    {"sad", Opcode::Sad},       {"div", Opcode::Div},         {"rem", Opcode::Rem},
    {"abs", Opcode::Abs},       {"neg", Opcode::Neg},         {"min", Opcode::Min},
    {"max", Opcode::Max},       {"fma", Opcode::Fma},         {"addc", Opcode::Addc},
    {"subc", Opcode::Subc},     {"madc", Opcode::Madc},       {"and", Opcode::And},
    {"or", Opcode::Or},         {"xor", Opcode::Xor},         {"not", Opcode::Not},
    {"cnot", Opcode::Cnot},     {"shl", Opcode::Shl},         {"shr", Opcode::Shr},
    {"shf", Opcode::Shf},       {"popc", Opcode::Popc},       {"clz", Opcode::Clz},
    {"brev", Opcode::Brev},     {"bfe", Opcode::Bfe},         {"bfi", Opcode::Bfi},
    {"bfind", Opcode::Bfind},   {"prmt", Opcode::Prmt},       {"lop3", Opcode::Lop3},
    {"dp4a", Opcode::Dp4a},     {"dp2a", Opcode::Dp2a},       {"copysign", Opcode::Copysign},
    {"sqrt", Opcode::Sqrt},     {"rsqrt", Opcode::Rsqrt},     {"rcp", Opcode::Rcp},
    {"sin", Opcode::Sin},       {"cos", Opcode::Cos},         {"lg2", Opcode::Lg2},
    {"ex2", Opcode::Ex2},       {"tanh", Opcode::Tanh},       {"testp", Opcode::Testp},
    {"setp", Opcode::Setp},     {"set", Opcode::Set},         {"selp", Opcode::Selp},
    {"slct", Opcode::Slct},     {"mov", Opcode::Mov},         {"cvt", Opcode::Cvt},
    {"cvta", Opcode::Cvta},     {"isspacep", Opcode::Isspacep}, {"ld", Opcode::Ld},
    {"ldu", Opcode::Ldu},       {"st", Opcode::St},           {"prefetch", Opcode::Prefetch},
    {"prefetchu", Opcode::Prefetchu}, {"discard", Opcode::Discard}, {"atom", Opcode::Atom},
    {"red", Opcode::Red},       {"bar", Opcode::Bar},         {"barrier", Opcode::Bar},
    {"membar", Opcode::Membar}, {"fence", Opcode::Fence},     {"bra", Opcode::Bra},
    {"call", Opcode::Call},     {"ret", Opcode::Ret},         {"exit", Opcode::Exit},
    {"trap", Opcode::Trap},     {"brkpt", Opcode::Brkpt},     {"nanosleep", Opcode::Nanosleep},
    {"shfl", Opcode::Shfl},     {"vote", Opcode::Vote},       {"activemask", Opcode::Activemask},
    {"match", Opcode::Match},
};

struct SregName {
  const char* name;
  SpecialReg reg;
  bool has_component;
};
const SregName kSregs[] = {
    {"%tid", SpecialReg::Tid, true},           {"%ntid", SpecialReg::Ntid, true},
    {"%ctaid", SpecialReg::Ctaid, true},       {"%nctaid", SpecialReg::Nctaid, true},
    {"%laneid", SpecialReg::Laneid, false},    {"%warpid", SpecialReg::Warpid, false},
    {"%nwarpid", SpecialReg::Nwarpid, false},  {"%smid", SpecialReg::Smid, false},
    {"%nsmid", SpecialReg::Nsmid, false},      {"%gridid", SpecialReg::Gridid, false},
    {"%clock", SpecialReg::Clock, false},      {"%clock64", SpecialReg::Clock64, false},
    {"%globaltimer", SpecialReg::Globaltimer, false},
    {"%globaltimer_lo", SpecialReg::GlobaltimerLo, false},
    {"%globaltimer_hi", SpecialReg::GlobaltimerHi, false},
    {"%lanemask_eq", SpecialReg::LanemaskEq, false}, {"%lanemask_le", SpecialReg::LanemaskLe, false},
    {"%lanemask_lt", SpecialReg::LanemaskLt, false}, {"%lanemask_ge", SpecialReg::LanemaskGe, false},
    {"%lanemask_gt", SpecialReg::LanemaskGt, false},
    {"%dynamic_smem_size", SpecialReg::DynamicSmemSize, false},
    {"%total_smem_size", SpecialReg::TotalSmemSize, false},
};
}  // namespace

bool is_known_opcode(std::string_view name) {
  for (const OpName& n : kOpNames)
    if (name == n.name) return true;
  return false;
}

void Decoder::run() {
  Opcode op = Opcode::Count_;
  for (const OpName& n : kOpNames)
    if (name_ == n.name) op = n.op;
  if (op == Opcode::Count_) ctx_.fail(raw_.op_tok, "unknown or unsupported instruction '" + name_ + "'");
  ins_.op = op;
  if (raw_.guard_tok) {
    NameRef g = ctx_.lookup(raw_.guard);
    if (g.kind != NameRef::Kind::Pred)
      ctx_.fail(raw_.guard_tok, g.kind == NameRef::Kind::None
                                    ? "undefined guard predicate '" + std::string(raw_.guard) + "'"
                                    : "guard '" + std::string(raw_.guard) + "' is not a predicate");
    ins_.guard = g.index;
    ins_.guard_neg = raw_.guard_neg;
  }
  switch (op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad: case Opcode::Mul24:
    case Opcode::Mad24: case Opcode::Sad: case Opcode::Div: case Opcode::Rem: case Opcode::Abs:
    case Opcode::Neg: case Opcode::Min: case Opcode::Max: case Opcode::Fma: case Opcode::Addc:
    case Opcode::Subc: case Opcode::Madc:
      decode_arith();
      break;
    case Opcode::And: case Opcode::Or: case Opcode::Xor: case Opcode::Not: case Opcode::Cnot:
    case Opcode::Shl: case Opcode::Shr: case Opcode::Shf: case Opcode::Popc: case Opcode::Clz:
    case Opcode::Brev: case Opcode::Bfe: case Opcode::Bfi: case Opcode::Bfind: case Opcode::Prmt:
    case Opcode::Lop3: case Opcode::Dp4a: case Opcode::Dp2a:
      decode_bits();
      break;
    case Opcode::Copysign: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Rcp:
    case Opcode::Sin: case Opcode::Cos: case Opcode::Lg2: case Opcode::Ex2: case Opcode::Tanh:
    case Opcode::Testp:
      decode_fpspecial();
      break;
    case Opcode::Setp: case Opcode::Set: case Opcode::Selp: case Opcode::Slct:
      decode_compare();
      break;
    case Opcode::Mov: case Opcode::Cvt: case Opcode::Cvta: case Opcode::Isspacep:
      decode_move();
      break;
    case Opcode::Ld: case Opcode::Ldu: case Opcode::St: case Opcode::Prefetch:
    case Opcode::Prefetchu: case Opcode::Discard:
      decode_memory();
      break;
    case Opcode::Atom: case Opcode::Red:
      decode_atomic();
      break;
    case Opcode::Bar: case Opcode::BarWarpSync: case Opcode::Membar: case Opcode::Fence:
      decode_sync();
      break;
    case Opcode::Bra: case Opcode::Call: case Opcode::Ret: case Opcode::Exit: case Opcode::Trap:
    case Opcode::Brkpt: case Opcode::Nanosleep:
      decode_control();
      break;
    case Opcode::Shfl: case Opcode::Vote: case Opcode::Activemask: case Opcode::Match:
      decode_warp();
      break;
    case Opcode::Count_:
      break;
  }
  finish_mods();
}

// ----------------------------------------------------------------------------------------
// modifiers
// ----------------------------------------------------------------------------------------
bool Decoder::take(std::string_view m) {
  for (size_t i = 0; i < raw_.mods.size(); ++i)
    if (!used_[i] && raw_.mods[i]->text == m) {
      used_[i] = true;
      return true;
    }
  return false;
}

int Decoder::take_one(std::initializer_list<std::string_view> names) {
  for (size_t i = 0; i < raw_.mods.size(); ++i) {
    if (used_[i]) continue;
    int k = 0;
    for (std::string_view n : names) {
      if (raw_.mods[i]->text == n) {
        used_[i] = true;
        return k;
      }
      ++k;
    }
  }
  return -1;
}

ScalarType Decoder::take_type(bool required) {
  for (size_t i = 0; i < raw_.mods.size(); ++i) {
    if (used_[i]) continue;
    ScalarType t = type_from_dot(raw_.mods[i]->text);
    if (t != ScalarType::None) {
      used_[i] = true;
      return t;
    }
  }
  if (required) ctx_.fail(raw_.op_tok, "instruction '" + name_ + "' needs a type modifier");
  return ScalarType::None;
}

void Decoder::take_vec() {
  int v = take_one({".v2", ".v4"});
  ins_.vec = v < 0 ? 1 : static_cast<uint8_t>(v == 0 ? 2 : 4);
}

StateSpace Decoder::take_space() {
  int s = take_one({".global", ".shared", ".shared::cta", ".local", ".const", ".param", ".generic"});
  switch (s) {
    case 0: return StateSpace::Global;
    case 1: case 2: return StateSpace::Shared;
    case 3: return StateSpace::Local;
    case 4: return StateSpace::Const;
    case 5: return StateSpace::Param;
    default: return StateSpace::None;
  }
}

void Decoder::take_rounding(bool int_rounding_allowed) {
  static const Rounding fr[] = {Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp,
                                Rounding::Rna};
  int r = take_one({".rn", ".rz", ".rm", ".rp", ".rna"});
  if (r >= 0) {
    ins_.rnd = fr[r];
    return;
  }
  if (int_rounding_allowed) {
    static const Rounding ir[] = {Rounding::Rni, Rounding::Rzi, Rounding::Rmi, Rounding::Rpi};
    r = take_one({".rni", ".rzi", ".rmi", ".rpi"});
    if (r >= 0) ins_.rnd = ir[r];
  }
}

CmpOp Decoder::take_cmp(bool required) {
  static const CmpOp ops[] = {CmpOp::Eq,  CmpOp::Ne,  CmpOp::Lt,  CmpOp::Le,  CmpOp::Gt,
                              CmpOp::Ge,  CmpOp::Lo,  CmpOp::Ls,  CmpOp::Hi,  CmpOp::Hs,
                              CmpOp::Equ, CmpOp::Neu, CmpOp::Ltu, CmpOp::Leu, CmpOp::Gtu,
                              CmpOp::Geu, CmpOp::Num, CmpOp::Nan};
  int c = take_one({".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ",
                    ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan"});
  if (c < 0) {
    if (required) ctx_.fail(raw_.op_tok, "'" + name_ + "' needs a comparison operator");
    return CmpOp::None;
  }
  return ops[c];
}

void Decoder::take_sem_scope() {
  static const MemSem sems[] = {MemSem::Weak, MemSem::Volatile, MemSem::Relaxed, MemSem::Acquire,
                                MemSem::Release, MemSem::AcqRel, MemSem::Sc};
  int s = take_one({".weak", ".volatile", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc"});
  if (s >= 0) ins_.sem = sems[s];
  static const Scope scopes[] = {Scope::Cta, Scope::Gpu, Scope::Sys, Scope::Cluster};
  int c = take_one({".cta", ".gpu", ".sys", ".cluster"});
  if (c >= 0) ins_.scope = scopes[c];
}

void Decoder::finish_mods() {
  for (size_t i = 0; i < raw_.mods.size(); ++i)
    if (!used_[i])
      ctx_.fail(raw_.mods[i], "unsupported or misplaced modifier '" +
                                  std::string(raw_.mods[i]->text) + "' for '" + name_ + "'");
}

// ----------------------------------------------------------------------------------------
// operands
// ----------------------------------------------------------------------------------------
void Decoder::fail(const RawOperand& r, const std::string& msg) const { ctx_.fail(r.tok, msg); }

void Decoder::fail_op(const std::string& msg) const { ctx_.fail(raw_.op_tok, msg); }

void Decoder::expect_ops(size_t lo, size_t hi) {
  size_t n = raw_.ops.size();
  if (n < lo || n > hi) {
    std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
    const Token* at = n > hi ? raw_.ops[hi].tok : raw_.op_tok;
    ctx_.fail(at, "'" + name_ + "' takes " + want + " operands, got " + std::to_string(n));
  }
}

void Decoder::no_pipe(const RawOperand& r) const {
  if (!r.pipe_name.empty()) ctx_.fail(r.pipe_tok, "'|' second destination not allowed here");
}

void Decoder::set(uint32_t i, Operand op) {
  ins_.ops[i] = op;
  if (i + 1 > ins_.nops) ins_.nops = static_cast<uint8_t>(i + 1);
}

Operand Decoder::value(const RawOperand& r, ScalarType t) {
  no_pipe(r);
  Operand o;
  switch (r.kind) {
    case RawOperand::Kind::Imm: {
      if (t == ScalarType::None) fail(r, "immediate not allowed here");
      ImmLiteral lit{r.lit, r.bits, r.fvalue, r.neg};
      std::string err;
      if (!encode_immediate(lit, t, o.bits, err)) fail(r, err);
      o.kind = OperandKind::Imm;
      o.type = t;
      return o;
    }
    case RawOperand::Kind::Vector:
      return vector(r, t, false);
    case RawOperand::Kind::Sink:
      fail(r, "'_' is only allowed as a destination");
    case RawOperand::Kind::Mem:
      fail(r, "address operand '[...]' not allowed here");
    case RawOperand::Kind::List:
      fail(r, "parenthesised operand list not allowed here");
    case RawOperand::Kind::Name:
      break;
  }
  NameRef ref = ctx_.lookup(r.name);
  if (r.neg && ref.kind != NameRef::Kind::Pred) fail(r, "'!' applies only to predicates");
  if (r.component >= 0 && ref.kind != NameRef::Kind::None)
    fail(r, "component selector not allowed on '" + std::string(r.name) + "'");
  if (r.offset != 0 && ref.kind != NameRef::Kind::Symbol)
    fail(r, "'+offset' is only allowed after a symbol name");
  switch (ref.kind) {
    case NameRef::Kind::Reg:
      if (t == ScalarType::Pred) fail(r, "expected a predicate, got register '" + std::string(r.name) + "'");
      o.kind = OperandKind::Reg;
      o.index = ref.index;
      o.type = fn_.regs[ref.index].type;
      return o;
    case NameRef::Kind::Pred:
      if (t != ScalarType::Pred)
        fail(r, "predicate '" + std::string(r.name) + "' used where a ." + type_name(t) +
                    " value is expected");
      o.kind = OperandKind::Pred;
      o.index = ref.index;
      o.type = ScalarType::Pred;
      o.neg = r.neg;
      return o;
    case NameRef::Kind::Symbol: {
      if (t == ScalarType::Pred) fail(r, "expected a predicate, got symbol '" + std::string(r.name) + "'");
      o.kind = OperandKind::SymAddr;
      o.symbol = ref.index;
      o.offset = r.offset;
      o.type = t;
      return o;
    }
    case NameRef::Kind::Function:
      o.kind = OperandKind::Func;
      o.index = ref.index;
      o.type = t;
      return o;
    case NameRef::Kind::None:
      break;
  }
  if (!r.name.empty() && r.name[0] == '%') {
    std::string_view n = r.name;
    if (n.substr(0, 7) == "%envreg" && n.size() > 7) {
      int k = 0;
      for (char c : n.substr(7)) k = (c >= '0' && c <= '9' && k < 100) ? k * 10 + (c - '0') : 1000;
      if (k > 31) fail(r, "unknown special register '" + std::string(n) + "'");
      o.kind = OperandKind::Special;
      o.sreg = SpecialReg::Envreg;
      o.component = static_cast<uint8_t>(k);
      o.type = ScalarType::U32;
      if (r.component >= 0) fail(r, "component selector not allowed on %envreg");
      return o;
    }
    for (const SregName& s : kSregs) {
      if (n != s.name) continue;
      if (s.has_component && (r.component < 0 || r.component > 2))
        fail(r, "special register '" + std::string(n) + "' needs .x, .y or .z");
      if (!s.has_component && r.component >= 0)
        fail(r, "special register '" + std::string(n) + "' has no components");
      if (t == ScalarType::Pred) fail(r, "special register used where a predicate is expected");
      o.kind = OperandKind::Special;
      o.sreg = s.reg;
      o.component = static_cast<uint8_t>(s.has_component ? r.component : 0);
      o.type = (s.reg == SpecialReg::Clock64 || s.reg == SpecialReg::Globaltimer ||
                s.reg == SpecialReg::Gridid)
                   ? ScalarType::U64
                   : ScalarType::U32;
      return o;
    }
  }
  fail(r, "undefined register or symbol '" + std::string(r.name) + "'");
}

Operand Decoder::reg(const RawOperand& r, ScalarType t) {
  Operand o = value(r, t);
  if (o.kind != OperandKind::Reg && o.kind != OperandKind::Pred)
    fail(r, "expected a register");
  return o;
}

Operand Decoder::dst(const RawOperand& r, ScalarType t) {
  if (r.kind == RawOperand::Kind::Sink) {
    Operand o;
    o.kind = OperandKind::Sink;
    o.type = t;
    return o;
  }
  if (r.kind == RawOperand::Kind::Vector) return vector(r, t, true);
  if (r.kind != RawOperand::Kind::Name) fail(r, "destination must be a register");
  if (r.neg) fail(r, "'!' not allowed on a destination");
  Operand o = reg(r, t);
  return o;
}

Operand Decoder::pred(const RawOperand& r, bool allow_neg, bool allow_imm) {
  if (r.kind == RawOperand::Kind::Imm && allow_imm) return value(r, ScalarType::Pred);
  if (r.kind != RawOperand::Kind::Name) fail(r, "expected a predicate");
  if (r.neg && !allow_neg) fail(r, "'!' not allowed here");
  Operand o = value(r, ScalarType::Pred);
  if (o.kind != OperandKind::Pred) fail(r, "expected a predicate");
  return o;
}

Operand Decoder::pred_dst(const RawOperand& r) {
  if (r.kind == RawOperand::Kind::Sink) {
    Operand o;
    o.kind = OperandKind::Sink;
    o.type = ScalarType::Pred;
    return o;
  }
  RawOperand copy = r;
  copy.pipe_name = {};
  return pred(copy, false, false);
}

Operand Decoder::mem(const RawOperand& r) {
  if (r.kind != RawOperand::Kind::Mem) fail(r, "expected an address operand '[...]'");
  Operand o;
  o.kind = OperandKind::Mem;
  o.offset = r.offset;
  if (!r.name.empty()) {
    NameRef ref = ctx_.lookup(r.name);
    if (ref.kind == NameRef::Kind::Reg) {
      o.index = ref.index;
      o.type = fn_.regs[ref.index].type;
      if (type_bytes(o.type) < 4)
        fail(r, "address register '" + std::string(r.name) + "' must be 32 or 64 bits wide");
      // A 32-bit register addresses the 32-bit spaces (.shared .local .const .param); a
      // generic or .global address through one is 32-bit addressing, which ptxas refuses
      // in a 64-bit module ("32-bit address ... conflicting with .address_size 64").
      bool wide_space = ins_.space == StateSpace::None || ins_.space == StateSpace::Global;
      if (type_bytes(o.type) == 4 && wide_space && ctx_.module().address_size == 64)
        fail(r, "32-bit address register '" + std::string(r.name) + "' for a " +
                    (ins_.space == StateSpace::Global ? ".global" : "generic") +
                    " address in a .address_size 64 module (use a 64-bit register)");
    } else if (ref.kind == NameRef::Kind::Symbol) {
      o.symbol = ref.index;
    } else if (ref.kind == NameRef::Kind::Pred) {
      fail(r, "predicate '" + std::string(r.name) + "' cannot be an address");
    } else {
      fail(r, "undefined register or symbol '" + std::string(r.name) + "' in address");
    }
  }
  return o;
}

Operand Decoder::vector(const RawOperand& r, ScalarType t, bool is_dst) {
  if (r.elems.empty()) fail(r, "empty vector operand");
  if (r.elems.size() != 2 && r.elems.size() != 4)
    fail(r, "vector operand must have 2 or 4 elements");
  Operand o;
  o.kind = OperandKind::Vector;
  o.type = t;
  o.first = static_cast<uint32_t>(fn_.operand_pool.size());
  o.count = static_cast<uint32_t>(r.elems.size());
  std::vector<Operand> elems;
  for (const RawOperand& e : r.elems) {
    if (e.kind == RawOperand::Kind::Vector || e.kind == RawOperand::Kind::Mem ||
        e.kind == RawOperand::Kind::List)
      fail(e, "vector elements must be registers" + std::string(is_dst ? "" : " or immediates"));
    if (is_dst) {
      elems.push_back(dst(e, t));
    } else {
      Operand v = value(e, t);
      if (v.kind != OperandKind::Reg && v.kind != OperandKind::Imm)
        fail(e, "vector elements must be registers or immediates");
      elems.push_back(v);
    }
  }
  fn_.operand_pool.insert(fn_.operand_pool.end(), elems.begin(), elems.end());
  return o;
}

}  // namespace gputlm::isa::frontend
